#include "libs/vectorize/streaming_writes.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "isl/cpp.h"
#include "libs/effects/effects.h"
#include "libs/ir/build.h"
#include "libs/ir/forms.h"
#include "libs/ir/types.h"
#include "libs/ir/vector_lanes.h"
#include "libs/poly/model.h"
#include "libs/poly/poly.h"

namespace tessel::vectorize {
namespace {

using ir::Build;
using ir::Node;
using ir::Op;

// The bytes of `param`'s tensor, or nullopt when a dimension is symbolic.
std::optional<int64_t> ConstantBytes(const Node& param) {
  const ir::Type& type = param.declared_type();
  int64_t bytes = ElemTypeBytes(type.elem());
  for (const ir::Dim& dim : type.dims()) {
    if (!dim.is_constant()) return std::nullopt;
    bytes *= dim.value;
  }
  return bytes;
}

// The names of the tensors that any statement of `proc` reads or reduces
// into.
absl::StatusOr<absl::flat_hash_set<std::string>> TensorsRead(
    const poly::ProcModel& model, const Node& proc) {
  auto effects = effects::EffectsOf(model, ir::BodyOf(proc));
  if (!effects.ok()) return effects.status();
  return effects::LocationNames(effects->reads.unite(effects->reduces));
}

// Whether `write`'s row (of `lanes` lanes, along tensor dimension `dim`)
// stays inside its tensor at every instance.
absl::StatusOr<bool> RowInside(const poly::ProcModel& model, const Node& write,
                               const ir::TransferParts& parts, int64_t dim,
                               int64_t lanes) {
  auto extents = model.Extents(*parts.tensor, write);
  if (!extents.ok()) return extents.status();
  auto first = model.Affine(*parts.indices[dim]);
  if (!first.ok()) return first.status();
  auto violation = model.FindViolation(
      write, {*first, first->add_constant(lanes), (*extents)[dim]},
      [](const std::vector<isl::pw_aff>& values) {
        return values[0]
            .lt_set(poly::ConstantOn(values[0], 0))
            .unite(values[1].gt_set(values[2]));
      });
  if (!violation.ok()) return violation.status();
  return !violation->has_value();
}

// The vector operations per vector written for which a write is
// streamed: where the stores are a sizable share of the time, and not
// more than memory's write bandwidth takes. A streamed line goes to
// memory, whose write bandwidth is far below the L3's: a copy (no
// operation) ran 28 % slower streamed (AVX2's Copy2D of 4 MiB, 46 against
// 65 GB/s); a depthwise layer (9 multiply-adds per vector) 4-10 % faster.
// Dense layers (1152) and matmuls (K) ran as fast either way, and their
// output then stays in the L3 for its reader. Unmeasured between.
constexpr int64_t kFewestOpsPerStreamedWrite = 8;
constexpr int64_t kMostOpsPerStreamedWrite = 64;

// Whether `node` computes a vector's lanes arithmetically.
bool IsVectorArithmetic(const Node& node) {
  switch (node.op()) {
    case Op::kAdd:
    case Op::kSub:
    case Op::kMul:
    case Op::kDiv:
    case Op::kFma:
    case Op::kOuterProduct:
    case Op::kContract:
      return node.type().is_vector();
    default:
      return false;
  }
}

// How many nodes under `node` (itself included) satisfy `counted`, each
// loop's counted once per iteration where its bounds are literals (once
// otherwise), saturating at 2^40.
int64_t CountPerPass(const Node& node, bool (*counted)(const Node&)) {
  constexpr int64_t kSaturated = int64_t{1} << 40;
  int64_t count = counted(node) ? 1 : 0;
  for (const Node* operand : node.operands()) {
    count = std::min(kSaturated, count + CountPerPass(*operand, counted));
  }
  if (node.is(Op::kFor) && count > 0) {
    const Node& lo = *node.operand(0);
    const Node& hi = *node.operand(1);
    if (lo.is(Op::kConst) && hi.is(Op::kConst)) {
      const int64_t trip =
          std::max<int64_t>(hi.int_value() - lo.int_value(), 1);
      count = trip > kSaturated / count ? kSaturated : count * trip;
    }
  }
  return count;
}

// Whether `node` writes a vector into a data parameter: the writes that
// leave the proc, not those into its temporaries (a packed copy of an
// input, whose stores would count a compute-bound nest as bound by them).
bool WritesAParameter(const Node& node) {
  if (!node.is(Op::kTransferWrite)) return false;
  const Node* tensor = ir::PartsOf(node).tensor->def();
  return tensor != nullptr && tensor->is(Op::kParam) &&
         ir::IsDataParam(*tensor);
}

// Whether the innermost loop around a write (`loop`, or the proc where
// there is none) computes between kFewestOpsPerStreamedWrite and
// kMostOpsPerStreamedWrite vector operations per vector it writes into a
// parameter.
bool StoresBoundTheLoop(const Node& loop) {
  const int64_t writes = CountPerPass(loop, WritesAParameter);
  const int64_t ops = CountPerPass(loop, IsVectorArithmetic);
  return ops >= kFewestOpsPerStreamedWrite * writes &&
         ops <= kMostOpsPerStreamedWrite * writes;
}

// The transfer-writes under `node` whose row fills a register of
// `row_bytes` (f32 or f64 lanes, no mask or permutation map, not yet
// streamed) into a data parameter of constant size, at least
// `least_bytes`, and whose innermost loop the stores bound.
// `loop` is the innermost loop around `node`.
void CollectCandidates(Node& node, const Node& loop, int64_t row_bytes,
                       int64_t least_bytes, std::vector<Node*>& writes) {
  const Node& inner = node.is(Op::kFor) ? node : loop;
  for (Node* operand : node.operands()) {
    CollectCandidates(*operand, inner, row_bytes, least_bytes, writes);
  }
  if (!node.is(Op::kTransferWrite)) return;
  const ir::TransferParts parts = ir::PartsOf(node);
  const ir::Type& vector = parts.value->type();
  const Node* param = parts.tensor->def();
  if (parts.mask != nullptr || parts.nontemporal != nullptr ||
      parts.permutation != nullptr || vector.rank() != 1 ||
      (vector.elem() != ElemType::kF32 && vector.elem() != ElemType::kF64) ||
      vector.dims()[0].value * ElemTypeBytes(vector.elem()) != row_bytes ||
      param == nullptr || !param->is(Op::kParam) || !ir::IsDataParam(*param)) {
    return;
  }
  std::optional<int64_t> bytes = ConstantBytes(*param);
  if (bytes && *bytes >= least_bytes && StoresBoundTheLoop(loop)) {
    writes.push_back(&node);
  }
}

}  // namespace

absl::Status MarkStreamingWrites(ir::Module& module, Node& proc,
                                 const Strategy& strategy) {
  if (strategy.nontemporal == 0) return absl::OkStatus();
  std::vector<Node*> writes;
  CollectCandidates(proc, proc, strategy.width * 4, strategy.nontemporal,
                    writes);
  if (writes.empty()) return absl::OkStatus();
  poly::Context context;
  poly::ProcModel model(isl::ctx(context.get()), proc);
  auto read = TensorsRead(model, proc);
  if (!read.ok()) return read.status();
  for (Node* write : writes) {
    const ir::TransferParts parts = ir::PartsOf(*write);
    if (read->contains(parts.tensor->def()->name())) continue;
    const int64_t rank = static_cast<int64_t>(parts.indices.size());
    const int64_t dim = rank - 1;
    auto inside = RowInside(model, *write, parts, dim,
                            parts.value->type().dims()[0].value);
    if (!inside.ok()) return inside.status();
    if (*inside && parts.in_bounds == nullptr) {
      module.Append(
          write, Build::Form(module, Op::kInBounds, {Build::Int(module, 1)}));
    }
    module.Append(write, Build::Form(module, Op::kNontemporal, {}));
  }
  return absl::OkStatus();
}

}  // namespace tessel::vectorize
