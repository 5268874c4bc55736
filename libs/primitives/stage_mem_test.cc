#include "libs/primitives/stage_mem.h"

#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "libs/ir/build.h"
#include "libs/ir/cursor.h"
#include "libs/verify/verifier.h"
#include "libs/ir/views.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives {
namespace {

using ir::Build;
using ir::Node;
using testing::Print;
using testing::ProcNamed;
using testing::ReadVerified;
using testing::SameValues;

// The statement reached from the proc's body by `path` (a statement's
// position in each body, outermost first).
ir::Cursor At(ir::Module& module, Node& proc, std::vector<size_t> path) {
  ir::Cursor at = ir::BlockCursor::BodyOf(module, proc)[path[0]];
  for (size_t i = 1; i < path.size(); ++i) at = at.body()[path[i]];
  return at;
}

// The loop variable or parameter `name` that `at` sees.
const Node& Binder(const ir::Cursor& at, Node& proc, const std::string& name) {
  for (Node* p = at.node(); p != nullptr; p = p->parent()) {
    if (p->is(ir::Op::kFor) && p->name() == name) return *p;
  }
  for (Node* param : ir::ProcView(proc).params()) {
    if (param->name() == name) return *param;
  }
  ADD_FAILURE() << "no binder " << name;
  return proc;
}

class StageMemTest : public ::testing::Test {
 protected:
  // Reads `text`, whose entry is @p.
  Node& Read(const std::string& text) {
    text_ = text;
    module_ = ReadVerified(text);
    return ProcNamed(module_, "@p");
  }
  Node* Int(int64_t v) { return Build::Int(module_, v); }
  Node* Ref(const Node& binder) { return Build::Ref(module_, binder); }
  Node* Interval(Node* lo, Node* hi) {
    return Build::Interval(module_, lo, hi);
  }
  // Stages and, when it is accepted, verifies the result and compares its
  // values with the original's.
  absl::Status Stage(const ir::Cursor& block, const Node& window,
                     const std::string& name, bool accum,
                     const std::map<std::string, int64_t>& defines = {}) {
    absl::Status status =
        StageMem(module_, block.as_block(), window, name, accum);
    if (!status.ok()) return status;
    EXPECT_TRUE(ir::VerifyProc(module_, ProcNamed(module_, "@p")).ok())
        << Print(module_);
    EXPECT_TRUE(SameValues(text_, module_, defines).ok())
        << SameValues(text_, module_, defines) << Print(module_);
    return status;
  }

  std::string text_;
  ir::Module module_;
};

constexpr char kMatmul[] =
    R"((proc @p ((in A (f32 8 8)) (in B (f32 8 8)) (inout C (f32 8 8)))
  (for i 0 8
    (for j 0 8
      (for k 0 8 (reduce (C i j) (* (A i k) (B k j)))))))
)";

TEST_F(StageMemTest, StagesTensorParametersAndAllocsOnly) {
  Node& p = Read(R"((proc @p ((in A (f32 8 8)) (out C (f32 4)))
  (alloc T (f32 4))
  (let W (window A 1 (: 0 4)))
  (for i 0 4 (assign (T i) (W i)))
  (for i 0 4 (assign (C i) (T i))))
)");
  ir::Cursor copy = At(module_, p, {2});
  EXPECT_TRUE(IsStageable(Binder(copy, p, "A")));
  EXPECT_TRUE(IsStageable(*ir::BlockCursor::BodyOf(module_, p)[0].node()));
  const Node& w = *ir::LoadView(*copy.body()[0]->operand(1)).buffer();
  EXPECT_FALSE(IsStageable(w));
  Node* window = Build::Window(module_, w, {Interval(Int(0), Int(4))});
  EXPECT_FALSE(Stage(copy, *window, "W_copy", false).ok());
}

TEST_F(StageMemTest, StagesARowReadByTheBlock) {
  Node& p = Read(kMatmul);
  ir::Cursor j = At(module_, p, {0, 0});
  const Node& a = Binder(j, p, "A");
  Node* window = Build::Window(
      module_, a, {Ref(Binder(j, p, "i")), Interval(Int(0), Int(8))});
  ASSERT_TRUE(Stage(j, *window, "A_row", false).ok());
  EXPECT_EQ(Print(module_),
            R"((proc @p ((in A (f32 8 8)) (in B (f32 8 8)) (inout C (f32 8 8)))
  (for i 0 8
    (alloc A_row (f32 8))
    (for i0 0 8 (assign (A_row i0) (A i i0)))
    (for j 0 8 (for k 0 8 (reduce (C i j) (* (A_row k) (B k j)))))))
)");
}

