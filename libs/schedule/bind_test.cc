#include "libs/schedule/bind.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "libs/ir/syntax.h"
#include "libs/ir/views.h"
#include "libs/primitives/testing.h"
#include "libs/schedule/expand.h"
#include "libs/schedule/reader.h"
#include "libs/schedule/testing.h"
#include "libs/sexpr/printer.h"

namespace tessel::schedule {
namespace {

using primitives::Arg;
using primitives::ArgKind;
using primitives::Args;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

absl::Status Accept(primitives::Target&, const Args&) {
  return absl::OkStatus();
}

// Test-only primitives with parameters of every kind.
primitives::Registry TestRegistry() {
  primitives::Registry registry;
  EXPECT_TRUE(registry
                  .Add({"probe",
                        {{"loop", ArgKind::kLoop, std::nullopt},
                         {"quot", ArgKind::kInt, std::nullopt},
                         {"new_iters", ArgKind::kNames, "[\"o\", \"i\"]"},
                         {"tail", ArgKind::kString, "\"guard\""},
                         {"perfect", ArgKind::kBool, "False"}},
                        &Accept})
                  .ok());
  EXPECT_TRUE(registry
                  .Add({"cursors",
                        {{"gap", ArgKind::kGap, std::nullopt},
                         {"alloc", ArgKind::kAlloc, std::nullopt},
                         {"expr", ArgKind::kExpr, std::nullopt},
                         {"block", ArgKind::kBlock, std::nullopt},
                         {"stmt", ArgKind::kStmt, std::nullopt},
                         {"window", ArgKind::kExprText, std::nullopt},
                         {"conds", ArgKind::kExprTexts, "[]"}},
                        &Accept})
                  .ok());
  EXPECT_TRUE(registry
                  .Add({"forms",
                        {{"pair", ArgKind::kLoopPair, std::nullopt},
                         {"proc", ArgKind::kProc, "@p"},
                         {"instr", ArgKind::kInstr, "@q"},
                         {"ints", ArgKind::kInts, "[]"},
                         {"strs", ArgKind::kStrings, "[]"}},
                        &Accept})
                  .ok());
  return registry;
}

constexpr char kNest[] =
    "\n"
    "(proc @q ((in X (f32 4 4)) (out Y (f32 4 4)))\n"
    "  (for a 0 4 (for b 0 4 (assign (Y a b) (X b a)))))\n";

class BindTest : public ::testing::Test {
 protected:
  BindTest()
      : module_(primitives::testing::ReadVerified(std::string(testing::kProc) +
                                                  kNest)),
        registry_(TestRegistry()) {}

  absl::StatusOr<Args> Bind(const std::string& line,
                            const std::string& proc = "@p") {
    absl::StatusOr<Schedule> read = ReadSchedule(line + "\n", "s.sched");
    if (!read.ok()) return read.status();
    schedule_ = *std::move(read);
    absl::StatusOr<std::vector<Directive>> directives =
        Expand(schedule_, registry_);
    if (!directives.ok()) return directives.status();
    directive_ = directives->front();
    return BindArgs(module_, primitives::testing::ProcNamed(module_, proc),
                    schedule_, directive_);
  }
  std::string ErrorOf(const std::string& line, const std::string& proc = "@p") {
    absl::StatusOr<Args> args = Bind(line, proc);
    EXPECT_FALSE(args.ok()) << line;
    return args.ok() ? "" : std::string(args.status().message());
  }
  static std::string Flat(const ir::Node* node) {
    return node == nullptr ? "null" : PrintFlat(ir::WriteNode(*node));
  }

