// The register tile of a transposing nest (Mode::kTranspose) as one 2-D
// vector, after MLIR's vectorization of permuted indexings (the paper's
// section 3.3, case 3): each read becomes a 2-D transfer-read (a
// transposed one read in its own order and permuted with `transpose`, a
// row broadcast over the rows, a scalar broadcast), the operators act on
// the 2-D vectors, and the written tile is one 2-D transfer-write. The
// tile's shape is the two loops' trip counts: a remainder tile is a
// smaller vector, not scalar code.
#ifndef TESSEL_LIBS_VECTORIZE_TRANSPOSE_H_
#define TESSEL_LIBS_VECTORIZE_TRANSPOSE_H_

#include "absl/status/status.h"
#include "libs/ir/node.h"

namespace tessel::vectorize {

// Replaces the loops `rows` (holding only `lanes`) and `lanes` (holding
// only `stmt`) by the 2-D vector form of `stmt`.
absl::Status EmitTransposeTile(ir::Module& module, ir::Node& stmt,
                               ir::Node& rows, ir::Node& lanes);

}  // namespace tessel::vectorize

#endif  // TESSEL_LIBS_VECTORIZE_TRANSPOSE_H_
