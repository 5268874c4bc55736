// contract_fma (beyond Exo): `x += a * b` becomes `x = fma(a, b, x)`, a
// fused multiply-add that rounds once where the reduction rounds the
// product and then the sum. It is the one primitive that changes what a
// procedure computes (its rounding, never more), so a schedule says it
// explicitly, as a C compiler's -ffp-contract does, before it replaces
// multiply-adds with FMA instructions, whose bodies round once
// (targets/x86/README.md). Integers wrap, so on them it changes nothing.
#ifndef TESSEL_LIBS_PRIMITIVES_CONTRACT_FMA_H_
#define TESSEL_LIBS_PRIMITIVES_CONTRACT_FMA_H_

#include "absl/status/status.h"
#include "libs/ir/cursor.h"
#include "libs/ir/node.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Rewrites the reduction at `stmt`, whose value is a product, into an
// assignment of the fused multiply-add of the product's operands and the
// location's value.
absl::Status ContractFma(ir::Module& module, const ir::Cursor& stmt);

// contract_fma(stmt_cursor).
PrimitiveSpec ContractFmaSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_CONTRACT_FMA_H_
