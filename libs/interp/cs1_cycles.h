// Cycles of a pe-program (formats/tir/README.md, "CS-1 level") under a
// documented cost model whose parameters live in targets/cs1/cycles.model
// (docs/run-sim.md, "Cycles of a pe-program"). Control never depends on
// data in TIR but for what arrives of a sparse input (whose zeros are not
// sent), so the count walks the program's control, PE by PE:
// task activations, SIMD instructions (issue, then their elements at the
// engine's width per cycle, and each distinct configuration set up once),
// explicit loops (bounds, iterations, and the loads, operations and
// stores of their statements), and partial results sent on to the PE that
// collects them. The PEs run in parallel: a program takes the cycles of
// its busiest PE.
#ifndef TESSEL_LIBS_INTERP_CS1_CYCLES_H_
#define TESSEL_LIBS_INTERP_CS1_CYCLES_H_

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "libs/ir/node.h"
#include "libs/npy/host_tensor.h"

namespace tessel::cs1 {

struct CostModel {
  int64_t task_activation = 0;
  int64_t instruction_issue = 0;
  int64_t configuration = 0;
  int64_t simd_f16_per_cycle = 1;
  int64_t simd_f32_per_cycle = 1;
  int64_t loop_bounds = 0;
  int64_t loop_iteration = 0;
  int64_t scalar_op = 0;
  int64_t fabric_hop = 0;
};

// The cost model of `text` (NAME VALUE lines, `#` comments; every
// parameter given once, a non-negative integer, the widths positive),
// named `name` in errors.
absl::StatusOr<CostModel> ParseCostModel(absl::string_view name,
                                         absl::string_view text);
// targets/cs1/cycles.model, compiled into the tools.
absl::StatusOr<CostModel> DefaultCostModel();

struct TaskCycles {
  int64_t runs = 0;  // activations
  int64_t cycles = 0;
};

struct PeCycles {
  int64_t x = 0, y = 0;
  int64_t configurations = 0;  // distinct SIMD configurations set up
  int64_t configuration_cycles = 0;
  std::vector<TaskCycles> tasks;  // in the program's order
  int64_t collection_cycles = 0;  // partial results sent on
  int64_t cycles = 0;             // the sum of the above
};

struct CycleReport {
  std::vector<PeCycles> pes;  // row by row
  // Compute instances (a statement whose value does arithmetic, or a
  // reduction), executed by SIMD instructions or by explicit loops.
  int64_t simd_instances = 0;
  int64_t scalar_instances = 0;

  const PeCycles& Busiest() const;
  // The share of compute instances executed by SIMD instructions (1 when
  // there are none).
  double SimdShare() const;
};

// The inputs of a run, by parameter name (as run-sim binds them).
using InputTensors = std::map<std::string, HostTensor, std::less<>>;

// Counts `program`'s cycles (a verified pe-program) on `inputs`, of which
// it reads those declared (sparse P): a recv task runs for an element of
// them only if it is not zero.
absl::StatusOr<CycleReport> CountCycles(const ir::Node& program,
                                        const CostModel& model,
                                        const InputTensors& inputs);

// "cycles: ..." lines for run-sim's report.
std::string CycleSummary(const CycleReport& report);

// A Chrome/Perfetto trace (JSON) of the tasks of every PE: a track per PE,
// a span per task (its activations and cycles in its arguments), one
// microsecond per cycle.
std::string TraceJson(const ir::Node& program, const CycleReport& report);

}  // namespace tessel::cs1

#endif  // TESSEL_LIBS_INTERP_CS1_CYCLES_H_
