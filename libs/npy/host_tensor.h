// A dense tensor in host memory: what .npy files hold and what run-sim binds
// to parameters and reads back from results.
#ifndef TESSEL_LIBS_NPY_HOST_TENSOR_H_
#define TESSEL_LIBS_NPY_HOST_TENSOR_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/ir/types.h"

namespace tessel {

// Tensors larger than this are refused rather than risking an allocation
// failure on a machine shared with other jobs.
inline constexpr int64_t kMaxTensorBytes = int64_t{1} << 30;

struct HostTensor {
  ElemType elem = ElemType::kF32;
  // Empty for a scalar (a 0-d array).
  std::vector<int64_t> shape;
  // The elements in row-major order, in host byte order.
  std::vector<uint8_t> bytes;

  int rank() const { return static_cast<int>(shape.size()); }
  int64_t num_elements() const {
    return static_cast<int64_t>(bytes.size()) / ElemTypeBytes(elem);
  }

  // Element `i` (row-major) as a T, which must be the C type of `elem`
  // (for f16, uint16_t: its encoding).
  template <typename T>
  T Get(int64_t i) const {
    T value;
    std::memcpy(&value, bytes.data() + i * sizeof(T), sizeof(T));
    return value;
  }
  template <typename T>
  void Set(int64_t i, T value) {
    std::memcpy(bytes.data() + i * sizeof(T), &value, sizeof(T));
  }
  // Element `i` as a double, which holds every value of every element type
  // exactly.
  double GetDouble(int64_t i) const;
};

// The number of elements of `shape`, or an error when a dimension is
// negative or the tensor would exceed kMaxTensorBytes for `elem`.
absl::StatusOr<int64_t> CheckedElementCount(ElemType elem,
                                            const std::vector<int64_t>& shape);

// A zero-filled tensor; errors as for CheckedElementCount.
absl::StatusOr<HostTensor> MakeHostTensor(ElemType elem,
                                          std::vector<int64_t> shape);

// `(3, 4)`, `(3,)`, `()`: a shape as NumPy prints it.
std::string NumpyShapeText(const std::vector<int64_t>& shape);
// `float16`, `float32`, `int8`, ...: an element type as NumPy names it.
std::string NumpyDtypeName(ElemType elem);

}  // namespace tessel

#endif  // TESSEL_LIBS_NPY_HOST_TENSOR_H_
