// The effects of small programs, the commute condition with its witnesses
// (Exo's reorder and fission decisions), and the order query.
#include "libs/effects/effects.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "libs/ir/cursor.h"
#include "libs/ir/edit.h"
#include "libs/verify/read.h"
#include "libs/ir/views.h"
#include "libs/support/source.h"

namespace tessel::effects {
namespace {

using ir::Node;
using ir::Op;

class EffectsTest : public ::testing::Test {
 protected:
  Node& Read(const std::string& text) {
    auto module = ir::ReadModule(MakeSource("m.tir", text));
    EXPECT_TRUE(module.ok()) << module.status();
    module_ = *std::move(module);
    Node& proc = *module_.forms().back();
    analysis_ = std::make_unique<ProcAnalysis>(proc);
    return proc;
  }

  // The `skip`-th node of op `op` under `root`, in preorder.
  Node& Nth(Node& root, Op op, int skip = 0) {
    Node* found = nullptr;
    ir::Walk(root, [&](Node& node) {
      if (found == nullptr && node.is(op) && skip-- == 0) found = &node;
    });
    EXPECT_NE(found, nullptr);
    return *found;
  }

  Effects Of(std::vector<Node*> stmts) {
    auto effects = EffectsOf(model(), stmts);
    EXPECT_TRUE(effects.ok()) << effects.status();
    return *effects;
  }

  // The witness of the first pair of iterations of the loop nest `outer`
  // (two perfectly nested loops) whose order reordering flips that do not
  // commute; "" when they all commute.
  std::string ReorderClash(Node& outer) {
    Node& inner = *ir::ForView(outer).body()[0];
    auto body = ir::ForView(inner).body();
    Effects effects = Of({body.begin(), body.end()});
    size_t depth = LoopsAround(outer).size();
    auto pairs = InstancePairs(
        model(), effects, effects, depth,
        {DimCmp{depth, Cmp::kLess}, DimCmp{depth + 1, Cmp::kGreater}});
    EXPECT_TRUE(pairs.ok()) << pairs.status();
    auto clash = FindConflict(model(), effects, effects, *pairs);
    EXPECT_TRUE(clash.ok()) << clash.status();
    return clash->value_or("");
  }

  // The witness of a clash between the first two statements of the first
  // loop of `proc`, in one iteration; "" when they commute.
  std::string FirstTwoClash(Node& proc) {
    auto body = ir::ForView(Nth(proc, Op::kFor)).body();
    auto clash =
        FindConflictInSharedIteration(model(), Of({body[0]}), Of({body[1]}), 1);
    EXPECT_TRUE(clash.ok()) << clash.status();
    return clash.ok() ? clash->value_or("") : "";
  }

  const poly::ProcModel& model() { return analysis_->model(); }

