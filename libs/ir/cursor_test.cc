// Cursors, blocks and gaps: navigation through statements, and cursors
// followed through edits (moved, replaced, deleted).
#include "libs/ir/cursor.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "libs/ir/forms.h"
#include "libs/ir/syntax.h"
#include "libs/ir/testing.h"
#include "libs/sexpr/printer.h"

namespace tessel::ir {
namespace {

std::string Flat(const Node* node) {
  return node == nullptr ? "null" : PrintFlat(WriteNode(*node));
}

std::string Flat(const Cursor& cursor) { return Flat(cursor.node()); }

std::string Flat(const BlockCursor& block) {
  std::string text;
  for (const Node* stmt : block.statements()) {
    if (!text.empty()) text += " ; ";
    text += Flat(stmt);
  }
  return text;
}

constexpr char kProc[] =
    "(proc @p ((size N) (in A (f32 N)) (out B (f32 N)))\n"
    "  (assert (> N 2))\n"
    "  (alloc t f32)\n"
    "  (for i 0 N\n"
    "    (assign t (A i))\n"
    "    (assign (B i) t)\n"
    "    (reduce (B i) 1.0))\n"
    "  (if (> N 4) (then (assign (B 0) 0.0)) (else (assign (B 1) 0.0))))\n";

class CursorTest : public ::testing::Test {
 protected:
  CursorTest() : module_(ReadOk(kProc)), proc_(module_.Find("@p")) {}

  Cursor Stmt(size_t i) { return Cursor(module_, BodyOf(*proc_)[i]); }
  Cursor Loop() { return Stmt(1); }

