// Data expressions, locations and windows at the loop level, with the bounds
// check of every element access and window (asked of the polyhedral model,
// libs/poly/model.h).
#include <cstdint>
#include <optional>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "libs/ir/op.h"
#include "libs/ir/views.h"
#include "libs/verify/common.h"
#include "libs/verify/proc.h"
#include "libs/poly/box.h"
#include "libs/support/source.h"

namespace tessel::ir {
namespace {

// Where a selector or index may go: index k of a tensor lies in
// [0, extent); an interval (: LO HI) satisfies 0 <= LO < HI <= extent.
// Its values are an index and an extent, or LO, HI and an extent.
struct Range {
  const Node* at;
  bool is_interval;
  int first_value;  // position of its values in the query
};

// A value isl reported, for comparisons: values beyond 64 bits (possible
// with huge literals) saturate.
int64_t ValueOf(const std::string& text) {
  int64_t value = 0;
  if (absl::SimpleAtoi(text, &value)) return value;
  return !text.empty() && text[0] == '-' ? INT64_MIN : INT64_MAX;
}

// The message for the first range that `values` break.
std::string DescribeViolation(const std::vector<Range>& ranges,
                              const std::vector<std::string>& values,
                              const std::string& name, const Node** at) {
  for (size_t k = 0; k < ranges.size(); ++k) {
    const Range& range = ranges[k];
    *at = range.at;
    const std::string& first = values[range.first_value];
    const std::string& second = values[range.first_value + 1];
    if (!range.is_interval) {
      if (ValueOf(first) < 0) {
        return absl::StrCat("index ", k, " of '", name, "' can be ", first,
                            ", below 0");
      }
      if (ValueOf(first) >= ValueOf(second)) {
        return absl::StrCat("index ", k, " of '", name, "' can reach ", first,
                            ", outside its extent ", second);
      }
      continue;
    }
    const std::string& extent = values[range.first_value + 2];
    if (ValueOf(first) < 0) {
      return absl::StrCat("interval ", k, " of the window on '", name,
                          "' can start at ", first, ", below 0");
    }
    if (ValueOf(second) > ValueOf(extent)) {
      return absl::StrCat("interval ", k, " of the window on '", name,
                          "' can end at ", second, ", beyond its extent ",
                          extent);
    }
    if (ValueOf(first) >= ValueOf(second)) {
      return absl::StrCat("interval ", k, " of the window on '", name,
                          "' can be empty (from ", first, " to ", second, ")");
    }
  }
  return "";
}

// The instances where the indices and intervals `ranges`, whose bounds
// are `values`, leave their tensor.
isl::set OutOfRange(const std::vector<Range>& ranges,
                    const std::vector<isl::pw_aff>& values) {
  isl::set outside;
  for (const Range& range : ranges) {
    const isl::pw_aff& first = values[range.first_value];
    const isl::pw_aff& second = values[range.first_value + 1];
    isl::set out =
        first.lt_set(poly::ConstantOn(first, 0)).unite(first.ge_set(second));
    if (range.is_interval) {
      out = out.unite(second.gt_set(values[range.first_value + 2]));
    }
    outside = outside.is_null() ? out : outside.unite(out);
  }
  return outside;
}

// Checks that the indices and intervals `ranges`, whose bounds are
// `values`, stay inside `name` at every instance of `stmt`.
absl::Status CheckRanges(const poly::ProcModel& model, const Node& stmt,
                         const std::vector<isl::pw_aff>& values,
                         const std::vector<Range>& ranges,
                         const std::string& name) {
  auto violation = model.FindViolation(stmt, values, [&](const auto& values) {
    return OutOfRange(ranges, values);
  });
  if (!violation.ok()) return violation.status();
  if (!violation->has_value()) return absl::OkStatus();
  const Node* at = ranges.front().at;
  std::string message =
      DescribeViolation(ranges, (*violation)->values, name, &at);
  return ErrorAt(at->loc(), absl::StrCat(message, AtPoint((*violation)->at)));
}

bool IsIntLiteral(const Node& node) {
  return node.is(Op::kConst) && !node.is_float_literal();
}

// An affine function of the loops around an access whose bounds are
// literals: constant + sum(coeffs[k] * x[k]), x[k] counting the iterations
// of loops[k] from 0 to extents[k].
struct LoopAffine {
  std::vector<const Node*> loops;
  std::vector<int64_t> extents;
  std::vector<int64_t> coeffs;
  int64_t constant = 0;

