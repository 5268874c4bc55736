// egg_bench: runs egg's math and lambda test suites (math.tests,
// lambda.tests) on Tessel's e-graph engine and prints, per test, what the
// run did and took beside the figures egg 0.9.5 reported for the same test.
// See README.md; scripts/bench/egg.sh builds and runs it. Exits with status
// 1 if a run stopped otherwise than egg's did, with other iterations,
// e-nodes or e-classes, or proved other goals (after printing every test).
//
//   egg_bench [--dir DIR] [--mode popl|test] [--repeat N]
//             [--matcher compiled|relational] [TEST...]
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "libs/egraph/lang/lambda.h"
#include "libs/egraph/lang/math.h"
#include "scripts/bench/egg/suite.h"

namespace tessel::egraph::bench {
namespace {

struct Options {
  std::string dir = "scripts/bench/egg";
  Mode mode = Mode::kPopl;
  int repeat = 1;
  Matcher matcher = Matcher::kCompiled;
  absl::flat_hash_set<std::string> only;
};

void Usage() {
  std::fprintf(stderr,
               "usage: egg_bench [--dir DIR] [--mode popl|test] [--repeat N] "
               "[--matcher compiled|relational] [TEST...]\n");
  std::exit(2);
}

Options ParseOptions(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) Usage();
      return argv[++i];
    };
    if (arg == "--dir") {
      options.dir = value();
    } else if (arg == "--mode") {
      std::string mode = value();
      if (mode != "popl" && mode != "test") Usage();
      options.mode = mode == "popl" ? Mode::kPopl : Mode::kTest;
    } else if (arg == "--repeat") {
      if (!absl::SimpleAtoi(value(), &options.repeat) || options.repeat < 1) {
        Usage();
      }
    } else if (arg == "--matcher") {
      std::string matcher = value();
      if (matcher != "compiled" && matcher != "relational") Usage();
      options.matcher =
          matcher == "compiled" ? Matcher::kCompiled : Matcher::kRelational;
    } else if (!arg.empty() && arg[0] == '-') {
      Usage();
    } else {
      options.only.insert(arg);
    }
  }
  return options;
}

// Totals over the tests that have egg's time, for the summary line.
struct Sums {
  double ours = 0;
  double eggs = 0;
  int compared = 0;
  int mismatches = 0;
  int wrong_goals = 0;
};

bool RunSuite(const Options& options, const lang::Language& language,
              Sums* sums) {
  const std::string base = absl::StrCat(options.dir, "/", language.name());
  rules::RuleLibrary library;
  if (absl::Status s = library.AddFile(base + ".rules"); !s.ok()) {
    std::fprintf(stderr, "%s\n", std::string(s.message()).c_str());
    return false;
  }
  auto tests = ReadTests(base + ".tests");
  if (!tests.ok()) {
    std::fprintf(stderr, "%s\n", std::string(tests.status().message()).c_str());
    return false;
  }
  for (const EggTest& test : *tests) {
    if (!options.only.empty() && !options.only.contains(test.name)) continue;
    const std::optional<EggFigures>& egg =
        options.mode == Mode::kPopl ? test.egg_popl : test.egg_test;
    // The best of --repeat runs; every run must do the same work.
    Outcome best;
    for (int r = 0; r < options.repeat; ++r) {
      auto outcome = RunTest(test, options.mode, language, library,
                             /*progress=*/nullptr, options.matcher);
      if (!outcome.ok()) {
        std::fprintf(stderr, "%s\n",
                     std::string(outcome.status().message()).c_str());
        return false;
      }
      if (r == 0 || outcome->totals.total_seconds < best.totals.total_seconds) {
        best = *outcome;
      }
    }
    const Runner::Report& t = best.totals;
    std::string goals = best.proved ? "proved" : "unproved";
    if (best.proved != test.expect_proved) {
      goals += "(WRONG)";
      ++sums->wrong_goals;
    }
    std::printf("%-26s %-15s %4zu %8zu %7zu %8zu %9.6f %9.6f %9.6f %9.6f %-9s",
                test.name.c_str(), StopName(best).c_str(), t.iterations,
                t.nodes, t.classes, t.hashcons, t.search_seconds,
                t.apply_seconds, t.rebuild_seconds, t.total_seconds,
                goals.c_str());
    if (best.conflicts > 0) {
      std::printf(" %zu constant conflicts!", best.conflicts);
    }
    if (!egg.has_value()) {
      std::printf(" egg: no figures\n");
      continue;
    }
    std::string diff = CompareWithEgg(best, *egg);
    if (!diff.empty()) ++sums->mismatches;
    std::printf(" %s", diff.empty() ? "same" : ("DIFFERS: " + diff).c_str());
    if (egg->seconds >= 0) {
      std::printf(" egg %.6f s", egg->seconds);
      if (egg->seconds > 0) {
        std::printf(", ratio %.2f", t.total_seconds / egg->seconds);
      }
      sums->ours += t.total_seconds;
      sums->eggs += egg->seconds;
      ++sums->compared;
    }
    std::printf("\n");
    std::fflush(stdout);
  }
  return true;
}

}  // namespace
}  // namespace tessel::egraph::bench

int main(int argc, char** argv) {
  using namespace tessel::egraph;
  bench::Options options = bench::ParseOptions(argc, argv);
  std::printf("mode %s; egg 0.9.5's figures from %s/*.tests\n",
              options.mode == bench::Mode::kPopl
                  ? "popl (100 iterations, 1,000,000 nodes, backoff, goals "
                    "checked at the end)"
                  : "test (each test's runner, stop when the goals are proved)",
              options.dir.c_str());
  std::printf("%-26s %-15s %4s %8s %7s %8s %9s %9s %9s %9s %-9s %s\n", "test",
              "stop", "iter", "e-nodes", "classes", "hashcons", "search",
              "apply", "rebuild", "total s", "goals", "vs egg");
  bench::Sums sums;
  lang::MathLanguage math;
  lang::LambdaLanguage lambda;
  for (const lang::Language* language :
       {static_cast<const lang::Language*>(&math),
        static_cast<const lang::Language*>(&lambda)}) {
    if (!bench::RunSuite(options, *language, &sums)) return 1;
  }
  if (sums.compared > 0) {
    std::printf(
        "total over %d tests with egg's time: ours %.3f s, egg %.3f s, "
        "ratio %.2f (above 1: Tessel is slower)\n",
        sums.compared, sums.ours, sums.eggs,
        sums.eggs > 0 ? sums.ours / sums.eggs : 0.0);
  }
  std::printf("%d size mismatches with egg, %d wrong goal results\n",
              sums.mismatches, sums.wrong_goals);
  // A run that does not do egg's work is not a comparison with egg.
  return sums.mismatches > 0 || sums.wrong_goals > 0 ? 1 : 0;
}