// kMatmul on integers, whose sums regroup exactly.
constexpr char kIntMatmul[] =
    R"((proc @p ((in A (i32 8 8)) (in B (i32 8 8)) (inout C (i32 8 8)))
  (for i 0 8
    (for j 0 8
      (for k 0 8 (reduce (C i j) (* (A i k) (B k j)))))))
)";

TEST_F(StageMemTest, AccumulatesAnElementReducedByTheBlock) {
  Node& p = Read(kIntMatmul);
  ir::Cursor k = At(module_, p, {0, 0, 0});
  Node* window = Build::Load(module_, Binder(k, p, "C"),
                             {Ref(Binder(k, p, "i")), Ref(Binder(k, p, "j"))});
  ASSERT_TRUE(Stage(k, *window, "acc", true).ok());
  EXPECT_EQ(Print(module_),
            R"((proc @p ((in A (i32 8 8)) (in B (i32 8 8)) (inout C (i32 8 8)))
  (for i 0 8
    (for j 0 8
      (alloc acc i32)
      (assign acc 0)
      (for k 0 8 (reduce acc (* (A i k) (B k j))))
      (reduce (C i j) acc))))
)");
}

// Beyond Exo: C + (a1 + a2 + ...) is not C + a1 + a2 + ... in floats.
TEST_F(StageMemTest, RejectsAccumOfFloats) {
  Node& p = Read(kMatmul);
  ir::Cursor k = At(module_, p, {0, 0, 0});
  Node* window = Build::Load(module_, Binder(k, p, "C"),
                             {Ref(Binder(k, p, "i")), Ref(Binder(k, p, "j"))});
  absl::Status status = Stage(k, *window, "acc", true);
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(status.message(),
            "stage_mem with accum=True: regrouping + over f32 changes its "
            "rounding ((1 + 1e20) + -1e20 is not 1 + (1e20 + -1e20)): only "
            "integer values regroup exactly");
}

TEST_F(StageMemTest, CopiesInAndOutWithoutAccum) {
  Node& p = Read(kMatmul);
  ir::Cursor k = At(module_, p, {0, 0, 0});
  Node* window = Build::Load(module_, Binder(k, p, "C"),
                             {Ref(Binder(k, p, "i")), Ref(Binder(k, p, "j"))});
  ASSERT_TRUE(Stage(k, *window, "c", false).ok());
  EXPECT_EQ(Print(module_),
            R"((proc @p ((in A (f32 8 8)) (in B (f32 8 8)) (inout C (f32 8 8)))
  (for i 0 8
    (for j 0 8
      (alloc c f32)
      (assign c (C i j))
      (for k 0 8 (reduce c (* (A i k) (B k j))))
      (assign (C i j) c))))
)");
}

constexpr char kTiles[] = R"((proc @p ((in x (f32 8)) (inout y (f32 8)))
  (for io 0 2
    (for ii 0 4 (assign (y (+ (* 4 io) ii)) (* 2.0 (x (+ (* 4 io) ii)))))))
)";

TEST_F(StageMemTest, WritesCoveringTheWindowNeedNoCopyIn) {
  Node& p = Read(kTiles);
  ir::Cursor ii = At(module_, p, {0, 0});
  const Node& io = Binder(ii, p, "io");
  auto four_io = [&] { return Build::Mul(module_, Int(4), Ref(io)); };
  Node* window = Build::Window(
      module_, Binder(ii, p, "y"),
      {Interval(four_io(), Build::Add(module_, four_io(), Int(4)))});
  ASSERT_TRUE(Stage(ii, *window, "y_tile", false).ok());
  EXPECT_EQ(Print(module_), R"((proc @p ((in x (f32 8)) (inout y (f32 8)))
  (for io 0 2
    (alloc y_tile (f32 4))
    (for ii 0 4
      (assign (y_tile (- (+ (* 4 io) ii) (* 4 io))) (* 2.0 (x (+ (* 4 io) ii)))))
    (for i0 0 4 (assign (y (+ (* 4 io) i0)) (y_tile i0)))))
)");
}

// A row of C zeroed, then accumulated into: the block's first statement
// writes the whole window before anything reads it.
constexpr char kZeroedRows[] =
    R"((proc @p ((in A (f32 8 8)) (in B (f32 8 8)) (out C (f32 8 8)))
  (for i 0 8
    (for j 0 ZEROED (assign (C i j) 0.0))
    (for k 0 8 (for j 0 8 (reduce (C i j) (* (A i k) (B k j)))))))
)";

