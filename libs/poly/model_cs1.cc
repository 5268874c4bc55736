// The CS-1 level in the model (formats/tir/README.md, "CS-1 level"): the
// elements a SIMD descriptor reaches, and the elements of a pe-program's
// parameters that its local arrays hold on each PE. (The grid and a task's
// recv are dimensions of the domains, model.cc.)
#include <utility>

#include "libs/poly/model.h"
#include "libs/poly/model_nodes.h"
#include "libs/support/source.h"

namespace tessel::poly {
namespace {

using ir::Node;
using ir::Op;

// The number of elements of each index of `shape` in row-major order: the
// product of the later dimensions. Null when one overflows.
std::optional<std::vector<int64_t>> RowMajorStrides(
    const std::vector<int64_t>& shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;) {
    if (__builtin_mul_overflow(strides[d], shape[d], &strides[d - 1])) {
      return std::nullopt;
    }
  }
  return strides;
}

// The (EXTENT STRIDE) pairs a descriptor lists.
size_t ListedDims(const Node& dsd) { return (dsd.num_operands() - 2) / 2; }
int64_t ExtentOf(const Node& dsd, size_t k) {
  return dsd.operand(2 + 2 * k)->int_value();
}
int64_t StrideOf(const Node& dsd, size_t k) {
  return dsd.operand(3 + 2 * k)->int_value();
}

}  // namespace

absl::StatusOr<std::vector<int64_t>> ProcModel::DescribedShape(
    const Node& dsd) const {
  const Node& root = Unalias(*dsd.operand(0));
  std::optional<std::vector<int64_t>> shape;
  if (IsDataRoot(root) && !root.is(Op::kRecv)) {
    shape = root.declared_type().ConstantDims();
  }
  if (!shape || !RowMajorStrides(*shape)) {
    return ErrorAt(dsd.loc(), absl::StrCat("'", Text(dsd),
                                           "' does not describe a tensor of "
                                           "literal dimensions"));
  }
  return *std::move(shape);
}

absl::StatusOr<ProcModel::RootIndices> ProcModel::DescriptorIndices(
    const Node& dsd, std::vector<isl::pw_aff> indices,
    const Frame& frame) const {
  // Element (i0, ..., i3) is element BASE + i0 * S0 + ... + i3 * S3 of the
  // tensor in row-major order; the dimensions it does not list have extent
  // 1 (index 0).
  auto flat = Eval(*dsd.operand(1), frame);
  if (!flat.ok()) return flat.status();
  for (size_t k = 0; k < ListedDims(dsd) && k < indices.size(); ++k) {
    *flat = flat->add(indices[k].scale(StrideOf(dsd, k)));
  }
  auto shape = DescribedShape(dsd);
  if (!shape.ok()) return shape.status();
  std::vector<int64_t> strides = *RowMajorStrides(*shape);
  std::vector<isl::pw_aff> element;
  for (size_t d = 0; d < shape->size(); ++d) {
    isl::pw_aff index =
        strides[d] == 1 ? *flat : flat->scale_down(strides[d]).floor();
    element.push_back(d == 0 ? index : index.mod((*shape)[d]));
  }
  return RootIndices{&Unalias(*dsd.operand(0)), std::move(element)};
}

absl::StatusOr<std::vector<isl::pw_aff>> ProcModel::ReachIn(
    const Node& dsd, const Frame& frame) const {
  int64_t least = 0;
  int64_t greatest = 0;
  for (size_t k = 0; k < ListedDims(dsd); ++k) {
    int64_t span = 0;
    if (__builtin_mul_overflow(StrideOf(dsd, k), ExtentOf(dsd, k) - 1, &span) ||
        __builtin_add_overflow(span < 0 ? least : greatest, span,
                               span < 0 ? &least : &greatest)) {
      return ErrorAt(dsd.loc(), absl::StrCat("the positions '", Text(dsd),
                                             "' reaches overflow 64 bits"));
    }
  }
  auto base = Eval(*dsd.operand(1), frame);
  if (!base.ok()) return base.status();
  return std::vector<isl::pw_aff>{base->add_constant(least),
                                  base->add_constant(greatest)};
}

absl::StatusOr<std::vector<isl::pw_aff>> ProcModel::Reach(
    const Node& dsd) const {
  return Guard<std::vector<isl::pw_aff>>(
      [&]() { return ReachIn(dsd, Frame{&StatementOf(dsd)}); });
}

