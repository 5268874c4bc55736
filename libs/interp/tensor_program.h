// The tensor level compiled for interpretation: a `func`'s term becomes a
// tree with enum opcodes, static types, literals converted to the type their
// context gives them and De Bruijn variables as stack offsets. Built by
// tensor_compiler.h, run by tensor_evaluator.h. Internal to libs/interp.
#ifndef TESSEL_LIBS_INTERP_TENSOR_PROGRAM_H_
#define TESSEL_LIBS_INTERP_TENSOR_PROGRAM_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "libs/interp/scalar.h"
#include "libs/ir/module.h"
#include "libs/npy/host_tensor.h"
#include "libs/sexpr/sexpr.h"

namespace tessel {
namespace tensor {

// The static type of a term.
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
  static Type Array(ElemType elem, std::vector<int64_t> shape);
  static Type Tuple(Type first, Type second);

  // An element of an array of this type with its first dimension dropped.
  Type Element() const;
};

bool operator==(const Type& a, const Type& b);
inline bool operator!=(const Type& a, const Type& b) { return !(a == b); }
// As TIR writes types: `f32`, `(f32 4 4)`, `index`, `(tuple f32 (f32 4))`.
std::string TypeText(const Type& type);

enum class TermOp : uint8_t {
  kParam,     // parameter `value`
  kVar,       // De Bruijn variable %`value`
  kConst,     // `constant`
  kIntConst,  // `value`: an index or a bool
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
};

struct Term {
  TermOp op = TermOp::kConst;
  Type type;
  const Sexpr* where = nullptr;
  int64_t value = 0;
  Scalar constant;
  ArithOp arith = ArithOp::kAdd;
  CompareOp compare = CompareOp::kEq;
  std::vector<Term> args;
};

struct CompiledFunction {
  const Function* function = nullptr;
  std::vector<Type> param_types;
  // The results as a right-nested tuple (one result: its type).
  Type result_type;
  Term term;
};

}  // namespace tensor
}  // namespace tessel

#endif  // TESSEL_LIBS_INTERP_TENSOR_PROGRAM_H_
