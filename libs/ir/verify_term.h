// Types of tensor-level terms (formats/tir/README.md, "Tensor level"):
// scalars, arrays (among them access patterns, arrays with a split between
// access and compute dimensions) and pairs.
#ifndef TESSEL_LIBS_IR_VERIFY_TERM_H_
#define TESSEL_LIBS_IR_VERIFY_TERM_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/ir/types.h"
#include "libs/ir/verify_scalar.h"
#include "libs/sexpr/sexpr.h"

namespace tessel {

struct TermType {
  enum class Kind { kScalar, kArray, kTuple };
  Kind kind = Kind::kScalar;
  ScalarType elem;              // of a scalar or of an array's elements
  std::vector<int64_t> dims;    // of an array
  int access_dims = -1;         // of an access pattern: dims before the split
  std::vector<TermType> parts;  // of a tuple: two

  static TermType Scalar(ScalarType elem);
  // An array; without dimensions, a scalar.
  static TermType Array(ScalarType elem, std::vector<int64_t> dims);
  static TermType Access(ScalarType elem, std::vector<int64_t> access,
                         const std::vector<int64_t>& compute);
  static TermType Tuple(TermType first, TermType second);
  // A declared parameter or result type (its dimensions are literals).
  static TermType FromData(const DataType& type);

  bool is_scalar() const { return kind == Kind::kScalar; }
  bool is_array() const { return kind == Kind::kArray; }
  bool is_tuple() const { return kind == Kind::kTuple; }
  bool is_access() const { return is_array() && access_dims >= 0; }
  std::vector<int64_t> access() const;
  std::vector<int64_t> compute() const;
};

// "f32", "(f32 8 4)", "an access pattern ((8) (4)) of f32",
// "(tuple f32 (f32 4))".
std::string Describe(const TermType& type);

// `found` where `expected` is needed: literals take the expected element
// types, an access pattern stands for the array of all its dimensions.
// Otherwise an error at `at`: "expected (f32 8), found (f32 4)".
absl::StatusOr<TermType> Unify(const Sexpr& at, const TermType& found,
                               const TermType& expected);

}  // namespace tessel

#endif  // TESSEL_LIBS_IR_VERIFY_TERM_H_
