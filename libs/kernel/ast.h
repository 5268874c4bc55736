// The syntax tree of the kernel language, as written: names are not yet
// resolved and sizes not yet evaluated (see sema.h for the checked form).
#ifndef TESSEL_LIBS_KERNEL_AST_H_
#define TESSEL_LIBS_KERNEL_AST_H_

#include <cstdint>
#include <string>
#include <vector>

#include "libs/ir/types.h"
#include "libs/support/source.h"

namespace tessel::kernel::ast {

struct Name {
  std::string text;
  Location loc;
};

// An extent or a dimension: an integer literal or a size bound with -D.
struct Size {
  Location loc;
  std::string name;  // empty for a literal
  int64_t value = 0;
};

// `f32` or `f32[D, ...]`.
struct Type {
  Location loc;
  ElemType elem = ElemType::kF32;
  std::vector<Size> dims;
};

// A parameter, a result or a local.
struct Declaration {
  Name name;
  Type type;
};

enum class ExprKind {
  kNumber,   // 2, 0.5
  kName,     // alpha, i
  kElement,  // x[i, j]
  kCall,     // max(a, b), min(a, b), relu(a)
  kNeg,      // -a
  kBinary,   // a + b, a - b, a * b, a / b
};

enum class BinaryOp { kAdd, kSub, kMul, kDiv };

struct Expr {
  ExprKind kind = ExprKind::kNumber;
  Location loc;  // the operator for kNeg and kBinary, else the first token
  bool is_float = false;  // kNumber
  int64_t int_value = 0;
  double float_value = 0;
  std::string name;  // kName, kElement (the tensor), kCall (the function)
  BinaryOp op = BinaryOp::kAdd;
  // kElement: the indices; kCall: the arguments; kNeg: one operand;
  // kBinary: two.
  std::vector<Expr> operands;
  // The height of the tree, which the parser bounds so that every
  // recursive pass after it has a bounded stack.
  int depth = 1;
};

enum class AssignOp { kAssign, kAdd, kMax, kMin };

// [LABEL:] all (VARS) in (EXTENTS) TARGET[INDICES] OP VALUE;
struct Statement {
  Location loc;  // the 'all'
  Name label;    // empty text when the statement has none
  std::vector<Name> vars;
  std::vector<Size> extents;
  Location extents_loc;  // the '(' of the extents
  Name target;
  bool target_indexed = false;  // brackets written after the target
  std::vector<Expr> target_indices;
  AssignOp op = AssignOp::kAssign;
  Location op_loc;
  Expr value;
};

struct Kernel {
  Location loc;  // the 'kernel'
  Name name;
  std::vector<Declaration> inputs;
  std::vector<Declaration> outputs;
  std::vector<Declaration> locals;
  std::vector<Statement> statements;
};

struct Program {
  std::vector<Kernel> kernels;
};

}  // namespace tessel::kernel::ast

#endif  // TESSEL_LIBS_KERNEL_AST_H_
