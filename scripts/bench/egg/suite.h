// egg's math and lambda test suites as data (math.tests, lambda.tests in
// this folder, format in README.md) and how to run one test the way egg
// 0.9.5 runs it, for the benchmark (egg_bench.cc) and its CI test
// (suite_test.cc).
#ifndef TESSEL_SCRIPTS_BENCH_EGG_SUITE_H_
#define TESSEL_SCRIPTS_BENCH_EGG_SUITE_H_

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/egraph/lang/language.h"
#include "libs/egraph/rules/compile.h"
#include "libs/egraph/runner.h"
#include "libs/sexpr/sexpr.h"

namespace tessel::egraph::bench {

// What egg 0.9.5 reported for a run: its stop reason as our names spell
// them ("saturated", "iteration-limit", "node-limit", "time-limit",
// "proved"), iterations, e-nodes in classes, e-classes, hash-cons entries
// (egg's memo) and its total time (negative if not recorded).
struct EggFigures {
  std::string stop;
  size_t iterations = 0;
  size_t nodes = 0;
  size_t classes = 0;
  size_t memo = 0;
  double seconds = -1;
};

struct EggTest {
  std::string name;
  Location loc;
  std::vector<std::string> rule_sets;
  std::vector<Sexpr> extra;  // terms egg's runner adds before the start term
  Sexpr start;
  std::vector<Sexpr> goals;  // patterns that must match the start's class
  bool expect_proved = true;
  // The test's own runner (egg's defaults unless it says otherwise).
  RunnerLimits limits;
  bool simple_scheduler = false;
  bool explanations = false;
  bool goal_stop = true;  // false where egg's test has an @check instead
  bool analysis = true;   // false where egg's test uses the `()` analysis
  std::optional<EggFigures> egg_test, egg_popl;
};

absl::StatusOr<std::vector<EggTest>> ParseTests(const SourceRef& source);
absl::StatusOr<std::vector<EggTest>> ReadTests(const std::string& path);

enum class Mode {
  kTest,  // the test's runner, stopping when every goal is proved
  kPopl,  // egg's POPL'21 limits, goals checked only at the end
};

struct Outcome {
  StopReason stop = StopReason::kNone;
  bool stopped_proved = false;  // the goal hook stopped the run
  Runner::Report totals;
  bool proved = false;   // every goal matches the start's class at the end
  size_t conflicts = 0;  // merges of different constants (see Language)
};

// The stop as EggFigures::stop spells it.
std::string StopName(const Outcome& outcome);

// Which e-matcher searches the rules' left sides.
enum class Matcher {
  kCompiled,    // CompiledPattern (the engine's)
  kRelational,  // RelationalPattern (generic join), to compare
};

// Runs `test` in `mode` with the rules of `library` compiled for
// `language`. `progress`, if set, is called after every iteration.
absl::StatusOr<Outcome> RunTest(
    const EggTest& test, Mode mode, const lang::Language& language,
    const rules::RuleLibrary& library,
    const std::function<void(const Runner&)>& progress = nullptr,
    Matcher matcher = Matcher::kCompiled);

// "" if `outcome` stopped as egg did with the same iterations, e-nodes and
// e-classes; otherwise what differs, e.g. "nodes 143 (egg 142)".
std::string CompareWithEgg(const Outcome& outcome, const EggFigures& egg);

}  // namespace tessel::egraph::bench

#endif  // TESSEL_SCRIPTS_BENCH_EGG_SUITE_H_