// kZeroedRows with the first loop's bound `zeroed`.
std::string ZeroedRows(const std::string& zeroed) {
  std::string text = kZeroedRows;
  text.replace(text.find("ZEROED"), 6, zeroed);
  return text;
}

TEST_F(StageMemTest, AWindowWrittenFirstNeedsNoCopyIn) {
  Node& p = Read(ZeroedRows("8"));
  ir::Cursor i = At(module_, p, {0});
  Node* window = Build::Window(
      module_, Binder(i.body()[0], p, "C"),
      {Ref(Binder(i.body()[0], p, "i")), Interval(Int(0), Int(8))});
  ASSERT_TRUE(StageMem(module_, i.body(), *window, "C_row", false).ok());
  EXPECT_TRUE(SameValues(text_, module_, {}).ok());
  EXPECT_EQ(Print(module_),
            R"((proc @p ((in A (f32 8 8)) (in B (f32 8 8)) (out C (f32 8 8)))
  (for i 0 8
    (alloc C_row (f32 8))
    (for j 0 8 (assign (C_row j) 0.0))
    (for k 0 8 (for j 0 8 (reduce (C_row j) (* (A i k) (B k j)))))
    (for i0 0 8 (assign (C i i0) (C_row i0)))))
)");
}

TEST_F(StageMemTest, AWindowWrittenFirstInPartCopiesIn) {
  // C's last column keeps its value from before: C is inout.
  std::string text = ZeroedRows("7");
  text.replace(text.find("(out C"), 4, "(inout");
  Node& p = Read(text);
  ir::Cursor i = At(module_, p, {0});
  Node* window = Build::Window(
      module_, Binder(i.body()[0], p, "C"),
      {Ref(Binder(i.body()[0], p, "i")), Interval(Int(0), Int(8))});
  ASSERT_TRUE(StageMem(module_, i.body(), *window, "C_row", false).ok());
  EXPECT_TRUE(SameValues(text_, module_, {}).ok());
  EXPECT_NE(Print(module_).find("(for i0 0 8 (assign (C_row i0) (C i i0)))"),
            std::string::npos)
      << Print(module_);
}

TEST_F(StageMemTest, AFirstStatementThatReadsCopiesIn) {
  Node& p = Read(R"((proc @p ((inout y (f32 8)))
  (for i 0 8 (assign (y i) (* 2.0 (y i))))
  (for i 0 8 (reduce (y i) 1.0)))
)");
  Node* window = Build::Window(module_, Binder(At(module_, p, {0}), p, "y"),
                               {Interval(Int(0), Int(8))});
  ASSERT_TRUE(StageMem(module_, ir::BlockCursor::BodyOf(module_, p), *window,
                       "t", false)
                  .ok());
  EXPECT_TRUE(SameValues(text_, module_, {}).ok());
  EXPECT_NE(Print(module_).find("(assign (t i0) (y i0))"), std::string::npos)
      << Print(module_);
}

// A tail of N % 4 elements: its extent is the difference of the window's
// bounds, an expression of sizes, and it may be 0, where the buffer keeps
// one element that no access touches.
TEST_F(StageMemTest, StagesATailThatMayBeEmpty) {
  constexpr char kTail[] = R"((proc @p ((size N) (inout y (f32 N)))
  (for j 0 (% N 4) (reduce (y (+ (* 4 (/ N 4)) j)) 1.0)))
)";
  for (int64_t n : {7, 8}) {
    Node& p = Read(kTail);
    ir::Cursor loop = At(module_, p, {0});
    auto lo = [&] {
      return Build::Mul(module_, Int(4),
                        Build::Div(module_, Ref(Binder(loop, p, "N")), Int(4)));
    };
    Node* window = Build::Window(
        module_, Binder(loop, p, "y"),
        {Interval(lo(), Build::Add(module_, lo(),
                                   Build::Mod(module_,
                                              Ref(Binder(loop, p, "N")),
                                              Int(4))))});
    ASSERT_TRUE(Stage(loop, *window, "t", false, {{"N", n}}).ok());
    EXPECT_NE(Print(module_).find("(alloc t (f32 (max 1 (% N 4))))"),
              std::string::npos)
        << Print(module_);
  }
}

