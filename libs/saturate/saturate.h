// The saturate tool's work (docs/saturate.md): equality saturation of each
// tensor-level function of a module with the rule sets of its level and of
// its targets, then extraction of the cheapest equal term under the target's
// cost model. The result is a verified module; reports (statistics, the
// e-graph for Graphviz, the chain of rewrites) on request.
#ifndef TESSEL_LIBS_SATURATE_SATURATE_H_
#define TESSEL_LIBS_SATURATE_SATURATE_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "libs/egraph/runner.h"
#include "libs/ir/node.h"
#include "libs/ir/syntax.h"

namespace tessel::saturate {

// The limits saturate runs with unless told otherwise: enough for LIAR's
// and Glenside's results on the kernels of testdata/ (docs/saturate.md).
inline egraph::RunnerLimits DefaultLimits() { return {30, 100'000, 10}; }

struct SaturateOptions {
  // Targets (targets/NAME/: idioms.rules, cost.costs), in order; the cost
  // model is the last target's unless `cost_model` names one.
  std::vector<std::string> targets;
  // Rule files whose every rule set is used besides the defaults.
  std::vector<std::string> rule_files;
  egraph::RunnerLimits limits = DefaultLimits();
  bool backoff = true;  // else the simple scheduler
  std::string cost_model;
  bool explain = false;
  bool dot = false;
  // Progress lines for runs longer than a second (stderr in the tool): at
  // the start of an iteration, once a second has passed since the run
  // began or since the last line (ProgressLine).
  std::function<void(const std::string&)> progress;
  // Seconds since any fixed point, read for progress lines; the steady
  // clock when empty (tests inject one).
  std::function<double()> clock;
};

// What saturating one function did.
struct FuncReport {
  std::string name;
  // The rules of the run and the set of each: the same for every func, so
  // shared by their reports (a module of 50,000 funcs has 50,000 reports).
  std::shared_ptr<const std::vector<std::string>> rule_names;
  std::shared_ptr<const std::vector<std::string>> rule_sets;
  std::vector<egraph::Iteration> iterations;
  egraph::StopReason stop = egraph::StopReason::kNone;
  std::string stop_message;
  size_t nodes = 0;
  size_t classes = 0;
  double input_cost = 0;
  double output_cost = 0;
  double extract_seconds = 0;
  // With SaturateOptions::explain: one line per rewrite, input first.
  std::vector<std::string> explanation;
  // With SaturateOptions::dot: the e-graph, clustered by e-class.
  std::string dot;
};

struct SaturateResult {
  std::string text;  // verified TIR
  std::vector<FuncReport> funcs;
};

// The names of the targets compiled into the tool (targets/*/idioms.rules).
std::vector<std::string> BuiltinTargets();

// Checks what `options` chooses without reading any input: a target that
// does not exist or is named twice, a rule file named twice, or an unknown
// cost model is a usage error (libs/cli), which the tool reports before it
// reads its input.
absl::Status CheckOptions(const SaturateOptions& options);

// Saturates every func of `module` (read and verified) and writes the
// module, each func's term replaced by the cheapest one found, to `write` a
// form at a time: each func is saturated, extracted into a module of its
// own, verified from its text and written before the next is saturated, so
// that neither the output nor the extracted terms are held whole. Each
// func's report goes to `report` once the func is written. Errors: those of
// CheckOptions; unknown rule sets; malformed rule files (located); an
// extracted term that does not verify (a bug, reported as such); the first
// error of `write`.
absl::Status Saturate(const ir::Module& module, const SaturateOptions& options,
                      ir::TextSink write,
                      absl::FunctionRef<void(FuncReport)> report);
// Saturate's text and reports, held.
absl::StatusOr<SaturateResult> Saturate(const ir::Module& module,
                                        const SaturateOptions& options);

// The reports as JSON (saturate --stats). Costs that are not finite (a
// term no cost model rule prices) are null.
std::string StatsJson(const std::vector<FuncReport>& funcs);

// A progress line: "saturate: @f: iteration 3, 57 e-nodes, 38 e-classes,
// best cost 27.4 (1.5 s)"; `best_cost` is empty while no term is priced.
std::string ProgressLine(absl::string_view func, size_t iteration, size_t nodes,
                         size_t classes, std::optional<double> best_cost,
                         double seconds);

// What a run must say (on stderr in the tool) when no rule of some of
// `targets` applied to a function, so that none of their calls can be in
// its output (a gemmini run on build/ifold terms, whose rules match access
// patterns, returns its input); empty when every target's rules applied.
std::string IdleTargetNote(const FuncReport& report,
                           absl::Span<const std::string> targets);

// What a run must say (on stderr in the tool) about the procedures of
// `module` that are not tensor level, which saturate writes as they are
// (a user who forgot `parse --emit=terms`): a line per level (loop-level
// procs, CS-1 pe-programs) that names the level the rules are for; none
// when every procedure is a func.
std::vector<std::string> LevelNotes(const ir::Module& module);

// What a run that stopped at a limit must say (on stderr in the tool): the
// limit, its flag and where the run was; its output is still an equal
// program, the cheapest found by then. Empty when the run saturated.
std::string LimitMessage(const FuncReport& report,
                         const egraph::RunnerLimits& limits);

}  // namespace tessel::saturate

#endif  // TESSEL_LIBS_SATURATE_SATURATE_H_
