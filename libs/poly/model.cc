#include "libs/poly/model.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "libs/ir/syntax.h"
#include "libs/sexpr/printer.h"

namespace tessel::poly {
namespace {

using ir::Node;
using ir::Op;

std::string Text(const Node& node) { return PrintFlat(ir::WriteNode(node)); }

absl::Status NotAffine(const Node& expr) {
  return ErrorAt(expr.loc(),
                 absl::StrCat("'", Text(expr), "' is not quasi-affine"));
}

// The name of the domain of a statement's instances.
std::string TupleName(const Node& stmt) { return absl::StrCat("S", stmt.id()); }

bool IsControlParam(const Node& node) {
  return node.is(Op::kParam) && node.param_kind() < ir::ParamKind::kIn;
}

bool IsDataRoot(const Node& node) {
  return (node.is(Op::kParam) && node.param_kind() >= ir::ParamKind::kIn) ||
         node.is(Op::kAlloc);
}

// Runs `body`, turning an isl error (thrown by the C++ interface) into a
// status: the model builds only well-formed questions, so an isl error is a
// failure of isl (typically its operation budget), not of the input.
template <typename T, typename Body>
absl::StatusOr<T> Guard(Body body) {
  try {
    return body();
  } catch (const isl::exception& error) {
    return absl::InternalError(absl::StrCat("isl: ", error.what()));
  }
}

// A map from `domain`'s space to a zero-dimensional tensor space `name`.
isl::map ToScalar(const isl::set& domain, const std::string& name) {
  isl::set range = isl::set::universe(
      isl::space::unit(domain.ctx()).add_named_tuple(name, 0));
  return isl::manage(
      isl_map_from_domain_and_range(domain.copy(), range.copy()));
}

// The map `indices` define, from their domain to tensor space `name`.
isl::map ToTensor(const isl::set& domain,
                  const std::vector<isl::pw_aff>& indices,
                  const std::string& name) {
  if (indices.empty()) return ToScalar(domain, name);
  isl::map map = indices[0].as_map();
  for (size_t i = 1; i < indices.size(); ++i) {
    map = isl::manage(isl_map_flat_range_product(
        map.release(), indices[i].as_map().release()));
  }
  return map.set_range_tuple(name).intersect_domain(domain);
}

}  // namespace

ProcModel::ProcModel(isl::ctx ctx, const Node& proc) : ctx_(ctx), proc_(proc) {}

const Node& ProcModel::StatementOf(const Node& node) const {
  const Node* at = &node;
  while (at->parent() != nullptr && at->info().op_class != ir::OpClass::kStmt) {
    at = at->parent();
  }
  return *at;
}

std::vector<const Node*> ProcModel::LoopsAround(const Node& stmt) const {
  std::vector<const Node*> loops;
  for (const Node* at = stmt.parent(); at != nullptr; at = at->parent()) {
    if (at->is(Op::kFor)) loops.insert(loops.begin(), at);
  }
  return loops;
}

isl::space ProcModel::DomainSpace(const Node& stmt) const {
  isl::space space = isl::space::unit(ctx_);
  for (const Node* param : proc_.operands()) {
    if (IsControlParam(*param)) space = space.add_param(param->name());
  }
  return space.add_named_tuple(TupleName(stmt), LoopsAround(stmt).size());
}

isl::set ProcModel::Universe(const Node& stmt) const {
  return isl::set::universe(DomainSpace(stmt));
}

isl::id ProcModel::OpaqueParam(const Node& expr) const {
  auto it = opaque_.find(&expr);
  if (it != opaque_.end()) return it->second;
  isl::id id(ctx_, absl::StrCat("_v", expr.id()));
  opaque_.emplace(&expr, id);
  return id;
}

absl::StatusOr<isl::pw_aff> ProcModel::AffineIn(const Node& expr,
                                                const Node& stmt) const {
  isl::set universe = Universe(stmt);
  auto operand = [&](size_t i) { return AffineIn(*expr.operand(i), stmt); };
  switch (expr.op()) {
    case Op::kConst:
      if (expr.is_float_literal()) return NotAffine(expr);
      return isl::pw_aff(isl::aff::zero_on_domain(universe.space())
                             .add_constant(expr.int_value()));
    case Op::kRef: {
      const Node* def = expr.def();
      if (def->is(Op::kFor)) {
        std::vector<const Node*> loops = LoopsAround(stmt);
        for (size_t i = 0; i < loops.size(); ++i) {
          if (loops[i] == def) {
            return isl::pw_aff(
                isl::multi_aff::identity_on_domain(universe.space())
                    .at(static_cast<int>(i)));
          }
        }
      } else if (IsControlParam(*def)) {
        return isl::pw_aff::param_on_domain(universe,
                                            isl::id(ctx_, def->name()));
      }
      return NotAffine(expr);
    }
    case Op::kStride:
    case Op::kReadConfig:
      return isl::pw_aff::param_on_domain(universe, OpaqueParam(expr));
    case Op::kAdd:
    case Op::kSub:
    case Op::kMul:
    case Op::kMin:
    case Op::kMax: {
      auto a = operand(0);
      if (!a.ok()) return a;
      auto b = operand(1);
      if (!b.ok()) return b;
      switch (expr.op()) {
        case Op::kAdd:
          return a->add(*b);
        case Op::kSub:
          return a->sub(*b);
        case Op::kMin:
          return a->min(*b);
        case Op::kMax:
          return a->max(*b);
        default:
          if (!isl_pw_aff_is_cst(a->get()) && !isl_pw_aff_is_cst(b->get())) {
            return NotAffine(expr);
          }
          return a->mul(*b);
      }
    }
    case Op::kNeg: {
      auto a = operand(0);
      if (!a.ok()) return a;
      return a->neg();
    }
    case Op::kDiv:
    case Op::kFloorMod: {
      const Node& divisor = *expr.operand(1);
      if (!divisor.is(Op::kConst) || divisor.is_float_literal() ||
          divisor.int_value() <= 0) {
        return NotAffine(expr);
      }
      auto a = operand(0);
      if (!a.ok()) return a;
      if (expr.is(Op::kFloorMod)) return a->mod(divisor.int_value());
      return a->scale_down(divisor.int_value()).floor();
    }
    default:
      return NotAffine(expr);
  }
}

absl::StatusOr<isl::set> ProcModel::ConditionIn(const Node& cond,
                                                const Node& stmt) const {
  switch (cond.op()) {
    case Op::kAnd:
    case Op::kOr: {
      auto a = ConditionIn(*cond.operand(0), stmt);
      if (!a.ok()) return a;
      auto b = ConditionIn(*cond.operand(1), stmt);
      if (!b.ok()) return b;
      return cond.is(Op::kAnd) ? a->intersect(*b) : a->unite(*b);
    }
    case Op::kNot: {
      auto a = ConditionIn(*cond.operand(0), stmt);
      if (!a.ok()) return a;
      return Universe(stmt).subtract(*a);
    }
    case Op::kLt:
    case Op::kLe:
    case Op::kGt:
    case Op::kGe:
    case Op::kEq:
    case Op::kNe: {
      auto a = AffineIn(*cond.operand(0), stmt);
      if (!a.ok()) return a.status();
      auto b = AffineIn(*cond.operand(1), stmt);
      if (!b.ok()) return b.status();
      switch (cond.op()) {
        case Op::kLt:
          return a->lt_set(*b);
        case Op::kLe:
          return a->le_set(*b);
        case Op::kGt:
          return a->gt_set(*b);
        case Op::kGe:
          return a->ge_set(*b);
        case Op::kEq:
          return a->eq_set(*b);
        default:
          return Universe(stmt).subtract(a->eq_set(*b));
      }
    }
    default:
      return ErrorAt(cond.loc(), absl::StrCat("'", Text(cond),
                                              "' is not an affine "
                                              "condition"));
  }
}

absl::StatusOr<isl::set> ProcModel::Context() const {
  return Guard<isl::set>([&]() -> absl::StatusOr<isl::set> {
    // The context lives in the space of a statement outside every loop;
    // the proc itself stands for one.
    isl::set context = Universe(proc_);
    for (const Node* operand : proc_.operands()) {
      if (operand->is(Op::kParam) &&
          operand->param_kind() == ir::ParamKind::kSize) {
        isl::pw_aff size = isl::pw_aff::param_on_domain(
            context, isl::id(ctx_, operand->name()));
        context = context.intersect(size.gt_set(
            isl::pw_aff(isl::aff::zero_on_domain(context.space()))));
      } else if (operand->is(Op::kAssert)) {
        auto holds = ConditionIn(*operand->operand(0), proc_);
        if (!holds.ok()) return holds.status();
        context = context.intersect(*holds);
      }
    }
    return context.params();
  });
}

absl::StatusOr<isl::set> ProcModel::Domain(const Node& stmt) const {
  auto context = Context();
  if (!context.ok()) return context;
  return Guard<isl::set>([&]() -> absl::StatusOr<isl::set> {
    isl::set domain = Universe(stmt).intersect_params(*context);
    const Node* child = &stmt;
    for (const Node* at = stmt.parent(); at != nullptr;
         child = at, at = at->parent()) {
      if (at->is(Op::kFor) && child->position() >= 2) {
        auto lo = AffineIn(*at->operand(0), stmt);
        if (!lo.ok()) return lo.status();
        auto hi = AffineIn(*at->operand(1), stmt);
        if (!hi.ok()) return hi.status();
        isl::pw_aff var =
            isl::pw_aff(isl::multi_aff::identity_on_domain(domain.space())
                            .at(static_cast<int>(LoopsAround(*at).size())));
        domain = domain.intersect(var.ge_set(*lo)).intersect(var.lt_set(*hi));
      } else if (at->is(Op::kThen) || at->is(Op::kElse)) {
        auto holds = ConditionIn(*at->parent()->operand(0), stmt);
        if (!holds.ok()) return holds.status();
        domain = at->is(Op::kThen) ? domain.intersect(*holds)
                                   : domain.subtract(*holds);
      }
    }
    return domain;
  });
}

absl::StatusOr<isl::pw_aff> ProcModel::Affine(const Node& expr) const {
  return Guard<isl::pw_aff>(
      [&]() { return AffineIn(expr, StatementOf(expr)); });
}

absl::StatusOr<isl::set> ProcModel::Condition(const Node& cond) const {
  return Guard<isl::set>(
      [&]() { return ConditionIn(cond, StatementOf(cond)); });
}

absl::StatusOr<isl::pw_aff> ProcModel::AffineInFrame(const Node& expr,
                                                     const Frame& frame) const {
  auto value = AffineIn(expr, frame.stmt);
  if (!value.ok() || frame.extra == 0) return value;
  return isl::manage(isl_pw_aff_add_dims(value->release(), isl_dim_in,
                                         static_cast<unsigned>(frame.extra)));
}

absl::StatusOr<ProcModel::RootIndices> ProcModel::ThroughWindows(
    const Node& view, std::vector<isl::pw_aff> indices,
    const Frame& frame) const {
  const Node* at = &view;
  while (true) {
    if (at->is(Op::kRef) && at->def()->is(Op::kLet)) {
      at = at->def()->operand(0);
      continue;
    }
    if (at->is(Op::kRef) && IsDataRoot(*at->def())) {
      return RootIndices{at->def(), std::move(indices)};
    }
    if (!at->is(Op::kWindow)) {
      return ErrorAt(view.loc(),
                     absl::StrCat("'", Text(view), "' does not view a tensor"));
    }
    // Intervals take the view's indices in order; points stay.
    std::vector<isl::pw_aff> next;
    size_t k = 0;
    for (size_t i = 1; i < at->num_operands(); ++i) {
      const Node& selector = *at->operand(i);
      bool interval = selector.is(Op::kInterval);
      auto offset =
          AffineInFrame(interval ? *selector.operand(0) : selector, frame);
      if (!offset.ok()) return offset.status();
      next.push_back(interval ? offset->add(indices[k++]) : *offset);
    }
    indices = std::move(next);
    at = at->operand(0);
  }
}

absl::StatusOr<std::vector<std::pair<isl::pw_aff, isl::pw_aff>>>
ProcModel::Extents(const Node& view, const Frame& frame) const {
  const Node* at = &view;
  while (at->is(Op::kRef) && at->def()->is(Op::kLet)) {
    at = at->def()->operand(0);
  }
  std::vector<std::pair<isl::pw_aff, isl::pw_aff>> extents;  // [lo, hi)
  if (at->is(Op::kWindow)) {
    for (size_t i = 1; i < at->num_operands(); ++i) {
      const Node& selector = *at->operand(i);
      if (!selector.is(Op::kInterval)) continue;
      auto lo = AffineInFrame(*selector.operand(0), frame);
      if (!lo.ok()) return lo.status();
      auto hi = AffineInFrame(*selector.operand(1), frame);
      if (!hi.ok()) return hi.status();
      extents.emplace_back(
          isl::pw_aff(isl::aff::zero_on_domain(lo->domain().space())),
          hi->sub(*lo));
    }
    return extents;
  }
  if (!at->is(Op::kRef) || !IsDataRoot(*at->def())) {
    return ErrorAt(view.loc(),
                   absl::StrCat("'", Text(view), "' does not view a tensor"));
  }
  isl::space space = Universe(frame.stmt).space();
  space = isl::manage(isl_space_add_dims(space.release(), isl_dim_set,
                                         static_cast<unsigned>(frame.extra)));
  isl::pw_aff zero(isl::aff::zero_on_domain(space));
  // A vector variable is one location, read and written whole.
  if (at->def()->declared_type().is_vector()) return extents;
  for (const ir::Dim& dim : at->def()->declared_type().dims()) {
    if (dim.is_constant()) {
      extents.emplace_back(zero, zero.add_constant(dim.value));
      continue;
    }
    auto extent = AffineInFrame(*dim.expr, frame);
    if (!extent.ok()) return extent.status();
    extents.emplace_back(zero, *extent);
  }
  return extents;
}

absl::StatusOr<isl::map> ProcModel::Region(const Node& view,
                                           const Node& stmt) const {
  // The view's own indices become set dimensions after the loops, bounded
  // by its extents; mapped to the root, they are projected out again.
  Frame frame{stmt, 0};
  auto count = Extents(view, frame);
  if (!count.ok()) return count.status();
  frame.extra = count->size();
  auto extents = Extents(view, frame);
  if (!extents.ok()) return extents.status();
  size_t loops = LoopsAround(stmt).size();
  isl::space space = Universe(stmt).space();
  space = isl::manage(isl_space_add_dims(space.release(), isl_dim_set,
                                         static_cast<unsigned>(frame.extra)));
  isl::set domain = isl::set::universe(space);
  isl::multi_aff identity = isl::multi_aff::identity_on_domain(space);
  std::vector<isl::pw_aff> indices;
  for (size_t k = 0; k < frame.extra; ++k) {
    isl::pw_aff index(identity.at(static_cast<int>(loops + k)));
    domain = domain.intersect(index.ge_set((*extents)[k].first))
                 .intersect(index.lt_set((*extents)[k].second));
    indices.push_back(index);
  }
  auto root = ThroughWindows(view, std::move(indices), frame);
  if (!root.ok()) return root.status();
  isl::map map = ToTensor(domain, root->indices, root->root->name());
  map = isl::manage(isl_map_project_out(map.release(), isl_dim_in,
                                        static_cast<unsigned>(loops),
                                        static_cast<unsigned>(frame.extra)));
  // Adding dimensions to a space drops its tuple's name: restore it.
  return isl::manage(isl_map_set_tuple_id(
      map.release(), isl_dim_in, isl::id(ctx_, TupleName(stmt)).release()));
}

absl::StatusOr<isl::map> ProcModel::TransferRegion(
    const Node& view, absl::Span<Node* const> indices, const ir::Type& vector,
    const Node& stmt) const {
  // The lanes are set dimensions after the loops; the trailing indices of
  // the view move with them, and lanes outside the view are not accessed.
  Frame frame{stmt, static_cast<size_t>(vector.rank())};
  size_t loops = LoopsAround(stmt).size();
  isl::space space = isl::manage(
      isl_space_add_dims(Universe(stmt).space().release(), isl_dim_set,
                         static_cast<unsigned>(frame.extra)));
  isl::set domain = isl::set::universe(space);
  isl::multi_aff identity = isl::multi_aff::identity_on_domain(space);
  isl::pw_aff zero(isl::aff::zero_on_domain(space));
  size_t leading = indices.size() - frame.extra;
  std::vector<isl::pw_aff> view_indices;
  for (size_t i = 0; i < indices.size(); ++i) {
    auto index = AffineInFrame(*indices[i], frame);
    if (!index.ok()) return index.status();
    if (i < leading) {
      view_indices.push_back(*index);
      continue;
    }
    size_t lane = i - leading;
    isl::pw_aff k(identity.at(static_cast<int>(loops + lane)));
    domain =
        domain.intersect(k.ge_set(zero))
            .intersect(k.lt_set(zero.add_constant(vector.dims()[lane].value)));
    view_indices.push_back(index->add(k));
  }
  auto extents = Extents(view, frame);
  if (!extents.ok()) return extents.status();
  for (size_t i = 0; i < view_indices.size(); ++i) {
    domain = domain.intersect(view_indices[i].ge_set((*extents)[i].first))
                 .intersect(view_indices[i].lt_set((*extents)[i].second));
  }
  auto root = ThroughWindows(view, std::move(view_indices), frame);
  if (!root.ok()) return root.status();
  isl::map map = ToTensor(domain, root->indices, root->root->name());
  map = isl::manage(isl_map_project_out(map.release(), isl_dim_in,
                                        static_cast<unsigned>(loops),
                                        static_cast<unsigned>(frame.extra)));
  return isl::manage(isl_map_set_tuple_id(
      map.release(), isl_dim_in, isl::id(ctx_, TupleName(stmt)).release()));
}

absl::StatusOr<isl::map> ProcModel::Access(const Node& access) const {
  const Node& stmt = StatementOf(access);
  auto domain = Domain(stmt);
  if (!domain.ok()) return domain.status();
  return Guard<isl::map>([&]() -> absl::StatusOr<isl::map> {
    if (!access.is(Op::kLoad)) {
      auto region = Region(access, stmt);
      if (!region.ok()) return region;
      return region->intersect_domain(*domain);
    }
    Frame frame{stmt, 0};
    std::vector<isl::pw_aff> indices;
    for (size_t i = 1; i < access.num_operands(); ++i) {
      auto index = AffineIn(*access.operand(i), stmt);
      if (!index.ok()) return index.status();
      indices.push_back(*index);
    }
    auto root = ThroughWindows(*access.operand(0), std::move(indices), frame);
    if (!root.ok()) return root.status();
    return ToTensor(*domain, root->indices, root->root->name());
  });
}

absl::Status ProcModel::CollectAccesses(const Node& node, bool writes,
                                        isl::union_map& into) const {
  auto add = [&](const Node& access) -> absl::Status {
    auto map = Access(access);
    if (!map.ok()) return map.status();
    into = into.unite(isl::union_map(*map));
    return absl::OkStatus();
  };
  switch (node.op()) {
    case Op::kAssign:
    case Op::kReduce:
      if (writes || node.is(Op::kReduce)) {
        if (auto status = add(*node.operand(0)); !status.ok()) return status;
      }
      if (writes) return absl::OkStatus();
      // The indices of the place written are control: only the value read.
      return CollectAccesses(*node.operand(1), writes, into);
    case Op::kLoad:
      return writes ? absl::OkStatus() : add(node);
    case Op::kTransferRead:
    case Op::kTransferWrite: {
      bool read = node.is(Op::kTransferRead);
      const Node& view = *node.operand(read ? 0 : 1);
      absl::Span<Node* const> indices =
          node.operands().subspan(read ? 1 : 2, node.num_operands() - 2);
      const ir::Type& vector =
          read ? node.declared_type() : node.operand(0)->type();
      // What the vector is made of: a transfer-read's padding, a
      // transfer-write's value.
      const Node& value = *node.operand(read ? node.num_operands() - 1 : 0);
      if (auto status = CollectAccesses(value, writes, into); !status.ok()) {
        return status;
      }
      if (read == writes) return absl::OkStatus();
      const Node& stmt = StatementOf(node);
      auto domain = Domain(stmt);
      if (!domain.ok()) return domain.status();
      auto region = Guard<isl::map>(
          [&]() { return TransferRegion(view, indices, vector, stmt); });
      if (!region.ok()) return region.status();
      into = into.unite(isl::union_map(region->intersect_domain(*domain)));
      return absl::OkStatus();
    }
    case Op::kRef:
      // A scalar or a vector variable read as a value.
      if (!writes && IsDataRoot(*node.def()) &&
          (node.def()->declared_type().is_elem() ||
           node.def()->declared_type().is_vector())) {
        return add(node);
      }
      return absl::OkStatus();
    case Op::kCall: {
      const Node& callee = *node.def();
      size_t arg = 0;
      for (const Node* param : callee.operands()) {
        if (!param->is(Op::kParam)) continue;
        const Node& value = *node.operand(arg++);
        if (!IsDataRoot(*param)) continue;
        bool read = param->param_kind() != ir::ParamKind::kOut;
        bool written = param->param_kind() != ir::ParamKind::kIn;
        if (writes ? written : read) {
          if (auto status = add(value); !status.ok()) return status;
        }
      }
      return absl::OkStatus();
    }
    default:
      for (const Node* operand : node.operands()) {
        if (auto status = CollectAccesses(*operand, writes, into);
            !status.ok()) {
          return status;
        }
      }
      return absl::OkStatus();
  }
}

absl::StatusOr<isl::union_map> ProcModel::Reads(const Node& subtree) const {
  isl::union_map reads = isl::union_map::empty(ctx_);
  if (auto status = CollectAccesses(subtree, false, reads); !status.ok()) {
    return status;
  }
  return reads;
}

absl::StatusOr<isl::union_map> ProcModel::Writes(const Node& subtree) const {
  isl::union_map writes = isl::union_map::empty(ctx_);
  if (auto status = CollectAccesses(subtree, true, writes); !status.ok()) {
    return status;
  }
  return writes;
}

}  // namespace tessel::poly
