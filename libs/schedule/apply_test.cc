#include "libs/schedule/apply.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "libs/ir/build.h"
#include "libs/ir/forms.h"
#include "libs/primitives/rename.h"
#include "libs/primitives/testing.h"
#include "libs/schedule/expand.h"
#include "libs/schedule/reader.h"
#include "libs/schedule/testing.h"

namespace tessel::schedule {
namespace {

using primitives::ArgKind;
using primitives::Args;
using primitives::Target;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// What `record` saw, in order: its string and the loop it points at.
std::vector<std::string>& Recorded() {
  static std::vector<std::string> recorded;
  return recorded;
}

absl::Status Record(Target&, const Args& args) {
  Recorded().push_back(args["tag"].text + "@" + args["loop"].cursor->name());
  return absl::OkStatus();
}

absl::Status Reject(Target&, const Args&) {
  return absl::FailedPreconditionError(
      "the loop's iterations do not commute: i = 3, k = 2");
}

// Writes an `in` parameter: the verifier must catch it.
absl::Status Corrupt(Target& target, const Args&) {
  ir::Node* x = ir::ParamsOf(target.proc)[1];
  ir::Node* write = ir::Build::Assign(
      target.module,
      ir::Build::Load(
          target.module, *x,
          {ir::Build::Int(target.module, 0), ir::Build::Int(target.module, 0)}),
      ir::Build::Float(target.module, 1.0));
  target.module.Append(&target.proc, write);
  return absl::OkStatus();
}

primitives::Registry TestRegistry() {
  primitives::Registry registry;
  EXPECT_TRUE(registry
                  .Add({"record",
                        {{"loop", ArgKind::kLoop, std::nullopt},
                         {"tag", ArgKind::kString, "\"-\""}},
                        &Record})
                  .ok());
  EXPECT_TRUE(
      registry
          .Add({"reject", {{"loop", ArgKind::kLoop, std::nullopt}}, &Reject})
          .ok());
  EXPECT_TRUE(registry.Add({"corrupt", {}, &Corrupt}).ok());
  EXPECT_TRUE(registry.Add(primitives::RenameSpec()).ok());
  return registry;
}

class ApplyTest : public ::testing::Test {
 protected:
  ApplyTest()
      : module_(primitives::testing::ReadVerified(testing::kProc)),
        registry_(TestRegistry()) {
    Recorded().clear();
  }

  absl::Status Apply(const std::string& text) {
    absl::StatusOr<Schedule> schedule = ReadSchedule(text, "s.sched");
    if (!schedule.ok()) return schedule.status();
    return ApplySchedule(module_, primitives::testing::ProcNamed(module_, "@p"),
                         *schedule, registry_);
  }
  std::string ErrorOf(const std::string& text) {
    absl::Status status = Apply(text);
    EXPECT_FALSE(status.ok()) << text;
    return std::string(status.message());
  }

