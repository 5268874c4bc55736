// The terms of a func: build, ifold, app, index, tuples, scalar operations
// and the conditions of select.
#include "absl/strings/str_cat.h"
#include "libs/ir/op.h"
#include "libs/verify/common.h"
#include "libs/verify/func_verifier.h"

namespace tessel::ir {
namespace {

bool IsLam(const Node& node) {
  return node.is(Op::kLam) && node.num_operands() == 1;
}

// The operands of a scalar operation that have its type (the branches of a
// select, both operands of + and the like).
std::vector<const Node*> SameTypeOperands(const Node& op) {
  switch (op.op()) {
    case Op::kNeg:
      return {op.operand(0)};
    case Op::kSelect:
      return {op.operand(1), op.operand(2)};
    case Op::kCast:
      return {};
    default:
      return {op.operand(0), op.operand(1)};
  }
}

}  // namespace

absl::StatusOr<int64_t> FuncVerifier::Length(const Node& length,
                                             absl::string_view of) {
  if (!length.is(Op::kConst) || length.is_float_literal() ||
      length.int_value() <= 0) {
    return ErrorAt(length.loc(), absl::StrCat("the length of ", of,
                                              " must be an integer literal "
                                              "> 0, found '",
                                              Text(length), "'"));
  }
  RecordIndex(length);
  return length.int_value();
}

absl::StatusOr<TermType> FuncVerifier::InferApp(Node& term,
                                                const TermType* expected) {
  Node& lam = *term.operand(0);
  if (!IsLam(lam)) {
    return ErrorAt(lam.loc(), "the function of app must be (lam BODY)");
  }
  Node& arg = *term.operand(1);
  Binder binder;
  if (IsIndexExpression(arg)) {
    auto index = IndexExpression(arg);
    if (!index.ok()) return index.status();
    binder.index = *std::move(index);
  }
  if (!binder.index || arg.is(Op::kConst)) {
    auto value = Infer(arg, nullptr);
    if (!value.ok()) return value.status();
    binder.value = *std::move(value);
  }
  std::vector<Binder> binders = {std::move(binder)};
  auto body = InferLam(lam, binders, expected);
  if (!body.ok()) return body;
  // An integer literal is a value only where the body uses it as one.
  const Binder& bound = binders[0];
  TermType argument = TermType::Index();
  if (bound.value && (bound.used_as_value || !bound.index)) {
    argument = *bound.value;
  } else {
    RecordIndex(arg);
  }
  Record(lam, TermType::Function(std::move(argument), *body));
  return body;
}

absl::StatusOr<TermType> FuncVerifier::InferBuild(Node& term,
                                                  const TermType* expected) {
  auto length = Length(*term.operand(0), "build");
  if (!length.ok()) return length.status();
  Node& lam = *term.operand(1);
  if (!IsLam(lam)) {
    return ErrorAt(lam.loc(),
                   "the function of build must be "
                   "(lam BODY), with the index %0");
  }
  std::optional<TermType> element;
  if (expected != nullptr && expected->is_array() &&
      expected->dims[0] == *length) {
    element = TermType::Array(
        expected->elem,
        std::vector<int64_t>(expected->dims.begin() + 1, expected->dims.end()));
  }
  Binder index;
  index.index = IndexAt(binders_.size());
  index.extent = *length;
  std::vector<Binder> binders = {std::move(index)};
  auto body = InferLam(lam, binders, element ? &*element : nullptr);
  if (!body.ok()) return body;
  if (body->is_tuple()) {
    return ErrorAt(lam.operand(0)->loc(),
                   absl::StrCat("build needs scalar or array elements, "
                                "found ",
                                Describe(*body)));
  }
  Record(lam, TermType::Function(TermType::Index(), *body));
  std::vector<int64_t> dims = {*length};
  dims.insert(dims.end(), body->dims.begin(), body->dims.end());
  return TermType::Array(body->elem, std::move(dims));
}

absl::StatusOr<TermType> FuncVerifier::InferIfold(Node& term,
                                                  const TermType* expected) {
  auto length = Length(*term.operand(0), "ifold");
  if (!length.ok()) return length.status();
  auto init = Infer(*term.operand(1), expected);
  if (!init.ok()) return init;
  Node& outer = *term.operand(2);
  if (!IsLam(outer) || !IsLam(*outer.operand(0))) {
    return ErrorAt(outer.loc(),
                   "the function of ifold must be (lam (lam BODY)), with "
                   "the index %1 and the accumulator %0");
  }
  Node& inner = *outer.operand(0);
  Binder index;
  index.index = IndexAt(binders_.size());
  index.extent = *length;
  Binder accumulator;
  accumulator.value = *init;
  std::vector<Binder> binders = {std::move(index), std::move(accumulator)};
  auto body = InferLam(inner, binders, &*init);
  if (!body.ok()) return body;
  TermType step = TermType::Function(*init, *body);
  Record(inner, step);
  Record(outer, TermType::Function(TermType::Index(), std::move(step)));
  return body;
}

absl::StatusOr<TermType> FuncVerifier::InferIndex(Node& term) {
  Node& array_node = *term.operand(0);
  auto array = Infer(array_node, nullptr);
  if (!array.ok()) return array;
  if (!array->is_array()) {
    return ErrorAt(array_node.loc(), absl::StrCat("index needs an array, "
                                                  "found ",
                                                  Describe(*array)));
  }
  Node& index_node = *term.operand(1);
  auto index = IndexExpression(index_node);
  if (!index.ok()) return index.status();
  if (auto status =
          CheckIndexInBounds(index_node, *index, array->dims[0], array_node);
      !status.ok()) {
    return status;
  }
  return TermType::Array(
      array->elem,
      std::vector<int64_t>(array->dims.begin() + 1, array->dims.end()));
}

absl::StatusOr<TermType> FuncVerifier::InferTuple(Node& term,
                                                  const TermType* expected) {
  if (term.is(Op::kTuple)) {
    bool split = expected != nullptr && expected->is_tuple();
    auto first = Infer(*term.operand(0), split ? &expected->parts[0] : nullptr);
    if (!first.ok()) return first;
    auto second =
        Infer(*term.operand(1), split ? &expected->parts[1] : nullptr);
    if (!second.ok()) return second;
    return TermType::Tuple(*std::move(first), *std::move(second));
  }
  auto pair = Infer(*term.operand(0), nullptr);
  if (!pair.ok()) return pair;
  if (!pair->is_tuple()) {
    return ErrorAt(term.operand(0)->loc(),
                   absl::StrCat("'", Spelling(term.op()),
                                "' needs a tuple, found ", Describe(*pair)));
  }
  return pair->parts[term.is(Op::kFst) ? 0 : 1];
}

absl::StatusOr<TermType> FuncVerifier::InferScalar(Node& term,
                                                   const TermType* expected) {
  auto operand = [this](Node& e, std::optional<ElemType> elem) {
    return InferScalarOperand(e, elem, "scalar operations");
  };
  std::optional<ElemType> elem;
  if (expected != nullptr && expected->is_scalar() &&
      expected->elem.type.is_elem()) {
    elem = expected->elem.type.elem;
  }
  if (term.is(Op::kCast)) {
    // The operand keeps its own type. One made of literals is not given
    // the default type here (as InferScalarOperation does): a lam's literal
    // argument may be used at its own type elsewhere, and its group takes
    // the default only if nothing fixes it.
    auto operand_type = operand(*term.operand(0), std::nullopt);
    if (!operand_type.ok()) return operand_type.status();
    auto type =
        Conform(term, ScalarType::Of(term.declared_type().elem()), elem);
    if (!type.ok()) return type.status();
    return TermType::Scalar({*type, -1});
  }
  auto type = InferScalarOperation(
      term, elem, operand, [this](Node& cond) { return CheckCondition(cond); });
  if (!type.ok()) return type.status();
  TermElem result{*type, -1};
  if (!type->is_elem()) {
    // Made of literals: they share the type the context will give them.
    for (const Node* same : SameTypeOperands(term)) {
      auto it = types_.find(same);
      if (it != types_.end()) {
        result.group = groups_.Merge(result.group, it->second.elem.group);
      }
    }
  }
  return TermType::Scalar(result);
}

absl::Status FuncVerifier::CheckCondition(Node& cond) {
  switch (cond.op()) {
    case Op::kAnd:
    case Op::kOr:
    case Op::kNot:
      for (Node* operand : cond.operands()) {
        if (auto status = CheckCondition(*operand); !status.ok()) {
          return status;
        }
      }
      Record(cond, TermType::Bool());
      return absl::OkStatus();
    default:
      break;
  }
  if (!IsComparison(cond.op())) {
    return ErrorAt(cond.loc(), absl::StrCat("expected a comparison, found '",
                                            Text(cond), "'"));
  }
  if (IsIndexExpression(*cond.operand(0)) &&
      IsIndexExpression(*cond.operand(1))) {
    // A comparison of indices.
    RecordIndex(*cond.operand(0));
    RecordIndex(*cond.operand(1));
  } else if (auto status = CheckComparedData(cond); !status.ok()) {
    return status;
  }
  Record(cond, TermType::Bool());
  return absl::OkStatus();
}

absl::Status FuncVerifier::CheckComparedData(Node& cond) {
  // As CheckDataComparison (scalar.h), but operands made only of literals
  // are one group that takes the default type only if nothing fixes it: a
  // lam's literal argument compared here may be used at its type elsewhere.
  Node& a = *cond.operand(0);
  Node& b = *cond.operand(1);
  auto first = InferScalarOperand(a, std::nullopt, "comparisons");
  if (!first.ok()) return first.status();
  if (first->is_elem()) {
    return InferScalarOperand(b, first->elem, "comparisons").status();
  }
  auto second = InferScalarOperand(b, std::nullopt, "comparisons");
  if (!second.ok()) return second.status();
  if (second->is_elem()) {
    return InferScalarOperand(a, second->elem, "comparisons").status();
  }
  groups_.Merge(types_[&a].elem.group, types_[&b].elem.group);
  return absl::OkStatus();
}

absl::StatusOr<ScalarType> FuncVerifier::InferScalarOperand(
    Node& operand, std::optional<ElemType> elem, absl::string_view what) {
  TermType want =
      TermType::Scalar({ScalarType::Of(elem.value_or(ElemType::kF32)), -1});
  auto type = Infer(operand, elem ? &want : nullptr);
  if (!type.ok()) return type.status();
  if (!type->is_scalar()) {
    return ErrorAt(operand.loc(), absl::StrCat(what, " need scalars, found ",
                                               Describe(*type)));
  }
  return type->elem.type;
}

}  // namespace tessel::ir
