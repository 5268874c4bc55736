#include "libs/saturate/saturate.h"

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "libs/cli/command_line.h"
#include "libs/egraph/runner.h"
#include "libs/ir/syntax.h"
#include "libs/saturate/testing.h"

namespace tessel::saturate {
namespace {

using ::testing::ContainsRegex;
using ::testing::HasSubstr;
using ::testing::MatchesRegex;
using ::testing::Not;

constexpr absl::string_view kGemv = R"(
(func @gemv ((alpha f32) (beta f32) (A (f32 8 4)) (x (f32 4)) (y0 (f32 8)))
    ((y (f32 8)))
  (app
    (lam (build 8 (lam (+ (* alpha (index %1 %0)) (* beta (index y0 %0))))))
    (build 8
      (lam
        (ifold 4 0.0
          (lam (lam (+ %0 (* (index (index A %2) %1) (index x %1))))))))))
)";

absl::StatusOr<SaturateResult> SaturateText(absl::string_view text,
                                            const SaturateOptions& options) {
  return Saturate(testing::ReadVerified(text), options);
}

SaturateOptions Blas() {
  SaturateOptions options;
  options.targets = {"blas"};
  return options;
}

TEST(SaturateTest, SaturatesToTheTargetsCalls) {
  auto result = SaturateText(kGemv, Blas());
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_THAT(result->text,
              HasSubstr("(blas.gemv N alpha A x beta y0)"));
  ASSERT_EQ(result->funcs.size(), 1u);
  const FuncReport& report = result->funcs[0];
  EXPECT_EQ(report.name, "@gemv");
  EXPECT_EQ(report.stop, egraph::StopReason::kSaturated);
  EXPECT_LT(report.output_cost, report.input_cost);
  EXPECT_EQ(LimitMessage(report, Blas().limits), "");
}

// Gemmini's rules match access patterns, not gemv's build/ifold terms: the
// run says so instead of returning the input without a word.
TEST(SaturateTest, NotesTargetsWhoseRulesNeverApplied) {
  SaturateOptions options = Blas();
  auto blas = SaturateText(kGemv, options);
  ASSERT_TRUE(blas.ok()) << blas.status();
  EXPECT_EQ(IdleTargetNote(blas->funcs[0], options.targets), "");
  options.targets = {"blas", "gemmini"};
  auto result = SaturateText(kGemv, options);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_THAT(result->text, Not(HasSubstr("gemmini.")));
  EXPECT_EQ(IdleTargetNote(result->funcs[0], options.targets),
            "saturate: note: @gemv: no rule of target gemmini applied, so "
            "the output calls none of its functions (each target's rules are "
            "written for one level of TIR: docs/saturate.md, \"Rules and "
            "cost models\")");
}

TEST(SaturateTest, IterationLimit) {
  SaturateOptions options = Blas();
  options.limits.iterations = 1;
  auto result = SaturateText(kGemv, options);
  ASSERT_TRUE(result.ok()) << result.status();
  const FuncReport& report = result->funcs[0];
  EXPECT_EQ(report.stop, egraph::StopReason::kIterationLimit);
  EXPECT_EQ(report.iterations.size(), 1u);
  EXPECT_THAT(
      LimitMessage(report, options.limits),
      MatchesRegex("saturate: @gemv: stopped by the iteration limit "
                   "\\(--iter-limit 1\\) after 1 full iteration\\(s\\), "
                   "[0-9]+ e-nodes, [0-9]+ e-classes, before "
                   "saturation: the output is the cheapest equal "
                   "program found by then"));
  // Still a program: the verified module, no worse than the input.
  EXPECT_LE(report.output_cost, report.input_cost);
}

TEST(SaturateTest, NodeLimit) {
  SaturateOptions options = Blas();
  options.limits.nodes = 30;
  auto result = SaturateText(kGemv, options);
  ASSERT_TRUE(result.ok()) << result.status();
  const FuncReport& report = result->funcs[0];
  EXPECT_EQ(report.stop, egraph::StopReason::kNodeLimit);
  EXPECT_THAT(LimitMessage(report, options.limits),
              HasSubstr("stopped by the node limit (--node-limit 30)"));
}

// The time limit is wall-clock time: its message, on a report.
TEST(SaturateTest, TimeLimitMessage) {
  FuncReport report;
  report.name = "@f";
  report.stop = egraph::StopReason::kTimeLimit;
  report.iterations.resize(3);
  report.iterations.back().stop = egraph::StopReason::kTimeLimit;
  report.nodes = 12;
  report.classes = 7;
  egraph::RunnerLimits limits = DefaultLimits();
  limits.seconds = 0.5;
  EXPECT_EQ(
      LimitMessage(report, limits),
      "saturate: @f: stopped by the time limit (--time-limit 0.5) after "
      "2 full iteration(s), 12 e-nodes, 7 e-classes, before saturation: the "
      "output is the cheapest equal program found by then");
}

TEST(SaturateTest, StatsJson) {
  SaturateOptions options = Blas();
  options.limits.iterations = 2;
  auto result = SaturateText(kGemv, options);
  ASSERT_TRUE(result.ok()) << result.status();
  std::string json = StatsJson(result->funcs);
  EXPECT_THAT(json, HasSubstr("{\"funcs\": [{\"name\": \"@gemv\", \"stop\": "
                              "\"iteration limit\", \"e_nodes\": "));
  EXPECT_THAT(json, ContainsRegex("\"applied\": \\{\"beta-reduce\": 1"));
  FuncReport infinite;
  infinite.name = "@\"q\"";
  infinite.input_cost = std::numeric_limits<double>::infinity();
  EXPECT_THAT(StatsJson({infinite}),
              HasSubstr("\"name\": \"@\\\"q\\\"\", \"stop\": \"running\", "
                        "\"e_nodes\": 0, \"e_classes\": 0, \"input_cost\": "
                        "null, \"output_cost\": 0"));
}

TEST(SaturateTest, ProgressLine) {
  EXPECT_EQ(ProgressLine("@f", 3, 57, 38, 27.4, 1.5),
            "saturate: @f: iteration 3, 57 e-nodes, 38 e-classes, best cost "
            "27.4 (1.5 s)");
  EXPECT_EQ(ProgressLine("@f", 0, 5, 5, std::nullopt, 1.04),
            "saturate: @f: iteration 0, 5 e-nodes, 5 e-classes, best cost "
            "none yet (1.0 s)");
}

// Progress is printed once a second of the injected clock has passed, at
// the start of an iteration.
TEST(SaturateTest, ProgressEverySecond) {
  SaturateOptions options = Blas();
  double now = 100;
  options.clock = [&now] { return now += 0.6; };
  std::vector<std::string> lines;
  options.progress = [&lines](const std::string& line) {
    lines.push_back(line);
  };
  auto result = SaturateText(kGemv, options);
  ASSERT_TRUE(result.ok()) << result.status();
  size_t iterations = result->funcs[0].iterations.size();
  // The clock reads 0.6 s after the start at the first iteration's start,
  // 1.2 s at the second's (a line), and a line every other iteration on.
  ASSERT_EQ(lines.size(), iterations / 2);
  EXPECT_THAT(lines[0], MatchesRegex("saturate: @gemv: iteration 1, [0-9]+ "
                                     "e-nodes, [0-9]+ e-classes, best cost "
                                     "[0-9.]+ \\(1.2 s\\)"));
  if (lines.size() > 1) {
    EXPECT_THAT(lines[1], HasSubstr("iteration 3,"));
  }
}

TEST(SaturateTest, FuncsWithoutLamsGetTheScalarRules) {
  auto result = SaturateText("(func @f ((x f32)) ((y f32)) (* x 1.0))", {});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_THAT(result->text,
              ::testing::Not(HasSubstr("1.0")));
}

// Choices the command line makes wrongly are usage errors, found without
// reading any input, and Saturate finds them too.
TEST(SaturateTest, UnknownOrRepeatedTargetsAndModels) {
  auto expect_usage_error = [](const SaturateOptions& options,
                               const std::string& message) {
    absl::Status checked = CheckOptions(options);
    EXPECT_EQ(checked.message(), message);
    EXPECT_TRUE(IsUsageError(checked)) << checked;
    auto result = SaturateText(kGemv, options);
    EXPECT_EQ(result.status(), checked);
  };
  SaturateOptions options;
  options.targets = {"nope"};
  expect_usage_error(options,
                     "unknown target 'nope' (known: blas, gemmini, pytorch)");
  options.targets = {"blas", "pytorch", "blas"};
  expect_usage_error(options, "--target blas is given more than once");
  options = Blas();
  options.cost_model = "nope";
  expect_usage_error(options,
                     "--cost: no cost model named 'nope' (known: liar, blas)");
  options = Blas();
  options.rule_files = {"a.rules", "b.rules", "a.rules"};
  expect_usage_error(options, "--rules a.rules is given more than once");
  options = Blas();
  options.cost_model = "liar";
  EXPECT_TRUE(CheckOptions(options).ok());
}

TEST(SaturateTest, NotesProceduresThatAreNotTensorLevel) {
  ir::Module funcs = testing::ReadVerified(kGemv);
  EXPECT_TRUE(LevelNotes(funcs).empty());
  ir::Module one = testing::ReadVerified(
      "(proc @copy ((in x f32) (out y f32)) (assign y x))");
  EXPECT_THAT(LevelNotes(one),
              ::testing::ElementsAre(
                  "saturate: note: @copy is a loop-level proc, left as it "
                  "is: saturate's rules are for the tensor level (funcs, "
                  "which parse --emit=terms writes)"));
  std::string text;
  for (const char* name : {"a", "b", "c", "d"}) {
    text += absl::StrCat("(proc @", name,
                         " ((in x f32) (out y f32)) (assign y x))\n");
  }
  ir::Module four = testing::ReadVerified(text);
  EXPECT_THAT(LevelNotes(four),
              ::testing::ElementsAre(HasSubstr(
                  "note: 4 loop-level procs (@a, @b, @c, ...) are left as "
                  "they are: saturate's rules are for the tensor level")));
}

// A user rule the binding cannot see is wrong (fst of a scalar) gives an
// extracted program that does not verify: that is reported, not written.
TEST(SaturateTest, ReverifiesTheOutput) {
  std::string path = std::string(std::getenv("TEST_TMPDIR")) + "/bad.rules";
  std::ofstream(path) << "(ruleset bad (rule fst-of-sum (+ ?a ?b) (fst ?a)))\n";
  SaturateOptions options;
  options.rule_files = {path};
  auto result =
      SaturateText("(func @f ((x f32)) ((y f32)) (+ x 1.0))", options);
  ASSERT_FALSE(result.ok());
  EXPECT_THAT(result.status().message(),
              HasSubstr("saturate extracted a module that does not verify "
                        "(a bug)"));
}

TEST(SaturateTest, UserRuleFileErrorsAreLocated) {
  std::string path = std::string(std::getenv("TEST_TMPDIR")) + "/typo.rules";
  std::ofstream(path) << "(ruleset mine\n  (rule r (+ ?a ?b) (+ ?b)))\n";
  SaturateOptions options;
  options.rule_files = {path};
  auto result = SaturateText(kGemv, options);
  ASSERT_FALSE(result.ok());
  EXPECT_THAT(result.status().message(),
              HasSubstr("typo.rules:2:21: error: '+' takes 2 operands"));
}

}  // namespace
}  // namespace tessel::saturate
