// Deterministic input data for `run-sim --seed N`: the same seed, name,
// type and shape give the same bytes on every machine.
//
// The generator is SplitMix64 (Steele, Lea and Flood, 2014). The state
// starts at `seed XOR FNV-1a-64(name)`, so that every tensor draws its own
// stream and a kernel's inputs do not depend on the order of its
// parameters; each element, in row-major order, takes the next 64-bit draw
// z and becomes
//   f16: (z >> 53) * 2^-10 - 1   uniform on [-1, 1) in steps of 2^-10
//   f32: (z >> 40) * 2^-23 - 1   uniform on [-1, 1) in steps of 2^-23
//   f64: (z >> 11) * 2^-52 - 1   uniform on [-1, 1) in steps of 2^-52
//   i8:  z mod 17 - 8            in [-8, 8]
//   i32: z mod 129 - 64          in [-64, 64]
// (std:: distributions are not used: their output is implementation-
// defined.)
#ifndef TESSEL_LIBS_RUNSIM_SEEDED_INPUTS_H_
#define TESSEL_LIBS_RUNSIM_SEEDED_INPUTS_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "libs/npy/host_tensor.h"

namespace tessel::runsim {

// One step of SplitMix64: advances `state` and returns the next draw.
uint64_t SplitMix64(uint64_t& state);

// FNV-1a, 64 bits.
uint64_t Fnv1a64(absl::string_view text);

// The tensor named `name` for `seed`; errors only for too large a shape.
absl::StatusOr<HostTensor> SeededTensor(uint64_t seed, absl::string_view name,
                                        ElemType elem,
                                        std::vector<int64_t> shape);

}  // namespace tessel::runsim

#endif  // TESSEL_LIBS_RUNSIM_SEEDED_INPUTS_H_
