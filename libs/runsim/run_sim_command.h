// What the `run-sim` tool does, behind its command line (docs/run-sim.md):
// reads a module, binds the entry's inputs from .npy files or a seed, runs
// it with the reference interpreter (libs/interp), writes and summarises the
// outputs, and compares them with another module's or with expected files.
#ifndef TESSEL_LIBS_RUNSIM_RUN_SIM_COMMAND_H_
#define TESSEL_LIBS_RUNSIM_RUN_SIM_COMMAND_H_

#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <string>

#include "absl/status/status.h"
#include "libs/runsim/compare.h"

namespace tessel::runsim {

struct RunSimOptions {
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
  // --no-batching: every loop iteration by iteration.
  bool batching = true;
  // --cycles: a pe-program's cycles under the CS-1 cost model
  // (libs/interp/cs1_cycles.h); --trace FILE: their trace, as JSON.
  bool cycles = false;
  std::string trace_file;
};

// Runs run-sim; the report goes to `out`. Options that exclude each other
// are usage errors (libs/cli). Differences found by --compare or --expect
// are reported and then returned as an error.
absl::Status RunSim(const RunSimOptions& options, std::ostream& out);

}  // namespace tessel::runsim

#endif  // TESSEL_LIBS_RUNSIM_RUN_SIM_COMMAND_H_
