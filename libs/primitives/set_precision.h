// set_precision (Exo's API_scheduling.set_precision): a buffer's element
// type changed.
#ifndef TESSEL_LIBS_PRIMITIVES_SET_PRECISION_H_
#define TESSEL_LIBS_PRIMITIVES_SET_PRECISION_H_

#include <string>

#include "absl/status/status.h"
#include "libs/ir/cursor.h"
#include "libs/ir/node.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Gives the alloc or data parameter `cursor` the element type `typ`
// ("f32", "i8", ...: libs/ir/elem_types.def), its shape kept. TIR has no
// implicit conversions, so the verifier must still accept every value
// stored in and read from the buffer (and, for a parameter, every call):
// its diagnostic is the rejection.
absl::Status SetPrecision(ir::Module& module, const ir::Cursor& cursor,
                          const std::string& typ);

PrimitiveSpec SetPrecisionSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_SET_PRECISION_H_
