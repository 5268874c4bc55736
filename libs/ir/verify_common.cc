#include "libs/ir/verify_common.h"

#include <algorithm>
#include <array>

#include "absl/strings/str_cat.h"
#include "libs/sexpr/printer.h"
#include "libs/support/source.h"

namespace tessel {

bool IsReservedName(absl::string_view name) {
  static constexpr auto kReserved = std::to_array<absl::string_view>(
      {// Scalar and control operators.
       "+", "-", "*", "/", "%", "neg", "min", "max", "<", "<=", ">",
       ">=", "==", "!=", "and", "or", "not", "select", "cast", "stride",
       "read-config", "window", ":",
       // Tensor-level terms and access patterns.
       "lam", "app", "build", "ifold", "index", "tuple", "fst", "snd", "access",
       "transpose", "cartProd", "windows", "slice", "squeeze", "flatten",
       "reshape", "pair", "concat", "compute", "list", "shape"});
  return std::find(kReserved.begin(), kReserved.end(), name) != kReserved.end();
}

absl::Status ExpectOperands(const Sexpr& form, size_t operands) {
  if (form.size() == operands + 1) return absl::OkStatus();
  return ErrorAt(form.loc(),
                 absl::StrCat("'", form.head(), "' takes ", operands,
                              operands == 1 ? " operand" : " operands",
                              ", found ", form.size() - 1));
}

absl::Status CheckBindableName(const Sexpr& name, absl::string_view what) {
  if (!name.is_symbol() || name.text().empty() || name.text()[0] == '@' ||
      name.text()[0] == '%' || name.text()[0] == ':') {
    return ErrorAt(name.loc(), absl::StrCat("expected a name for the ", what,
                                            ", found '", PrintFlat(name), "'"));
  }
  if (IsReservedName(name.text())) {
    return ErrorAt(name.loc(), absl::StrCat("'", name.text(),
                                            "' is an operator and cannot "
                                            "name a variable"));
  }
  return absl::OkStatus();
}

}  // namespace tessel
