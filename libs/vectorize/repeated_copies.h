// Copies made twice: nests vectorized apart (the whole tiles of rows and
// the remainder's) each pack the tensors they read, and two nests that
// read one tensor alike pack it alike. The second packing is the first's
// buffer, read again.
#ifndef TESSEL_LIBS_VECTORIZE_REPEATED_COPIES_H_
#define TESSEL_LIBS_VECTORIZE_REPEATED_COPIES_H_

#include "absl/status/status.h"
#include "libs/ir/node.h"

namespace tessel::vectorize {

// Where a block of `proc` holds `(alloc x T) S` (T a tensor type) and later
// `(alloc y T) S'`, S' being S with y for x (ir::AlphaEquivalent), S writing x
// only and reading no element of it, nothing between S and S' writing what S
// reads, and nothing after S writing x: S' and y's alloc are deleted and y's
// uses read x. Each sharing is verified (primitives' Transaction).
absl::Status ShareRepeatedCopies(ir::Module& module, ir::Node& proc);

}  // namespace tessel::vectorize

#endif  // TESSEL_LIBS_VECTORIZE_REPEATED_COPIES_H_
