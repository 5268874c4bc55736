// SIMD operand descriptors (formats/tir/README.md, "CS-1 level"): a window
// of at most four dimensions onto a tensor seen as flat memory, the way the
// CS-1's SIMD engine addresses an operand: element (i0, ..., i3) is element
// BASE + i0 * S0 + ... + i3 * S3 of the tensor in row-major order. Extents
// and strides are literals, a configuration fixed before the program runs
// (Verdoolaege et al., section 5); only the base is computed when a task
// runs, and every element the descriptor reaches must lie in the tensor
// (asked of the polyhedral model, libs/poly/model.h, which knows the
// elements a descriptor reaches).
#include <cstdint>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "libs/verify/common.h"
#include "libs/verify/proc.h"
#include "libs/support/source.h"

namespace tessel::ir {
namespace {

// The SIMD engine mimics a loop nest of this depth; a descriptor's
// dimensions beyond those it lists have extent 1.
constexpr size_t kSimdDims = 4;

// What the elements of `type` are called in messages about `name`.
std::string WhatIsNot(const Node& binder, const Type& type) {
  if (type.is_vector()) return "a vector";
  if (type.kind() == TypeKind::kWindow || binder.is(Op::kLet)) {
    return "a window, not memory of its own";
  }
  return "a scalar";
}

}  // namespace

absl::StatusOr<View> ProcVerifier::CheckDescriptor(Node& dsd) {
  Node& name = *dsd.operand(0);
  auto data = FindData(name);
  if (!data.ok()) return data.status();
  const View& base = (*data)->view;
  if (base.type.kind() != TypeKind::kTensor || name.def()->is(Op::kLet)) {
    return ErrorAt(
        name.loc(),
        absl::StrCat("a dsd describes a tensor in memory, and '", name.name(),
                     "' is ", WhatIsNot(*name.def(), base.type)));
  }
  std::optional<std::vector<int64_t>> shape = base.type.ConstantDims();
  int64_t count = 1;
  bool too_large = false;
  for (int64_t extent : shape.value_or(std::vector<int64_t>{})) {
    too_large |= __builtin_mul_overflow(count, extent, &count);
  }
  if (!shape || too_large) {
    return ErrorAt(name.loc(), absl::StrCat("a dsd addresses memory of a "
                                            "fixed size, and the dimensions "
                                            "of '",
                                            name.name(), "' are not literals"));
  }
  size_t dims = (dsd.num_operands() - 2) / 2;
  if (dims > kSimdDims) {
    return ErrorAt(dsd.item_loc(3 + kSimdDims),
                   absl::StrCat("a dsd has at most ", kSimdDims,
                                " dimensions, the depth of the SIMD engine's "
                                "loop nest; found ",
                                dims));
  }
  if (auto offset = ControlInt(*dsd.operand(1)); !offset.ok()) {
    return offset.status();
  }

  // The least and the greatest element reached, relative to the base: they
  // must fit in 64 bits.
  int64_t least = 0;
  int64_t greatest = 0;
  std::vector<Dim> type_dims;
  for (size_t k = 0; k < kSimdDims; ++k) {
    if (k >= dims) {
      type_dims.push_back(Dim::Constant(1));
      continue;
    }
    Node& extent = *dsd.operand(2 + 2 * k);
    Node& stride = *dsd.operand(3 + 2 * k);
    extent.set_type(Type::Control(ControlType::kIndex));
    stride.set_type(Type::Control(ControlType::kStride));
    if (extent.int_value() <= 0) {
      return ErrorAt(extent.loc(),
                     absl::StrCat("the extent of a dsd dimension is a "
                                  "positive literal, found ",
                                  extent.int_value()));
    }
    int64_t span = 0;
    if (__builtin_mul_overflow(stride.int_value(), extent.int_value() - 1,
                               &span) ||
        __builtin_add_overflow(span < 0 ? least : greatest, span,
                               span < 0 ? &least : &greatest)) {
      return ErrorAt(stride.loc(),
                     "the elements this dsd reaches overflow "
                     "64 bits");
    }
    type_dims.push_back(Dim::Constant(extent.int_value()));
  }
  View view;
  view.type = Type::Window(base.type.elem(), std::move(type_dims));
  dsd.set_type(view.type);

  auto reach = model_.Reach(dsd);
  if (!reach.ok()) return reach.status();
  auto violation = model_.FindViolation(
      model_.StatementOf(dsd), *reach,
      [&](const std::vector<isl::pw_aff>& values) {
        return values[0]
            .lt_set(poly::ConstantOn(values[0], 0))
            .unite(values[1].ge_set(poly::ConstantOn(values[1], count)));
      });
  if (!violation.ok()) return violation.status();
  if (violation->has_value()) {
    const poly::Violation& at = **violation;
    bool below = absl::StartsWith(at.values[0], "-");
    return ErrorAt(
        dsd.loc(),
        absl::StrCat(
            "the dsd on '", name.name(), "' can reach element ",
            below ? at.values[0] : at.values[1],
            below ? ", below its first"
                  : absl::StrCat(", past the last of its ", count, " elements"),
            AtPoint(at.at)));
  }

  view.source = &dsd;
  view.root = base.root;
  view.memory = base.memory;
  view.writable = base.writable;
  view.read_only_source = base.read_only_source;
  return view;
}

}  // namespace tessel::ir
