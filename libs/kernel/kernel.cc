#include "libs/kernel/kernel.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace tessel::kernel {

std::string DescribeType(const Tensor& tensor) {
  std::string text(ElemTypeName(tensor.elem));
  if (!tensor.is_scalar()) {
    absl::StrAppend(&text, "[", absl::StrJoin(tensor.dims, ", "), "]");
  }
  return text;
}

}  // namespace tessel::kernel
