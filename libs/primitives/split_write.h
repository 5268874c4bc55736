// split_write (Exo): `x = a + b` becomes `x = a; x += b`, and
// `x += a + b` becomes `x += a; x += b` (merge_writes' inverse).
#ifndef TESSEL_LIBS_PRIMITIVES_SPLIT_WRITE_H_
#define TESSEL_LIBS_PRIMITIVES_SPLIT_WRITE_H_

#include "absl/status/status.h"
#include "libs/ir/cursor.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Splits `stmt`, an assignment or reduction of a sum. Proves that the
// sum's right operand does not read the written buffer (it would see the
// new first write; Exo does not check it: `x = y + x` becomes
// `x = y; x += x` there); a reduction splits exactly only
// for integers (Exo accepts floats).
absl::Status SplitWrite(ir::Module& module, const ir::Cursor& stmt);

// split_write(stmt).
PrimitiveSpec SplitWriteSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_SPLIT_WRITE_H_
