// The tensor level compiled for interpretation: a `func`'s term becomes a
// tree with enum opcodes, the elaborated type of every term with constant
// shapes, literals converted to the values of their types and De Bruijn
// variables as indices into the enclosing binders. Every term keeps the IR
// node it came from (`where`), for diagnostics. Built by tensor_compiler.h,
// lowered to the loop level by tensor_lowering.h. Internal to libs/interp.
#ifndef TESSEL_LIBS_INTERP_TENSOR_PROGRAM_H_
#define TESSEL_LIBS_INTERP_TENSOR_PROGRAM_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "libs/interp/scalar.h"
#include "libs/ir/node.h"
#include "libs/npy/host_tensor.h"

namespace tessel {
namespace tensor {

// The type of a term's values, as the evaluator lays them out: an ir::Type
// of the tensor level with its dimensions as integers. An access pattern is
// the array of all its dimensions.
struct Type {
  enum class Kind : uint8_t {
    kElem,  // a scalar of `elem`
    kIndex,
    kBool,
    kArray,  // a dense array of `elem` with `shape`
    kTuple,  // (tuple first second)
  };
  Kind kind = Kind::kElem;
  ElemType elem = ElemType::kF32;
  std::vector<int64_t> shape;
  std::shared_ptr<const Type> first;
  std::shared_ptr<const Type> second;

  static Type Elem(ElemType elem);
  static Type Of(Kind kind);
  // Without dimensions, the element type.
  static Type Array(ElemType elem, std::vector<int64_t> shape);
  static Type Tuple(Type first, Type second);
};

bool operator==(const Type& a, const Type& b);
inline bool operator!=(const Type& a, const Type& b) { return !(a == b); }
// As TIR writes types: `f32`, `(f32 4 4)`, `index`, `(tuple f32 (f32 4))`.
std::string TypeText(const Type& type);

enum class TermOp : uint8_t {
  kParam,     // parameter `value`
  kVar,       // De Bruijn variable %`value`
  kConst,     // `constant`
  kIntConst,  // `value`: an index
  kBuild,     // (build value (lam args[0]))
  kIfold,     // (ifold value args[0] (lam (lam args[1])))
  kApp,       // (app (lam args[0]) args[1])
  kIndex,     // args[0] indexed by args[1...], one dimension each
  kTuple,
  kFst,
  kSnd,
  kArith,  // `arith` on two scalars
  kNegate,
  kCompare,  // `compare` on two scalars
  kSelect,   // args[0] ? args[1] : args[2]
  kCast,
  kAddIndex,  // index arithmetic, checked for overflow
  kSubIndex,
  kMulIndex,
  kNegIndex,
  kCompareIndex,
  kAnd,
  kOr,
  kNot,
  // Access patterns (access_evaluator.h): args are access patterns, and
  // `access` says what is done with them.
  kAccessPattern,
};

// An access-pattern form (Glenside's transformers and `compute`), and what
// its `ints` hold. A split is the number of access dimensions of an
// operand.
enum class AccessOp : uint8_t {
  // access, squeeze, flatten, reshape: the same elements in the same
  // row-major order, with the term's shape. No ints.
  kReshape,
  kTranspose,  // the permutation
  kCartProd,   // the splits of both operands
  kWindows,    // the split, the window shape, the strides
  kSlice,      // dimension, low, high
  kPair,       // the split
  kConcat,     // the dimension
  // (compute OP AP): the split of AP.
  kReduceSum,
  kReduceMax,
  kDotProd,
  kRelu,
  kElementwiseAdd,
  kElementwiseMul,
};

struct Term {
  TermOp op = TermOp::kConst;
  Type type;
  const ir::Node* where = nullptr;
  int64_t value = 0;
  Scalar constant;
  ArithOp arith = ArithOp::kAdd;
  CompareOp compare = CompareOp::kEq;
  AccessOp access = AccessOp::kReshape;
  std::vector<int64_t> ints;  // of an access pattern
  std::vector<Term> args;
};

struct CompiledFunction {
  // A func with named library calls runs as a copy in which each call is
  // replaced by its definition (libs/verify/libcall.h); the copy's
  // module owns the nodes below then.
  std::shared_ptr<const ir::Module> expanded;
  const ir::Node* function = nullptr;    // the Func
  std::vector<const ir::Node*> params;   // its parameters (Values)
  std::vector<const ir::Node*> results;  // its results (Values)
  std::vector<Type> param_types;
  // The results as a right-nested tuple (one result: its type).
  Type result_type;
  Term term;
};

}  // namespace tensor
}  // namespace tessel

#endif  // TESSEL_LIBS_INTERP_TENSOR_PROGRAM_H_
