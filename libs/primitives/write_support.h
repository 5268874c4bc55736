// What the primitives that rewrite assignments and reductions share
// (fold_into_reduce, merge_writes, split_write, inline_assign,
// inline_copy, lift_reduce_constant, left_reassociate_expr): the buffer a
// statement writes, whether an expression reads it, and whether regrouping an
// arithmetic operator keeps every value exact.
#ifndef TESSEL_LIBS_PRIMITIVES_WRITE_SUPPORT_H_
#define TESSEL_LIBS_PRIMITIVES_WRITE_SUPPORT_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "libs/ir/node.h"
#include "libs/ir/types.h"

namespace tessel::primitives {

// The buffer (alloc, data parameter, or a `let` naming a window) a
// location names: a scalar's Ref or an element's Load.
const ir::Node& BufferOf(const ir::Node& location);

// The alloc or data parameter behind `buffer`: itself, or for a `let`, the
// root of the buffer its window selects from. Two names of one root may
// name one element.
const ir::Node& RootOf(const ir::Node& buffer);

// The buffers the statement `stmt` may write (not what nested statements
// write): the buffer of an assignment's or a reduction's location, every
// buffer a call or a vector store names.
std::vector<const ir::Node*> WrittenBuffers(const ir::Node& stmt);

// Whether the location `a` and the expression `b` (a sum's left operand,
// any expression) of statements in one scope name the same element at
// every instance: the same buffer at the same index expressions, as
// written (sound, not complete: `A[i + 1]` and `A[1 + i]` are different).
bool SameLocation(const ir::Node& a, const ir::Node& b);

// The first access under `expr` of `buffer` or of another name of its root
// (the Load of an element, or the Ref of a scalar or a window's buffer), or
// null: where `expr` may read it (any element of it, so that a check
// against it is sound without comparing indices).
const ir::Node* ReadOf(const ir::Node& expr, const ir::Node& buffer);

// How a rewrite regroups arithmetic.
enum class Regrouping {
  kSum,         // (a + b) + c for a + (b + c)
  kProduct,     // (a * b) * c for a * (b * c)
  kDistribute,  // c * (a + b) for c * a + c * b
};

// OK when regrouping over values of `value`'s type computes exactly what
// the original grouping computes: integers wrap, so their sums and
// products are associative and distributive; a float's are not, and the
// error (naming `primitive`) gives values whose result changes.
absl::Status CheckExactRegrouping(const ir::Node& value, Regrouping how,
                                  const std::string& primitive);
// The same for values of the element type `elem`.
absl::Status CheckExactRegrouping(ElemType elem, Regrouping how,
                                  const std::string& primitive);

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_WRITE_SUPPORT_H_