  ir::Module module_;
  std::unique_ptr<ProcAnalysis> analysis_;
};

constexpr char kStencil[] =
    "(proc @p ((size N) (inout A (f32 N N)))\n"
    "  (for i 1 (- N 1) (for j 1 (- N 1)\n"
    "    (assign (A i j) (+ (+ (A (- i 1) j) (A i (- j 1)))\n"
    "                       (+ (A (+ i 1) j) (A i (+ j 1))))))))\n";

TEST_F(EffectsTest, GaussSeidelFourPointStencilReorders) {
  Node& proc = Read(kStencil);
  EXPECT_EQ(ReorderClash(Nth(proc, Op::kFor)), "");
}

TEST_F(EffectsTest, DiagonalStencilDoesNotReorder) {
  Node& proc = Read(
      "(proc @p ((size N) (inout A (f32 N N)))\n"
      "  (for i 1 (- N 1) (for j 1 (- N 1)\n"
      "    (assign (A i j) (+ (A (- i 1) (+ j 1)) (A (+ i 1) (- j 1)))))))\n");
  EXPECT_EQ(ReorderClash(Nth(proc, Op::kFor)),
            "N = 4: instances (i = 1, j = 2) and (i = 2, j = 1) both access "
            "A[1, 2]: the first writes, the second reads");
}

TEST_F(EffectsTest, ReductionsCommuteWithReductions) {
  Node& proc = Read(
      "(proc @p ((size N) (in B (f32 N)) (out s f32))\n"
      "  (for i 0 N (reduce s (B i)) (reduce s 1.0)))\n");
  Node& loop = Nth(proc, Op::kFor);
  auto body = ir::ForView(loop).body();
  Effects first = Of({body[0]});
  Effects second = Of({body[1]});
  auto pairs = InstancePairs(model(), first, second, 0);
  ASSERT_TRUE(pairs.ok());
  auto clash = FindConflict(model(), first, second, *pairs);
  ASSERT_TRUE(clash.ok()) << clash.status();
  EXPECT_FALSE(clash->has_value()) << **clash;
  // The reduced location is no read of either.
  EXPECT_FALSE(first.reduces.is_empty());
  EXPECT_TRUE(first.writes.is_empty());
}

TEST_F(EffectsTest, AReductionAndAReadClash) {
  Node& proc = Read(
      "(proc @p ((size N) (inout s f32) (out C (f32 N)))\n"
      "  (for i 0 N (reduce s 1.0) (assign (C i) s)))\n");
  EXPECT_EQ(FirstTwoClash(proc),
            "N = 1: instances (i = 0) and (i = 0) both access s: the first "
            "reduces, "
            "the second reads");
}

TEST_F(EffectsTest, ConfigurationFieldsAreLocations) {
  Node& proc = Read(
      "(config @C (scale f32))\n"
      "(proc @p ((size N) (out A (f32 N)))\n"
      "  (for i 0 N (write-config @C scale 2.0)\n"
      "             (assign (A i) (read-config @C scale))))\n");
  EXPECT_EQ(FirstTwoClash(proc),
            "N = 1: instances (i = 0) and (i = 0) both access @C.scale: the "
            "first "
            "writes, the second reads");
}

TEST_F(EffectsTest, AnExpressionReadsOnlyWhatItReads) {
  Node& proc = Read(
      "(config @C (scale f32))\n"
      "(proc @p ((size N) (in B (f32 N)) (out A (f32 N)))\n"
      "  (for i 0 N (write-config @C scale 2.0)\n"
      "    (assign (A i) (+ (B i) (* (read-config @C scale) (A 0))))))\n");
  Node& assign = Nth(proc, Op::kAssign);
  auto value = ExpressionEffectsOf(model(), Nth(assign, Op::kMul));
  ASSERT_TRUE(value.ok()) << value.status();
  EXPECT_TRUE(value->writes.is_empty());
  EXPECT_TRUE(value->reduces.is_empty());
  // A[0] and the field, not B[i].
  std::vector<std::string> read;
  value->reads.foreach_map([&](isl::map map) {
    read.push_back(isl_map_get_tuple_name(map.get(), isl_dim_out));
  });
  std::sort(read.begin(), read.end());
  EXPECT_EQ(read, (std::vector<std::string>{"@C.scale", "A"}));
  Effects config = Of({&Nth(proc, Op::kWriteConfig)});
  auto same = InstancePairs(model(), config, *value, 1);
  ASSERT_TRUE(same.ok());
  auto clash = FindConflict(model(), config, *value, *same);
  ASSERT_TRUE(clash.ok()) << clash.status();
  EXPECT_EQ(clash->value_or(""),
            "N = 1: instances (i = 0) and (i = 0) both access @C.scale: the "
            "first writes, the second reads");
}

TEST_F(EffectsTest, DisjointWritesCommute) {
  Node& proc = Read(
      "(proc @p ((size N) (out A (f32 N)) (out B (f32 N)))\n"
      "  (for i 0 N (assign (A i) 1.0) (assign (B i) (A i))))\n");
  Node& loop = Nth(proc, Op::kFor);
  auto body = ir::ForView(loop).body();
  // B[i] reads A[i], written in the same iteration: no reorder...
  EXPECT_EQ(FirstTwoClash(proc),
            "N = 1: instances (i = 0) and (i = 0) both access A[0]: the first "
            "writes, the second reads");
  // ...but fission is fine: no later A write meets an earlier B read.
  auto pairs = InstancePairs(model(), Of({body[0]}), Of({body[1]}), 0,
                             {DimCmp{0, Cmp::kGreater}});
  ASSERT_TRUE(pairs.ok());
  auto fission = FindConflict(model(), Of({body[0]}), Of({body[1]}), *pairs);
  ASSERT_TRUE(fission.ok());
  EXPECT_FALSE(fission->has_value()) << **fission;
}

TEST_F(EffectsTest, OrderFollowsLoopsThenText) {
  Node& proc = Read(
      "(proc @p ((size N) (out A (f32 N)))\n"
      "  (for i 0 N (assign (A i) 1.0) (assign (A i) 2.0)))\n");
  Node& loop = Nth(proc, Op::kFor);
  auto body = ir::ForView(loop).body();
  auto before = Before(model(), *body[0], *body[1]);
  ASSERT_TRUE(before.ok()) << before.status();
  std::string s0 = absl::StrCat("S", body[0]->id());
  std::string s1 = absl::StrCat("S", body[1]->id());
  isl::union_map expected(model().ctx(),
                          absl::StrCat("[N] -> { ", s0, "[i] -> ", s1,
                                       "[i'] : 0 <= i <= i' < N }"));
  EXPECT_TRUE(before->is_equal(expected)) << *before;
  auto after = Before(model(), *body[1], *body[0]);
  ASSERT_TRUE(after.ok());
  isl::union_map strictly(
      model().ctx(),
      absl::StrCat("[N] -> { ", s1, "[i] -> ", s0, "[i'] : 0 <= i < i' < N }"));
  EXPECT_TRUE(after->is_equal(strictly)) << *after;
}

TEST_F(EffectsTest, OrderCrossesLoopsAndBranches) {
  Node& proc = Read(
      "(proc @p ((size N) (out A (f32 N)))\n"
      "  (for i 0 N (if (> N 2) (then (assign (A i) 1.0))))\n"
      "  (for j 0 N (assign (A j) 2.0)))\n");
  Node& first = Nth(proc, Op::kAssign, 0);
  Node& second = Nth(proc, Op::kAssign, 1);
  auto before = Before(model(), first, second);
  ASSERT_TRUE(before.ok()) << before.status();
  // Every instance of the first nest runs before every one of the second.
  isl::union_map expected(
      model().ctx(),
      absl::StrCat("[N] -> { S", first.id(), "[i] -> S", second.id(),
                   "[j] : N > 2 and 0 <= i < N and 0 <= j < N }"));
  EXPECT_TRUE(before->is_equal(expected)) << *before;
  auto after = Before(model(), second, first);
  ASSERT_TRUE(after.ok());
  EXPECT_TRUE(after->is_empty()) << *after;
}

TEST_F(EffectsTest, ReadsOfEarlierIterationsAreFound) {
  Node& proc = Read(
      "(proc @p ((size N) (in B (f32 N)) (out C (f32 N)))\n"
      "  (alloc t (f32 2))\n"
      "  (for i 0 N (assign (t 0) (B i)) (assign (C i) (+ (t 0) (t 1)))\n"
      "    (assign (t 1) (B i))))\n");
  Node& loop = Nth(proc, Op::kFor);
  auto body = ir::ForView(loop).body();
  auto read = FindReadFromEarlierIteration(model(), loop,
                                           Of({body.begin(), body.end()}), "t");
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->value_or(""),
            "at N = 1, i = 0: t[1] is read before the iteration writes it");
}

// A call's effects are its callee's body's: two calls that reduce into one
// accumulator commute, as two `+=` do.
TEST_F(EffectsTest, CallsReduceAsTheirCalleesDo) {
  Node& proc = Read(
      "(instr @acc ((size n) (in x (window f32 n)) (inout y (window f32 n)))\n"
      "  (c \"acc({x}, {y});\")\n"
      "  (for k 0 n (reduce (y k) (x k))))\n"
      "(proc @p ((size N) (in A (f32 N 8)) (inout C (f32 8)))\n"
      "  (for i 0 N (call @acc 8 (window A i (: 0 8)) (window C (: 0 8)))\n"
      "             (call @acc 4 (window A i (: 4 8)) (window C (: 0 4)))))\n");
  EXPECT_EQ(FirstTwoClash(proc), "");
  Effects first = Of({ir::ForView(Nth(proc, Op::kFor)).body()[0]});
  EXPECT_TRUE(first.writes.is_empty());
  EXPECT_FALSE(first.reduces.is_empty());
}

// Only what the callee's body touches: a call writing A[i, 0:4] and one
// reading A[i, 4:8] of the same rows commute.
TEST_F(EffectsTest, CallsTouchWhatTheirCalleesTouch) {
  Node& proc = Read(
      "(proc @half ((size n) (out x (window f32 n)))\n"
      "  (for k 0 (/ n 2) (assign (x k) 0.0)))\n"
      "(proc @p ((size N) (inout A (f32 N 8)) (out B (f32 N)))\n"
      "  (for i 0 N (call @half 8 (window A i (: 0 8)))\n"
      "             (assign (B i) (A i 5))))\n");
  EXPECT_EQ(FirstTwoClash(proc), "");
}

TEST_F(EffectsTest, CallsTouchTheirWindows) {
  Node& proc = Read(
      "(proc @set ((size n) (out x (window f32 n))) (for k 0 n (assign (x k) "
      "0.0)))\n"
      "(proc @p ((size N) (inout A (f32 N 8)))\n"
      "  (for i 0 N (call @set 8 (window A i (: 0 8)))\n"
      "             (assign (A i 0) (A i 1))))\n");
  EXPECT_EQ(FirstTwoClash(proc),
            "N = 1: instances (i = 0) and (i = 0) both access A[0, 0]: both "
            "write");
}

TEST_F(EffectsTest, ControlEffectsAreConfigurationReads) {
  Node& proc = Read(
      "(config @C (n size))\n"
      "(proc @p ((size N) (out A (f32 N)))\n"
      "  (for i 0 (read-config @C n) (assign (A 0) 1.0)))\n");
  auto control = ControlEffectsOf(model(), Nth(proc, Op::kFor));
  ASSERT_TRUE(control.ok()) << control.status();
  EXPECT_FALSE(control->reads.is_empty());
  EXPECT_TRUE(control->writes.is_empty());
}

}  // namespace
}  // namespace tessel::effects
