// The run-sim driver (docs/run-sim.md): reads a module, binds the entry's
// inputs from .npy files or a seed, runs it with the reference interpreter,
// writes and summarises the outputs, and compares them with another module's
// or with expected files.
#ifndef TESSEL_LIBS_INTERP_SIMULATE_H_
#define TESSEL_LIBS_INTERP_SIMULATE_H_

#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "libs/interp/compare.h"
#include "libs/interp/interpreter.h"

namespace tessel {

struct SimulateOptions {
  std::string file;   // a .tir module, "-" for stdin
  std::string entry;  // empty: the module's only entry
  // Exactly one of the two: inputs from DIR/NAME.npy, or generated.
  std::string inputs_dir;
  std::optional<uint64_t> seed;
  std::string outputs_dir;   // empty: outputs are not written
  std::string compare_file;  // empty: no second module
  std::string expect_dir;    // empty: no expected outputs
  Tolerance tolerance;
  std::map<std::string, int64_t> defines;  // -D NAME=VALUE
};

// Where the inputs of a run come from. Tensors are read or generated once
// per name, so that two programs bound from one source see the same data.
class InputSource {
 public:
  static InputSource FromDirectory(std::string dir);
  static InputSource FromSeed(uint64_t seed);

  bool from_files() const { return !dir_.empty(); }
  // DIR/NAME.npy.
  std::string PathOf(absl::string_view name) const;
  // The file for `name` (from_files() only); a missing file is an error.
  absl::StatusOr<const HostTensor*> Load(absl::string_view name);
  // The generated tensor for `name` (seeded sources only).
  absl::StatusOr<HostTensor> Generate(const DataPort& port,
                                      std::vector<int64_t> shape) const;

 private:
  InputSource() = default;

  std::string dir_;
  uint64_t seed_ = 0;
  std::map<std::string, HostTensor, std::less<>> loaded_;
};

struct BoundInputs {
  ControlValues controls;
  TensorMap tensors;
};

// Binds every control parameter and input of `program`. Control parameters
// take their value from `defines`; a size parameter not defined there is
// inferred from the shape of an input file where a dimension is written as
// exactly its name. Input files must then match their parameters' element
// types and shapes exactly.
absl::StatusOr<BoundInputs> BindInputs(
    const Program& program, InputSource& source,
    const std::map<std::string, int64_t>& defines);

// Runs run-sim; the report goes to `out`. Differences found by --compare or
// --expect are reported and then returned as an error.
absl::Status Simulate(const SimulateOptions& options, std::ostream& out);

}  // namespace tessel

#endif  // TESSEL_LIBS_INTERP_SIMULATE_H_
