// Views and accesses: windows followed to the tensors they view, the
// regions they cover, and the location sets of statements.
#include <algorithm>
#include <utility>

#include "libs/ir/vector_lanes.h"
#include "libs/ir/views.h"
#include "libs/poly/model.h"
#include "libs/poly/model_nodes.h"
#include "libs/support/source.h"

namespace tessel::poly {
namespace {

using ir::Node;
using ir::Op;

absl::Status NotAView(const Node& view) {
  return ErrorAt(view.loc(),
                 absl::StrCat("'", Text(view), "' does not view a tensor"));
}

// The number of indices of a view (0 for a scalar or a vector, read and
// written whole), given what it stands for (Unalias).
size_t RankOf(const Node& resolved) {
  if (resolved.is(Op::kWindow)) {
    return ir::WindowView::DimMapsOf(resolved).size();
  }
  if (resolved.is(Op::kDescriptor)) return resolved.type().rank();
  if (!IsDataRoot(resolved) || resolved.declared_type().is_vector()) return 0;
  return static_cast<size_t>(resolved.declared_type().rank());
}

}  // namespace

isl::map ToScalar(const isl::set& domain, const std::string& name) {
  isl::set range = isl::set::universe(
      isl::space::unit(domain.ctx()).add_named_tuple(name, 0));
  return isl::manage(
      isl_map_from_domain_and_range(domain.copy(), range.copy()));
}

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

isl::map ProjectOutExtra(isl::map map, const Node& stmt, size_t loops,
                         size_t extra) {
  isl::id tuple(map.ctx(), TupleName(stmt));
  map = isl::manage(isl_map_project_out(map.release(), isl_dim_in,
                                        static_cast<unsigned>(loops),
                                        static_cast<unsigned>(extra)));
  // Changing the dimensions of a space drops its tuple's name: restore it.
  return isl::manage(
      isl_map_set_tuple_id(map.release(), isl_dim_in, tuple.release()));
}

absl::StatusOr<ProcModel::RootIndices> ProcModel::ThroughWindows(
    const Node& view, std::vector<isl::pw_aff> indices,
    const Frame& frame) const {
  const Node* at = &view;
  Frame in = frame;
  while (true) {
    at = &Unalias(*at);
    // A callee's parameter is the argument passed for it, in the caller.
    if (const Node* arg = Argument(*at, in)) {
      at = arg;
      in = Frame{in.stmt, in.extra};
      continue;
    }
    if (IsDataRoot(*at)) return RootIndices{at, std::move(indices)};
    if (at->is(Op::kDescriptor)) {
      return DescriptorIndices(*at, std::move(indices), in);
    }
    if (!at->is(Op::kWindow)) return NotAView(view);
    // Each selector's LO (a point's index), then each index of the view
    // along the dimension it maps to, scaled.
    absl::Span<Node* const> selectors = ir::WindowView::SelectorsOf(*at);
    std::vector<isl::pw_aff> next;
    for (const Node* selector : selectors) {
      const bool kept = ir::WindowView::KeptBy(*selector) > 0;
      auto offset = Eval(kept ? *selector->operand(0) : *selector, in);
      if (!offset.ok()) return offset.status();
      next.push_back(*std::move(offset));
    }
    const std::vector<ir::WindowView::DimMap> maps =
        ir::WindowView::DimMapsOf(*at);
    for (size_t k = 0; k < maps.size() && k < indices.size(); ++k) {
      isl::pw_aff& index = next[maps[k].selector];
      index = index.add(maps[k].scale == 1
                            ? indices[k]
                            : indices[k].scale(isl::val(ctx_, maps[k].scale)));
    }
    indices = std::move(next);
    at = at->operand(0);
  }
}

absl::StatusOr<std::vector<isl::pw_aff>> ProcModel::ExtentsIn(
    const Node& view, const Frame& frame) const {
  const Node& at = Unalias(view);
  std::vector<isl::pw_aff> extents;
  if (at.is(Op::kWindow)) {
    // In natural order: an interval ceil((HI - LO) / STEP), a split its
    // rows and their length; then permuted.
    std::vector<isl::pw_aff> natural;
    for (const Node* selector : ir::WindowView::SelectorsOf(at)) {
      if (ir::WindowView::KeptBy(*selector) == 0) continue;
      auto lo = Eval(*selector->operand(0), frame);
      if (!lo.ok()) return lo.status();
      auto hi = Eval(*selector->operand(1), frame);
      if (!hi.ok()) return hi.status();
      isl::pw_aff span = hi->sub(*lo);
      if (selector->is(Op::kSplit)) {
        const int64_t row = selector->operand(2)->int_value();
        natural.push_back(span.scale_down(isl::val(ctx_, row)).floor());
        natural.push_back(ConstantOn(span, row));
        continue;
      }
      const int64_t step = ir::IntervalView::StepOf(*selector);
      natural.push_back(
          step == 1 ? span
                    : span.add(ConstantOn(span, step - 1))
                          .scale_down(isl::val(ctx_, step))
                          .floor());
    }
    for (int k : ir::WindowView::OrderOf(at)) extents.push_back(natural[k]);
    return extents;
  }
  if (!IsDataRoot(at) && !at.is(Op::kDescriptor)) return NotAView(view);
  Frame dims{frame.stmt, frame.extra};  // sizes of this procedure
  // A descriptor's type has its literal extents.
  const ir::Type& type =
      at.is(Op::kDescriptor) ? at.type() : at.declared_type();
  for (const ir::Dim& dim : type.dims()) {
    if (dim.is_constant()) {
      extents.push_back(isl::pw_aff(
          isl::aff::zero_on_domain(FrameSpace(frame)).add_constant(dim.value)));
      continue;
    }
    auto extent = Eval(*dim.expr, dims);
    if (!extent.ok()) return extent.status();
    extents.push_back(*extent);
  }
  return extents;
}

absl::StatusOr<isl::map> ProcModel::RegionIn(const Node& view,
                                             const Node& stmt) const {
  // The view's own indices become set dimensions after the loops, bounded
  // by its extents; mapped to the root, they are projected out again.
  Frame frame{&stmt, RankOf(Unalias(view))};
  auto extents = ExtentsIn(view, frame);
  if (!extents.ok()) return extents.status();
  size_t loops = DimsAround(stmt).size();
  isl::set domain = Universe(frame);
  isl::multi_aff identity = isl::multi_aff::identity_on_domain(domain.space());
  isl::pw_aff zero(isl::aff::zero_on_domain(domain.space()));
  std::vector<isl::pw_aff> indices;
  for (size_t k = 0; k < frame.extra; ++k) {
    isl::pw_aff index(identity.at(static_cast<int>(loops + k)));
    domain = domain.intersect(index.ge_set(zero))
                 .intersect(index.lt_set((*extents)[k]));
    indices.push_back(index);
  }
  auto root = ThroughWindows(view, std::move(indices), frame);
  if (!root.ok()) return root.status();
  return ProjectOutExtra(ToTensor(domain, root->indices, root->root->name()),
                         stmt, loops, frame.extra);
}

absl::StatusOr<isl::map> ProcModel::TransferRegion(
    const Node& transfer, const ir::Type& vector, const Node& stmt) const {
  const ir::TransferParts parts = ir::PartsOf(transfer);
  const Node& view = *parts.tensor;
  absl::Span<Node* const> indices = parts.indices;
  const std::vector<int64_t> lane_dims =
      ir::TransferDims(parts, static_cast<int64_t>(indices.size()),
                       vector.rank());
  // The lanes are set dimensions after the loops; the trailing indices of
  // the view move with them, and lanes outside the view are not accessed.
  Frame frame{&stmt, static_cast<size_t>(vector.rank())};
  size_t loops = DimsAround(stmt).size();
  isl::set domain = Universe(frame);
  isl::multi_aff identity = isl::multi_aff::identity_on_domain(domain.space());
  isl::pw_aff zero(isl::aff::zero_on_domain(domain.space()));
  std::vector<isl::pw_aff> view_indices;
  for (size_t i = 0; i < indices.size(); ++i) {
    auto index = Eval(*indices[i], frame);
    if (!index.ok()) return index.status();
    auto lane_dim = std::find(lane_dims.begin(), lane_dims.end(),
                              static_cast<int64_t>(i));
    if (lane_dim == lane_dims.end()) {
      view_indices.push_back(*index);
      continue;
    }
    const size_t lane = lane_dim - lane_dims.begin();
    isl::pw_aff k(identity.at(static_cast<int>(loops + lane)));
    domain =
        domain.intersect(k.ge_set(zero))
            .intersect(k.lt_set(zero.add_constant(vector.dims()[lane].value)));
    if (parts.mask != nullptr && parts.mask->is(Op::kCreateMask)) {
      auto bound = Eval(*parts.mask->operand(lane + 1), frame);
      if (!bound.ok()) return bound.status();
      domain = domain.intersect(k.lt_set(*bound));
    }
    view_indices.push_back(index->add(k));
  }
  auto extents = ExtentsIn(view, frame);
  if (!extents.ok()) return extents.status();
  for (size_t i = 0; i < view_indices.size(); ++i) {
    domain = domain.intersect(view_indices[i].ge_set(zero))
                 .intersect(view_indices[i].lt_set((*extents)[i]));
  }
  auto root = ThroughWindows(view, std::move(view_indices), frame);
  if (!root.ok()) return root.status();
  return ProjectOutExtra(ToTensor(domain, root->indices, root->root->name()),
                         stmt, loops, frame.extra);
}

absl::StatusOr<std::vector<isl::pw_aff>> ProcModel::Extents(
    const Node& view, const Node& stmt) const {
  return Guard<std::vector<isl::pw_aff>>(
      [&]() { return ExtentsIn(view, Frame{&stmt}); });
}

absl::StatusOr<isl::map> ProcModel::Region(const Node& view,
                                           const Node& stmt) const {
  return Guard<isl::map>([&]() -> absl::StatusOr<isl::map> {
    auto domain = DomainOf(stmt);
    if (!domain.ok()) return domain.status();
    auto region = RegionIn(view, stmt);
    if (!region.ok()) return region;
    return region->intersect_domain(*domain);
  });
}

absl::StatusOr<isl::map> ProcModel::Access(const Node& access) const {
  const Node& stmt = StatementOf(access);
  if (!access.is(Op::kLoad)) return Region(access, stmt);
  return Guard<isl::map>([&]() -> absl::StatusOr<isl::map> {
    auto domain = DomainOf(stmt);
    if (!domain.ok()) return domain.status();
    Frame frame{&stmt};
    std::vector<isl::pw_aff> indices;
    for (size_t i = 1; i < access.num_operands(); ++i) {
      auto index = Eval(*access.operand(i), frame);
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
      const ir::TransferParts parts = ir::PartsOf(node);
      const ir::Type& vector =
          read ? node.declared_type() : parts.value->type();
      // What the vector is made of: a transfer-read's padding, a
      // transfer-write's value; and what its mask reads.
      for (const Node* value : {read ? parts.pad : parts.value, parts.mask}) {
        if (value == nullptr) continue;
        if (auto status = CollectAccesses(*value, writes, into);
            !status.ok()) {
          return status;
        }
      }
      if (read == writes) return absl::OkStatus();
      const Node& stmt = StatementOf(node);
      auto domain = DomainOf(stmt);
      if (!domain.ok()) return domain.status();
      auto region = TransferRegion(node, vector, stmt);
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
  return Guard<isl::union_map>([&]() -> absl::StatusOr<isl::union_map> {
    isl::union_map reads = isl::union_map::empty(ctx_);
    if (auto status = CollectAccesses(subtree, false, reads); !status.ok()) {
      return status;
    }
    return reads;
  });
}

absl::StatusOr<isl::union_map> ProcModel::Writes(const Node& subtree) const {
  return Guard<isl::union_map>([&]() -> absl::StatusOr<isl::union_map> {
    isl::union_map writes = isl::union_map::empty(ctx_);
    if (auto status = CollectAccesses(subtree, true, writes); !status.ok()) {
      return status;
    }
    return writes;
  });
}

}  // namespace tessel::poly