  ir::Module module_;
  primitives::Registry registry_;
  Schedule schedule_;
  Directive directive_;
};

TEST_F(BindTest, BindsPositionalKeywordAndDefaultArguments) {
  absl::StatusOr<Args> args = Bind("probe('for k in _', 4, perfect=True)");
  ASSERT_TRUE(args.ok()) << args.status();
  EXPECT_EQ(args->size(), 5u);
  const Arg& loop = (*args)["loop"];
  EXPECT_EQ(loop.cursor->name(), "k");
  EXPECT_EQ(loop.text, "for k in _");
  EXPECT_EQ(loop.loc.col, 7);
  EXPECT_EQ((*args)["quot"].int_value, 4);
  EXPECT_THAT((*args)["new_iters"].names, ElementsAre("o", "i"));
  EXPECT_EQ((*args)["tail"].text, "guard");
  EXPECT_TRUE((*args)["perfect"].bool_value);
}

TEST_F(BindTest, ABareNameIsALoop) {
  absl::StatusOr<Args> args = Bind("probe('j', quot=2, tail='cut')");
  ASSERT_TRUE(args.ok()) << args.status();
  EXPECT_THAT(Flat((*args)["loop"].cursor.node()), StartsWith("(for j 0 n"));
  EXPECT_EQ((*args)["tail"].text, "cut");
}

TEST_F(BindTest, PicksMatchN) {
  absl::StatusOr<Args> args = Bind("probe('for _ in _ #2', 1)");
  ASSERT_TRUE(args.ok()) << args.status();
  EXPECT_EQ((*args)["loop"].cursor->name(), "j");
}

TEST_F(BindTest, BindsCursorsOfEveryKind) {
  absl::StatusOr<Args> args = Bind(
      "cursors(after('C[i] = _'), 't', 'A[_]', 't : _ ; t = _', "
      "'C[_] += _ #1', 'A[i, 0:8]', ['n > 2', 'n < 9'])");
  ASSERT_TRUE(args.ok()) << args.status();
  const Arg& gap = (*args)["gap"];
  EXPECT_THAT(Flat(gap.gap.prev().node()), "(assign (C i) 0.0)");
  EXPECT_THAT(Flat(gap.gap.next().node()), StartsWith("(for k 0 8"));
  EXPECT_EQ(Flat((*args)["alloc"].cursor.node()), "(alloc t f32)");
  EXPECT_EQ(Flat((*args)["expr"].cursor.node()), "(A i k)");
  EXPECT_EQ((*args)["expr"].matches.size(), 1u);
  EXPECT_EQ((*args)["block"].block.size(), 2u);
  EXPECT_EQ(Flat((*args)["stmt"].cursor.node()), "(reduce (C j) t)");
  EXPECT_EQ((*args)["stmt"].block.size(), 1u);
  // Built in the scope of the first cursor argument, inside loop i.
  EXPECT_EQ(Flat((*args)["window"].node), "(window A i (: 0 8))");
  ASSERT_EQ((*args)["conds"].nodes.size(), 2u);
  EXPECT_EQ(Flat((*args)["conds"].nodes[1]), "(< n 9)");
}

TEST_F(BindTest, BindsLoopPairsFormsAndLists) {
  absl::StatusOr<Args> args =
      Bind("forms('a b', ints=[0, 2], strs=['x'])", "@q");
  ASSERT_TRUE(args.ok()) << args.status();
  EXPECT_EQ((*args)["pair"].cursor->name(), "a");
  EXPECT_EQ((*args)["proc"].form->name(), "@p");
  EXPECT_EQ((*args)["instr"].form->name(), "@q");
  EXPECT_THAT((*args)["ints"].ints, ElementsAre(0, 2));
  EXPECT_THAT((*args)["strs"].names, ElementsAre("x"));
  EXPECT_EQ(Bind("forms('for a in _')", "@q").value()["pair"].cursor->name(),
            "a");
  // Loop i's body is more than loop k; loop b's is no loop.
  EXPECT_THAT(ErrorOf("forms('i k')"),
              HasSubstr("pattern 'i k' matches nothing in @p"));
  EXPECT_THAT(ErrorOf("forms('for b in _')", "@q"),
              HasSubstr("pattern 'for b in _' matches nothing in @q"));
}

// Exo's "ii jo #0": the pair numbered from 0.
TEST_F(BindTest, PicksLoopPairN) {
  EXPECT_EQ(Bind("forms('a b #0')", "@q").value()["pair"].cursor->name(), "a");
  EXPECT_THAT(ErrorOf("forms('a b #1')", "@q"),
              HasSubstr("pattern 'a b #1' in @q: #1: only 1 match"));
}

// A bare name where an alloc is wanted names a data parameter when no
// alloc has it.
TEST_F(BindTest, AnAllocsNameMayBeADataParameter) {
  absl::StatusOr<Args> args = Bind(
      "cursors(after('C[i] = _'), 'A', 'A[_]', 't : _ ; t = _', "
      "'C[_] += _ #1', 'A[i, 0:8]')");
  ASSERT_TRUE(args.ok()) << args.status();
  EXPECT_EQ((*args)["alloc"].cursor->name(), "A");
  EXPECT_THAT(ErrorOf("cursors(after('C[i] = _'), 'n', 'A[_]', 't : _', "
                      "'C[_] += _', 'A[i, 0:8]')"),
              HasSubstr("pattern 'n' matches nothing in @p"));
}

TEST_F(BindTest, ReportsArgumentsOfTheWrongKind) {
  EXPECT_EQ(ErrorOf("probe('for k in _', 'x')"),
            "s.sched:1:21: error: probe(\"for k in _\", \"x\"): argument 2 of "
            "probe ('quot') must be an integer\n"
            "probe('for k in _', 'x')\n"
            "                    ^");
  EXPECT_THAT(ErrorOf("probe(1, 1)"),
              HasSubstr("argument 1 of probe ('loop') must be a loop pattern"));
  EXPECT_THAT(ErrorOf("probe('C[_] += _', 1)"),
              HasSubstr("argument 1 of probe ('loop') must be a loop pattern"));
  EXPECT_THAT(ErrorOf("probe('k', 1, ['2x'])"),
              HasSubstr("('new_iters') must be a list of names"));
  EXPECT_THAT(ErrorOf("probe('k', 1, perfect=1)"),
              HasSubstr("('perfect') must be True or False"));
  EXPECT_THAT(ErrorOf("forms('a b', proc=@nothing)", "@q"),
              HasSubstr("no proc, instr, memory or config named @nothing"));
  EXPECT_THAT(ErrorOf("forms('a b', proc=@DRAM)", "@q"),
              HasSubstr("('proc') must be a proc (@name)"));
  EXPECT_THAT(ErrorOf("cursors('t', 't', 'A[_]', 't', 't', 'A')"),
              HasSubstr("('gap') must be a gap"));
  EXPECT_THAT(ErrorOf("cursors(after('t = _'), 't', 'A[_]', 't = _', "
                      "'t = _ ; _', 'A')"),
              HasSubstr("('stmt') must be a statement pattern"));
  EXPECT_THAT(ErrorOf("cursors(after('t = _'), 't', 'A[_]', 't = _', "
                      "'t = _', 'q + 1')"),
              HasSubstr("expression 'q + 1': 'q' is not in scope at column 1"));
}

TEST_F(BindTest, ReportsArgumentsThatDoNotFit) {
  EXPECT_THAT(ErrorOf("probe('for k in _')"),
              StartsWith("s.sched:1:1: error: probe(\"for k in _\"): probe "
                         "needs argument 2 ('quot')"));
  EXPECT_THAT(ErrorOf("probe('k', 1, ['a', 'b'], 'cut', True, 6)"),
              HasSubstr("probe takes 5 arguments, not 6"));
  EXPECT_THAT(ErrorOf("probe('k', 1, bogus=2)"),
              HasSubstr("probe has no parameter 'bogus'"));
  EXPECT_THAT(ErrorOf("probe('k', 1, quot=2)"),
              HasSubstr("parameter 'quot' of probe is given twice"));
}

TEST_F(BindTest, ReportsPatternsThatMatchNothing) {
  EXPECT_THAT(ErrorOf("probe('for q in _', 1)"),
              HasSubstr("pattern 'for q in _' matches nothing in @p"));
  EXPECT_THAT(ErrorOf("probe('for _ in _ #3', 1)"),
              HasSubstr("pattern 'for _ in _ #3' in @p: #3: only 3 matches"));
  EXPECT_THAT(ErrorOf("probe('for i in _ #1', 1)"),
              HasSubstr("#1: only 1 match (counted from #0)"));
  EXPECT_THAT(ErrorOf("probe('for i in', 1)"),
              HasSubstr("pattern 'for i in': expected an expression"));
}

}  // namespace
}  // namespace tessel::schedule