  Module module_;
  Node* proc_;
};

TEST_F(CursorTest, PrevAndNextStepThroughStatements) {
  Cursor first = Loop().body()[0];
  EXPECT_EQ(Flat(first), "(assign t (A i))");
  // The loop's first statement has none before it (it used to be the
  // loop's upper bound).
  EXPECT_FALSE(first.prev().is_valid());
  EXPECT_EQ(Flat(first.next()), "(assign (B i) t)");
  EXPECT_EQ(first.next().prev(), first);
  EXPECT_FALSE(Loop().body()[2].next().is_valid());
  // The proc's first statement: its assertion is not a statement.
  EXPECT_FALSE(Stmt(0).prev().is_valid());
  EXPECT_EQ(Stmt(0).next(), Loop());
  // Bounds and expressions are not statements.
  EXPECT_FALSE(Loop().operand(1).is_statement());
  EXPECT_FALSE(Loop().operand(1).next().is_valid());
}

TEST_F(CursorTest, EnclosingStatementsAndBodies) {
  Cursor first = Loop().body()[0];
  EXPECT_EQ(first.parent_stmt(), Loop());
  EXPECT_FALSE(Loop().parent_stmt().is_valid());
  EXPECT_EQ(first.proc().node(), proc_);
  EXPECT_EQ(Loop().body().owner(), Loop().node());
  EXPECT_EQ(Loop().body().size(), 3u);
  Cursor branch = Stmt(2);
  EXPECT_EQ(Flat(branch.body()), "(assign (B 0) 0.0)");
  EXPECT_EQ(Flat(branch.orelse()), "(assign (B 1) 0.0)");
  // A statement of a branch is enclosed by the if, not by its then.
  EXPECT_EQ(branch.body()[0].parent_stmt(), branch);
  EXPECT_FALSE(Loop().orelse().is_valid());
  EXPECT_EQ(Cursor(module_, proc_).body().size(), 3u);
}

TEST_F(CursorTest, BlocksExpandWithinTheirBody) {
  BlockCursor middle = Loop().body()[1].as_block();
  EXPECT_EQ(middle.size(), 1u);
  EXPECT_EQ(Flat(middle.Expand(1, 0)), "(assign t (A i)) ; (assign (B i) t)");
  // As far as the body goes.
  EXPECT_EQ(middle.Expand(5, 5).size(), 3u);
  EXPECT_EQ(middle.before().prev(), Loop().body()[0]);
  EXPECT_EQ(middle.after().next(), Loop().body()[2]);
}

TEST_F(CursorTest, GapsKeepTheOrderOfWhatIsInserted) {
  // Statements inserted one after another into a gap stay in order, at
  // either side of a statement and at either end of a body.
  GapCursor after_first = Loop().body()[0].after();
  Node* one = module_.Clone(Stmt(0).node());
  Node* two = module_.Clone(Stmt(0).node());
  one->set_name("u");
  two->set_name("v");
  after_first.Insert(one);
  after_first.Insert(two);
  EXPECT_EQ(Flat(Loop().body()[1]), "(alloc u f32)");
  EXPECT_EQ(Flat(Loop().body()[2]), "(alloc v f32)");
  GapCursor start = GapCursor::Start(module_, *Loop().node());
  Node* three = module_.Clone(Stmt(0).node());
  three->set_name("w");
  start.Insert(three);
  EXPECT_EQ(Flat(Loop().body()[0]), "(alloc w f32)");
  EXPECT_EQ(Flat(Loop().body()[1]), "(assign t (A i))");
  EXPECT_EQ(Loop().body().size(), 6u);
}

TEST_F(CursorTest, AnEmptyBodyHasAGap) {
  Cursor branch = Stmt(2);
  BlockCursor then = branch.body();
  GapCursor gap = then.Delete();
  EXPECT_TRUE(gap.is_valid());
  EXPECT_TRUE(branch.body().empty());
  EXPECT_TRUE(branch.body().is_valid());
  EXPECT_FALSE(gap.prev().is_valid());
  EXPECT_FALSE(gap.next().is_valid());
  Cursor moved = Stmt(0);
  ASSERT_TRUE(moved.as_block().MoveTo(gap).ok());
  EXPECT_EQ(Flat(branch.body()), "(alloc t f32)");
  EXPECT_EQ(moved.parent_stmt(), branch);
}

TEST_F(CursorTest, CursorsFollowMovedStatements) {
  Cursor reduce = Loop().body()[2];
  Cursor loop = Loop();
  // Fission-like: the last statement moves after the loop.
  ASSERT_TRUE(reduce.as_block().MoveTo(loop.after()).ok());
  EXPECT_TRUE(reduce.is_valid());
  EXPECT_EQ(reduce.prev(), loop);
  EXPECT_EQ(loop.body().size(), 2u);
  // A gap inside the block is nowhere to move it to.
  BlockCursor both = loop.body();
  EXPECT_FALSE(both.MoveTo(both[0].after()).ok());
}

TEST_F(CursorTest, AReplacedLoopIsForwardedToItsReplacement) {
  Cursor loop = Loop();
  Cursor inner = loop.body()[1];
  // Split the loop in two: (for io 0 N (for ii 0 1 BODY)), the body moved
  // (not copied) into the new inner loop.
  Node* outer = module_.Create(Op::kFor);
  outer->set_name("io");
  module_.Append(outer, module_.Clone(loop->operand(0)));
  module_.Append(outer, module_.Clone(loop->operand(1)));
  Node* nested = module_.Create(Op::kFor);
  nested->set_name("ii");
  module_.Append(nested, module_.Clone(loop->operand(0)));
  Node* one = module_.Create(Op::kConst);
  one->set_int(1);
  module_.Append(nested, one);
  for (Node* stmt : loop.body().statements()) {
    module_.Detach(stmt);
    module_.Append(nested, stmt);
  }
  module_.Append(outer, nested);
  Node* old = loop.node();
  loop.Replace(outer);
  EXPECT_EQ(loop.node(), outer);
  EXPECT_EQ(Cursor(module_, old).node(), outer);
  EXPECT_TRUE(inner.is_valid());
  EXPECT_EQ(inner.parent_stmt().node(), nested);
  EXPECT_EQ(inner.parent_stmt().parent_stmt(), loop);
}

TEST_F(CursorTest, ADeletedStatementsCursorIsInvalidAndSaysSo) {
  Cursor first = Loop().body()[0];
  Cursor second = Loop().body()[1];
  Node* loop = Loop().node();
  first.Delete();
  EXPECT_FALSE(first.is_valid());
  EXPECT_EQ(first.node(), nullptr);
  absl::Status status = first.status();
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(status.message().find("m.tir:5:5:"), std::string::npos)
      << status.message();
  EXPECT_NE(status.message().find("(assign ...) this cursor pointed at was "
                                  "deleted"),
            std::string::npos)
      << status.message();
  // Deleting the loop invalidates the cursors inside it too.
  EXPECT_TRUE(second.is_valid());
  Cursor(module_, loop).Delete();
  EXPECT_FALSE(second.is_valid());
  EXPECT_FALSE(Cursor().is_valid());
  EXPECT_EQ(Cursor().status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST_F(CursorTest, BlocksFollowTheirReplacement) {
  BlockCursor block = Loop().body().Expand(0, 0);
  Cursor first = block[0];
  Cursor middle = block[1];
  std::vector<Node*> fresh = {module_.Clone(block[2].node()),
                              module_.Clone(block[1].node())};
  BlockCursor replaced = block.Replace(fresh);
  EXPECT_EQ(Flat(replaced), "(reduce (B i) 1.0) ; (assign (B i) t)");
  // The old block's cursor follows its ends; a statement in between is
  // gone.
  EXPECT_EQ(Flat(block), Flat(replaced));
  EXPECT_EQ(first.node(), fresh[0]);
  EXPECT_FALSE(middle.is_valid());
}

TEST_F(CursorTest, InsertingElsewhereLeavesCursorsAlone) {
  Cursor loop = Loop();
  Cursor reduce = loop.body()[2];
  BlockCursor body = loop.body();
  Stmt(0).InsertAfter(module_.Clone(Stmt(0).node()));
  loop.body()[0].InsertBefore(module_.Clone(reduce.node()));
  EXPECT_EQ(Flat(reduce), "(reduce (B i) 1.0)");
  EXPECT_EQ(reduce.prev(), loop.body()[2]);
  // The block keeps its ends: the statement inserted before it is not in.
  EXPECT_EQ(body.size(), 3u);
  EXPECT_EQ(loop.body().size(), 4u);
}

}  // namespace
}  // namespace tessel::ir
