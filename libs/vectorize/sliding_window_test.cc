#include "libs/vectorize/sliding_window.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "libs/interp/testing.h"
#include "libs/vectorize/nest.h"

namespace tessel::vectorize {
namespace {

// A 1-D depthwise convolution: y[ow, c] += x[ow + kw, c] * w[kw, c], and
// the same with the filter loop `kw` indexing only the filter.
constexpr char kConv[] = R"(
(proc @conv ((in x (f32 10 16)) (in w (f32 3 16)) (inout y (f32 8 16)))
  (for ow 0 8
    (for c 0 16
      (for kw 0 3
        (reduce (y ow c) (* (x (+ ow kw) c) (w kw c)))))))
)";
constexpr char kNoWindow[] = R"(
(proc @conv ((in x (f32 10 16)) (in w (f32 3 16)) (inout y (f32 8 16)))
  (for ow 0 8
    (for c 0 16
      (for kw 0 3
        (reduce (y ow c) (* (x ow c) (w kw c)))))))
)";
// A 2-D box filter: the window loop `kh`, beside `ow`, has the reduction
// loop `kw` inside it.
constexpr char kStencil[] = R"(
(proc @stencil ((in x (f32 10 18)) (inout y (f32 8 16)))
  (for ow 0 8
    (for c 0 16
      (for kh 0 3
        (for kw 0 3
          (reduce (y ow c) (* 0.5 (x (+ ow kh) (+ c kw)))))))))
)";

// The name of WindowLoop's loop for `text`'s statement, rows `ow`.
std::string WindowOf(const char* text, int64_t max_taps,
                     bool keep_order = false) {
  testing_util::Runner runner(text);
  EXPECT_TRUE(runner.compile_status().ok()) << runner.compile_status();
  std::string name = "none";
  runner.Edit([&](ir::Module&, ir::Node& entry) {
    ir::Node& stmt = *NestStatements(entry).at(0);
    ir::Node* window =
        WindowLoop(stmt, *LoopsOf(stmt).at(0), max_taps, keep_order);
    if (window != nullptr) name = window->name();
  });
  return name;
}

TEST(SlidingWindowTest, FilterLoopBesideTheRowsIsTheWindow) {
  EXPECT_EQ(WindowOf(kConv, 8), "kw");
  // More taps than the strategy unrolls, or a filter loop that no read
  // indexes beside the rows: none.
  EXPECT_EQ(WindowOf(kConv, 2), "none");
  EXPECT_EQ(WindowOf(kNoWindow, 8), "none");
}

TEST(SlidingWindowTest, KeepingTheOrderTakesNoWindowOutsideAReductionLoop) {
  EXPECT_EQ(WindowOf(kStencil, 8), "kh");
  // Unrolled into the tile, `kh` would go inside `kw`: each element
  // summed kw-major, not in the loops' order (contraction mul-add).
  EXPECT_EQ(WindowOf(kStencil, 8, /*keep_order=*/true), "none");
  // The innermost reduction loop keeps the order as a window.
  EXPECT_EQ(WindowOf(kConv, 8, /*keep_order=*/true), "kw");
}

// Reads of a depthwise tile: x at input position row + tap, the filter at
// the tap, each per vector.
std::vector<std::string> DepthwiseReads(const TilePoint& p) {
  return {absl::StrCat("x ", p.row + p.tap, " ", p.vector),
          absl::StrCat("w ", p.tap, " ", p.vector)};
}

TEST(SlidingWindowTest, OrderKeepsFewReadsLiveAndTapsOutsideTheRows) {
  std::vector<TilePoint> order = TileOrder(3, 6, 2, DepthwiseReads);
  ASSERT_EQ(order.size(), 36u);
  // Vectors outermost, then taps, rows innermost: per vector, one filter
  // vector and the window's input vectors live.
  EXPECT_EQ(order[0].vector, 0);
  EXPECT_EQ(order[17].vector, 0);
  EXPECT_EQ(order[18].vector, 1);
  EXPECT_EQ(order[1].row, 1);
  EXPECT_EQ(order[1].tap, 0);
  EXPECT_EQ(order[6].tap, 1);
  for (size_t i = 1; i < order.size(); ++i) {
    EXPECT_FALSE(order[i].row == order[i - 1].row &&
                 order[i].vector == order[i - 1].vector)
        << "two FMAs in a row into one accumulator at point " << i;
  }
}

TEST(SlidingWindowTest, WithoutTapsRowsThenVectorsAsAMatmul) {
  // Matmul's 6 x 4 tile: B's row per vector shared by the rows (4 live
  // when rows are outer), A broadcast per row (6 live when vectors are).
  std::vector<TilePoint> order =
      TileOrder(1, 6, 4, [](const TilePoint& p) {
        return std::vector<std::string>{absl::StrCat("a ", p.row),
                                         absl::StrCat("b ", p.vector)};
      });
  ASSERT_EQ(order.size(), 24u);
  EXPECT_EQ(order[1].row, 0);
  EXPECT_EQ(order[1].vector, 1);
  EXPECT_EQ(order[4].row, 1);
}

}  // namespace
}  // namespace tessel::vectorize
