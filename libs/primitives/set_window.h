// set_window (Exo): a data parameter declared a window `(window E D...)`
// or, with is_window=False, a tensor `(E D...)`.
#ifndef TESSEL_LIBS_PRIMITIVES_SET_WINDOW_H_
#define TESSEL_LIBS_PRIMITIVES_SET_WINDOW_H_

#include "absl/status/status.h"
#include "libs/ir/cursor.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Changes the declared type of the data parameter at `cursor` between a
// tensor and a window of the same element type and dimensions. The body
// reads and writes the same elements either way; what can change is what
// callers may pass (a window argument needs a window parameter), so the
// procedure and its callers are verified again (Transaction) and the edit
// is undone with the verifier's message when one fails.
absl::Status SetWindow(ir::Module& module, const ir::Cursor& cursor,
                       bool is_window = true);

// set_window(cursor, is_window=True).
PrimitiveSpec SetWindowSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_SET_WINDOW_H_