  ir::Module module_;
  primitives::Registry registry_;
};

TEST_F(ApplyTest, RunsDirectivesInOrder) {
  ASSERT_TRUE(Apply("record('k', 'a')\nrecord('for j in _')\n").ok());
  EXPECT_THAT(Recorded(), ElementsAre("a@k", "-@j"));
}

TEST_F(ApplyTest, ExpandsDefinedDirectives) {
  ASSERT_TRUE(Apply("def both(first, second, tag):\n"
                    "  record(first, '{tag}1')\n"
                    "  twice(second, tag='{tag}{tag}')\n"
                    "def twice(loop, tag):\n"
                    "  record(loop, tag)\n"
                    "  record(loop, '{tag}!')\n"
                    "both('i', 'for j in _', 7)\n"
                    "twice('k', 'x')\n")
                  .ok());
  EXPECT_THAT(Recorded(), ElementsAre("71@i", "77@j", "77!@j", "x@k", "x!@k"));
}

TEST_F(ApplyTest, TheProcedureFollowsARename) {
  ASSERT_TRUE(Apply("rename('q')\nrecord('k')\n").ok());
  EXPECT_NE(module_.Find("@q"), nullptr);
  EXPECT_THAT(Recorded(), ElementsAre("-@k"));
}

TEST_F(ApplyTest, ARejectionNamesTheDirectiveAndTheCode) {
  EXPECT_EQ(ErrorOf("record('i')\nreject(\"for k in _\")\n"),
            "s.sched:2:1: error: reject(\"for k in _\"): the loop's "
            "iterations do not commute: i = 3, k = 2\n"
            "reject(\"for k in _\")\n"
            "^\n"
            "m.tir:5:5: note: the code it points at:\n"
            "  (for k 0 8 (reduce (C i) (* (A i k) 2.0)))");
}

TEST_F(ApplyTest, ALongStatementIsShortened) {
  std::string message = ErrorOf("reject('j')\n");
  EXPECT_THAT(message, HasSubstr("m.tir:7:3: note: the code it points at:\n"
                                 "  (for j 0 n\n"
                                 "    (alloc t f32)\n"));
}

TEST_F(ApplyTest, AnErrorInADefinitionNamesItsUses) {
  EXPECT_EQ(ErrorOf("def inner(l):\n"
                    "  record(l)\n"
                    "  reject(l)\n"
                    "def outer():\n"
                    "  inner('k')\n"
                    "record('i')\n"
                    "outer()\n"),
            "s.sched:3:3: error: reject(\"k\"): the loop's iterations do not "
            "commute: i = 3, k = 2\n"
            "  reject(l)\n"
            "  ^\n"
            "s.sched:5:3: note: in 'inner', used here\n"
            "s.sched:7:1: note: in 'outer', used here\n"
            "m.tir:5:5: note: the code it points at:\n"
            "  (for k 0 8 (reduce (C i) (* (A i k) 2.0)))");
  EXPECT_THAT(ErrorOf("def f(l):\n  record(l)\nf('nothing')\n"),
              HasSubstr("s.sched:2:10: error: record(\"nothing\"): pattern "
                        "'nothing' matches nothing in @p\n"));
}

TEST_F(ApplyTest, AProcedureThatDoesNotVerifyIsAnInternalError) {
  EXPECT_THAT(ErrorOf("corrupt()\n"),
              HasSubstr("s.sched:1:1: error: corrupt(): internal error: "
                        "corrupt made a procedure that does not verify: "));
}

TEST_F(ApplyTest, RejectsRecursion) {
  EXPECT_THAT(ErrorOf("def f(l):\n  g(l)\ndef g(l):\n  f(l)\nf('i')\n"),
              HasSubstr("s.sched:4:3: error: recursive use of 'f' "
                        "(f -> g -> f)"));
  EXPECT_THAT(ErrorOf("def f(l):\n  f(l)\nf('i')\n"),
              HasSubstr("recursive use of 'f' (f -> f)"));
  EXPECT_TRUE(Recorded().empty());
}

TEST_F(ApplyTest, BoundsExpansion) {
  std::string text = "def d0(l):\n  record(l)\n";
  for (int i = 1; i <= 17; ++i) {
    absl::StrAppend(&text, "def d", i, "(l):\n  d", i - 1, "(l)\n  d", i - 1,
                    "(l)\n");
  }
  EXPECT_THAT(ErrorOf(text + "d17('i')\n"),
              HasSubstr("error: the schedule expands to more than 100000 "
                        "directives"));
  EXPECT_TRUE(Recorded().empty());
}

TEST_F(ApplyTest, ChecksEveryDirectiveBeforeRunningAny) {
  EXPECT_THAT(ErrorOf("record('i')\nnope('i')\n"),
              HasSubstr("s.sched:2:1: error: unknown directive 'nope'"));
  EXPECT_TRUE(Recorded().empty());
}

TEST_F(ApplyTest, ChecksUsesOfDefinitions) {
  const std::string def = "def d(a, b):\n  record(a, b)\n";
  EXPECT_THAT(ErrorOf(def + "d('i', 'x', 1)\n"),
              HasSubstr("'d' takes 2 arguments, not 3"));
  EXPECT_THAT(ErrorOf(def + "d('i')\n"),
              HasSubstr("'d' needs its parameter 'b'"));
  EXPECT_THAT(ErrorOf(def + "d('i', c=1)\n"),
              HasSubstr("'d' has no parameter 'c'"));
  EXPECT_THAT(ErrorOf(def + "d('i', 'x', a=1)\n"),
              HasSubstr("parameter 'a' is given twice"));
  EXPECT_THAT(ErrorOf("def d(a):\n  record('i', '{a}')\nd([1])\n"),
              HasSubstr("s.sched:2:15: error: '{a}' in a string needs a "
                        "string or an integer, not [1]"));
  EXPECT_THAT(ErrorOf("def rename(a):\n  record(a)\nrename('i')\n"),
              HasSubstr("'rename' is a primitive; a definition needs a name "
                        "of its own"));
}

}  // namespace
}  // namespace tessel::schedule
