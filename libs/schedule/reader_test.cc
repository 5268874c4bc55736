#include "libs/schedule/reader.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tessel::schedule {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

Schedule ReadOk(const std::string& text) {
  absl::StatusOr<Schedule> schedule = ReadSchedule(text, "s.sched");
  EXPECT_TRUE(schedule.ok()) << schedule.status();
  return schedule.ok() ? *std::move(schedule) : Schedule();
}

std::string ErrorOf(const std::string& text) {
  absl::StatusOr<Schedule> schedule = ReadSchedule(text, "s.sched");
  EXPECT_FALSE(schedule.ok()) << text;
  return schedule.ok() ? "" : std::string(schedule.status().message());
}

TEST(ReaderTest, ReadsTheIssuesDirectives) {
  Schedule schedule = ReadOk(
      "divide_loop(\"for i in _\", 16, [\"io\", \"ii\"], tail=\"cut\")\n"
      "reorder_loops('io ii')  # a comment\n"
      "\n"
      "fission(after(\"C[_] += _ #1\"), n_lifts=2)\n"
      "replace(\"for i0 in _\", @ld_data)\n"
      "shift_loop(\"i\", -3, True)\n");
  ASSERT_EQ(schedule.directives.size(), 5u);
  const Call& divide = schedule.directives[0];
  EXPECT_EQ(divide.name, "divide_loop");
  EXPECT_EQ(divide.pos.line, 1);
  ASSERT_EQ(divide.args.size(), 3u);
  EXPECT_EQ(divide.args[0].kind, Value::Kind::kString);
  EXPECT_EQ(divide.args[0].text, "for i in _");
  EXPECT_EQ(divide.args[1].int_value, 16);
  EXPECT_EQ(divide.args[1].pos.col, 27);
  EXPECT_EQ(divide.args[2].items.size(), 2u);
  ASSERT_EQ(divide.keywords.size(), 1u);
  EXPECT_EQ(divide.keywords[0].first, "tail");
  EXPECT_EQ(CallText(divide),
            "divide_loop(\"for i in _\", 16, [\"io\", \"ii\"], tail=\"cut\")");
  const Call& fission = schedule.directives[2];
  EXPECT_EQ(fission.pos.line, 4);
  EXPECT_EQ(fission.args[0].kind, Value::Kind::kGap);
  EXPECT_TRUE(fission.args[0].after);
  EXPECT_EQ(fission.args[0].items[0].text, "C[_] += _ #1");
  EXPECT_EQ(schedule.directives[3].args[1].kind, Value::Kind::kForm);
  EXPECT_EQ(schedule.directives[3].args[1].text, "ld_data");
  EXPECT_EQ(schedule.directives[4].args[1].int_value, -3);
  EXPECT_TRUE(schedule.directives[4].args[2].bool_value);
}

TEST(ReaderTest, ADirectiveContinuesWhileABracketIsOpen) {
  Schedule schedule = ReadOk(
      "divide_loop(\"for i in _\",  # the loop\n"
      "            16,\n"
      "            [\"io\",\n"
      "             \"ii\"])\n"
      "rename('f')\n");
  ASSERT_EQ(schedule.directives.size(), 2u);
  EXPECT_EQ(schedule.directives[0].args[2].items[1].pos.line, 4);
  EXPECT_EQ(schedule.directives[1].pos.line, 5);
}

TEST(ReaderTest, HashInsideAStringIsNotAComment) {
  Schedule schedule = ReadOk("f('x = _ #2', \"#\")  # comment\n");
  EXPECT_EQ(schedule.directives[0].args[0].text, "x = _ #2");
  EXPECT_EQ(schedule.directives[0].args[1].text, "#");
}

TEST(ReaderTest, EscapesInStrings) {
  Schedule schedule = ReadOk("f('it\\'s', \"a\\\\b\")\n");
  EXPECT_EQ(schedule.directives[0].args[0].text, "it's");
  EXPECT_EQ(schedule.directives[0].args[1].text, "a\\b");
  EXPECT_EQ(CallText(schedule.directives[0]), "f(\"it's\", \"a\\\\b\")");
}

TEST(ReaderTest, ReadsDefinitions) {
  Schedule schedule = ReadOk(
      "def tile(loop, w):\n"
      "    divide_loop(loop, w, ['{loop}o', '{loop}i'], perfect=True)\n"
      "\n"
      "    # comments and blank lines inside are fine\n"
      "    reorder_loops(after(loop))\n"
      "tile('i', 4)\n");
  ASSERT_EQ(schedule.definitions.size(), 1u);
  const Definition& tile = schedule.definitions[0];
  EXPECT_EQ(tile.name, "tile");
  EXPECT_THAT(tile.params, ::testing::ElementsAre("loop", "w"));
  ASSERT_EQ(tile.body.size(), 2u);
  EXPECT_EQ(tile.body[0].args[0].kind, Value::Kind::kParam);
  EXPECT_EQ(tile.body[0].args[0].text, "loop");
  EXPECT_EQ(tile.body[1].args[0].items[0].kind, Value::Kind::kParam);
  EXPECT_EQ(schedule.directives.size(), 1u);
  EXPECT_NE(schedule.FindDefinition("tile"), nullptr);
}

