// sink_alloc (Exo): an allocation moved into the loop or if right after
// it.
#ifndef TESSEL_LIBS_PRIMITIVES_SINK_ALLOC_H_
#define TESSEL_LIBS_PRIMITIVES_SINK_ALLOC_H_

#include "absl/status/statusor.h"
#include "libs/ir/cursor.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Moves the alloc at `alloc` into the scope (a for or an if) that follows
// it immediately, which must be its only user. Into a loop, each
// iteration then has a buffer of its own: safe when every element an
// iteration reads or reduces is written earlier in that iteration (the
// effects' order query). Into an if, the alloc goes into the branches that
// use it (a copy each). Returns the alloc (the then-branch's copy).
absl::StatusOr<ir::Cursor> SinkAlloc(ir::Module& module,
                                     const ir::Cursor& alloc);

// sink_alloc(alloc).
PrimitiveSpec SinkAllocSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_SINK_ALLOC_H_
