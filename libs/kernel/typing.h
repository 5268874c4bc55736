// Types the scalar expressions of the kernel language. Following C's usual
// arithmetic conversions, i8 operands are promoted to i32, an integer meets
// a float as that float, and a float meets a wider one (f16 < f32 < f64) as
// the wider. A numeric literal takes
// the (promoted) type of the other operand, like a NumPy scalar, except that
// a float literal meeting an integer makes the operation f64 (as in C and
// NumPy); an expression of
// literals alone is folded at compile time as exact numbers (1 / 2 is 0.5)
// before it takes a type. The result is converted to the type of the
// assigned tensor. Every conversion becomes an explicit kCast.
#ifndef TESSEL_LIBS_KERNEL_TYPING_H_
#define TESSEL_LIBS_KERNEL_TYPING_H_

#include <functional>

#include "absl/status/statusor.h"
#include "libs/ir/types.h"
#include "libs/kernel/ast.h"
#include "libs/kernel/kernel.h"

namespace tessel::kernel {

// A tensor read found by the caller: its position in Statement::reads and
// its element type.
struct ResolvedRead {
  int read = -1;
  ElemType type = ElemType::kF32;
};

// Resolves a kName or kElement node that is read as a value (checking the
// name, the rank and the indices, and recording the access).
using ReadResolver =
    std::function<absl::StatusOr<ResolvedRead>(const ast::Expr& node)>;

// The typed form of `expr`, converted to `target`.
absl::StatusOr<Value> TypeValue(const ast::Expr& expr, ElemType target,
                                const ReadResolver& resolve);

// i8 becomes i32 before arithmetic; other types are unchanged.
ElemType Promote(ElemType type);

// The type in which C computes `a op b`.
ElemType CommonType(ElemType a, ElemType b);

}  // namespace tessel::kernel

#endif  // TESSEL_LIBS_KERNEL_TYPING_H_