TEST(ReaderTest, ReportsLocatedErrors) {
  EXPECT_EQ(ErrorOf("f('abc\n"),
            "s.sched:1:3: error: unterminated string\n"
            "f('abc\n"
            "  ^");
  EXPECT_THAT(ErrorOf("f(1, 2\n"),
              StartsWith("s.sched:2:1: error: unexpected end of the schedule: "
                         "the '(' at 1:2 is not closed"));
  EXPECT_THAT(ErrorOf("f([1, 2)\n"),
              StartsWith("s.sched:1:8: error: expected ',' or ']'"));
  EXPECT_THAT(ErrorOf("f(x)\n"),
              StartsWith("s.sched:1:3: error: unknown name 'x' (a pattern or "
                         "a name is a string: \"x\")"));
  EXPECT_THAT(ErrorOf("f(1) g(2)\n"),
              StartsWith("s.sched:1:6: error: expected the end of the line"));
  EXPECT_THAT(ErrorOf("f(a=1, 2)\n"),
              StartsWith("s.sched:1:8: error: a positional argument follows "
                         "a keyword argument"));
  EXPECT_THAT(ErrorOf("f(a=1, a=2)\n"),
              StartsWith("s.sched:1:8: error: keyword 'a' is given twice"));
  EXPECT_THAT(ErrorOf("f(99999999999999999999)\n"),
              HasSubstr("is not an integer"));
  EXPECT_THAT(ErrorOf("  f(1)\n"),
              StartsWith("s.sched:1:3: error: unexpected indentation"));
  EXPECT_THAT(ErrorOf("f 1\n"),
              StartsWith("s.sched:1:3: error: expected '(' after the "
                         "directive's name"));
  EXPECT_THAT(ErrorOf("f(@)\n"), HasSubstr("expected a name after '@'"));
  EXPECT_THAT(ErrorOf("f(after('x', 1))\n"),
              HasSubstr("expected ')' closing after(...)"));
  EXPECT_THAT(ErrorOf("f(1.5)\n"), HasSubstr("is not an integer"));
}

TEST(ReaderTest, BoundsNesting) {
  EXPECT_TRUE(
      ReadSchedule("f(" + std::string(64, '[') + std::string(64, ']') + ")\n",
                   "s.sched")
          .ok());
  EXPECT_THAT(
      ErrorOf("f(" + std::string(65, '[') + std::string(65, ']') + ")\n"),
      HasSubstr("error: lists nested more than 64 deep"));
  EXPECT_THAT(ErrorOf("f(" + std::string(100000, '[')),
              HasSubstr("error: lists nested more than 64 deep"));
}

TEST(ReaderTest, RejectsEmptySchedules) {
  EXPECT_EQ(ErrorOf(""), "s.sched: error: the schedule is empty");
  EXPECT_EQ(ErrorOf("# only a comment\n\n"),
            "s.sched: error: the schedule is empty");
  EXPECT_EQ(ErrorOf("def f(a):\n  g(a)\n"),
            "s.sched: error: the schedule has no directive outside its "
            "definitions");
}

TEST(ReaderTest, RejectsMalformedDefinitions) {
  EXPECT_THAT(ErrorOf("def f(a):\n  g(b)\nf(1)\n"),
              StartsWith("s.sched:2:5: error: 'b' is not a parameter of 'f'"));
  EXPECT_THAT(ErrorOf("def f(a, a):\n  g(a)\nf(1)\n"),
              HasSubstr("parameter 'a' is repeated"));
  EXPECT_THAT(ErrorOf("def f(a):\ng(1)\n"),
              StartsWith("s.sched:1:1: error: 'f' has no directives"));
  EXPECT_THAT(ErrorOf("def f(a):\n  g(a)\ndef f(b):\n  g(b)\nf(1)\n"),
              StartsWith("s.sched:3:5: error: 'f' is defined twice"));
  EXPECT_THAT(ErrorOf("def f(a):\n  def g(b):\n"),
              HasSubstr("definitions do not nest"));
  EXPECT_THAT(ErrorOf("def f(a)\n  g(a)\n"),
              HasSubstr("expected ':' after the parameters"));
}

TEST(ReaderTest, ReadsALoneValue) {
  absl::StatusOr<Value> value = ReadValue("\"guard\"");
  ASSERT_TRUE(value.ok());
  EXPECT_EQ(value->text, "guard");
  EXPECT_FALSE(ReadValue("1 2").ok());
  EXPECT_FALSE(ReadValue("x").ok());
}

}  // namespace
}  // namespace tessel::schedule