absl::StatusOr<isl::map> ProcModel::Rows(const Node& view,
                                         const Node& stmt) const {
  return Guard<isl::map>([&]() -> absl::StatusOr<isl::map> {
    auto domain = DomainOf(stmt);
    if (!domain.ok()) return domain.status();
    const Node& at = Unalias(view);
    if (!at.is(Op::kDescriptor)) {
      auto region = RegionIn(view, stmt);
      if (!region.ok()) return region;
      isl::map rows = region->intersect_domain(*domain);
      isl_size dims = isl_map_dim(rows.get(), isl_dim_out);
      if (dims <= 1) return rows;
      isl::id tuple =
          isl::manage(isl_map_get_tuple_id(rows.get(), isl_dim_out));
      rows = isl::manage(isl_map_project_out(rows.release(), isl_dim_out, 1,
                                             static_cast<unsigned>(dims - 1)));
      return rows.set_range_tuple(tuple);
    }
    auto shape = DescribedShape(at);
    if (!shape.ok()) return shape.status();
    const std::string& name = Unalias(*at.operand(0)).name();
    if (shape->empty()) return ToScalar(*domain, name);
    // The rows from that of its first element to that of its last: the row
    // is a set dimension after the loops, then projected out.
    Frame frame{&stmt, 1};
    auto reach = ReachIn(at, frame);
    if (!reach.ok()) return reach.status();
    int64_t row = (*RowMajorStrides(*shape))[0];
    size_t loops = DimsAround(stmt).size();
    isl::set rows = Universe(frame);
    isl::pw_aff r(isl::multi_aff::identity_on_domain(rows.space())
                      .at(static_cast<int>(loops)));
    rows = rows.intersect(r.ge_set((*reach)[0].scale_down(row).floor()))
               .intersect(r.le_set((*reach)[1].scale_down(row).floor()));
    return ProjectOutExtra(ToTensor(rows, {r}, name), stmt, loops, 1)
        .intersect_domain(*domain);
  });
}

absl::StatusOr<isl::map> ProcModel::Held(const Node& local) const {
  return Guard<isl::map>([&]() -> absl::StatusOr<isl::map> {
    const Node* holds = local.num_operands() > 0 ? local.operand(0) : nullptr;
    if (!local.is(Op::kLocal) || holds == nullptr) {
      return ErrorAt(local.loc(),
                     absl::StrCat("'", local.name(), "' holds no parameter"));
    }
    auto grid = DomainOf(proc_);
    if (!grid.ok()) return grid.status();
    // Element J of the local is element E = J + OFFSET of the parameter: E
    // is a set dimension after the PE's coordinates, then moved to the
    // range.
    const Node& param = Unalias(*holds->operand(0));
    size_t coords = DimsAround(proc_).size();
    size_t rank = holds->num_operands() - 1;
    Frame frame{&proc_, rank};
    auto whole = ExtentsIn(param, frame);
    if (!whole.ok()) return whole.status();
    auto box = ExtentsIn(local, frame);
    if (!box.ok()) return box.status();
    isl::set held = Universe(frame);
    isl::multi_aff identity = isl::multi_aff::identity_on_domain(held.space());
    isl::pw_aff zero(isl::aff::zero_on_domain(held.space()));
    for (size_t k = 0; k < rank; ++k) {
      auto offset = Eval(*holds->operand(k + 1), frame);
      if (!offset.ok()) return offset.status();
      isl::pw_aff element(identity.at(static_cast<int>(coords + k)));
      isl::pw_aff index = element.sub(*offset);
      held = held.intersect(element.ge_set(zero))
                 .intersect(element.lt_set((*whole)[k]))
                 .intersect(index.ge_set(zero))
                 .intersect(index.lt_set((*box)[k]));
    }
    isl::map map = isl::manage(isl_map_move_dims(
        isl_map_from_domain(held.release()), isl_dim_out, 0, isl_dim_in,
        static_cast<unsigned>(coords), static_cast<unsigned>(rank)));
    map = isl::manage(isl_map_set_tuple_id(
        map.release(), isl_dim_in, isl::id(ctx_, TupleName(proc_)).release()));
    return map.set_range_tuple(param.name()).intersect_domain(*grid);
  });
}

}  // namespace tessel::poly
