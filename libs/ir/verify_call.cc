// Calls: the callee's parameters are bound to the arguments, and its
// parameter types and assertions, translated into the caller's terms, must
// hold everywhere in the caller's domain.
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/ir/verify_common.h"
#include "libs/ir/verify_proc.h"
#include "libs/sexpr/printer.h"
#include "libs/support/source.h"

namespace tessel {
namespace {

std::string Argument(const Procedure& callee, const Param& param) {
  return absl::StrCat("argument '", param.name, "' of '", callee.name, "'");
}

std::string DescribeType(const DataType& type) {
  return PrintFlat(DataTypeToSexpr(type));
}

// "16", or "(- hi lo) = 16" for a dimension that is not a literal.
std::string DescribeExtent(const Sexpr& dim, const std::string& value) {
  if (dim.is_int()) return value;
  return absl::StrCat(PrintFlat(dim), " = ", value);
}

}  // namespace

absl::Status ProcVerifier::CheckCall(const Sexpr& call) {
  if (call.size() < 2 || !call[1].is_symbol()) {
    return ErrorAt(call.loc(), "expected (call @PROC ARG...)");
  }
  const std::string& name = call[1].text();
  const Procedure* callee = module_.FindProcedure(name);
  if (callee == nullptr) {
    return ErrorAt(call[1].loc(),
                   module_.FindFunction(name) != nullptr
                       ? absl::StrCat("'", name,
                                      "' is a func; only procs and instrs "
                                      "can be called")
                       : absl::StrCat("unknown procedure '", name, "'"));
  }
  if (auto cycle = calls_.FindPath(name, proc_.name)) {
    cycle->insert(cycle->begin(), proc_.name);
    return ErrorAt(call[1].loc(), absl::StrCat("recursive call: ",
                                               absl::StrJoin(*cycle, " -> ")));
  }
  size_t count = call.size() - 2;
  if (count != callee->params.size()) {
    return ErrorAt(call.loc(),
                   absl::StrCat("'", name, "' takes ", callee->params.size(),
                                " arguments, found ", count));
  }

  // Bind every parameter first: a dimension may use any size parameter.
  std::vector<View> views(count);
  Substitution subst;
  for (size_t i = 0; i < count; ++i) {
    const Param& param = callee->params[i];
    const Sexpr& arg = call[i + 2];
    if (param.is_data()) {
      auto view = CheckDataArgument(arg);
      if (!view.ok()) return view.status();
      views[i] = *std::move(view);
      subst[param.name].data = &views[i];
      continue;
    }
    bool condition = param.control == ControlType::kBool;
    auto value = Control(arg);
    if (!value.ok()) return value.status();
    if (value->is_condition != condition) {
      return ErrorAt(arg.loc(),
                     absl::StrCat(Argument(*callee, param), " is a ",
                                  ControlTypeName(param.control),
                                  condition ? ": expected a condition"
                                            : ": expected an integer "
                                              "expression"));
    }
    if (param.control == ControlType::kSize) {
      auto violation = domain_.FindViolation({value->affine}, "x0 > 0");
      if (!violation.ok()) return violation.status();
      if (violation->has_value()) {
        return ErrorAt(
            arg.loc(),
            absl::StrCat(Argument(*callee, param), " is a size but can be ",
                         (*violation)->values[0], AtPoint((*violation)->at)));
      }
    }
    subst[param.name].control = *std::move(value);
  }
  for (size_t i = 0; i < count; ++i) {
    const Param& param = callee->params[i];
    if (!param.is_data()) continue;
    if (auto status =
            CheckDataBinding(call[i + 2], *callee, param, views[i], subst);
        !status.ok()) {
      return status;
    }
  }
  for (const Sexpr* assertion : callee->asserts) {
    auto condition = ControlCondition((*assertion)[1], &subst);
    if (!condition.ok()) return condition.status();
    auto failure = domain_.FindFailure(*condition);
    if (!failure.ok()) return failure.status();
    if (failure->has_value()) {
      return ErrorAt(call.loc(), absl::StrCat("call to '", name,
                                              "' does not establish its "
                                              "assertion ",
                                              PrintFlat((*assertion)[1]),
                                              AtPoint(**failure)));
    }
  }
  return absl::OkStatus();
}

absl::Status ProcVerifier::CheckDataBinding(const Sexpr& arg,
                                            const Procedure& callee,
                                            const Param& param,
                                            const View& view,
                                            const Substitution& subst) {
  const DataType& expected = param.type;
  bool shape_matches = view.type.rank() == expected.rank() &&
                       (expected.is_window || !view.type.is_window);
  if (!shape_matches || view.type.elem != expected.elem) {
    std::string hint;
    if (view.type.is_window && !expected.is_window &&
        view.type.rank() == expected.rank()) {
      hint = "; a window can only be passed to a window parameter";
    }
    return ErrorAt(
        arg.loc(),
        absl::StrCat(Argument(callee, param), " is ", DescribeType(view.type),
                     ", expected ", DescribeType(expected), hint));
  }
  if (view.memory != param.memory) {
    return ErrorAt(arg.loc(),
                   absl::StrCat(Argument(callee, param), " is in ", view.memory,
                                ", expected ", param.memory));
  }
  if (param.is_written() && !view.writable) {
    return ErrorAt(arg.loc(), absl::StrCat(Argument(callee, param),
                                           " is written by '", callee.name,
                                           "', but it comes from the in "
                                           "parameter '",
                                           view.read_only_source, "'"));
  }
  for (int k = 0; k < expected.rank(); ++k) {
    auto dim = ControlInt(expected.dims[k], &subst);
    if (!dim.ok()) return dim.status();
    auto violation = domain_.FindViolation({view.extents[k], *dim}, "x0 = x1");
    if (!violation.ok()) return violation.status();
    if (violation->has_value()) {
      const PolyDomain::Violation& at = **violation;
      return ErrorAt(
          arg.loc(),
          absl::StrCat("dimension ", k, " of ", Argument(callee, param), " is ",
                       DescribeExtent(view.type.dims[k], at.values[0]),
                       ", but '", callee.name, "' expects ",
                       DescribeExtent(expected.dims[k], at.values[1]),
                       AtPoint(at.at)));
    }
  }
  return absl::OkStatus();
}

}  // namespace tessel
