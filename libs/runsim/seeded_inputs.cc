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

namespace {

// Fills `count` elements of `data` from `state`, each from one SplitMix64
// value. Scaling by a power of two is exact, so multiplying by 2^-k is
// ldexp(x, -k).
template <typename T, typename Value>
void Fill(uint64_t& state, void* data, int64_t count, Value value) {
  T* out = static_cast<T*>(data);
  for (int64_t i = 0; i < count; ++i) out[i] = value(SplitMix64(state));
}

}  // namespace

absl::StatusOr<HostTensor> SeededTensor(uint64_t seed, absl::string_view name,
                                        ElemType elem,
                                        std::vector<int64_t> shape) {
  auto tensor = MakeHostTensor(elem, std::move(shape));
  if (!tensor.ok()) return tensor.status();
  uint64_t state = seed ^ Fnv1a64(name);
  void* data = tensor->bytes.data();
  const int64_t count = tensor->num_elements();
  switch (elem) {
    case ElemType::kF16:
      Fill<uint16_t>(state, data, count, [](uint64_t z) {
        return static_cast<uint16_t>(
            EncodeFloat(static_cast<double>(z >> 53) * 0x1p-10 - 1.0,
                        FloatFormatOf(ElemType::kF16)));
      });
      break;
    case ElemType::kF32:
      Fill<float>(state, data, count, [](uint64_t z) {
        return static_cast<float>(static_cast<double>(z >> 40) * 0x1p-23 -
                                  1.0);
      });
      break;
    case ElemType::kF64:
      Fill<double>(state, data, count, [](uint64_t z) {
        return static_cast<double>(z >> 11) * 0x1p-52 - 1.0;
      });
      break;
    case ElemType::kI8:
      Fill<int8_t>(state, data, count, [](uint64_t z) {
        return static_cast<int8_t>(static_cast<int>(z % 17) - 8);
      });
      break;
    case ElemType::kI32:
      Fill<int32_t>(state, data, count, [](uint64_t z) {
        return static_cast<int32_t>(z % 129) - 64;
      });
      break;
  }
  return tensor;
}

}  // namespace tessel::runsim
