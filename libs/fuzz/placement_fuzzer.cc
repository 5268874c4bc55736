// Fuzz target: the placement reader and its checks against a kernel (the
// paper's fully connected layer, M = 32, N = 16). Any input must give a
// placement or a diagnostic, never a crash or a hang.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "libs/placement/placement.h"
#include "libs/poly/poly.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tessel::poly::Context context;
  isl::ctx ctx(context.get());
  tessel::SourceRef source = tessel::MakeSource(
      "fuzz.place", std::string(reinterpret_cast<const char*>(data), size));
  auto placement = tessel::placement::ReadPlacement(ctx, source);
  if (!placement.ok()) return 0;
  std::vector<tessel::placement::KernelStatement> statements = {
      {"ff", isl::set(ctx, "{ ff[i, j] : 0 <= i < 32 and 0 <= j < 16 }")}};
  std::vector<tessel::placement::KernelTensor> tensors = {
      {"W", true, isl::set(ctx, "{ W[i, j] : 0 <= i < 32 and 0 <= j < 16 }")},
      {"x", true, isl::set(ctx, "{ x[i] : 0 <= i < 16 }")},
      {"y", false, isl::set(ctx, "{ y[i] : 0 <= i < 32 }")}};
  (void)tessel::placement::CheckPlacement(*placement, statements, tensors);
  return 0;
}