TEST_F(StageMemTest, StagesAnEmptyWindowInOneElement) {
  Node& p = Read(R"((proc @p ((inout y (f32 8)))
  (for j 0 0 (reduce (y (+ 8 j)) 1.0)))
)");
  ir::Cursor loop = At(module_, p, {0});
  Node* window = Build::Window(module_, Binder(loop, p, "y"),
                               {Interval(Int(8), Int(8))});
  ASSERT_TRUE(Stage(loop, *window, "t", false).ok());
  EXPECT_EQ(Print(module_), R"((proc @p ((inout y (f32 8)))
  (alloc t (f32 1))
  (for i0 0 0 (assign (t i0) (y (+ 8 i0))))
  (for j 0 0 (reduce (t (- (+ 8 j) 8)) 1.0))
  (for i0_1 0 0 (assign (y (+ 8 i0_1)) (t i0_1))))
)");
}

TEST_F(StageMemTest, PartialWritesCopyIn) {
  Node& p = Read(R"((proc @p ((in x (f32 8)) (inout y (f32 8)))
  (for i 0 8 (if (< i 5) (then (assign (y i) (x i))))))
)");
  ir::Cursor loop = At(module_, p, {0});
  Node* window =
      Build::Window(module_, Binder(loop, p, "y"), {Interval(Int(0), Int(8))});
  ASSERT_TRUE(Stage(loop, *window, "t", false).ok());
  EXPECT_EQ(Print(module_), R"((proc @p ((in x (f32 8)) (inout y (f32 8)))
  (alloc t (f32 8))
  (for i0 0 8 (assign (t i0) (y i0)))
  (for i 0 8 (if (< i 5) (then (assign (t i) (x i)))))
  (for i0_1 0 8 (assign (y i0_1) (t i0_1))))
)");
}

TEST_F(StageMemTest, SymbolicSize) {
  Node& p = Read(R"((proc @p ((size N) (in x (f32 N)) (inout y (f32 N)))
  (for i 0 N (reduce (y i) (x i))))
)");
  ir::Cursor loop = At(module_, p, {0});
  Node* window = Build::Window(module_, Binder(loop, p, "x"),
                               {Interval(Int(0), Ref(Binder(loop, p, "N")))});
  ASSERT_TRUE(Stage(loop, *window, "xs", false, {{"N", 5}}).ok());
  EXPECT_EQ(Print(module_),
            R"((proc @p ((size N) (in x (f32 N)) (inout y (f32 N)))
  (alloc xs (f32 N))
  (for i0 0 N (assign (xs i0) (x i0)))
  (for i 0 N (reduce (y i) (xs i))))
)");
}

TEST_F(StageMemTest, RedirectsWindowsPassedToCalls) {
  Node& p =
      Read(R"((proc @scale ((in src (window f32 4)) (out dst (window f32 4)))
  (for k 0 4 (assign (dst k) (* 3.0 (src k)))))

(proc @p ((in x (f32 8)) (out y (f32 8)))
  (for io 0 2
    (call @scale (window x (: (* 4 io) (+ (* 4 io) 4)))
                 (window y (: (* 4 io) (+ (* 4 io) 4))))))
)");
  ir::Cursor loop = At(module_, p, {0});
  Node* window =
      Build::Window(module_, Binder(loop, p, "y"), {Interval(Int(0), Int(8))});
  ASSERT_TRUE(Stage(loop, *window, "ys", false).ok());
  EXPECT_EQ(Print(module_).substr(Print(module_).find("(proc @p")),
            R"((proc @p ((in x (f32 8)) (out y (f32 8)))
  (alloc ys (f32 8))
  (for io 0 2
    (call @scale
      (window x (: (* 4 io) (+ (* 4 io) 4)))
      (window ys (: (* 4 io) (+ (* 4 io) 4)))))
  (for i0 0 8 (assign (y i0) (ys i0))))
)");
}

TEST_F(StageMemTest, RejectsAnAccessOutsideTheWindow) {
  Node& p = Read(kMatmul);
  ir::Cursor j = At(module_, p, {0, 0});
  Node* window =
      Build::Window(module_, Binder(j, p, "A"),
                    {Ref(Binder(j, p, "i")), Interval(Int(0), Int(4))});
  std::string before = Print(module_);
  absl::Status status = StageMem(module_, j.as_block(), *window, "t", false);
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(status.message(),
            "'(A i k)' accesses 'A' outside the staged window '(window A i "
            "(: 0 4))' (at i = 0, j = 0, k = 4, where it selects 0, 4)");
  EXPECT_EQ(Print(module_), before);
}

