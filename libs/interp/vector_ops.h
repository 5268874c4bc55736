// Vector values of the vector level and their lane arithmetic
// (formats/tir/README.md, "Vector level"). Every lane computes exactly what
// the scalar op computes (scalar.h): f32 rounding, i8/i32 wrapping, integer
// division by zero an error. Lanes are held in row-major order. Pure
// functions, shared by the loop executor and its tests.
#ifndef TESSEL_LIBS_INTERP_VECTOR_OPS_H_
#define TESSEL_LIBS_INTERP_VECTOR_OPS_H_

#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "libs/interp/scalar.h"

namespace tessel {

struct Vec {
  ElemType elem = ElemType::kF32;
  std::vector<int64_t> shape;
  std::vector<Scalar> lanes;  // row-major

  static Vec Filled(ElemType elem, std::vector<int64_t> shape,
                    const Scalar& value);
};

int64_t NumLanes(absl::Span<const int64_t> shape);

// The error of a lane operation and the lane it happened in.
struct LaneError {
  ScalarError error = ScalarError::kNone;
  int64_t lane = 0;
  Scalar operand;  // the operand a failed cast could not convert
  bool ok() const { return error == ScalarError::kNone; }
};

// a op b lane by lane; a and b have one type.
LaneError VecArith(ArithOp op, const Vec& a, const Vec& b, Vec& result);
Vec VecNegate(const Vec& a);
LaneError VecCast(ElemType to, const Vec& a, Vec& result);
// a * b + c with one rounding for floats (fmaf, fma); integers wrap.
Scalar FusedMultiplyAdd(const Scalar& a, const Scalar& b, const Scalar& c);
Vec VecFma(const Vec& a, const Vec& b, const Vec& c);
// Lanes of `mask` (one per lane) choose a, the others b.
Vec VecSelect(absl::Span<const uint8_t> mask, const Vec& a, const Vec& b);
std::vector<uint8_t> VecCompare(CompareOp op, const Vec& a, const Vec& b);

// A scalar, or a vector whose shape is a suffix of `shape`, repeated.
Vec BroadcastScalar(const Scalar& value, std::vector<int64_t> shape);
Vec BroadcastVec(const Vec& source, std::vector<int64_t> shape);

// ACC + sum over the reduction dimensions of A * B (see the spec): `maps`
// give A's, B's and ACC's iteration dimensions. Each product and sum is
// rounded as the scalar ops round, reduction indices in row-major order.
Vec Contract(const Vec& a, const Vec& b, const Vec& acc,
             const std::vector<std::vector<int>>& maps);

// The sub-vector at the leading `positions` (all verified in range), and the
// lane when they cover every dimension.
Vec ExtractVec(const Vec& v, absl::Span<const int64_t> positions);
Scalar ExtractLane(const Vec& v, absl::Span<const int64_t> positions);
// `v` with the part at `positions` replaced by `value`'s lanes.
Vec InsertVec(const Vec& value, const Vec& v,
              absl::Span<const int64_t> positions);
Vec InsertLane(const Scalar& value, const Vec& v,
               absl::Span<const int64_t> positions);

// The lanes combined with add, mul, max or min, from the first lane on in
// row-major order.
Scalar Reduce(ArithOp op, const Vec& v);

}  // namespace tessel

#endif  // TESSEL_LIBS_INTERP_VECTOR_OPS_H_
