// Index expressions of a func and their bounds: an index is affine in the
// indices of the enclosing builds and ifolds, whose ranges make the isl
// domain an `index` must stay within.
#include "absl/strings/str_cat.h"
#include "libs/ir/verify/common.h"
#include "libs/ir/verify/domain.h"
#include "libs/ir/verify/func_verifier.h"

namespace tessel::ir {
namespace {

bool IsIntLiteral(const Node& node) {
  return node.is(Op::kConst) && !node.is_float_literal();
}

}  // namespace

bool FuncVerifier::IsIndexExpression(const Node& term) {
  switch (term.op()) {
    case Op::kConst:
      return !term.is_float_literal();
    case Op::kVar: {
      auto binder = FindBinder(term);
      return binder.ok() && (*binder)->index.has_value();
    }
    case Op::kAdd:
    case Op::kSub:
    case Op::kMul:
      return term.num_operands() == 2 && IsIndexExpression(*term.operand(0)) &&
             IsIndexExpression(*term.operand(1));
    default:
      return false;
  }
}

absl::StatusOr<std::string> FuncVerifier::IndexExpression(const Node& term) {
  switch (term.op()) {
    case Op::kConst:
      if (term.is_float_literal()) break;
      RecordIndex(term);
      return term.int_value() < 0 ? absl::StrCat("(", term.int_value(), ")")
                                  : absl::StrCat(term.int_value());
    case Op::kVar: {
      auto binder = FindBinder(term);
      if (!binder.ok()) return binder.status();
      if (!(*binder)->index) {
        return ErrorAt(term.loc(), absl::StrCat("'", Text(term), "' is ",
                                                Describe(*(*binder)->value),
                                                ", not an index"));
      }
      RecordIndex(term);
      return *(*binder)->index;
    }
    case Op::kAdd:
    case Op::kSub:
    case Op::kMul: {
      if (auto status = ExpectOperands(term, 2); !status.ok()) return status;
      const Node& lhs = *term.operand(0);
      const Node& rhs = *term.operand(1);
      bool mul = term.is(Op::kMul);
      if (mul && !IsIntLiteral(lhs) && !IsIntLiteral(rhs)) {
        return ErrorAt(term.loc(),
                       "indices are affine: '*' needs an integer "
                       "literal on one side");
      }
      auto a = IndexExpression(lhs);
      if (!a.ok()) return a;
      auto b = IndexExpression(rhs);
      if (!b.ok()) return b;
      Record(term, TermType::Index());
      if (mul) {
        // isl reads "-2 * i" but not "(-2) * i".
        bool first = IsIntLiteral(lhs);
        return absl::StrCat("(", (first ? lhs : rhs).int_value(), " * ",
                            first ? *b : *a, ")");
      }
      return absl::StrCat("(", *a, " ", Spelling(term.op()), " ", *b, ")");
    }
    default:
      break;
  }
  return ErrorAt(term.loc(), absl::StrCat("expected an index (an integer "
                                          "literal, a build or ifold index, "
                                          "or +, - and * of them), found '",
                                          Text(term), "'"));
}

absl::Status FuncVerifier::CheckIndexInBounds(const Node& index,
                                              const std::string& isl,
                                              int64_t extent,
                                              const Node& array) {
  // The domain: the indices of the enclosing builds and ifolds, named as De
  // Bruijn variables seen from here.
  PolyDomain domain(ctx_);
  size_t depth = binders_.size();
  for (size_t level = 0; level < depth; ++level) {
    if (binders_[level].extent == 0) continue;
    domain.AddDim(IndexName(level), absl::StrCat("%", depth - 1 - level));
    domain.Assume(Affine{absl::StrCat("(0 <= ", IndexName(level), " < ",
                                      binders_[level].extent, ")"),
                         {}});
  }
  auto violation = domain.FindViolation(
      {Affine{isl, {}}, Affine{absl::StrCat(extent), {}}}, "0 <= x0 < x1");
  if (!violation.ok()) return violation.status();
  if (!violation->has_value()) return absl::OkStatus();
  const PolyDomain::Violation& at = **violation;
  std::string what = array.is(Op::kRef)
                         ? absl::StrCat("the index of '", array.name(), "'")
                         : std::string("the index");
  bool below = !at.values[0].empty() && at.values[0][0] == '-';
  return ErrorAt(
      index.loc(),
      absl::StrCat(
          what, below ? " can be " : " can reach ", at.values[0],
          below ? ", below 0" : absl::StrCat(", outside its extent ", extent),
          AtPoint(at.at)));
}

}  // namespace tessel::ir
