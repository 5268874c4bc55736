#include "libs/vectorize/read_strides.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "absl/types/span.h"
#include "libs/ir/types.h"
#include "libs/ir/views.h"
#include "libs/primitives/linear_form.h"
#include "libs/vectorize/nest.h"

namespace tessel::vectorize {

std::optional<int64_t> ReadStrideBytes(ir::Node& read, const ir::Node& loop) {
  const ir::Type& type = ir::LoadView(read).buffer()->declared_type();
  if (type.kind() != ir::TypeKind::kTensor) return std::nullopt;
  std::optional<std::vector<int64_t>> dims = type.ConstantDims();
  if (!dims.has_value()) return std::nullopt;
  absl::Span<ir::Node* const> indices = ir::LoadView(read).indices();
  // Row-major: a step of dimension d moves past the dimensions after it.
  int64_t elements = 0, inner = 1;
  for (size_t d = indices.size(); d-- > 0;) {
    std::optional<primitives::LinearForm> form = AffineForm(*indices[d]);
    if (!form.has_value()) return std::nullopt;
    elements += form->coefficient(&loop) * inner;
    inner *= (*dims)[d];
  }
  return (elements < 0 ? -elements : elements) * ElemTypeBytes(type.elem());
}

int64_t StepStrideBytes(ir::Node& stmt, const ir::Node& loop) {
  std::vector<ir::Node*> reads;
  LoadsIn(*stmt.operand(1), reads);
  int64_t widest = 0;
  for (ir::Node* read : reads) {
    widest = std::max(widest, ReadStrideBytes(*read, loop).value_or(0));
  }
  return widest;
}

}  // namespace tessel::vectorize
