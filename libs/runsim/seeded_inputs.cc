#include "libs/runsim/seeded_inputs.h"

#include <cmath>

namespace tessel::runsim {

uint64_t SplitMix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

uint64_t Fnv1a64(absl::string_view text) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001b3ull;
  }
  return hash;
}

absl::StatusOr<HostTensor> SeededTensor(uint64_t seed, absl::string_view name,
                                        ElemType elem,
                                        std::vector<int64_t> shape) {
  auto tensor = MakeHostTensor(elem, std::move(shape));
  if (!tensor.ok()) return tensor.status();
  uint64_t state = seed ^ Fnv1a64(name);
  for (int64_t i = 0; i < tensor->num_elements(); ++i) {
    const uint64_t z = SplitMix64(state);
    switch (elem) {
      case ElemType::kF16:
        tensor->Set<uint16_t>(
            i, static_cast<uint16_t>(EncodeFloat(
                   std::ldexp(static_cast<double>(z >> 53), -10) - 1.0,
                   FloatFormatOf(elem))));
        break;
      case ElemType::kF32:
        tensor->Set<float>(
            i, static_cast<float>(
                   std::ldexp(static_cast<double>(z >> 40), -23) - 1.0));
        break;
      case ElemType::kF64:
        tensor->Set<double>(
            i, std::ldexp(static_cast<double>(z >> 11), -52) - 1.0);
        break;
      case ElemType::kI8:
        tensor->Set<int8_t>(i,
                            static_cast<int8_t>(static_cast<int>(z % 17) - 8));
        break;
      case ElemType::kI32:
        tensor->Set<int32_t>(i, static_cast<int32_t>(z % 129) - 64);
        break;
    }
  }
  return tensor;
}

}  // namespace tessel::runsim
