#include "libs/interp/tensor_compiler.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/interp/access_compiler.h"
#include "libs/interp/diagnostics.h"
#include "libs/verify/libcall.h"

namespace tessel {
namespace tensor {

Type Type::Elem(ElemType elem) {
  Type type;
  type.kind = Kind::kElem;
  type.elem = elem;
  return type;
}

Type Type::Of(Kind kind) {
  Type type;
  type.kind = kind;
  return type;
}

Type Type::Array(ElemType elem, std::vector<int64_t> shape) {
  if (shape.empty()) return Elem(elem);
  Type type;
  type.kind = Kind::kArray;
  type.elem = elem;
  type.shape = std::move(shape);
  return type;
}

Type Type::Tuple(Type first, Type second) {
  Type type;
  type.kind = Kind::kTuple;
  type.first = std::make_shared<const Type>(std::move(first));
  type.second = std::make_shared<const Type>(std::move(second));
  return type;
}

bool operator==(const Type& a, const Type& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case Type::Kind::kElem:
      return a.elem == b.elem;
    case Type::Kind::kArray:
      return a.elem == b.elem && a.shape == b.shape;
    case Type::Kind::kTuple:
      return *a.first == *b.first && *a.second == *b.second;
    default:
      return true;
  }
}

std::string TypeText(const Type& type) {
  switch (type.kind) {
    case Type::Kind::kElem:
      return std::string(ElemTypeName(type.elem));
    case Type::Kind::kIndex:
      return "index";
    case Type::Kind::kBool:
      return "bool";
    case Type::Kind::kArray:
      return absl::StrCat("(", ElemTypeName(type.elem), " ",
                          absl::StrJoin(type.shape, " "), ")");
    case Type::Kind::kTuple:
      return absl::StrCat("(tuple ", TypeText(*type.first), " ",
                          TypeText(*type.second), ")");
  }
  return "?";
}

absl::StatusOr<Type> LayoutOf(const ir::Type& type, const ir::Node& at) {
  switch (type.kind()) {
    case ir::TypeKind::kElem:
      return Type::Elem(type.elem());
    case ir::TypeKind::kControl:
      return Type::Of(type.control() == ControlType::kBool
                          ? Type::Kind::kBool
                          : Type::Kind::kIndex);
    case ir::TypeKind::kTensor:
    case ir::TypeKind::kAccess: {
      std::optional<std::vector<int64_t>> dims = type.ConstantDims();
      if (!dims) {
        return NotVerified(at, absl::StrCat("the type ", ir::TypeText(type),
                                            " has symbolic dimensions"));
      }
      return Type::Array(type.elem(), *std::move(dims));
    }
    case ir::TypeKind::kTuple: {
      auto first = LayoutOf(type.first(), at);
      if (!first.ok()) return first.status();
      auto second = LayoutOf(type.second(), at);
      if (!second.ok()) return second.status();
      return Type::Tuple(*std::move(first), *std::move(second));
    }
    default:
      return NotVerified(at, absl::StrCat("'", NodeText(at), "' has type ",
                                          ir::TypeText(type)));
  }
}

namespace {

// The term `(lam BODY)` stands for, BODY; `depth` lams deep for ifold's.
absl::StatusOr<const ir::Node*> LamBody(const ir::Node& lam, int depth) {
  const ir::Node* body = &lam;
  for (int i = 0; i < depth; ++i) {
    if (!body->is(ir::Op::kLam) || body->num_operands() != 1) {
      return NotVerified(*body, "expected (lam BODY)");
    }
    body = body->operand(0);
  }
  return body;
}

bool IsIndex(const Term& term) { return term.type.kind == Type::Kind::kIndex; }

}  // namespace

absl::StatusOr<Term> CompileTerm(const ir::Node& node) {
  Term term;
  term.where = &node;
  auto type = LayoutOf(node.type(), node);
  if (!type.ok()) return type.status();
  term.type = *std::move(type);
  // The operands a form evaluates, in order; lams stand for their bodies.
  std::vector<const ir::Node*> operands;
  switch (node.op()) {
    case ir::Op::kConst:
      if (term.type.kind == Type::Kind::kIndex) {
        term.op = TermOp::kIntConst;
        term.value = node.int_value();
        return term;
      }
      term.op = TermOp::kConst;
      if ((node.is_float_literal()
               ? AdoptFloatLiteral(node.float_value(), term.type.elem,
                                   term.constant)
               : AdoptIntLiteral(node.int_value(), term.type.elem,
                                 term.constant)) != ScalarError::kNone) {
        return NotVerified(node, "a float literal typed as an integer");
      }
      return term;
    case ir::Op::kRef: {
      const ir::Node* param = node.def();
      if (param == nullptr || !param->is(ir::Op::kValue) ||
          param->param_kind() != ir::ParamKind::kIn) {
        return NotVerified(node, "a name that is not a parameter");
      }
      term.op = TermOp::kParam;
      // A func's operands start with its parameters.
      term.value = static_cast<int64_t>(param->position());
      return term;
    }
    case ir::Op::kVar:
      term.op = TermOp::kVar;
      term.value = node.int_value();
      return term;
    case ir::Op::kBuild: {
      if (auto size = CheckedElementCount(term.type.elem, term.type.shape);
          !size.ok()) {
        return ErrorAt(node.loc(), size.status().message());
      }
      auto body = LamBody(*node.operand(1), 1);
      if (!body.ok()) return body.status();
      term.op = TermOp::kBuild;
      term.value = node.operand(0)->int_value();
      operands = {*body};
      break;
    }
    case ir::Op::kIfold: {
      auto body = LamBody(*node.operand(2), 2);
      if (!body.ok()) return body.status();
      term.op = TermOp::kIfold;
      term.value = node.operand(0)->int_value();
      operands = {node.operand(1), *body};
      break;
    }
    case ir::Op::kApp: {
      auto body = LamBody(*node.operand(0), 1);
      if (!body.ok()) return body.status();
      term.op = TermOp::kApp;
      operands = {*body, node.operand(1)};
      break;
    }
    case ir::Op::kIndex:
      term.op = TermOp::kIndex;
      break;
    case ir::Op::kTuple:
      term.op = TermOp::kTuple;
      break;
    case ir::Op::kFst:
      term.op = TermOp::kFst;
      break;
    case ir::Op::kSnd:
      term.op = TermOp::kSnd;
      break;
    case ir::Op::kAdd:
    case ir::Op::kSub:
    case ir::Op::kMul:
    case ir::Op::kDiv:
    case ir::Op::kMax:
    case ir::Op::kMin:
      term.op = TermOp::kArith;
      term.arith = *ArithOpOf(node.op());
      break;
    case ir::Op::kNeg:
      term.op = TermOp::kNegate;
      break;
    case ir::Op::kLt:
    case ir::Op::kLe:
    case ir::Op::kGt:
    case ir::Op::kGe:
    case ir::Op::kEq:
    case ir::Op::kNe:
      term.op = TermOp::kCompare;
      term.compare = *CompareOpOf(node.op());
      break;
    case ir::Op::kSelect:
      term.op = TermOp::kSelect;
      break;
    case ir::Op::kCast:
      term.op = TermOp::kCast;
      break;
    case ir::Op::kAnd:
      term.op = TermOp::kAnd;
      break;
    case ir::Op::kOr:
      term.op = TermOp::kOr;
      break;
    case ir::Op::kNot:
      term.op = TermOp::kNot;
      break;
    default:
      if (node.info().op_class == ir::OpClass::kAccess) {
        return CompileAccessPattern(node, std::move(term));
      }
      return NotVerified(
          node, absl::StrCat("'", NodeText(node), "' is not a term here"));
  }
  if (operands.empty()) {
    operands.assign(node.operands().begin(), node.operands().end());
  }
  for (const ir::Node* operand : operands) {
    auto compiled = CompileTerm(*operand);
    if (!compiled.ok()) return compiled.status();
    term.args.push_back(*std::move(compiled));
  }
  // Operations on indices are index arithmetic, checked for overflow.
  const bool on_indices = !term.args.empty() && IsIndex(term.args[0]);
  switch (term.op) {
    case TermOp::kArith:
      if (!on_indices) break;
      if (term.arith == ArithOp::kAdd) {
        term.op = TermOp::kAddIndex;
      } else if (term.arith == ArithOp::kSub) {
        term.op = TermOp::kSubIndex;
      } else if (term.arith == ArithOp::kMul) {
        term.op = TermOp::kMulIndex;
      } else {
        return ErrorAt(node.loc(),
                       absl::StrCat("'", ir::Spelling(node.op()),
                                    "' does not apply to indices (they have "
                                    "+, - and *)"));
      }
      break;
    case TermOp::kNegate:
      if (on_indices) term.op = TermOp::kNegIndex;
      break;
    case TermOp::kCompare:
      if (on_indices) term.op = TermOp::kCompareIndex;
      break;
    case TermOp::kIndex:
      // (index (index A i) j) becomes one node indexing A by i and j.
      if (term.args[0].op == TermOp::kIndex) {
        Term inner = std::move(term.args[0]);
        inner.args.push_back(std::move(term.args[1]));
        inner.type = std::move(term.type);
        inner.where = term.where;
        return inner;
      }
      break;
    default:
      break;
  }
  return term;
}

absl::StatusOr<CompiledFunction> CompileFunction(const ir::Node& function) {
  if (ir::HasLibCalls(function)) {
    auto expanded = ir::ExpandLibCalls(function);
    if (!expanded.ok()) return expanded.status();
    std::shared_ptr<const ir::Module> module = *std::move(expanded);
    auto compiled = CompileFunction(*module->forms()[0]);
    if (compiled.ok()) compiled->expanded = std::move(module);
    return compiled;
  }
  CompiledFunction compiled;
  compiled.function = &function;
  std::vector<Type> results;
  for (const ir::Node* operand : function.operands()) {
    if (!operand->is(ir::Op::kValue)) continue;
    auto type = LayoutOf(operand->declared_type(), *operand);
    if (!type.ok()) return type.status();
    if (operand->param_kind() == ir::ParamKind::kIn) {
      compiled.params.push_back(operand);
      compiled.param_types.push_back(*std::move(type));
    } else {
      compiled.results.push_back(operand);
      results.push_back(*std::move(type));
    }
  }
  if (results.empty()) return NotVerified(function, "a func without results");
  compiled.result_type = results.back();
  for (size_t i = results.size() - 1; i-- > 0;) {
    compiled.result_type =
        Type::Tuple(std::move(results[i]), std::move(compiled.result_type));
  }
  const ir::Node& body = *function.operand(function.num_operands() - 1);
  auto term = CompileTerm(body);
  if (!term.ok()) return term.status();
  // The evaluator copies the results out with their declared types.
  if (term->type != compiled.result_type) {
    return NotVerified(
        body, absl::StrCat("the term computes ", TypeText(term->type),
                           " but the results of ", function.name(), " are ",
                           TypeText(compiled.result_type)));
  }
  compiled.term = *std::move(term);
  return compiled;
}

}  // namespace tensor
}  // namespace tessel
