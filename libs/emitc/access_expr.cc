// Names and memory: scalar values and addresses, tensor and window
// elements, window expressions and the window structs passed to calls.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "libs/emitc/expr_emitter.h"
#include "libs/ir/views.h"

namespace tessel::emitc {
namespace {

bool IsWholeWindowParam(const View& view, const WindowType& type) {
  const Binding& root = *view.root;
  if (!root.window_param || *root.window_param != type) return false;
  if (view.rank() != static_cast<int>(view.offsets.size())) return false;
  // A stepped, split or permuted window of it is a view of its own.
  if (view.base.text != root.view.base.text) return false;
  for (size_t d = 0; d < view.strides.size(); ++d) {
    if (view.strides[d].text != root.view.strides[d].text) return false;
  }
  for (int k = 0; k < view.rank(); ++k) {
    if (view.kept[k] != k || view.offsets[k].constant != 0) return false;
  }
  return true;
}

}  // namespace

CExpr ExprEmitter::Reading(Binding* binding, CExpr expr) {
  expr.uses.reads.push_back(binding);
  return expr;
}

absl::StatusOr<Binding*> ExprEmitter::Find(const ir::Node& name,
                                           BindingKind kind) const {
  Binding* binding = name.is(ir::Op::kRef) && name.def() != nullptr
                         ? scope_.Lookup(*name.def())
                         : nullptr;
  if (binding == nullptr || binding->kind != kind) {
    return Unexpected(name, kind == BindingKind::kControl ? "a control name"
                            : kind == BindingKind::kScalar
                                ? "the name of a scalar"
                                : "the name of a tensor or window");
  }
  return binding;
}

absl::StatusOr<ExprEmitter::LinearElement> ExprEmitter::Linear(
    const ir::Node& load) const {
  auto binding = Find(*load.operand(0), BindingKind::kBuffer);
  if (!binding.ok()) return binding.status();
  const View& view = (*binding)->view;
  if (static_cast<int>(load.num_operands()) - 1 != view.rank()) {
    return Unexpected(load, "an index per dimension");
  }
  std::vector<std::optional<CExpr>> index(view.offsets.size());
  for (int k = 0; k < view.rank(); ++k) {
    auto value = Control(*load.operand(k + 1));
    if (!value.ok()) return value.status();
    index[view.kept[k]] = *std::move(value);
  }
  CExpr linear = IntLiteral(0);
  for (size_t d = 0; d < view.offsets.size(); ++d) {
    CExpr position =
        index[d] ? Add(view.offsets[d], *index[d]) : view.offsets[d];
    linear = Add(linear, Multiply(position, view.strides[d]));
  }
  return LinearElement{&view, std::move(linear)};
}

absl::StatusOr<CExpr> ExprEmitter::Element(const ir::Node& load,
                                           bool write) const {
  auto linear = Linear(load);
  if (!linear.ok()) return linear.status();
  const View& view = *linear->view;
  CExpr element = Subscript(view.base, linear->index);
  (write ? element.uses.writes : element.uses.reads).push_back(view.root);
  return element;
}

absl::StatusOr<CExpr> ExprEmitter::PrefetchAddress(
    const ir::Node& prefetch) const {
  // Its operands are an element read's: the tensor, then the indices.
  auto linear = Linear(prefetch);
  if (!linear.ok()) return linear.status();
  const View& view = *linear->view;
  CExpr element_size = Primary(
      absl::StrCat("sizeof(", Subscript(view.base, IntLiteral(0)).text, ")"));
  CExpr bytes = Multiply(Cast("uintptr_t", linear->index), element_size);
  CExpr address =
      Cast("const void *", Add(Cast("uintptr_t", view.base), bytes));
  address.uses.reads.push_back(view.root);
  return address;
}

absl::StatusOr<ExprEmitter::Target> ExprEmitter::AssignTarget(
    const ir::Node& target) const {
  if (target.is(ir::Op::kLoad)) {
    auto buffer = Find(*target.operand(0), BindingKind::kBuffer);
    if (!buffer.ok()) return buffer.status();
    auto element = Element(target, /*write=*/true);
    if (!element.ok()) return element.status();
    return Target{*std::move(element), (*buffer)->elem};
  }
  auto binding = Find(target, BindingKind::kScalar);
  if (!binding.ok()) return binding.status();
  Binding* scalar = *binding;
  CExpr name = Primary(scalar->c_name);
  CExpr lvalue = scalar->by_pointer ? Unary("*", name) : name;
  lvalue.uses.writes.push_back(scalar);
  return Target{lvalue, scalar->elem};
}

absl::StatusOr<CExpr> ExprEmitter::ScalarValue(const ir::Node& name) const {
  auto binding = Find(name, BindingKind::kScalar);
  if (!binding.ok()) return binding.status();
  CExpr value = Primary((*binding)->c_name);
  if ((*binding)->by_pointer) value = Unary("*", value);
  return Reading(*binding, value);
}

absl::StatusOr<CExpr> ExprEmitter::ScalarAddress(const ir::Node& name) const {
  auto binding = Find(name, BindingKind::kScalar);
  if (!binding.ok()) return binding.status();
  CExpr address = Primary((*binding)->c_name);
  if (!(*binding)->by_pointer) address = Unary("&", address);
  return Reading(*binding, address);
}

absl::StatusOr<View> ExprEmitter::WindowOf(const ir::Node& expr) const {
  if (expr.is(ir::Op::kRef)) {
    auto binding = Find(expr, BindingKind::kBuffer);
    if (!binding.ok()) return binding.status();
    return (*binding)->view;
  }
  if (!expr.is(ir::Op::kWindow)) {
    return Unexpected(expr, "a tensor or window");
  }
  auto binding = Find(*expr.operand(0), BindingKind::kBuffer);
  if (!binding.ok()) return binding.status();
  View view = (*binding)->view;
  absl::Span<ir::Node* const> selectors = ir::WindowView::SelectorsOf(expr);
  if (static_cast<int>(selectors.size()) != view.rank()) {
    return Unexpected(expr, "a selector per dimension");
  }
  // The kept dimensions in natural order: the buffer dimension each steps
  // along, by how many of its elements a step is, and its extent.
  std::vector<int> kept;
  std::vector<int64_t> scales;
  std::vector<CExpr> extents;
  for (int k = 0; k < view.rank(); ++k) {
    const ir::Node& selector = *selectors[k];
    int d = view.kept[k];
    bool interval = ir::WindowView::KeptBy(selector) > 0;
    auto start = Control(interval ? *selector.operand(0) : selector);
    if (!start.ok()) return start.status();
    view.offsets[d] = Add(view.offsets[d], *start);
    if (!interval) continue;
    auto end = Control(*selector.operand(1));
    if (!end.ok()) return end.status();
    CExpr span = Subtract(*end, *start);
    if (selector.is(ir::Op::kSplit)) {
      const int64_t row = selector.operand(2)->int_value();
      kept.insert(kept.end(), {d, d});
      scales.insert(scales.end(), {row, 1});
      extents.push_back(span.constant ? IntLiteral(*span.constant / row)
                                      : Binary("/", span, IntLiteral(row)));
      extents.push_back(IntLiteral(row));
      continue;
    }
    const int64_t step = ir::IntervalView::StepOf(selector);
    kept.push_back(d);
    scales.push_back(step);
    extents.push_back(
        step == 1        ? span
        : span.constant ? IntLiteral((*span.constant + step - 1) / step)
                        : Binary("/", Add(span, IntLiteral(step - 1)),
                                 IntLiteral(step)));
  }
  const std::vector<int> order = ir::WindowView::OrderOf(expr);
  const bool plain =
      ir::WindowView::PermutationOf(expr) == nullptr &&
      std::all_of(scales.begin(), scales.end(),
                  [](int64_t scale) { return scale == 1; }) &&
      std::adjacent_find(kept.begin(), kept.end()) == kept.end();
  if (plain) {
    view.kept = std::move(kept);
    view.extents = std::move(extents);
    return view;
  }
  // Stepped, split or permuted: a view of its own from its first element,
  // a dimension per window dimension with the stride of its step.
  View own;
  own.base = FirstElement(view);
  own.root = view.root;
  for (int k : order) {
    own.strides.push_back(Multiply(view.strides[kept[k]], IntLiteral(scales[k])));
    own.offsets.push_back(IntLiteral(0));
    own.kept.push_back(static_cast<int>(own.kept.size()));
    own.extents.push_back(extents[k]);
  }
  return own;
}

CExpr ExprEmitter::FirstElement(const View& view) {
  CExpr offset = IntLiteral(0);
  for (size_t d = 0; d < view.offsets.size(); ++d) {
    offset = Add(offset, Multiply(view.offsets[d], view.strides[d]));
  }
  CExpr pointer = offset.constant == 0
                      ? view.base
                      : Unary("&", Subscript(view.base, offset));
  pointer.uses.reads.push_back(view.root);
  return pointer;
}

CExpr ExprEmitter::WindowValue(const View& view, const WindowType& type) {
  if (IsWholeWindowParam(view, type)) {
    return Reading(view.root, Primary(view.root->c_name));
  }
  std::vector<CExpr> strides;
  for (int d : view.kept) strides.push_back(view.strides[d]);
  return WindowLiteral(type, FirstElement(view), strides);
}

}  // namespace tessel::emitc
