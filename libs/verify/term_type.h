// Types of tensor-level terms while a func is elaborated (formats/tir/
// README.md, "Tensor level"): scalars, arrays (among them access patterns,
// arrays with a split between access and compute dimensions), pairs, and
// the control values and functions that indices, conditions and lams have.
//
// Checking treats a literal as the old verifier did, by value: a term made
// only of literals has a literal type (ScalarType) wherever it is used. For
// elaboration every literal also belongs to a group of literals that must
// share one element type (the operands of `+`, a build's elements, an
// ifold's accumulator and its uses); a group is fixed once a context needs
// an element type, and takes DefaultLiteralType when none ever does.
#ifndef TESSEL_LIBS_VERIFY_TERM_TYPE_H_
#define TESSEL_LIBS_VERIFY_TERM_TYPE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "libs/ir/node.h"
#include "libs/ir/type.h"
#include "libs/verify/scalar.h"

namespace tessel::ir {

// An element type as inferred, and the literal group it belongs to (-1 for
// none: element types that come from declarations).
struct TermElem {
  ScalarType type;
  int group = -1;
};

// The literal groups of one func: a union-find over literals.
class LiteralGroups {
 public:
  int Create(bool is_float);
  // One group of `a` and `b` (either may be -1).
  int Merge(int a, int b);
  // Gives `group` the element type `elem`; an error at `at` when it already
  // has another one (a literal bound by a lam used as two element types).
  absl::Status Fix(const Node& at, int group, ElemType elem);
  // The element type the literals of `type` end with.
  ElemType Resolve(const TermElem& type) const;

 private:
  int Find(int group) const;

  mutable std::vector<int> parent_;
  std::vector<bool> is_float_;
  std::vector<std::optional<ElemType>> fixed_;
};

struct TermType {
  enum class Kind { kScalar, kArray, kTuple, kIndex, kBool, kFunction };
  Kind kind = Kind::kScalar;
  TermElem elem;                // of a scalar or of an array's elements
  std::vector<int64_t> dims;    // of an array
  int access_dims = -1;         // of an access pattern: dims before the split
  std::vector<TermType> parts;  // of a tuple; a function's argument, result

  static TermType Scalar(TermElem elem);
  // An array; without dimensions, a scalar.
  static TermType Array(TermElem elem, std::vector<int64_t> dims);
  // An access pattern; without dimensions, a scalar (a rank-0 tensor is its
  // element type) that the access-pattern forms still accept.
  static TermType Access(TermElem elem, std::vector<int64_t> access,
                         const std::vector<int64_t>& compute);
  static TermType Tuple(TermType first, TermType second);
  static TermType Index();
  static TermType Bool();
  static TermType Function(TermType argument, TermType result);
  // A declared parameter or result type (its dimensions are constants).
  static TermType FromDeclared(const Type& type);

  bool is_scalar() const { return kind == Kind::kScalar; }
  bool is_array() const { return kind == Kind::kArray; }
  bool is_tuple() const { return kind == Kind::kTuple; }
  bool is_access() const { return access_dims >= 0; }
  std::vector<int64_t> access() const;
  std::vector<int64_t> compute() const;
};

// "f32", "(f32 8 4)", "an access pattern ((8) (4)) of f32",
// "(tuple f32 (f32 4))".
std::string Describe(const TermType& type);

// `found` where `expected` is needed: literals take the expected element
// types (and their groups are fixed or merged), an access pattern stands
// for the array of all its dimensions. Otherwise an error at `at`:
// "expected (f32 8), found (f32 4)".
absl::StatusOr<TermType> Unify(const Node& at, const TermType& found,
                               const TermType& expected, LiteralGroups& groups);

// The node type `type` elaborates to once the func is checked.
Type ToType(const TermType& type, const LiteralGroups& groups);

}  // namespace tessel::ir

#endif  // TESSEL_LIBS_VERIFY_TERM_TYPE_H_
