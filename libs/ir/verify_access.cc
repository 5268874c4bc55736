#include "libs/ir/verify_access.h"

#include <algorithm>
#include <array>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/ir/verify_common.h"
#include "libs/sexpr/printer.h"
#include "libs/support/source.h"

namespace tessel {
namespace {

// An access-pattern form: its operand count and the positions of its term
// operands (0 for none).
struct FormInfo {
  absl::string_view head;
  size_t operands;
  size_t terms[2];
};

const FormInfo* FindForm(absl::string_view head) {
  static constexpr auto kForms = std::to_array<FormInfo>({
      {"access", 2, {1, 0}},
      {"transpose", 2, {1, 0}},
      {"cartProd", 2, {1, 2}},
      {"windows", 3, {1, 0}},
      {"slice", 4, {1, 0}},
      {"squeeze", 2, {1, 0}},
      {"flatten", 1, {1, 0}},
      {"reshape", 3, {1, 0}},
      {"pair", 2, {1, 2}},
      {"concat", 3, {1, 2}},
      {"compute", 2, {2, 0}},
  });
  for (const FormInfo& form : kForms) {
    if (form.head == head) return &form;
  }
  return nullptr;
}

std::string Shape(const std::vector<int64_t>& dims) {
  return absl::StrCat("(", absl::StrJoin(dims, " "), ")");
}

absl::StatusOr<int64_t> Literal(const Sexpr& expr, absl::string_view what) {
  if (!expr.is_int()) {
    return ErrorAt(expr.loc(),
                   absl::StrCat("expected an integer literal for "
                                "the ",
                                what, ", found '", PrintFlat(expr), "'"));
  }
  return expr.int_value();
}

// `(HEAD N...)` with integer literals, e.g. (list 1 0) or (shape 3 3).
absl::StatusOr<std::vector<int64_t>> LiteralList(const Sexpr& expr,
                                                 absl::string_view head,
                                                 int64_t minimum) {
  if (!expr.is_form(head)) {
    return ErrorAt(expr.loc(), absl::StrCat("expected (", head,
                                            " N...), "
                                            "found '",
                                            PrintFlat(expr), "'"));
  }
  std::vector<int64_t> values;
  for (size_t i = 1; i < expr.size(); ++i) {
    if (!expr[i].is_int() || expr[i].int_value() < minimum) {
      return ErrorAt(expr[i].loc(),
                     absl::StrCat("expected an integer literal >= ", minimum,
                                  ", found '", PrintFlat(expr[i]), "'"));
    }
    values.push_back(expr[i].int_value());
  }
  return values;
}

absl::Status ExpectAccessPattern(const Sexpr& at, const TermType& type) {
  if (type.is_access()) return absl::OkStatus();
  return ErrorAt(at.loc(),
                 absl::StrCat("expected an access pattern, found ",
                              Describe(type), "; make one with (access T N)"));
}

// The product of `dims`, or an error at `at` when it overflows.
absl::StatusOr<int64_t> Product(const Sexpr& at,
                                const std::vector<int64_t>& dims) {
  int64_t product = 1;
  for (int64_t dim : dims) {
    if (__builtin_mul_overflow(product, dim, &product)) {
      return ErrorAt(at.loc(), "the element count overflows 64 bits");
    }
  }
  return product;
}

// The element type two operands share.
absl::StatusOr<ScalarType> CommonElem(const Sexpr& term, const TermType& a,
                                      const TermType& b) {
  if (a.elem.is_elem() && b.elem.is_elem() && a.elem.elem != b.elem.elem) {
    return ErrorAt(term.loc(),
                   absl::StrCat("'", term.head(),
                                "' needs operands of one element "
                                "type, found ",
                                Describe(a.elem), " and ", Describe(b.elem)));
  }
  return a.elem.is_elem() ? a.elem : b.elem;
}

absl::StatusOr<int64_t> Dimension(const Sexpr& expr, const TermType& type) {
  auto dim = Literal(expr, "dimension");
  if (!dim.ok()) return dim;
  if (*dim < 0 || *dim >= static_cast<int64_t>(type.dims.size())) {
    return ErrorAt(expr.loc(),
                   absl::StrCat("dimension ", *dim, " is out of range for ",
                                Describe(type)));
  }
  return dim;
}

absl::StatusOr<TermType> Transpose(const Sexpr& term, const TermType& ap) {
  auto order = LiteralList(term[2], "list", 0);
  if (!order.ok()) return order.status();
  std::vector<int64_t> sorted = *order;
  std::sort(sorted.begin(), sorted.end());
  bool permutation = sorted.size() == ap.dims.size();
  for (size_t i = 0; permutation && i < sorted.size(); ++i) {
    permutation = sorted[i] == static_cast<int64_t>(i);
  }
  if (!permutation) {
    return ErrorAt(term[2].loc(),
                   absl::StrCat("transpose needs a permutation of the ",
                                ap.dims.size(), " dimensions of ", Describe(ap),
                                ", found ", PrintFlat(term[2])));
  }
  TermType result = ap;
  for (size_t i = 0; i < order->size(); ++i) {
    result.dims[i] = ap.dims[(*order)[i]];
  }
  return result;
}

absl::StatusOr<TermType> Windows(const Sexpr& term, const TermType& ap) {
  auto window = LiteralList(term[2], "shape", 1);
  if (!window.ok()) return window.status();
  auto strides = LiteralList(term[3], "shape", 1);
  if (!strides.ok()) return strides.status();
  std::vector<int64_t> compute = ap.compute();
  if (window->size() != compute.size() || strides->size() != compute.size()) {
    return ErrorAt(
        term.loc(),
        absl::StrCat("windows needs a window shape and strides "
                     "for each of the ",
                     compute.size(), " compute dimensions of ", Describe(ap)));
  }
  std::vector<int64_t> access = ap.access();
  for (size_t i = 0; i < compute.size(); ++i) {
    if ((*window)[i] > compute[i]) {
      return ErrorAt(term[2][i + 1].loc(),
                     absl::StrCat("window dimension ", i, " is ", (*window)[i],
                                  ", larger than its extent ", compute[i],
                                  " in ", Describe(ap)));
    }
    access.push_back((compute[i] - (*window)[i]) / (*strides)[i] + 1);
  }
  return TermType::Access(ap.elem, std::move(access), *window);
}

absl::StatusOr<TermType> Slice(const Sexpr& term, const TermType& ap) {
  auto dim = Dimension(term[2], ap);
  if (!dim.ok()) return dim.status();
  auto lo = Literal(term[3], "lower bound");
  if (!lo.ok()) return lo.status();
  auto hi = Literal(term[4], "upper bound");
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

absl::StatusOr<TermType> Squeeze(const Sexpr& term, const TermType& ap) {
  auto dim = Dimension(term[2], ap);
  if (!dim.ok()) return dim.status();
  if (ap.dims[*dim] != 1) {
    return ErrorAt(term[2].loc(), absl::StrCat("squeeze needs a dimension of "
                                               "extent 1, but dimension ",
                                               *dim, " of ", Describe(ap),
                                               " is ", ap.dims[*dim]));
  }
  TermType result = ap;
  result.dims.erase(result.dims.begin() + *dim);
  if (*dim < ap.access_dims) --result.access_dims;
  return result;
}

absl::StatusOr<TermType> Flatten(const Sexpr& term, const TermType& ap) {
  std::vector<int64_t> parts[2] = {ap.access(), ap.compute()};
  for (std::vector<int64_t>& part : parts) {
    if (part.empty()) continue;
    auto count = Product(term, part);
    if (!count.ok()) return count.status();
    part = {*count};
  }
  return TermType::Access(ap.elem, parts[0], parts[1]);
}

absl::StatusOr<TermType> Reshape(const Sexpr& term, const TermType& ap) {
  std::vector<int64_t> parts[2] = {ap.access(), ap.compute()};
  std::vector<int64_t> shapes[2];
  const char* names[2] = {"access", "compute"};
  for (int i = 0; i < 2; ++i) {
    auto shape = LiteralList(term[i + 2], "shape", 1);
    if (!shape.ok()) return shape.status();
    auto want = Product(term, parts[i]);
    if (!want.ok()) return want.status();
    auto have = Product(term[i + 2], *shape);
    if (!have.ok()) return have.status();
    if (*want != *have) {
      return ErrorAt(
          term[i + 2].loc(),
          absl::StrCat("reshape must keep the element count: the ", names[i],
                       " dimensions ", Shape(parts[i]), " hold ", *want,
                       ", but ", PrintFlat(term[i + 2]), " holds ", *have));
    }
    shapes[i] = *std::move(shape);
  }
  return TermType::Access(ap.elem, shapes[0], shapes[1]);
}

absl::StatusOr<TermType> Concat(const Sexpr& term, const TermType& a,
                                const TermType& b, ScalarType elem) {
  auto dim = Dimension(term[3], a);
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

absl::StatusOr<TermType> Compute(const Sexpr& term, const TermType& ap) {
  if (!term[1].is_symbol()) {
    return ErrorAt(term[1].loc(), "expected an access pattern operator");
  }
  absl::string_view op = term[1].text();
  std::vector<int64_t> compute = ap.compute();
  bool reduces = op == "reduceSum" || op == "reduceMax" || op == "dotProd";
  bool tupled =
      op == "dotProd" || op == "elementwiseAdd" || op == "elementwiseMul";
  if (!reduces && !tupled && op != "relu") {
    return ErrorAt(term[1].loc(), absl::StrCat("unknown access pattern "
                                               "operator '",
                                               op, "'"));
  }
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

}  // namespace

bool IsAccessPatternForm(absl::string_view head) {
  return FindForm(head) != nullptr;
}

size_t AccessPatternArity(absl::string_view head) {
  const FormInfo* form = FindForm(head);
  return form != nullptr ? form->operands : 0;
}

std::vector<size_t> AccessPatternOperands(absl::string_view head) {
  std::vector<size_t> positions;
  if (const FormInfo* form = FindForm(head)) {
    for (size_t position : form->terms) {
      if (position != 0) positions.push_back(position);
    }
  }
  return positions;
}

absl::StatusOr<TermType> InferAccessPattern(
    const Sexpr& term, const std::vector<TermType>& operands) {
  absl::string_view head = term.head();
  const std::vector<size_t> positions = AccessPatternOperands(head);
  if (head == "access") {
    const TermType& tensor = operands[0];
    if (!tensor.is_array()) {
      return ErrorAt(term[1].loc(), absl::StrCat("access needs a tensor, "
                                                 "found ",
                                                 Describe(tensor)));
    }
    auto split = Literal(term[2], "number of access dimensions");
    if (!split.ok()) return split.status();
    if (*split < 0 || *split > static_cast<int64_t>(tensor.dims.size())) {
      return ErrorAt(
          term[2].loc(),
          absl::StrCat("access splits ", Describe(tensor), " after 0 to ",
                       tensor.dims.size(), " dimensions, not ", *split));
    }
    TermType result = tensor;
    result.access_dims = static_cast<int>(*split);
    return result;
  }
  for (size_t i = 0; i < operands.size(); ++i) {
    if (auto status = ExpectAccessPattern(term[positions[i]], operands[i]);
        !status.ok()) {
      return status;
    }
  }
  const TermType& ap = operands[0];
  if (head == "transpose") return Transpose(term, ap);
  if (head == "windows") return Windows(term, ap);
  if (head == "slice") return Slice(term, ap);
  if (head == "squeeze") return Squeeze(term, ap);
  if (head == "flatten") return Flatten(term, ap);
  if (head == "reshape") return Reshape(term, ap);
  if (head == "compute") return Compute(term, ap);
  const TermType& other = operands[1];
  auto elem = CommonElem(term, ap, other);
  if (!elem.ok()) return elem.status();
  if (head == "concat") return Concat(term, ap, other, *elem);
  std::vector<int64_t> compute = ap.compute();
  if (head == "cartProd") {
    if (compute != other.compute()) {
      return ErrorAt(term.loc(), absl::StrCat("cartProd needs equal compute "
                                              "shapes, found ",
                                              Shape(compute), " and ",
                                              Shape(other.compute())));
    }
    std::vector<int64_t> access = ap.access();
    std::vector<int64_t> more = other.access();
    access.insert(access.end(), more.begin(), more.end());
    compute.insert(compute.begin(), 2);
    return TermType::Access(*elem, std::move(access), compute);
  }
  // pair
  if (ap.dims != other.dims || ap.access_dims != other.access_dims) {
    return ErrorAt(term.loc(),
                   absl::StrCat("pair needs equal shapes, found ", Describe(ap),
                                " and ", Describe(other)));
  }
  compute.insert(compute.begin(), 2);
  return TermType::Access(*elem, ap.access(), compute);
}

}  // namespace tessel
