// The memory distance of one step of a loop in the tensors a statement
// reads, for the cache blocks' choice of order (cache_blocks.h) and the
// register tiles' shape (tile_shape.h).
#ifndef TESSEL_LIBS_VECTORIZE_READ_STRIDES_H_
#define TESSEL_LIBS_VECTORIZE_READ_STRIDES_H_

#include <cstdint>
#include <optional>

#include "libs/ir/node.h"

namespace tessel::vectorize {

// The distance in bytes between the elements that the load `read` reads
// at two consecutive steps of `loop`; nullopt unless it reads a tensor of
// constant dimensions with affine indices.
std::optional<int64_t> ReadStrideBytes(ir::Node& read, const ir::Node& loop);

// The largest ReadStrideBytes of the reads of `stmt`'s value (its operand
// 1) that have one; 0 when there is none.
int64_t StepStrideBytes(ir::Node& stmt, const ir::Node& loop);

}  // namespace tessel::vectorize

#endif  // TESSEL_LIBS_VECTORIZE_READ_STRIDES_H_