TEST_F(StageMemTest, RejectsAWindowOutOfBounds) {
  Node& p = Read(kMatmul);
  ir::Cursor j = At(module_, p, {0, 0});
  Node* window =
      Build::Window(module_, Binder(j, p, "A"),
                    {Ref(Binder(j, p, "i")), Interval(Int(0), Int(9))});
  absl::Status status = StageMem(module_, j.as_block(), *window, "t", false);
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(status.message(),
            "the window '(window A i (: 0 9))' is not a part of "
            "'A' (at i = 0, its bounds are 0, 0, 9 in dimensions of 8, 8)");
}

TEST_F(StageMemTest, RejectsAccumWhenTheBlockReads) {
  Node& p = Read(kMatmul);
  ir::Cursor j = At(module_, p, {0, 0});
  Node* window =
      Build::Window(module_, Binder(j, p, "A"),
                    {Ref(Binder(j, p, "i")), Interval(Int(0), Int(8))});
  absl::Status status = StageMem(module_, j.as_block(), *window, "t", true);
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(status.message(),
            "stage_mem with accum=True needs the block to only reduce into "
            "'A', but '(A i k)' in '(* (A i k) (B k j))' reads it");
}

TEST_F(StageMemTest, RejectsANameInUse) {
  Node& p = Read(kMatmul);
  ir::Cursor j = At(module_, p, {0, 0});
  Node* window =
      Build::Window(module_, Binder(j, p, "A"),
                    {Ref(Binder(j, p, "i")), Interval(Int(0), Int(8))});
  absl::Status status = StageMem(module_, j.as_block(), *window, "B", false);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "the new buffer's name 'B' is already used");
}

TEST_F(StageMemTest, RejectsALetThatBypassesTheStage) {
  Node& p = Read(R"((proc @p ((in x (f32 8)) (inout y (f32 8)))
  (let w (window y (: 0 8)))
  (for i 0 8 (assign (w i) (x i))))
)");
  ir::Cursor loop = At(module_, p, {1});
  Node* window =
      Build::Window(module_, Binder(loop, p, "y"), {Interval(Int(0), Int(8))});
  absl::Status status = StageMem(module_, loop.as_block(), *window, "t", false);
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(status.message(),
            "cannot stage 'y': 'w' names a window of it ((w i))");
}

// Exo's test_stage_mem_accum (on integers: Exo's R regroups, f32 does
// not): a tile of A staged around the k loop, accumulated from zero and
// added back.
TEST_F(StageMemTest, ExoStageMemAccum) {
  Node& p = Read(R"((proc @p ((size n) (inout A (i32 n n)) (in B (i32 n n)))
  (assert (== (% n 4) 0))
  (for i 0 (/ n 4)
    (for j 0 (/ n 4)
      (for k 0 (/ n 4)
        (for ii 0 4
          (for jj 0 4
            (for kk 0 4
              (reduce (A (+ (* 4 i) ii) (+ (* 4 j) jj))
                (* (B (+ (* 4 i) ii) (+ (* 4 k) kk))
                   (B (+ (* 4 k) kk) (+ (* 4 j) jj)))))))))))
)");
  ir::Cursor k = At(module_, p, {0, 0, 0});
  auto tile = [&](const char* var) {
    auto four_v = [&] {
      return Build::Mul(module_, Int(4), Ref(Binder(k, p, var)));
    };
    return Interval(four_v(), Build::Add(module_, four_v(), Int(4)));
  };
  Node* window =
      Build::Window(module_, Binder(k, p, "A"), {tile("i"), tile("j")});
  absl::Status status = Stage(k, *window, "Atile", true, {{"n", 8}});
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(Print(module_),
            R"((proc @p ((size n) (inout A (i32 n n)) (in B (i32 n n)))
  (assert (== (% n 4) 0))
  (for i 0 (/ n 4)
    (for j 0 (/ n 4)
      (alloc Atile (i32 4 4))
      (for i0 0 4 (for i1 0 4 (assign (Atile i0 i1) 0)))
      (for k 0 (/ n 4)
        (for ii 0 4
          (for jj 0 4
            (for kk 0 4
              (reduce (Atile
                        (- (+ (* 4 i) ii) (* 4 i))
                        (- (+ (* 4 j) jj) (* 4 j)))
                (*
                  (B (+ (* 4 i) ii) (+ (* 4 k) kk))
                  (B (+ (* 4 k) kk) (+ (* 4 j) jj))))))))
      (for i0_1 0 4
        (for i1_1 0 4
          (reduce (A (+ (* 4 i) i0_1) (+ (* 4 j) i1_1)) (Atile i0_1 i1_1)))))))
)");
}

}  // namespace
}  // namespace tessel::primitives
