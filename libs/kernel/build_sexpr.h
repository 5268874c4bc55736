// Shorthands for building TIR with every node located at the kernel source
// construct it comes from, so that diagnostics about lowered code (from the
// IR verifier, say) point into the kernel file.
#ifndef TESSEL_LIBS_KERNEL_BUILD_SEXPR_H_
#define TESSEL_LIBS_KERNEL_BUILD_SEXPR_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "libs/sexpr/sexpr.h"
#include "libs/support/source.h"

namespace tessel::kernel {

inline Sexpr Sym(absl::string_view name, const Location& loc) {
  return Sexpr::Symbol(std::string(name), loc);
}

// (HEAD OPERAND...), the head symbol located with the form.
inline Sexpr Form(absl::string_view head, std::vector<Sexpr> operands,
                  const Location& loc) {
  std::vector<Sexpr> items;
  items.reserve(operands.size() + 1);
  items.push_back(Sym(head, loc));
  for (Sexpr& operand : operands) items.push_back(std::move(operand));
  return Sexpr::List(std::move(items), loc);
}

}  // namespace tessel::kernel

#endif  // TESSEL_LIBS_KERNEL_BUILD_SEXPR_H_
