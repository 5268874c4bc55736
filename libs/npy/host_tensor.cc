#include "libs/npy/host_tensor.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace tessel {

double HostTensor::GetDouble(int64_t i) const {
  switch (elem) {
    case ElemType::kF16:
      return DecodeFloat(Get<uint16_t>(i), FloatFormatOf(elem));
    case ElemType::kF32:
      return Get<float>(i);
    case ElemType::kF64:
      return Get<double>(i);
    case ElemType::kI8:
      return Get<int8_t>(i);
    case ElemType::kI32:
      return Get<int32_t>(i);
  }
  return 0;
}

absl::StatusOr<int64_t> CheckedElementCount(ElemType elem,
                                            const std::vector<int64_t>& shape) {
  const int64_t limit = kMaxTensorBytes / ElemTypeBytes(elem);
  int64_t count = 1;
  for (int64_t dim : shape) {
    if (dim < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "shape ", NumpyShapeText(shape), " has a negative dimension"));
    }
    if (dim != 0 && count > limit / dim) {
      return absl::ResourceExhaustedError(
          absl::StrCat("a ", NumpyDtypeName(elem), " tensor of shape ",
                       NumpyShapeText(shape), " exceeds the limit of ",
                       kMaxTensorBytes, " bytes"));
    }
    count *= dim;
  }
  return count;
}

absl::StatusOr<HostTensor> MakeHostTensor(ElemType elem,
                                          std::vector<int64_t> shape) {
  auto count = CheckedElementCount(elem, shape);
  if (!count.ok()) return count.status();
  HostTensor tensor;
  tensor.elem = elem;
  tensor.shape = std::move(shape);
  tensor.bytes.assign(static_cast<size_t>(*count * ElemTypeBytes(elem)), 0);
  return tensor;
}

std::string NumpyShapeText(const std::vector<int64_t>& shape) {
  if (shape.size() == 1) return absl::StrCat("(", shape[0], ",)");
  return absl::StrCat("(", absl::StrJoin(shape, ", "), ")");
}

std::string NumpyDtypeName(ElemType elem) {
  return std::string(ElemInfo(elem).numpy_name);
}

}  // namespace tessel