  // Adds factor * `expr`; false when `expr` is not such a function (then
  // isl decides) or a coefficient overflows.
  bool Add(const Node& expr, int64_t factor) {
    switch (expr.op()) {
      case Op::kConst:
        return IsIntLiteral(expr) && AddConstant(expr.int_value(), factor);
      case Op::kRef:
        return AddLoop(expr.def(), factor);
      case Op::kAdd:
        return Add(*expr.operand(0), factor) && Add(*expr.operand(1), factor);
      case Op::kSub:
        return Add(*expr.operand(0), factor) && Add(*expr.operand(1), -factor);
      case Op::kNeg:
        return factor != INT64_MIN && Add(*expr.operand(0), -factor);
      case Op::kMul:
        for (int literal = 0; literal < 2; ++literal) {
          const Node& scale = *expr.operand(literal);
          int64_t scaled;
          if (IsIntLiteral(scale) &&
              !__builtin_mul_overflow(factor, scale.int_value(), &scaled)) {
            return Add(*expr.operand(1 - literal), scaled);
          }
        }
        return false;
      default:
        return false;
    }
  }

 private:
  bool AddConstant(int64_t value, int64_t factor) {
    int64_t term;
    return !__builtin_mul_overflow(value, factor, &term) &&
           !__builtin_add_overflow(constant, term, &constant);
  }

