// Fuzz target: the .npy parser. A file that parses must serialise to bytes
// that parse back to the same tensor.
#include <cstddef>
#include <cstdint>

#include "libs/npy/npy.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  absl::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto tensor = tessel::ParseNpy(bytes, "fuzz.npy");
  if (!tensor.ok()) return 0;
  auto again = tessel::ParseNpy(tessel::SerializeNpy(*tensor), "again.npy");
  if (!again.ok() || again->elem != tensor->elem ||
      again->shape != tensor->shape || again->bytes != tensor->bytes) {
    __builtin_trap();
  }
  return 0;
}
