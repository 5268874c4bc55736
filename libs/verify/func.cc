#include "libs/verify/func.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "libs/ir/edit.h"
#include "libs/ir/op.h"
#include "libs/verify/access.h"
#include "libs/verify/common.h"
#include "libs/verify/func_verifier.h"

namespace tessel::ir {
namespace {

// Where the head of a generic form is written: just after its '('.
Location HeadLoc(const Node& node) {
  Location loc = node.loc();
  if (loc.known()) ++loc.col;
  return loc;
}

// How many child operands a value form of generic syntax has, or nullopt
// when it takes any number. Attributes (a key, an element type) are no
// children.
std::optional<size_t> ChildOperands(const OpInfo& info) {
  if (info.custom ||
      (info.op_class != OpClass::kExpr && info.op_class != OpClass::kTerm &&
       info.op_class != OpClass::kAccess)) {
    return std::nullopt;
  }
  size_t count = 0;
  for (OperandKind kind : info.operands) {
    switch (kind) {
      case OperandKind::kValue:
      case OperandKind::kLam:
      case OperandKind::kInt:
        ++count;
        break;
      case OperandKind::kName:
      case OperandKind::kGlobal:
      case OperandKind::kKey:
      case OperandKind::kElem:
        break;
      default:
        return std::nullopt;
    }
  }
  return count;
}

}  // namespace

absl::Status VerifyFunc(Node& func, poly::Context& ctx) {
  return FuncVerifier(func, ctx).Verify();
}

absl::StatusOr<Type> InferTermType(Node& func, Node& term, poly::Context& ctx) {
  return FuncVerifier(func, ctx).InferAlone(term);
}

absl::StatusOr<Type> FuncVerifier::InferAlone(Node& term) {
  std::vector<std::string> seen;
  if (auto status = CheckDeclarations(/*results=*/false, seen); !status.ok()) {
    return status;
  }
  auto type = Infer(term, nullptr);
  if (!type.ok()) return type.status();
  return ToType(*type, groups_);
}

absl::Status FuncVerifier::Verify() {
  std::vector<std::string> seen;
  if (auto status = CheckDeclarations(/*results=*/false, seen); !status.ok()) {
    return status;
  }
  if (auto status = CheckDeclarations(/*results=*/true, seen); !status.ok()) {
    return status;
  }
  // One result is the term's value; several are a right-nested tuple.
  std::vector<const Node*> results;
  for (const Node* decl : func_.operands()) {
    if (decl->is(Op::kValue) && decl->param_kind() == ParamKind::kOut) {
      results.push_back(decl);
    }
  }
  if (results.empty() || func_.num_operands() == 0) {
    return ErrorAt(func_.loc(), "a function needs at least one result");
  }
  TermType expected = TermType::FromDeclared(results.back()->declared_type());
  for (size_t i = results.size() - 1; i-- > 0;) {
    expected =
        TermType::Tuple(TermType::FromDeclared(results[i]->declared_type()),
                        std::move(expected));
  }
  Node& term = *func_.operand(func_.num_operands() - 1);
  if (auto type = Infer(term, &expected); !type.ok()) return type.status();
  // Elaboration: literal groups are settled only now, so types are given
  // (and literals checked against them) once the whole term is checked.
  absl::Status fits;
  Walk(term, [this, &fits](Node& node) {
    auto it = types_.find(&node);
    if (it == types_.end()) return;
    node.set_type(ToType(it->second, groups_));
    if (fits.ok() && node.is(Op::kConst) && node.type().is_elem()) {
      fits = CheckLiteralFits(node, node.type().elem());
    }
  });
  return fits;
}

absl::Status FuncVerifier::CheckDeclarations(bool results,
                                             std::vector<std::string>& seen) {
  for (const Node* decl : func_.operands()) {
    if (!decl->is(Op::kValue) ||
        (decl->param_kind() == ParamKind::kOut) != results) {
      continue;
    }
    if (auto status = CheckBindableName(*decl); !status.ok()) return status;
    if (std::find(seen.begin(), seen.end(), decl->name()) != seen.end()) {
      return ErrorAt(decl->name_loc(),
                     absl::StrCat("'", decl->name(), "' is declared twice"));
    }
    seen.push_back(decl->name());
    for (const Dim& dim : decl->declared_type().dims()) {
      if (!dim.is_constant()) {
        return ErrorAt(dim.expr->loc(),
                       "a func is fully specialised: its dimensions are "
                       "integer literals");
      }
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<TermType> FuncVerifier::Infer(Node& term,
                                             const TermType* expected) {
  auto type = Dispatch(term, expected);
  if (!type.ok()) return type;
  if (expected != nullptr) {
    type = Unify(term, *type, *expected, groups_);
    if (!type.ok()) return type;
  }
  Record(term, *type);
  return type;
}

absl::StatusOr<TermType> FuncVerifier::Dispatch(Node& term,
                                                const TermType* expected) {
  // The reader checks operand counts; a transformation's output is checked
  // here.
  if (std::optional<size_t> count = ChildOperands(term.info())) {
    if (auto status = ExpectOperands(term, *count); !status.ok()) {
      return status;
    }
  }
  if (IsComparison(term.op())) {
    return ErrorAt(term.loc(),
                   "a comparison is not a data value; use (select COND A B)");
  }
  switch (term.op()) {
    case Op::kConst: {
      auto [it, inserted] = const_groups_.try_emplace(&term, -1);
      if (inserted) it->second = groups_.Create(term.is_float_literal());
      return TermType::Scalar({term.is_float_literal()
                                   ? ScalarType::FloatLiteral()
                                   : ScalarType::IntLiteral(),
                               it->second});
    }
    case Op::kRef:
      if (term.def() == nullptr || !term.def()->is(Op::kValue)) {
        return ErrorAt(term.loc(),
                       absl::StrCat("unbound name '", term.name(), "'"));
      }
      return TermType::FromDeclared(term.def()->declared_type());
    case Op::kVar:
      return InferVariable(term);
    case Op::kLam:
      return ErrorAt(term.loc(),
                     "a lam must be the function of build, ifold or app, "
                     "where the type of its argument is known");
    case Op::kApp:
      return InferApp(term, expected);
    case Op::kBuild:
      return InferBuild(term, expected);
    case Op::kIfold:
      return InferIfold(term, expected);
    case Op::kIndex:
      return InferIndex(term);
    case Op::kTuple:
    case Op::kFst:
    case Op::kSnd:
      return InferTuple(term, expected);
    case Op::kLibCall:
      return InferLibCall(term);
    case Op::kLoad:
      // (NAME I...) reads an element at the loop level; here NAME is no
      // operator.
      return ErrorAt(
          term.operand(0)->loc(),
          absl::StrCat("unknown operator '", term.operand(0)->name(), "'"));
    default:
      break;
  }
  if (IsScalarOperation(term.op())) return InferScalar(term, expected);
  if (IsAccessPattern(term.op())) return InferAccess(term);
  // Loop-level forms, conditions and literal lists are no terms.
  return ErrorAt(HeadLoc(term),
                 absl::StrCat("unknown operator '", Spelling(term.op()), "'"));
}

absl::StatusOr<TermType> FuncVerifier::InferVariable(Node& var) {
  auto binder = FindBinder(var);
  if (!binder.ok()) return binder.status();
  if (!(*binder)->value) {
    return ErrorAt(var.loc(), absl::StrCat("'", Text(var),
                                           "' is an index, not a data value; "
                                           "use it in (index A I)"));
  }
  (*binder)->used_as_value = true;
  return *(*binder)->value;
}

absl::StatusOr<TermType> FuncVerifier::InferAccess(Node& term) {
  std::vector<size_t> positions = AccessPatternTerms(term.op());
  // The other operands are literals and literal lists: indices, lengths
  // and dimension numbers.
  for (size_t i = 0; i < term.num_operands(); ++i) {
    if (std::find(positions.begin(), positions.end(), i) != positions.end()) {
      continue;
    }
    const Node& operand = *term.operand(i);
    if (operand.is(Op::kList) || operand.is(Op::kShape)) {
      for (const Node* item : operand.operands()) RecordIndex(*item);
    } else {
      RecordIndex(operand);
    }
  }
  std::vector<TermType> operands;
  for (size_t position : positions) {
    auto operand = Infer(*term.operand(position), nullptr);
    if (!operand.ok()) return operand;
    operands.push_back(*std::move(operand));
  }
  return InferAccessPattern(term, operands, groups_);
}

absl::StatusOr<TermType> FuncVerifier::InferLam(Node& lam,
                                                std::vector<Binder>& binders,
                                                const TermType* expected) {
  size_t depth = binders_.size();
  binders_.insert(binders_.end(), binders.begin(), binders.end());
  auto type = Infer(*lam.operand(0), expected);
  std::copy(binders_.begin() + depth, binders_.end(), binders.begin());
  binders_.resize(depth);
  return type;
}

absl::StatusOr<FuncVerifier::Binder*> FuncVerifier::FindBinder(
    const Node& var) {
  int64_t k = var.int_value();
  if (k < 0 || k >= static_cast<int64_t>(binders_.size())) {
    return ErrorAt(var.loc(), absl::StrCat("'", Text(var), "' is not bound: ",
                                           binders_.size() == 1
                                               ? "one lam encloses"
                                               : absl::StrCat(binders_.size(),
                                                              " lams enclose"),
                                           " it"));
  }
  return &binders_[binders_.size() - 1 - k];
}

void FuncVerifier::Record(const Node& node, TermType type) {
  types_[&node] = std::move(type);
}

void FuncVerifier::RecordIndex(const Node& node) {
  Record(node, TermType::Index());
  switch (node.op()) {
    case Op::kAdd:
    case Op::kSub:
    case Op::kMul:
      for (const Node* operand : node.operands()) RecordIndex(*operand);
      break;
    default:
      break;
  }
}

}  // namespace tessel::ir
