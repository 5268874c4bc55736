// The checked form of a kernel: names resolved, sizes evaluated, indices in
// affine form, values typed with every conversion explicit. Both lowerings
// (loops.h, terms.h) start from here.
#ifndef TESSEL_LIBS_KERNEL_KERNEL_H_
#define TESSEL_LIBS_KERNEL_KERNEL_H_

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "libs/ir/types.h"
#include "libs/kernel/affine.h"
#include "libs/kernel/ast.h"
#include "libs/support/source.h"

namespace tessel::kernel {

using ast::AssignOp;

enum class TensorRole { kInput, kOutput, kLocal };

// A parameter, result or local; a scalar is a tensor of rank 0.
struct Tensor {
  std::string name;
  TensorRole role = TensorRole::kInput;
  ElemType elem = ElemType::kF32;
  std::vector<int64_t> dims;
  Location loc;       // the name in the declaration
  Location type_loc;  // the type in the declaration

  int rank() const { return static_cast<int>(dims.size()); }
  bool is_scalar() const { return dims.empty(); }
};

// The text of a tensor's type in diagnostics: "f32[16, 16]" or "f32".
std::string DescribeType(const Tensor& tensor);

// One read or write of a tensor (all indices for a scalar: none).
struct Access {
  int tensor = 0;
  std::vector<AffineExpr> indices;
  Location loc;
};

enum class ValueOp {
  kLiteral,
  kRead,
  kNeg,
  kAdd,
  kSub,
  kMul,
  kDiv,
  kMax,
  kMin,
  kCast,
};

// A typed scalar expression. Operands of arithmetic have the node's type
// (conversions are kCast nodes) and literals carry the type they stand for,
// as TIR requires ("Types of data expressions").
struct Value {
  ValueOp op = ValueOp::kLiteral;
  ElemType type = ElemType::kF32;
  Location loc;
  int64_t int_value = 0;   // kLiteral of an integer type
  double float_value = 0;  // kLiteral of a floating-point type
  int read = -1;           // kRead: an index into Statement::reads
  std::vector<Value> operands;
};

struct DomainVar {
  std::string name;
  int64_t extent = 1;
  Location loc;
};

struct Statement {
  Location loc;  // the 'all'
  // The statement's label, which names its instances (a placement's
  // `ff[i, j]`); empty when it has none, and it is then named after its
  // target.
  std::string label;
  Location label_loc;
  std::vector<DomainVar> vars;
  Access target;
  AssignOp op = AssignOp::kAssign;
  Location op_loc;
  std::vector<Access> reads;
  Value value;  // of the target's element type
  // Whether every element of the target is written by some point of the
  // domain; an `=` statement that does not cover its target leaves zeros.
  bool covers_target = true;
};

struct Kernel {
  std::string name;  // without '@'
  Location loc;      // the kernel's name
  // Inputs, then outputs, then locals, each in declaration order.
  std::vector<Tensor> tensors;
  std::vector<Statement> statements;
  // The sizes bound by -D that it uses (in shapes, extents or indices).
  std::set<std::string> sizes;
};

}  // namespace tessel::kernel

#endif  // TESSEL_LIBS_KERNEL_KERNEL_H_
