// Writes that bypass the caches (formats/strategy/README.md, `nontemporal`;
// docs/vectorize.md, step 13). A register tile writes each line of a
// kernel's output once; a plain store first reads the line for ownership,
// from the L3 or memory, into caches that an output larger than the L2
// then evicts again. A streaming store writes the line without reading it,
// to memory. That pays where the stores are a sizable share of a kernel's
// time but come slower than memory's write bandwidth (a depthwise layer),
// not for a copy, which they bound, nor for a matmul, which they do not;
// and not where the output fits the L2 and its reader finds it there.
#ifndef TESSEL_LIBS_VECTORIZE_STREAMING_WRITES_H_
#define TESSEL_LIBS_VECTORIZE_STREAMING_WRITES_H_

#include "absl/status/status.h"
#include "libs/ir/node.h"
#include "libs/vectorize/strategy.h"

namespace tessel::vectorize {

// Appends (nontemporal) to each transfer-write of `proc` (verified) whose
// vector is one row filling a register of the target (`strategy.width`
// f32 lanes: 8 f32 or 4 f64 for AVX2), into a data parameter of constant
// size, at least `strategy.nontemporal` bytes, that `proc` never reads,
// where the innermost loop around it computes 8 to 64 vector operations
// per vector it writes; and (in-bounds 1) where the polyhedral model
// proves the row inside the parameter at every instance, so that emit-c's
// C tests only the address's alignment before each streaming store (with
// its bounds tested too, a depthwise layer ran no faster than with plain
// stores). Nothing when `strategy.nontemporal` is 0.
absl::Status MarkStreamingWrites(ir::Module& module, ir::Node& proc,
                                 const Strategy& strategy);

}  // namespace tessel::vectorize

#endif  // TESSEL_LIBS_VECTORIZE_STREAMING_WRITES_H_
