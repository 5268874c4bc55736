// Index expressions of a func and their bounds: an index is affine in the
// indices of the enclosing builds and ifolds, whose ranges make the
// polyhedral domain an `index` must stay within (isl, through
// libs/poly/model.h).
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/verify/common.h"
#include "libs/verify/func_verifier.h"
#include "libs/poly/box.h"
#include "libs/poly/model.h"

namespace tessel::ir {
namespace {

bool IsIntLiteral(const Node& node) {
  return node.is(Op::kConst) && !node.is_float_literal();
}

IndexForm Term(IndexTerm::Kind kind, int64_t value, IndexForm a = nullptr,
               IndexForm b = nullptr) {
  return std::make_shared<const IndexTerm>(
      IndexTerm{kind, value, std::move(a), std::move(b)});
}

// `form` as a function on `space`, whose dimension dims[depth] is the
// index bound at `depth`.
isl::pw_aff Evaluate(const IndexTerm& form, const isl::space& space,
                     const std::vector<int>& dims) {
  auto operand = [&](const IndexForm& a) { return Evaluate(*a, space, dims); };
  switch (form.kind) {
    case IndexTerm::Kind::kLiteral:
      return isl::pw_aff(
          isl::aff::zero_on_domain(space).add_constant(form.value));
    case IndexTerm::Kind::kIndex:
      return isl::pw_aff(
          isl::multi_aff::identity_on_domain(space).at(dims[form.value]));
    case IndexTerm::Kind::kAdd:
      return operand(form.a).add(operand(form.b));
    case IndexTerm::Kind::kSub:
      return operand(form.a).sub(operand(form.b));
    case IndexTerm::Kind::kScale:
      return operand(form.a).scale(form.value);
  }
  return isl::pw_aff();
}

// Adds `factor` times `term` to the coefficients of the indices it reads
// (by depth) and to `constant`; false when a value leaves 62 bits, where
// the sums below could overflow.
bool AddAffine(const IndexTerm& term, int64_t factor,
               std::vector<int64_t>& coeffs, int64_t& constant) {
  constexpr int64_t kLimit = int64_t{1} << 62;
  auto add = [&](int64_t& to, int64_t times, int64_t value) {
    int64_t product;
    if (__builtin_mul_overflow(times, value, &product) ||
        __builtin_add_overflow(to, product, &to)) {
      return false;
    }
    return to < kLimit && to > -kLimit;
  };
  switch (term.kind) {
    case IndexTerm::Kind::kLiteral:
      return add(constant, factor, term.value);
    case IndexTerm::Kind::kIndex:
      return add(coeffs[term.value], factor, 1);
    case IndexTerm::Kind::kAdd:
    case IndexTerm::Kind::kSub:
      return AddAffine(*term.a, factor, coeffs, constant) &&
             AddAffine(*term.b,
                       term.kind == IndexTerm::Kind::kAdd ? factor : -factor,
                       coeffs, constant);
    case IndexTerm::Kind::kScale: {
      int64_t scaled = 0;
      return add(scaled, factor, term.value) &&
             AddAffine(*term.a, scaled, coeffs, constant);
    }
  }
  return false;
}

// Whether `form` surely stays within [0, extent) where each index it reads
// ranges over [0, extents[depth]): the usual case, settled without isl
// (poly/box.h). False when it may not, or reads a binder that is not an
// index (isl then decides, and names a point).
bool SurelyInBounds(const IndexTerm& form, const std::vector<int64_t>& extents,
                    int64_t extent) {
  std::vector<int64_t> coeffs(extents.size(), 0);
  int64_t constant = 0;
  if (!AddAffine(form, 1, coeffs, constant)) return false;
  std::optional<poly::Interval> range =
      poly::RangeOnBox(coeffs, constant, extents);
  return range && range->low >= 0 && range->high < extent;
}

}  // namespace

IndexForm IndexAt(size_t depth) {
  return Term(IndexTerm::Kind::kIndex, static_cast<int64_t>(depth));
}

bool FuncVerifier::IsIndexExpression(const Node& term) {
  switch (term.op()) {
    case Op::kConst:
      return !term.is_float_literal();
    case Op::kVar: {
      auto binder = FindBinder(term);
      return binder.ok() && (*binder)->index != nullptr;
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

absl::StatusOr<IndexForm> FuncVerifier::IndexExpression(const Node& term) {
  switch (term.op()) {
    case Op::kConst:
      if (term.is_float_literal()) break;
      RecordIndex(term);
      return Term(IndexTerm::Kind::kLiteral, term.int_value());
    case Op::kVar: {
      auto binder = FindBinder(term);
      if (!binder.ok()) return binder.status();
      if (!(*binder)->index) {
        return ErrorAt(term.loc(), absl::StrCat("'", Text(term), "' is ",
                                                Describe(*(*binder)->value),
                                                ", not an index"));
      }
      RecordIndex(term);
      return (*binder)->index;
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
        bool first = IsIntLiteral(lhs);
        return Term(IndexTerm::Kind::kScale, (first ? lhs : rhs).int_value(),
                    first ? *b : *a);
      }
      return Term(
          term.is(Op::kAdd) ? IndexTerm::Kind::kAdd : IndexTerm::Kind::kSub, 0,
          *a, *b);
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
                                              const IndexForm& form,
                                              int64_t extent,
                                              const Node& array) {
  std::vector<int64_t> extents;
  for (const Binder& binder : binders_) extents.push_back(binder.extent);
  if (SurelyInBounds(*form, extents, extent)) return absl::OkStatus();
  // The domain: the indices of the enclosing builds and ifolds within their
  // ranges, then the index's value; the first point where the value leaves
  // [0, extent).
  std::vector<int> dims(binders_.size(), -1);
  std::vector<int64_t> ranges;
  for (size_t level = 0; level < binders_.size(); ++level) {
    if (binders_[level].extent == 0) continue;
    dims[level] = static_cast<int>(ranges.size());
    ranges.push_back(binders_[level].extent);
  }
  isl::ctx ctx(ctx_.get());
  auto found = poly::FirstPoint(ctx, [&]() {
    isl::space space = isl::space::unit(ctx).add_named_tuple(
        "S", static_cast<unsigned>(ranges.size()));
    isl::set domain = isl::set::universe(space);
    isl::pw_aff zero(isl::aff::zero_on_domain(space));
    isl::multi_aff identity = isl::multi_aff::identity_on_domain(space);
    for (size_t k = 0; k < ranges.size(); ++k) {
      isl::pw_aff index(identity.at(static_cast<int>(k)));
      domain = domain.intersect(index.ge_set(zero))
                   .intersect(index.lt_set(zero.add_constant(ranges[k])));
    }
    isl::pw_aff value = Evaluate(*form, space, dims);
    isl::set outside =
        value.lt_set(zero).unite(value.ge_set(zero.add_constant(extent)));
    return value.intersect_domain(domain.intersect(outside)).as_map().wrap();
  });
  if (!found.ok()) return found.status();
  if (!found->has_value()) return absl::OkStatus();
  const std::vector<std::string>& at = **found;
  std::vector<std::string> point;
  for (size_t level = 0; level < binders_.size(); ++level) {
    if (dims[level] < 0) continue;
    point.push_back(
        absl::StrCat("%", binders_.size() - 1 - level, " = ", at[dims[level]]));
  }
  std::string what = array.is(Op::kRef)
                         ? absl::StrCat("the index of '", array.name(), "'")
                         : std::string("the index");
  const std::string& value = at.back();
  bool below = !value.empty() && value[0] == '-';
  return ErrorAt(
      index.loc(),
      absl::StrCat(
          what, below ? " can be " : " can reach ", value,
          below ? ", below 0" : absl::StrCat(", outside its extent ", extent),
          AtPoint(absl::StrJoin(point, ", "))));
}

}  // namespace tessel::ir
