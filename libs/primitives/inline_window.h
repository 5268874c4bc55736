// inline_window (Exo): `(let w (window B ...))` removed, each access of w
// made an access of B.
#ifndef TESSEL_LIBS_PRIMITIVES_INLINE_WINDOW_H_
#define TESSEL_LIBS_PRIMITIVES_INLINE_WINDOW_H_

#include "absl/status/status.h"
#include "libs/ir/cursor.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Deletes the `let` at `winstmt_cursor` and rewrites each access of the
// window it names into one of the buffer it selects from: an index i of the
// window's k-th interval (: lo hi) becomes lo + i, its points stay, and a
// window of the window becomes a window of the buffer. Every access names
// the same element as before, so nothing is proven beyond what the
// verifier checks again (Transaction); a use of the window whole (passed
// to a call, or its stride) is refused.
absl::Status InlineWindow(ir::Module& module,
                          const ir::Cursor& winstmt_cursor);

// inline_window(winstmt_cursor).
PrimitiveSpec InlineWindowSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_INLINE_WINDOW_H_
