// egg's math and lambda tests in CI (nothing here is timed): every test in
// egg's own mode, and the tests egg finishes quickly under the POPL'21
// limits, must prove their goals (or fail to, for the tests egg expects to
// fail) and stop exactly as egg 0.9.5 did, with the same number of
// iterations, e-nodes and e-classes.
#include "scripts/bench/egg/suite.h"

#include <string>

#include "gtest/gtest.h"
#include "libs/egraph/lang/lambda.h"
#include "libs/egraph/lang/math.h"

namespace tessel::egraph::bench {
namespace {

// POPL-mode runs egg finishes in less than this (seconds) run in CI.
constexpr double kFastInEgg = 0.1;

void CheckSuite(const lang::Language& language) {
  const std::string base =
      std::string("scripts/bench/egg/") + std::string(language.name());
  rules::RuleLibrary library;
  absl::Status added = library.AddFile(base + ".rules");
  ASSERT_TRUE(added.ok()) << added;
  auto tests = ReadTests(base + ".tests");
  ASSERT_TRUE(tests.ok()) << tests.status();
  int popl_runs = 0;
  for (const EggTest& test : *tests) {
    for (Mode mode : {Mode::kTest, Mode::kPopl}) {
      const std::optional<EggFigures>& egg =
          mode == Mode::kTest ? test.egg_test : test.egg_popl;
      ASSERT_TRUE(egg.has_value()) << test.name;
      if (mode == Mode::kPopl) {
        if (egg->seconds < 0 || egg->seconds >= kFastInEgg) continue;
        ++popl_runs;
      }
      SCOPED_TRACE(test.name + (mode == Mode::kTest ? " (test)" : " (popl)"));
      auto outcome = RunTest(test, mode, language, library);
      ASSERT_TRUE(outcome.ok()) << outcome.status();
      EXPECT_EQ(outcome->proved, test.expect_proved);
      EXPECT_EQ(CompareWithEgg(*outcome, *egg), "");
      EXPECT_EQ(outcome->conflicts, 0u);
    }
  }
  EXPECT_GT(popl_runs, 0);
}

TEST(EggSuiteTest, Math) { CheckSuite(lang::MathLanguage()); }

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

TEST(EggSuiteTest, Lambda) { CheckSuite(lang::LambdaLanguage()); }

}  // namespace
}  // namespace tessel::egraph::bench
