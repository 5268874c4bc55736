// The memory distance of one step of a loop in the tensors a statement
// reads, for the cache blocks' choice of order (cache_blocks.h).
#ifndef TESSEL_LIBS_VECTORIZE_READ_STRIDES_H_
#define TESSEL_LIBS_VECTORIZE_READ_STRIDES_H_

#include <cstdint>

#include "libs/ir/node.h"

namespace tessel::vectorize {

// The largest distance in bytes between the elements that the reads of
// `stmt`'s value (its operand 1) read at two consecutive steps of `loop`,
// over the reads of tensors of constant dimensions whose indices are
// affine; 0 when there is none.
int64_t StepStrideBytes(ir::Node& stmt, const ir::Node& loop);

}  // namespace tessel::vectorize

#endif  // TESSEL_LIBS_VECTORIZE_READ_STRIDES_H_