  // The variable of `loop`, a For of literal bounds LO and HI: LO + x with
  // 0 <= x < HI - LO.
  bool AddLoop(const Node* loop, int64_t factor) {
    if (loop == nullptr || !loop->is(Op::kFor) ||
        !IsIntLiteral(*loop->operand(0)) || !IsIntLiteral(*loop->operand(1))) {
      return false;
    }
    int64_t lo = loop->operand(0)->int_value();
    size_t k = 0;
    while (k < loops.size() && loops[k] != loop) ++k;
    if (k == loops.size()) {
      int64_t extent;
      if (__builtin_sub_overflow(loop->operand(1)->int_value(), lo, &extent)) {
        return false;
      }
      loops.push_back(loop);
      extents.push_back(extent);
      coeffs.push_back(0);
    }
    return !__builtin_add_overflow(coeffs[k], factor, &coeffs[k]) &&
           AddConstant(lo, factor);
  }
};

// Whether the element `indices` name surely lies inside `view` at every
// instance of the statement: indices affine in loops of literal bounds, in
// a view of literal extents, whose range on the loops' box (poly/box.h)
// lies inside them. The usual case, settled without isl; false when it is
// not settled so (isl then decides, and names a point out of bounds).
// Sound: the statement's instances lie inside the box.
bool SurelyInside(absl::Span<Node* const> indices, const View& view) {
  std::optional<std::vector<int64_t>> extents = view.type.ConstantDims();
  if (!extents || extents->size() != indices.size()) return false;
  for (size_t k = 0; k < indices.size(); ++k) {
    LoopAffine index;
    if (!index.Add(*indices[k], 1)) return false;
    std::optional<poly::Interval> range =
        poly::RangeOnBox(index.coeffs, index.constant, index.extents);
    if (!range || range->low < 0 || range->high >= (*extents)[k]) return false;
  }
  return true;
}

// The dimension (: LO HI) keeps, as a type writes it: the literal HI - LO,
// HI itself when LO is 0, else a new detached (- HI LO).
Dim KeptDimension(Module& module, const Node& interval) {
  const Node& lo = *interval.operand(0);
  const Node& hi = *interval.operand(1);
  int64_t difference;
  if (IsIntLiteral(lo) && IsIntLiteral(hi) &&
      !__builtin_sub_overflow(hi.int_value(), lo.int_value(), &difference)) {
    return Dim::Constant(difference);
  }
  if (IsIntLiteral(lo) && lo.int_value() == 0) return Dim::Symbolic(&hi);
  Node* sub = module.Create(Op::kSub, interval.loc());
  module.Append(sub, module.Clone(&hi));
  module.Append(sub, module.Clone(&lo));
  sub->set_type(Type::Control(ControlType::kIndex));
  return Dim::Symbolic(sub);
}

// The dimension (: LO HI STEP) keeps, ceil((HI - LO) / STEP): a literal, or
// a new detached (/ (+ (- HI LO) STEP-1) STEP).
Dim SteppedDimension(Module& module, const Node& interval, int64_t step) {
  Dim difference = KeptDimension(module, interval);
  if (difference.is_constant()) {
    return Dim::Constant((difference.value + step - 1) / step);
  }
  // HI itself when LO is 0: a detached copy.
  Node* span = difference.expr->parent() != nullptr
                   ? module.Clone(difference.expr)
                   : const_cast<Node*>(difference.expr);
  Node* rounded = module.Create(Op::kAdd, interval.loc());
  Node* quotient = module.Create(Op::kDiv, interval.loc());
  Node* below = module.Create(Op::kConst, interval.loc());
  below->set_int(step - 1);
  Node* divisor = module.Create(Op::kConst, interval.loc());
  divisor->set_int(step);
  module.Append(rounded, span);
  module.Append(rounded, below);
  module.Append(quotient, rounded);
  module.Append(quotient, divisor);
  for (Node* node : {rounded, quotient, below, divisor}) {
    node->set_type(Type::Control(ControlType::kIndex));
  }
  return Dim::Symbolic(quotient);
}

bool IsAddressable(const Node& memory) {
  for (const Node* clause : memory.operands()) {
    if (clause->name() == "addressable") return clause->text() != "false";
  }
  return true;
}

}  // namespace

absl::Status ProcVerifier::CheckIndices(absl::Span<Node* const> indices,
                                        const View& view,
                                        const std::string& name) {
  for (Node* index : indices) {
    if (auto type = ControlInt(*index); !type.ok()) return type.status();
  }
  if (indices.empty() || !checks_.bounds || SurelyInside(indices, view)) {
    return absl::OkStatus();
  }
  const Node& stmt = model_.StatementOf(*indices.front());
  auto extents = model_.Extents(*view.source, stmt);
  if (!extents.ok()) return extents.status();
  std::vector<isl::pw_aff> values;
  std::vector<Range> ranges;
  for (size_t k = 0; k < indices.size(); ++k) {
    auto value = model_.Affine(*indices[k]);
    if (!value.ok()) return value.status();
    ranges.push_back(Range{indices[k], false, static_cast<int>(values.size())});
    values.push_back(*std::move(value));
    values.push_back((*extents)[k]);
  }
  return CheckRanges(model_, stmt, values, ranges, name);
}

absl::Status ProcVerifier::CheckSpanInside(Node& index, int64_t span,
                                           const View& view, int dim,
                                           const std::string& name) {
  if (!checks_.bounds) return absl::OkStatus();
  const Node& stmt = model_.StatementOf(index);
  auto extents = model_.Extents(*view.source, stmt);
  if (!extents.ok()) return extents.status();
  auto first = model_.Affine(index);
  if (!first.ok()) return first.status();
  // The span [index, index + span) as an interval inside the extent.
  std::vector<isl::pw_aff> values = {*first, first->add_constant(span),
                                     (*extents)[dim]};
  std::vector<Range> ranges = {Range{&index, true, 0}};
  auto violation = model_.FindViolation(stmt, values, [&](const auto& values) {
    return OutOfRange(ranges, values);
  });
  if (!violation.ok()) return violation.status();
  if (!violation->has_value()) return absl::OkStatus();
  const std::vector<std::string>& at = (*violation)->values;
  return ErrorAt(
      index.loc(),
      absl::StrCat(span > 1 ? absl::StrCat("the ", span,
                                           " in-bounds lanes from index ")
                            : std::string("index "),
                   at[0], " of dimension ", dim, " of '", name, "' ",
                   span > 1 ? "leave" : "is outside", " its extent ", at[2],
                   AtPoint((*violation)->at)));
}

absl::StatusOr<const LoopName*> ProcVerifier::FindData(Node& name) {
  const LoopName* bound = Find(name.def());
  if (bound == nullptr) {
    return ErrorAt(name.loc(),
                   absl::StrCat("unbound name '", name.name(), "'"));
  }
  name.set_type(BinderType(*name.def()));
  if (!bound->is_data) {
    return ErrorAt(
        name.loc(),
        absl::StrCat("'", name.name(), "' is a control value (",
                     ControlTypeName(bound->control), "), not data"));
  }
  return bound;
}

absl::Status ProcVerifier::CheckAddressable(const Node& name,
                                            const LoopName& data) const {
  if (!checks_.memories || proc_.is(Op::kInstr) ||
      IsAddressable(*data.view.memory)) {
    return absl::OkStatus();
  }
  return ErrorAt(
      name.loc(),
      absl::StrCat("'", name.name(), "' is in ", data.view.memory->name(),
                   ", which is not addressable: only an instr may "
                   "access it directly"));
}

absl::StatusOr<ElemType> ProcVerifier::CheckLocation(Node& location,
                                                     bool write) {
  Node* name = nullptr;
  switch (location.op()) {
    case Op::kRef:
      name = &location;
      break;
    case Op::kLoad:
      name = location.operand(0);
      break;
    case Op::kConst:
      return ErrorAt(location.loc(), absl::StrCat("expected a scalar NAME or "
                                                  "an element (NAME I...), "
                                                  "found '",
                                                  Text(location), "'"));
    case Op::kVar:
      return ErrorAt(location.loc(),
                     absl::StrCat("unbound name '", Text(location), "'"));
    default:
      // An operator where a name goes: the head is no bound name.
      return ErrorAt(
          location.item_loc(0),
          absl::StrCat("unbound name '", Spelling(location.op()), "'"));
  }
  auto data = FindData(*name);
  if (!data.ok()) return data.status();
  const View& view = (*data)->view;
  if (view.type.is_vector()) {
    return ErrorAt(
        location.loc(),
        absl::StrCat("'", name->name(), "' is a vector ", TypeText(view.type),
                     ", not a scalar: read a lane with (extract ", name->name(),
                     " P...)"));
  }
  int rank = view.type.rank();
  bool is_element = location.is(Op::kLoad);
  int indices = static_cast<int>(location.num_operands()) - 1;
  if (!is_element && rank > 0) {
    return ErrorAt(location.loc(),
                   absl::StrCat("'", name->name(), "' has rank ", rank,
                                "; an element is (", name->name(), " I...)"));
  }
  if (is_element && rank == 0) {
    return ErrorAt(
        location.loc(),
        absl::StrCat("'", name->name(), "' is a scalar; write it as ",
                     name->name(), ", without parentheses"));
  }
  if (is_element && indices != rank) {
    return ErrorAt(
        location.loc(),
        absl::StrCat("'", name->name(), "' has rank ", rank, ", but ", indices,
                     indices == 1 ? " index is" : " indices are", " given"));
  }
  if (write && !view.writable) {
    return ErrorAt(
        name->loc(),
        view.read_only_source == name->name()
            ? absl::StrCat("'", name->name(),
                           "' is an in parameter and cannot be written")
            : absl::StrCat("'", name->name(), "' views the in parameter '",
                           view.read_only_source, "' and cannot be written"));
  }
  if (auto status = CheckAddressable(*name, **data); !status.ok()) {
    return status;
  }
  if (is_element) {
    if (auto status =
            CheckIndices(location.operands().subspan(1), view, name->name());
        !status.ok()) {
      return status;
    }
  }
  if (is_element) location.set_type(Type::Elem(view.type.elem()));
  return view.type.elem();
}

absl::StatusOr<View> ProcVerifier::CheckWindow(Node& window) {
  if (!window.is(Op::kWindow) || !window.operand(0)->is(Op::kRef)) {
    return ErrorAt(window.loc(), absl::StrCat("expected a window "
                                              "(window NAME SEL...), found '",
                                              Text(window), "'"));
  }
  Node& name = *window.operand(0);
  auto data = FindData(name);
  if (!data.ok()) return data.status();
  const View& base = (*data)->view;
  int rank = base.type.rank();
  if (base.type.is_vector()) {
    return ErrorAt(name.loc(), absl::StrCat("'", name.name(),
                                            "' is a vector and has no "
                                            "windows"));
  }
  if (rank == 0) {
    return ErrorAt(name.loc(), absl::StrCat("'", name.name(),
                                            "' is a scalar and has no "
                                            "windows"));
  }
  absl::Span<Node* const> selector_nodes = WindowView::SelectorsOf(window);
  for (const Node* selector : selector_nodes) {
    if (selector->is(Op::kPermutation)) {
      return ErrorAt(selector->loc(),
                     "a window's (perm P...) comes after all its selectors");
    }
  }
  int selectors = static_cast<int>(selector_nodes.size());
  if (selectors != rank) {
    return ErrorAt(window.loc(), absl::StrCat("'", name.name(), "' has rank ",
                                              rank, ", but the window has ",
                                              selectors, " selectors"));
  }
  View view;
  view.source = &window;
  view.root = base.root;
  view.memory = base.memory;
  view.writable = base.writable;
  view.read_only_source = base.read_only_source;
  std::vector<Dim> dims;
  std::vector<Node*> bounds;  // LO and HI of each interval, each point
  std::vector<Range> ranges;
  for (int k = 0; k < rank; ++k) {
    Node& selector = *selector_nodes[k];
    bool interval = WindowView::KeptBy(selector) > 0;
    // Its values follow those of the selectors before, an extent each.
    ranges.push_back(
        Range{&selector, interval, static_cast<int>(bounds.size()) + k});
    Node* point = &selector;
    absl::Span<Node* const> ends = absl::MakeConstSpan(&point, 1);
    if (interval) ends = selector.operands().first(2);
    // Typed before the dimensions copy them.
    for (Node* bound : ends) {
      if (auto type = ControlInt(*bound); !type.ok()) return type.status();
      bounds.push_back(bound);
    }
    if (interval) {
      auto shape = CheckKeptShape(selector);
      if (!shape.ok()) return shape.status();
      dims.insert(dims.end(), shape->begin(), shape->end());
    }
  }
  if (dims.empty()) {
    return ErrorAt(window.loc(),
                   absl::StrCat("a window keeps at least one dimension: give "
                                "an interval (: LO HI), or read one element "
                                "as (",
                                name.name(), " I...)"));
  }
  auto order = CheckPermutation(window, static_cast<int>(dims.size()));
  if (!order.ok()) return order.status();
  if (checks_.bounds) {
    // The values of the ranges: each selector's bounds, then the extent of
    // the dimension it selects in.
    const Node& stmt = model_.StatementOf(window);
    auto extents = model_.Extents(name, stmt);
    if (!extents.ok()) return extents.status();
    std::vector<isl::pw_aff> values;
    size_t next = 0;
    for (int k = 0; k < rank; ++k) {
      for (int i = 0; i < (ranges[k].is_interval ? 2 : 1); ++i) {
        auto value = model_.Affine(*bounds[next++]);
        if (!value.ok()) return value.status();
        values.push_back(*std::move(value));
      }
      values.push_back((*extents)[k]);
    }
    if (auto status = CheckRanges(model_, stmt, values, ranges, name.name());
        !status.ok()) {
      return status;
    }
  }
  std::vector<Dim> permuted;
  for (int natural : *order) permuted.push_back(dims[natural]);
  view.type = Type::Window(base.type.elem(), std::move(permuted));
  window.set_type(view.type);
  return view;
}

absl::StatusOr<std::vector<Dim>> ProcVerifier::CheckKeptShape(Node& selector) {
  if (selector.is(Op::kInterval)) {
    if (selector.num_operands() > 3) {
      return ErrorAt(selector.loc(),
                     absl::StrCat("an interval is (: LO HI) or (: LO HI "
                                  "STEP), found '",
                                  Text(selector), "'"));
    }
    if (selector.num_operands() == 2) {
      return std::vector<Dim>{KeptDimension(module_, selector)};
    }
    Node& step = *selector.operand(2);
    if (!IsIntLiteral(step) || step.int_value() < 1) {
      return ErrorAt(step.loc(),
                     absl::StrCat("the step of an interval is a positive "
                                  "integer literal, found '",
                                  Text(step), "'"));
    }
    if (auto type = ControlInt(step); !type.ok()) return type.status();
    return std::vector<Dim>{SteppedDimension(module_, selector,
                                             step.int_value())};
  }
  // (split LO HI N): N divides HI - LO, both literals.
  const Node& lo = *selector.operand(0);
  const Node& hi = *selector.operand(1);
  Node& inner = *selector.operand(2);
  if (inner.int_value() < 1) {
    return ErrorAt(inner.loc(),
                   absl::StrCat("a split's row length is a positive integer "
                                "literal, found '",
                                Text(inner), "'"));
  }
  if (auto type = ControlInt(inner); !type.ok()) return type.status();
  if (!IsIntLiteral(lo) || !IsIntLiteral(hi)) {
    return ErrorAt(selector.loc(),
                   absl::StrCat("the bounds of a split are integer literals, "
                                "found '",
                                Text(selector), "'"));
  }
  int64_t length = hi.int_value() - lo.int_value();
  if (length <= 0 || length % inner.int_value() != 0) {
    return ErrorAt(selector.loc(),
                   absl::StrCat("a split keeps rows of ", inner.int_value(),
                                ", but its interval has ", length,
                                " elements: '", Text(selector), "'"));
  }
  return std::vector<Dim>{Dim::Constant(length / inner.int_value()),
                          Dim::Constant(inner.int_value())};
}

absl::StatusOr<std::vector<int>> ProcVerifier::CheckPermutation(
    Node& window, int kept) {
  Node* perm = WindowView::PermutationOf(window);
  std::vector<int> order = WindowView::OrderOf(window);
  if (perm == nullptr) return order;
  if (static_cast<int>(order.size()) != kept) {
    return ErrorAt(perm->loc(),
                   absl::StrCat("the window keeps ", kept,
                                " dimensions, but its permutation has ",
                                order.size(), " entries: '", Text(*perm),
                                "'"));
  }
  std::vector<bool> seen(kept, false);
  for (size_t k = 0; k < order.size(); ++k) {
    Node& entry = *perm->operand(k);
    if (order[k] < 0 || order[k] >= kept || seen[order[k]]) {
      return ErrorAt(entry.loc(),
                     absl::StrCat("'", Text(*perm), "' is no permutation of 0 "
                                  "to ", kept - 1, ": entry ", k, " is ",
                                  order[k] < 0 || order[k] >= kept
                                      ? "out of range"
                                      : "a repeat"));
    }
    seen[order[k]] = true;
    if (auto type = ControlInt(entry); !type.ok()) return type.status();
  }
  return order;
}

absl::StatusOr<View> ProcVerifier::CheckDataArgument(Node& arg) {
  if (arg.is(Op::kRef)) {
    auto data = FindData(arg);
    if (!data.ok()) return data.status();
    return (*data)->view;
  }
  if (arg.is(Op::kWindow)) return CheckWindow(arg);
  if (arg.is(Op::kDescriptor)) return CheckDescriptor(arg);
  return ErrorAt(arg.loc(), absl::StrCat("a data argument is a name or a "
                                         "(window ...) expression, found '",
                                         Text(arg), "'"));
}

absl::StatusOr<ScalarType> ProcVerifier::InferData(
    Node& expr, std::optional<ElemType> expected) {
  switch (expr.op()) {
    case Op::kConst: {
      auto type = Conform(expr,
                          expr.is_float_literal() ? ScalarType::FloatLiteral()
                                                  : ScalarType::IntLiteral(),
                          expected);
      if (type.ok() && type->is_elem()) {
        if (auto fits = CheckLiteralFits(expr, type->elem); !fits.ok()) {
          return fits;
        }
        expr.set_type(Type::Elem(type->elem));
      }
      return type;
    }
    case Op::kRef:
    case Op::kLoad:
    case Op::kVar: {
      auto elem = CheckLocation(expr, /*write=*/false);
      if (!elem.ok()) return elem.status();
      return Conform(expr, ScalarType::Of(*elem), expected);
    }
    case Op::kReadConfig: {
      auto field = FindConfigField(expr);
      if (!field.ok()) return field.status();
      const Type& type = (*field)->declared_type();
      if (!type.is_elem()) {
        return ErrorAt(expr.loc(), absl::StrCat("field '", expr.name(),
                                                "' of '", expr.def()->name(),
                                                "' is a control value (",
                                                TypeText(type), "), not data"));
      }
      if (auto status = CheckNotClobbered(expr, *field); !status.ok()) {
        return status;
      }
      expr.set_type(type);
      return Conform(expr, ScalarType::Of(type.elem()), expected);
    }
    default:
      break;
  }
  // Where a scalar is expected, fma is the loop level's fused multiply-add
  // of scalars (C's fmaf); of vectors it is the vector level's.
  const bool scalar_fma = expr.is(Op::kFma);
  if (IsVectorOp(expr.op()) && !scalar_fma) {
    return InferVectorScalar(expr, expected);
  }
  if (IsScalarOperation(expr.op()) || scalar_fma) {
    auto type = InferScalarOperation(
        expr, expected,
        [this](Node& operand, std::optional<ElemType> type) {
          return InferData(operand, type);
        },
        [this](Node& cond) { return CheckSelectCondition(cond); });
    if (type.ok() && type->is_elem()) expr.set_type(Type::Elem(type->elem));
    return type;
  }
  if (IsComparison(expr.op())) {
    return ErrorAt(expr.loc(),
                   "a comparison is not a data value; use "
                   "(select COND A B)");
  }
  return ErrorAt(expr.item_loc(0), absl::StrCat("'", Spelling(expr.op()),
                                                "' is not a data operation"));
}

absl::Status ProcVerifier::CheckSelectCondition(Node& cond) {
  switch (cond.op()) {
    case Op::kAnd:
    case Op::kOr:
    case Op::kNot:
      for (Node* operand : cond.operands()) {
        if (auto status = CheckSelectCondition(*operand); !status.ok()) {
          return status;
        }
      }
      cond.set_type(Type::Control(ControlType::kBool));
      return absl::OkStatus();
    default:
      break;
  }
  if (IsComparison(cond.op()) && (IsDataExpression(*cond.operand(0)) ||
                                  IsDataExpression(*cond.operand(1)))) {
    cond.set_type(Type::Control(ControlType::kBool));
    return CheckDataComparison(
        cond, [this](Node& operand, std::optional<ElemType> type) {
          return InferData(operand, type);
        });
  }
  return ControlCondition(cond).status();
}

bool ProcVerifier::IsDataExpression(const Node& expr) const {
  switch (expr.op()) {
    case Op::kConst:
      return expr.is_float_literal();
    case Op::kRef: {
      const LoopName* bound = Find(expr.def());
      return bound != nullptr && bound->is_data;
    }
    case Op::kLoad: {
      const LoopName* bound = Find(expr.operand(0)->def());
      return bound != nullptr && bound->is_data;
    }
    case Op::kCast:
    case Op::kSelect:
    case Op::kReduction:
    case Op::kExtract:
      return true;
    case Op::kReadConfig: {
      auto field = FindConfigField(expr);
      return field.ok() && (*field)->declared_type().is_elem();
    }
    default:
      for (const Node* operand : expr.operands()) {
        if (IsDataExpression(*operand)) return true;
      }
      return false;
  }
}

absl::StatusOr<const Node*> ProcVerifier::FindConfigField(
    const Node& form) const {
  const Node* config = form.def();
  if (config == nullptr || !config->is(Op::kConfig)) {
    return ErrorAt(form.name_loc(),
                   absl::StrCat("unknown config '",
                                config == nullptr ? "" : config->name(), "'"));
  }
  for (const Node* field : config->operands()) {
    if (field->name() == form.name()) return field;
  }
  return ErrorAt(
      form.item_loc(2),
      absl::StrCat("'", config->name(), "' has no field '", form.name(), "'"));
}

}  // namespace tessel::ir
