// Calls: the callee's parameters are bound to the arguments, and its
// parameter types and assertions, translated into the caller's terms, must
// hold everywhere in the caller's domain; and data arguments bound to
// distinct parameters must not overlap where one of the two is written
// (formats/tir/README.md, "Parameters"), which lets emit-c declare its
// pointers `restrict`. The polyhedral model (libs/poly/model.h) evaluates
// the callee's expressions at the call and answers each question.
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/verify/common.h"
#include "libs/verify/proc.h"
#include "libs/support/source.h"

namespace tessel::ir {
namespace {

bool IsData(const Node& param) { return param.param_kind() >= ParamKind::kIn; }

bool IsWritten(const Node& param) {
  return param.param_kind() == ParamKind::kOut ||
         param.param_kind() == ParamKind::kInOut;
}

std::string Argument(const Node& callee, const Node& param) {
  return absl::StrCat("argument '", param.name(), "' of '", callee.name(), "'");
}

// "16", or "(- hi lo) = 16" for a dimension that is not a literal.
std::string DescribeExtent(const Dim& dim, const std::string& value) {
  if (dim.is_constant()) return value;
  return absl::StrCat(Text(*dim.expr), " = ", value);
}

// Data arguments `i` and `j` of `call`, bound to distinct parameters of
// `callee` of which at least one is written, must not share an element of
// their root at any instance of the call (formats/tir/README.md,
// "Parameters"). The check is exact for windows; descriptors must not share
// a row (CS-1 level, "Static checks").
absl::Status CheckNoAliasing(const Node& call, const Node& callee,
                             const std::vector<Node*>& params,
                             const std::vector<View>& views,
                             const poly::ProcModel& model) {
  for (size_t j = 0; j < views.size(); ++j) {
    const Node& second = *params[j];
    for (size_t i = 0; i < j; ++i) {
      const Node& first = *params[i];
      if (!IsData(first) || !IsData(second) || views[i].root != views[j].root ||
          !(IsWritten(first) || IsWritten(second))) {
        continue;
      }
      bool rows = views[i].source->is(Op::kDescriptor) ||
                  views[j].source->is(Op::kDescriptor);
      auto covered = [&](const View& view) {
        return rows ? model.Rows(*view.source, call)
                    : model.Region(*view.source, call);
      };
      auto a = covered(views[i]);
      if (!a.ok()) return a.status();
      auto b = covered(views[j]);
      if (!b.ok()) return b.status();
      auto overlap = model.FindViolation(
          call, {}, [&](const auto&) { return a->intersect(*b).domain(); });
      if (!overlap.ok()) return overlap.status();
      if (!overlap->has_value()) continue;
      const Node& arg = *call.operand(j);
      return ErrorAt(arg.loc(),
                     absl::StrCat("arguments '", first.name(), "' and '",
                                  second.name(), "' of '", callee.name(),
                                  "' overlap: ", Text(*call.operand(i)),
                                  " and ", Text(arg), " share elements, and '",
                                  callee.name(), "' writes '",
                                  (IsWritten(second) ? second : first).name(),
                                  "'; distinct data parameters must not alias",
                                  AtPoint((*overlap)->at)));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status ProcVerifier::CheckCall(Node& call) {
  const Node& callee = *call.def();
  const std::string& name = callee.name();
  if (!callee.is(Op::kProc) && !callee.is(Op::kInstr)) {
    return ErrorAt(call.name_loc(),
                   callee.is(Op::kFunc)
                       ? absl::StrCat("'", name,
                                      "' is a func; only procs and instrs "
                                      "can be called")
                       : absl::StrCat("unknown procedure '", name, "'"));
  }
  if (auto cycle = calls_.FindPath(&callee, &proc_)) {
    cycle->insert(cycle->begin(), proc_.name());
    return ErrorAt(
        call.name_loc(),
        absl::StrCat("recursive call: ", absl::StrJoin(*cycle, " -> ")));
  }
  std::vector<Node*> params = ParamsOf(callee);
  size_t count = call.num_operands();
  if (count != params.size()) {
    return ErrorAt(call.loc(),
                   absl::StrCat("'", name, "' takes ", params.size(),
                                " arguments, found ", count));
  }

  // Bind every parameter first: a dimension may use any size parameter.
  std::vector<View> views(count);
  Substitution subst;
  for (size_t i = 0; i < count; ++i) {
    const Node& param = *params[i];
    Node& arg = *call.operand(i);
    if (IsData(param)) {
      auto view = CheckDataArgument(arg);
      if (!view.ok()) return view.status();
      views[i] = *std::move(view);
      subst[&param].data = &views[i];
      continue;
    }
    ControlType control = param.declared_type().control();
    bool condition = control == ControlType::kBool;
    auto type = Control(arg);
    if (!type.ok()) return type.status();
    if (type->is_control(ControlType::kBool) != condition) {
      return ErrorAt(arg.loc(),
                     absl::StrCat(Argument(callee, param), " is a ",
                                  ControlTypeName(control),
                                  condition ? ": expected a condition"
                                            : ": expected an integer "
                                              "expression"));
    }
    if (control == ControlType::kSize && checks_.contracts) {
      auto value = model_.Affine(arg);
      if (!value.ok()) return value.status();
      auto violation = model_.FindViolation(
          call, {*value}, [](const std::vector<isl::pw_aff>& values) {
            return values[0].le_set(poly::ConstantOn(values[0], 0));
          });
      if (!violation.ok()) return violation.status();
      if (violation->has_value()) {
        return ErrorAt(
            arg.loc(),
            absl::StrCat(Argument(callee, param), " is a size but can be ",
                         (*violation)->values[0], AtPoint((*violation)->at)));
      }
    }
    subst[&param].control = *std::move(type);
  }
  for (size_t i = 0; i < count; ++i) {
    if (!IsData(*params[i])) continue;
    if (auto status = CheckDataBinding(*call.operand(i), callee, *params[i],
                                       views[i], subst);
        !status.ok()) {
      return status;
    }
  }
  for (Node* assertion : AssertsOf(callee)) {
    if (auto type = ControlCondition(*assertion->operand(0), &subst);
        !type.ok()) {
      return type.status();
    }
  }
  if (!checks_.contracts) return absl::OkStatus();
  if (auto status = CheckNoAliasing(call, callee, params, views, model_);
      !status.ok()) {
    return status;
  }
  for (Node* assertion : AssertsOf(callee)) {
    Node& cond = *assertion->operand(0);
    auto holds = model_.ConditionAtCall(cond, call);
    if (!holds.ok()) return holds.status();
    auto failure = model_.FindViolation(
        call, {}, [&](const auto&) { return holds->complement(); });
    if (!failure.ok()) return failure.status();
    if (failure->has_value()) {
      return ErrorAt(
          call.loc(),
          absl::StrCat("call to '", name, "' does not establish its assertion ",
                       Text(cond), AtPoint((*failure)->at)));
    }
  }
  return absl::OkStatus();
}

absl::Status ProcVerifier::CheckDataBinding(const Node& arg, const Node& callee,
                                            const Node& param, const View& view,
                                            const Substitution& subst) {
  const Type& expected = param.declared_type();
  bool is_window = view.type.kind() == TypeKind::kWindow;
  bool expects_window = expected.kind() == TypeKind::kWindow;
  // A vector binds only a vector parameter: it is a value, not a view.
  bool shape_matches = view.type.rank() == expected.rank() &&
                       (expects_window || !is_window) &&
                       view.type.is_vector() == expected.is_vector();
  if (!shape_matches || view.type.elem() != expected.elem()) {
    std::string hint;
    if (is_window && !expects_window && view.type.rank() == expected.rank()) {
      hint = "; a window can only be passed to a window parameter";
    }
    return ErrorAt(arg.loc(), absl::StrCat(Argument(callee, param), " is ",
                                           TypeText(view.type), ", expected ",
                                           TypeText(expected), hint));
  }
  const Node* memory = param.def() != nullptr ? param.def() : module_.dram();
  if (checks_.memories && view.memory != memory) {
    return ErrorAt(arg.loc(), absl::StrCat(Argument(callee, param), " is in ",
                                           view.memory->name(), ", expected ",
                                           memory->name()));
  }
  if (IsWritten(param) && !view.writable) {
    return ErrorAt(arg.loc(), absl::StrCat(Argument(callee, param),
                                           " is written by '", callee.name(),
                                           "', but it comes from the in "
                                           "parameter '",
                                           view.read_only_source, "'"));
  }
  for (const Dim& dim : expected.dims()) {
    if (dim.is_constant()) continue;
    if (auto type = ControlInt(Mutable(dim.expr), &subst); !type.ok()) {
      return type.status();
    }
  }
  if (!checks_.contracts) return absl::OkStatus();
  const Node& call = model_.StatementOf(arg);
  auto extents = model_.Extents(*view.source, call);
  if (!extents.ok()) return extents.status();
  for (int k = 0; k < expected.rank(); ++k) {
    const Dim& dim = expected.dims()[k];
    absl::StatusOr<isl::pw_aff> extent =
        dim.is_constant() ? model_.Constant(dim.value, call)
                          : model_.AffineAtCall(*dim.expr, call);
    if (!extent.ok()) return extent.status();
    auto violation =
        model_.FindViolation(call, {(*extents)[k], *extent},
                             [](const std::vector<isl::pw_aff>& values) {
                               return values[0].ne_set(values[1]);
                             });
    if (!violation.ok()) return violation.status();
    if (violation->has_value()) {
      const poly::Violation& at = **violation;
      return ErrorAt(
          arg.loc(),
          absl::StrCat("dimension ", k, " of ", Argument(callee, param), " is ",
                       DescribeExtent(view.type.dims()[k], at.values[0]),
                       ", but '", callee.name(), "' expects ",
                       DescribeExtent(dim, at.values[1]), AtPoint(at.at)));
    }
  }
  return absl::OkStatus();
}

}  // namespace tessel::ir
