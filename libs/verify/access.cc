#include "libs/verify/access.h"

#include <algorithm>
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/ir/keywords.h"
#include "libs/verify/common.h"

namespace tessel::ir {
namespace {

std::string Shape(const std::vector<int64_t>& dims) {
  return absl::StrCat("(", absl::StrJoin(dims, " "), ")");
}

// The value of an integer-literal operand. The reader only builds Consts
// here; a transformation might not.
absl::StatusOr<int64_t> Literal(const Node& expr, absl::string_view what) {
  if (!expr.is(Op::kConst) || expr.is_float_literal()) {
    return ErrorAt(expr.loc(),
                   absl::StrCat("expected an integer literal for "
                                "the ",
                                what, ", found '", Text(expr), "'"));
  }
  return expr.int_value();
}

// A literal list `(list N...)` or `(shape N...)` (`list` the op) with
// values >= `minimum`.
absl::StatusOr<std::vector<int64_t>> LiteralList(const Node& expr, Op list,
                                                 int64_t minimum) {
  if (!expr.is(list)) {
    return ErrorAt(expr.loc(),
                   absl::StrCat("expected (", Spelling(list), " N...), found '",
                                Text(expr), "'"));
  }
  std::vector<int64_t> values;
  for (const Node* item : expr.operands()) {
    if (!item->is(Op::kConst) || item->is_float_literal() ||
        item->int_value() < minimum) {
      return ErrorAt(item->loc(),
                     absl::StrCat("expected an integer literal >= ", minimum,
                                  ", found '", Text(*item), "'"));
    }
    values.push_back(item->int_value());
  }
  return values;
}

absl::Status ExpectAccessPattern(const Node& at, const TermType& type) {
  if (type.is_access()) return absl::OkStatus();
  return ErrorAt(at.loc(),
                 absl::StrCat("expected an access pattern, found ",
                              Describe(type), "; make one with (access T N)"));
}

// The product of `dims`, or an error at `at` when it overflows.
absl::StatusOr<int64_t> Product(const Node& at,
                                const std::vector<int64_t>& dims) {
  int64_t product = 1;
  for (int64_t dim : dims) {
    if (__builtin_mul_overflow(product, dim, &product)) {
      return ErrorAt(at.loc(), "the element count overflows 64 bits");
    }
  }
  return product;
}

// The element type two operands share; a literal operand takes the other's.
absl::StatusOr<TermElem> CommonElem(const Node& term, const TermType& a,
                                    const TermType& b, LiteralGroups& groups) {
  ScalarType x = a.elem.type;
  ScalarType y = b.elem.type;
  if (x.is_elem() && y.is_elem() && x.elem != y.elem) {
    return ErrorAt(term.loc(),
                   absl::StrCat("'", Spelling(term.op()),
                                "' needs operands of one element type, found ",
                                Describe(x), " and ", Describe(y)));
  }
  if (x.is_elem() == y.is_elem()) {
    return TermElem{x, groups.Merge(a.elem.group, b.elem.group)};
  }
  const TermType& literal = x.is_elem() ? b : a;
  ScalarType elem = x.is_elem() ? x : y;
  if (auto status = groups.Fix(term, literal.elem.group, elem.elem);
      !status.ok()) {
    return status;
  }
  return TermElem{elem, -1};
}

absl::StatusOr<int64_t> Dimension(const Node& expr, const TermType& type) {
  auto dim = Literal(expr, "dimension");
  if (!dim.ok()) return dim;
  if (*dim < 0 || *dim >= static_cast<int64_t>(type.dims.size())) {
    return ErrorAt(expr.loc(),
                   absl::StrCat("dimension ", *dim, " is out of range for ",
                                Describe(type)));
  }
  return dim;
}

absl::StatusOr<TermType> Access(const Node& term, const TermType& tensor) {
  if (!tensor.is_array()) {
    return ErrorAt(
        term.operand(0)->loc(),
        absl::StrCat("access needs a tensor, found ", Describe(tensor)));
  }
  const Node& at = *term.operand(1);
  auto split = Literal(at, "number of access dimensions");
  if (!split.ok()) return split.status();
  if (*split < 0 || *split > static_cast<int64_t>(tensor.dims.size())) {
    return ErrorAt(at.loc(), absl::StrCat("access splits ", Describe(tensor),
                                          " after 0 to ", tensor.dims.size(),
                                          " dimensions, not ", *split));
  }
  TermType result = tensor;
  result.access_dims = static_cast<int>(*split);
  return result;
}

absl::StatusOr<TermType> Transpose(const Node& term, const TermType& ap) {
  const Node& list = *term.operand(1);
  auto order = LiteralList(list, Op::kList, 0);
  if (!order.ok()) return order.status();
  std::vector<int64_t> sorted = *order;
  std::sort(sorted.begin(), sorted.end());
  bool permutation = sorted.size() == ap.dims.size();
  for (size_t i = 0; permutation && i < sorted.size(); ++i) {
    permutation = sorted[i] == static_cast<int64_t>(i);
  }
  if (!permutation) {
    return ErrorAt(
        list.loc(),
        absl::StrCat("transpose needs a permutation of the ", ap.dims.size(),
                     " dimensions of ", Describe(ap), ", found ", Text(list)));
  }
  TermType result = ap;
  for (size_t i = 0; i < order->size(); ++i) {
    result.dims[i] = ap.dims[(*order)[i]];
  }
  return result;
}

absl::StatusOr<TermType> Windows(const Node& term, const TermType& ap) {
  auto window = LiteralList(*term.operand(1), Op::kShape, 1);
  if (!window.ok()) return window.status();
  auto strides = LiteralList(*term.operand(2), Op::kShape, 1);
  if (!strides.ok()) return strides.status();
  std::vector<int64_t> compute = ap.compute();
  if (window->size() != compute.size() || strides->size() != compute.size()) {
    return ErrorAt(
        term.loc(),
        absl::StrCat("windows needs a window shape and strides for each of "
                     "the ",
                     compute.size(), " compute dimensions of ", Describe(ap)));
  }
  std::vector<int64_t> access = ap.access();
  for (size_t i = 0; i < compute.size(); ++i) {
    if ((*window)[i] > compute[i]) {
      return ErrorAt(term.operand(1)->operand(i)->loc(),
                     absl::StrCat("window dimension ", i, " is ", (*window)[i],
                                  ", larger than its extent ", compute[i],
                                  " in ", Describe(ap)));
    }
    access.push_back((compute[i] - (*window)[i]) / (*strides)[i] + 1);
  }
  return TermType::Access(ap.elem, std::move(access), *window);
}

absl::StatusOr<TermType> Slice(const Node& term, const TermType& ap) {
  auto dim = Dimension(*term.operand(1), ap);
  if (!dim.ok()) return dim.status();
  auto lo = Literal(*term.operand(2), "lower bound");
  if (!lo.ok()) return lo.status();
  auto hi = Literal(*term.operand(3), "upper bound");
  if (!hi.ok()) return hi.status();
  if (*lo < 0 || *lo >= *hi || *hi > ap.dims[*dim]) {
    return ErrorAt(term.loc(), absl::StrCat("slice [", *lo, ", ", *hi,
                                            ") of dimension ", *dim,
                                            " must be non-empty and within "
                                            "its extent ",
                                            ap.dims[*dim]));
  }
  TermType result = ap;
  result.dims[*dim] = *hi - *lo;
  return result;
}

absl::StatusOr<TermType> Squeeze(const Node& term, const TermType& ap) {
  const Node& at = *term.operand(1);
  auto dim = Dimension(at, ap);
  if (!dim.ok()) return dim.status();
  if (ap.dims[*dim] != 1) {
    return ErrorAt(at.loc(), absl::StrCat("squeeze needs a dimension of "
                                          "extent 1, but dimension ",
                                          *dim, " of ", Describe(ap), " is ",
                                          ap.dims[*dim]));
  }
  // Through Access: squeezing the last dimension leaves a scalar.
  std::vector<int64_t> parts[2] = {ap.access(), ap.compute()};
  bool in_access = *dim < ap.access_dims;
  std::vector<int64_t>& part = parts[in_access ? 0 : 1];
  part.erase(part.begin() + (in_access ? *dim : *dim - ap.access_dims));
  return TermType::Access(ap.elem, parts[0], parts[1]);
}

absl::StatusOr<TermType> Flatten(const Node& term, const TermType& ap) {
  std::vector<int64_t> parts[2] = {ap.access(), ap.compute()};
  for (std::vector<int64_t>& part : parts) {
    if (part.empty()) continue;
    auto count = Product(term, part);
    if (!count.ok()) return count.status();
    part = {*count};
  }
  return TermType::Access(ap.elem, parts[0], parts[1]);
}

absl::StatusOr<TermType> Reshape(const Node& term, const TermType& ap) {
  std::vector<int64_t> parts[2] = {ap.access(), ap.compute()};
  std::vector<int64_t> shapes[2];
  const char* names[2] = {"access", "compute"};
  for (int i = 0; i < 2; ++i) {
    const Node& list = *term.operand(i + 1);
    auto shape = LiteralList(list, Op::kShape, 1);
    if (!shape.ok()) return shape.status();
    auto want = Product(term, parts[i]);
    if (!want.ok()) return want.status();
    auto have = Product(list, *shape);
    if (!have.ok()) return have.status();
    if (*want != *have) {
      return ErrorAt(
          list.loc(),
          absl::StrCat("reshape must keep the element count: the ", names[i],
                       " dimensions ", Shape(parts[i]), " hold ", *want,
                       ", but ", Text(list), " holds ", *have));
    }
    shapes[i] = *std::move(shape);
  }
  return TermType::Access(ap.elem, shapes[0], shapes[1]);
}

absl::StatusOr<TermType> Concat(const Node& term, const TermType& a,
                                const TermType& b, TermElem elem) {
  auto dim = Dimension(*term.operand(2), a);
  if (!dim.ok()) return dim.status();
  bool agree = a.dims.size() == b.dims.size() && a.access_dims == b.access_dims;
  for (size_t i = 0; agree && i < a.dims.size(); ++i) {
    agree = static_cast<int64_t>(i) == *dim || a.dims[i] == b.dims[i];
  }
  if (!agree) {
    return ErrorAt(term.loc(), absl::StrCat("concat needs shapes that agree "
                                            "outside dimension ",
                                            *dim, ", found ", Describe(a),
                                            " and ", Describe(b)));
  }
  TermType result = a;
  result.elem = elem;
  if (__builtin_add_overflow(a.dims[*dim], b.dims[*dim], &result.dims[*dim])) {
    return ErrorAt(term.loc(), "the concatenated extent overflows 64 bits");
  }
  return result;
}

absl::StatusOr<TermType> Compute(const Node& term, const TermType& ap) {
  const std::string& op = term.name();
  std::optional<ComputeOp> compute_op = FindComputeOp(op);
  if (!compute_op) {
    return ErrorAt(term.name_loc(),
                   absl::StrCat("unknown access pattern operator '", op, "'"));
  }
  std::vector<int64_t> compute = ap.compute();
  bool reduces = Reduces(*compute_op);
  bool tupled = TakesTuple(*compute_op);
  if (tupled && compute.empty()) {
    return ErrorAt(term.loc(), absl::StrCat("'", op,
                                            "' needs a tuple dimension "
                                            "first among the compute "
                                            "dimensions of ",
                                            Describe(ap)));
  }
  if (reduces) compute.clear();
  if (tupled && !reduces) compute.erase(compute.begin());
  return TermType::Access(ap.elem, ap.access(), compute);
}

// cartProd and pair: a tuple dimension first among the compute dimensions.
absl::StatusOr<TermType> Combine(const Node& term, const TermType& a,
                                 const TermType& b, TermElem elem) {
  std::vector<int64_t> compute = a.compute();
  if (term.is(Op::kCartProd)) {
    if (compute != b.compute()) {
      return ErrorAt(term.loc(),
                     absl::StrCat("cartProd needs equal compute "
                                  "shapes, found ",
                                  Shape(compute), " and ", Shape(b.compute())));
    }
    std::vector<int64_t> access = a.access();
    std::vector<int64_t> more = b.access();
    access.insert(access.end(), more.begin(), more.end());
    compute.insert(compute.begin(), 2);
    return TermType::Access(elem, std::move(access), compute);
  }
  if (a.dims != b.dims || a.access_dims != b.access_dims) {
    return ErrorAt(term.loc(), absl::StrCat("pair needs equal shapes, found ",
                                            Describe(a), " and ", Describe(b)));
  }
  compute.insert(compute.begin(), 2);
  return TermType::Access(elem, a.access(), compute);
}

}  // namespace

bool IsAccessPattern(Op op) { return Info(op).op_class == OpClass::kAccess; }

std::vector<size_t> AccessPatternTerms(Op op) {
  switch (op) {
    case Op::kCartProd:
    case Op::kPair:
    case Op::kConcat:
      return {0, 1};
    default:
      return {0};
  }
}

absl::StatusOr<TermType> InferAccessPattern(
    const Node& term, const std::vector<TermType>& operands,
    LiteralGroups& groups) {
  if (term.is(Op::kAccess)) return Access(term, operands[0]);
  for (size_t i = 0; i < operands.size(); ++i) {
    if (auto status = ExpectAccessPattern(*term.operand(i), operands[i]);
        !status.ok()) {
      return status;
    }
  }
  const TermType& ap = operands[0];
  switch (term.op()) {
    case Op::kTranspose:
      return Transpose(term, ap);
    case Op::kWindows:
      return Windows(term, ap);
    case Op::kSlice:
      return Slice(term, ap);
    case Op::kSqueeze:
      return Squeeze(term, ap);
    case Op::kFlatten:
      return Flatten(term, ap);
    case Op::kReshape:
      return Reshape(term, ap);
    case Op::kCompute:
      return Compute(term, ap);
    default:
      break;
  }
  // cartProd, pair and concat combine two operands of one element type.
  auto elem = CommonElem(term, ap, operands[1], groups);
  if (!elem.ok()) return elem.status();
  if (term.is(Op::kConcat)) return Concat(term, ap, operands[1], *elem);
  return Combine(term, ap, operands[1], *elem);
}

}  // namespace tessel::ir
