// How run-sim binds a program's parameters: control values from -D or the
// shapes of input files, and input tensors from DIR/NAME.npy or a seed.
#ifndef TESSEL_LIBS_RUNSIM_BIND_INPUTS_H_
#define TESSEL_LIBS_RUNSIM_BIND_INPUTS_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "libs/interp/interpreter.h"
#include "libs/npy/host_tensor.h"

namespace tessel::runsim {

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

}  // namespace tessel::runsim

#endif  // TESSEL_LIBS_RUNSIM_BIND_INPUTS_H_
