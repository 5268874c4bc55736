// egg's math and lambda tests in CI (nothing here is timed): every test of
// both suites, in egg's own mode and under the POPL'21 limits, must prove
// its goals (or fail to, for the tests egg expects to fail) and stop
// exactly as egg 0.9.5 did, with the same number of iterations, e-nodes
// and e-classes. The nine long POPL runs take 0.1-1.5 s each (-c opt); one
// gtest test per run lets Bazel spread them over the shards (BUILD).
#include "scripts/bench/egg/suite.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "libs/egraph/lang/lambda.h"
#include "libs/egraph/lang/math.h"

namespace tessel::egraph::bench {
namespace {

constexpr const char* kSuites[] = {"math", "lambda"};

std::string SuiteBase(const std::string& suite) {
  return "scripts/bench/egg/" + suite;
}

// One run: a test of a suite in one mode.
struct EggRun {
  std::string suite;
  std::string test;
  Mode mode;
};

// Every test of both suites in both modes; none if a .tests file does not
// read (SuitesRead reports it).
std::vector<EggRun> AllRuns() {
  std::vector<EggRun> runs;
  for (const char* suite : kSuites) {
    auto tests = ReadTests(SuiteBase(suite) + ".tests");
    if (!tests.ok()) return {};
    for (const EggTest& test : *tests) {
      for (Mode mode : {Mode::kTest, Mode::kPopl}) {
        runs.push_back({suite, test.name, mode});
      }
    }
  }
  return runs;
}

TEST(EggSuiteTest, SuitesRead) {
  size_t runs = 0;
  for (const char* suite : kSuites) {
    auto tests = ReadTests(SuiteBase(suite) + ".tests");
    ASSERT_TRUE(tests.ok()) << tests.status();
    rules::RuleLibrary library;
    absl::Status added = library.AddFile(SuiteBase(suite) + ".rules");
    ASSERT_TRUE(added.ok()) << added;
    runs += 2 * tests->size();
  }
  EXPECT_EQ(AllRuns().size(), runs);
  EXPECT_GT(runs, 0u);
}

class EggRunTest : public testing::TestWithParam<EggRun> {};

TEST_P(EggRunTest, StopsAsEggDid) {
  const EggRun& run = GetParam();
  lang::MathLanguage math;
  lang::LambdaLanguage lambda;
  const lang::Language& language =
      run.suite == "math" ? static_cast<const lang::Language&>(math) : lambda;
  rules::RuleLibrary library;
  absl::Status added = library.AddFile(SuiteBase(run.suite) + ".rules");
  ASSERT_TRUE(added.ok()) << added;
  auto tests = ReadTests(SuiteBase(run.suite) + ".tests");
  ASSERT_TRUE(tests.ok()) << tests.status();
  for (const EggTest& test : *tests) {
    if (test.name != run.test) continue;
    const std::optional<EggFigures>& egg =
        run.mode == Mode::kTest ? test.egg_test : test.egg_popl;
    ASSERT_TRUE(egg.has_value());
    auto outcome = RunTest(test, run.mode, language, library);
    ASSERT_TRUE(outcome.ok()) << outcome.status();
    EXPECT_EQ(outcome->proved, test.expect_proved);
    EXPECT_EQ(CompareWithEgg(*outcome, *egg), "");
    EXPECT_EQ(outcome->conflicts, 0u);
    return;
  }
  FAIL() << "no test " << run.test;
}

INSTANTIATE_TEST_SUITE_P(
    EggSuites, EggRunTest, testing::ValuesIn(AllRuns()),
    [](const testing::TestParamInfo<EggRun>& info) {
      return info.param.test +
             (info.param.mode == Mode::kTest ? "_test" : "_popl");
    });

// The first line of the error reading `text` as a .tests file.
std::string TestsError(const std::string& text) {
  auto tests = ParseTests(MakeSource("t.tests", text));
  EXPECT_FALSE(tests.ok());
  if (tests.ok()) return "";
  std::string message(tests.status().message());
  return message.substr(0, message.find('\n'));
}

TEST(EggSuiteTest, MalformedTests) {
  EXPECT_EQ(TestsError("(test t (rules math) (goals x))"),
            "t.tests:1:1: error: a test needs (rules ...), (start ...) and "
            "(goals ...)");
  EXPECT_EQ(TestsError("(test t ())"),
            "t.tests:1:9: error: expected (rules SET...), (start TERM), "
            "(extra TERM...), (goals PATTERN...), (expect proved|unproved), "
            "(runner ...), (egg-test ...) or (egg-popl ...)");
  EXPECT_EQ(TestsError("(test t (runner (nodes -1)))"),
            "t.tests:1:17: error: expected (nodes COUNT)");
  EXPECT_EQ(TestsError("(test t (egg-popl (iterations 3)))"),
            "t.tests:1:9: error: missing (stop ...)");
  EXPECT_EQ(TestsError("(exam t)"),
            "t.tests:1:1: error: expected (test NAME FIELD...)");
}

}  // namespace
}  // namespace tessel::egraph::bench
