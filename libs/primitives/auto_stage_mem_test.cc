#include "libs/primitives/auto_stage_mem.h"

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "libs/ir/node.h"
#include "libs/primitives/buffer_uses.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives {
namespace {

using testing::DeclNamed;
using testing::Outcome;
using testing::ReadVerified;
using testing::Rewrite;
using testing::StmtAt;

// The window that the statement at `path` of the last proc of `text`
// spans of `buffer`, as text, or the error.
std::string Window(const std::string& text, const std::vector<size_t>& path,
                   const std::string& buffer) {
  ir::Module module = ReadVerified(text);
  ir::Node& proc = *module.forms().back();
  absl::StatusOr<ir::Node*> window =
      AccessedWindow(module, StmtAt(module, proc, path).as_block(),
                     *DeclNamed(module, proc, buffer).node());
  return window.ok() ? NodeText(**window)
                     : std::string(window.status().message());
}

constexpr char kTiles[] = R"(
(proc @mm ((in A (f32 12 8)) (in B (f32 8 16)) (inout C (f32 12 16)))
  (for io 0 2
    (for k 0 8
      (for ii 0 6
        (for j 0 16
          (reduce (C (+ (* 6 io) ii) j) (* (A (+ (* 6 io) ii) k) (B k j))))))))
)";

TEST(AutoStageMem, SpansTheIndicesOverTheBlocksLoops) {
  EXPECT_EQ(Window(kTiles, {0, 0}, "C"),
            "(window C (: (* 6 io) (+ (* 6 io) 6)) (: 0 16))");
  EXPECT_EQ(Window(kTiles, {0, 0}, "A"),
            "(window A (: (* 6 io) (+ (* 6 io) 6)) (: 0 8))");
}

// An index the block's loops do not change is a point: its dimension is
// dropped, as in stage_mem's window.
TEST(AutoStageMem, KeepsAnIndexFixedInTheBlockAsAPoint) {
  EXPECT_EQ(Window(kTiles, {0, 0, 0, 0}, "C"),
            "(window C (+ (* 6 io) ii) (: 0 16))");
  EXPECT_EQ(Window(kTiles, {0, 0, 0, 0, 0}, "C"), "(C (+ (* 6 io) ii) j)");
}

// A term of sizes only (the tail's start, 4 * (n / 4)) is a variable of
// its own.
TEST(AutoStageMem, TakesTermsOfSizesWhole) {
  EXPECT_EQ(Window(R"(
(proc @tail ((size n) (in x (f32 n)) (out y (f32 n)))
  (for i 0 (% n 4)
    (assign (y (+ (* 4 (/ n 4)) i)) (x (+ (* 4 (/ n 4)) i)))))
)",
                   {0}, "y"),
            "(window y (: (* 4 (/ n 4)) (+ (* 4 (/ n 4)) (% n 4))))");
}

TEST(AutoStageMem, StagesTheTileItComputes) {
  EXPECT_EQ(
      Outcome(Rewrite(kTiles,
                      [](ir::Module& module, ir::Node& proc) {
                        return AutoStageMem(
                            module, StmtAt(module, proc, {0, 0}).as_block(),
                            *DeclNamed(module, proc, "C").node(), "C_tile",
                            false);
                      })),
      R"((proc @mm ((in A (f32 12 8)) (in B (f32 8 16)) (inout C (f32 12 16)))
  (for io 0 2
    (alloc C_tile (f32 6 16))
    (for i0 0 6 (for i1 0 16 (assign (C_tile i0 i1) (C (+ (* 6 io) i0) i1))))
    (for k 0 8
      (for ii 0 6
        (for j 0 16
          (reduce (C_tile (- (+ (* 6 io) ii) (* 6 io)) j)
            (* (A (+ (* 6 io) ii) k) (B k j))))))
    (for i0_1 0 6
      (for i1_1 0 16 (assign (C (+ (* 6 io) i0_1) i1_1) (C_tile i0_1 i1_1))))))
)");
}

// A tail of no iterations at this size is staged all the same, so that a
// schedule fits every size.
TEST(AutoStageMem, StagesABlockThatNeverRuns) {
  EXPECT_TRUE(Rewrite(R"(
(proc @p ((in x (f32 8 4)) (out y (f32 8 4)))
  (for i 0 8 (for j 0 4 (assign (y i j) (x i j))))
  (for i 0 0 (for j 0 4 (assign (y (+ i 8) j) 1.0))))
)",
                      [](ir::Module& module, ir::Node& proc) {
                        return AutoStageMem(
                            module, StmtAt(module, proc, {1, 0}).as_block(),
                            *DeclNamed(module, proc, "y").node(), "row", false);
                      })
                  .ok());
}

TEST(AutoStageMem, RejectsExtremesThatDoNotDifferByAConstant) {
  EXPECT_EQ(Window(R"(
(proc @p ((size n) (in x (f32 n)) (out y (f32 (* 2 n))))
  (for i 0 n
    (assign (y i) (x i))
    (assign (y (* 2 i)) (x i))))
)",
                   {0}, "y"),
            "auto_stage_mem: the accesses of 'y' in the block have extremes "
            "that do not differ by a constant");
}

TEST(AutoStageMem, RejectsWhatIsNotAnAffineWindow) {
  constexpr char kCopy[] = R"(
(proc @copy ((in x (f32 4)) (out y (f32 4)))
  (for i 0 4 (assign (y i) (x i))))

(proc @p ((in x (f32 4)) (out y (f32 4)) (out s f32))
  (call @copy x y)
  (for i 0 4 (assign (y (% i 2)) (x i)))
  (assign s 0.0))
)";
  EXPECT_EQ(Window(kCopy, {0}, "y"),
            "auto_stage_mem: the block names 'y' whole, not an element or a "
            "window of it");
  EXPECT_EQ(Window(kCopy, {1}, "y"),
            "auto_stage_mem: an index of 'y' in the block is not affine: "
            "'(% i 2)'");
  EXPECT_EQ(Window(kCopy, {2}, "s"),
            "auto_stage_mem stages a window of a tensor; 's' is a scalar");
  EXPECT_EQ(Window(kCopy, {1}, "s"),
            "auto_stage_mem stages a window of a tensor; 's' is a scalar");
  EXPECT_EQ(Window(kCopy, {2}, "x"),
            "auto_stage_mem: the block does not access 'x'");
}

}  // namespace
}  // namespace tessel::primitives
