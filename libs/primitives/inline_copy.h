// inline_copy: a buffer that holds a copy of a tensor's elements read
// from the tensor instead, the buffer and its copy deleted (the inverse of
// stage_mem's copy-in; inline_assign for a whole buffer).
#ifndef TESSEL_LIBS_PRIMITIVES_INLINE_COPY_H_
#define TESSEL_LIBS_PRIMITIVES_INLINE_COPY_H_

#include "absl/status/status.h"
#include "libs/ir/cursor.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// The alloc `buf_cursor` (a buffer B) must be followed in its body by its
// copy: a perfect nest of loops from 0, one per dimension of B with B's
// extent as its bound, around `(assign (B v...) (T e...))`, where the v
// are the loops' variables, each once, and T another tensor. Every element
// B[g...] read after the copy becomes T[e...] with each v replaced by its
// g, and the alloc and the copy are deleted. Proves that B holds that
// element of T wherever it is read: the copy writes every element of B,
// and the statements after it only read B's elements (no write,
// reduction, call, vector transfer or window naming it) and write nothing
// T's storage holds (no assignment, reduction, call or vector store naming
// it or another name of its root). A vectorizer reads a copy made only to
// be copied again (a transposed copy that a packing copies tile by tile)
// from the tensor itself.
absl::Status InlineCopy(ir::Module& module, const ir::Cursor& buf_cursor);

PrimitiveSpec InlineCopySpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_INLINE_COPY_H_
