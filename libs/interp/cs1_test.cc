// Running the CS-1 level: placement, tasks in order on every PE, SIMD
// instructions through their bodies, and the run-time checks.
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "libs/interp/interpreter.h"
#include "libs/ir/verify/read.h"

namespace tessel {
namespace {

// Runs the pe-program `text` (with the target library appended) on
// `inputs`.
absl::StatusOr<TensorMap> RunText(const std::string& text,
                                  const TensorMap& inputs) {
  std::ifstream file("targets/cs1/cs1.tir");
  std::stringstream library;
  library << file.rdbuf();
  auto module = ir::ReadModule(MakeSource("m.tir", text + library.str()));
  if (!module.ok()) return module.status();
  auto entry = ir::FindEntry(*module, "");
  if (!entry.ok()) return entry.status();
  auto program = Program::Compile(*module, **entry);
  if (!program.ok()) return program.status();
  return program->Run({}, inputs);
}

HostTensor Floats(std::vector<int64_t> shape, std::vector<float> values) {
  HostTensor tensor = *MakeHostTensor(ElemType::kF32, std::move(shape));
  for (size_t i = 0; i < values.size(); ++i) tensor.Set<float>(i, values[i]);
  return tensor;
}

std::vector<float> Values(const HostTensor& tensor) {
  std::vector<float> values;
  for (int64_t i = 0; i < tensor.num_elements(); ++i) {
    values.push_back(tensor.Get<float>(i));
  }
  return values;
}

// A 1-d convolution of 6 inputs with a filter of 3 per row of PEs: PE
// (0, k) holds filter k and row k of y, extended by 2 on each side for the
// extra instances of the box hull.
constexpr char kConv1d[] = R"(
(pe-program @conv ((in x (f32 6)) (in W (f32 2 3)) (out y (f32 2 4)))
  (grid (px 1) (py 2))
  (local W_local (f32 1 3) @PE (holds W py 0))
  (local y_local (f32 1 8) @PE (holds y py -2))
  (task (call @fzeros 8 1 1 1 (dsd y_local 0 (8 1))))
  (task (recv x (i) v)
    (call @fmacs 3 1 1 1 (dsd y_local (+ i 2) (3 -1)) (dsd W_local 0 (3 1))
      v)))
)";

TEST(Cs1Test, RunsEveryPe) {
  auto out = RunText(kConv1d, {{"x", Floats({6}, {1, 2, 3, 4, 5, 6})},
                               {"W", Floats({2, 3}, {1, 0, 0, 1, 10, 100})}});
  ASSERT_TRUE(out.ok()) << out.status();
  // y[k, w] = sum over r of x[w + r] * W[k, r].
  EXPECT_EQ(Values(out->at("y")),
            (std::vector<float>{1, 2, 3, 4, 321, 432, 543, 654}));
}

TEST(Cs1Test, TasksRunInOrderAndReceiveWhatTheirConditionSays) {
  // Each PE of a row of two receives the half of x its x coordinate
  // selects, and keeps its last element: the task runs in x's order.
  auto out = RunText(R"(
(pe-program @last ((in x (f32 8)) (out y (f32 2)))
  (grid (px 2) (py 1))
  (local y_local (f32 1) @PE (holds y px))
  (task (recv x (i) v (== px (/ i 4)))
    (call @put v y_local)))
(proc @put ((in v f32) (out y (f32 1) @PE)) (assign (y 0) v))
)",
                     {{"x", Floats({8}, {1, 2, 3, 4, 5, 6, 7, 8})}});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Values(out->at("y")), (std::vector<float>{4, 8}));
}

TEST(Cs1Test, LocalArraysStartWithWhatTheyHold) {
  // An inout parameter: every PE gets its element, doubles it and gives it
  // back; the halo of x_local beyond x is never written.
  auto out = RunText(
      R"(
(pe-program @twice ((in x (f32 4)) (inout y (f32 4)))
  (grid (px 4) (py 1))
  (local x_local (f32 3) @PE (holds x (- px 1)))
  (local y_local (f32 1) @PE (holds y px))
  (task (call @fadds 1 1 1 1 (dsd y_local 0 (1 1)) (dsd x_local 1 (1 1))
    (dsd x_local 1 (1 1)))))
)",
      {{"x", Floats({4}, {1, 2, 3, 4})}, {"y", Floats({4}, {0, 0, 0, 0})}});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Values(out->at("y")), (std::vector<float>{2, 4, 6, 8}));
}

TEST(Cs1Test, ReportsWhatNoPeWrites) {
  auto out = RunText(R"(
(pe-program @half ((in x (f32 8)) (out y (f32 8)))
  (grid (px 1) (py 1))
  (local x_local (f32 8) @PE (holds x 0))
  (local y_local (f32 8) @PE (holds y 0))
  (task (call @fmovs 4 1 1 1 (dsd y_local 0 (4 1)) (dsd x_local 0 (4 1)))))
)",
                     {{"x", Floats({8}, {})}});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            "m.tir:5:3: error: PE (0, 0) never writes y_local[4], which holds "
            "y[4]\n"
            "  (local y_local (f32 8) @PE (holds y 0))\n"
            "  ^");
}

TEST(Cs1Test, ReportsTheTaskAndTheElementOfAnError) {
  // Without its initialization, y_local is reduced into before it is
  // written.
  std::string text = kConv1d;
  text.erase(text.find("  (task (call @fzeros"),
             std::string("  (task (call @fzeros 8 1 1 1 (dsd y_local 0 (8 "
                         "1))))\n")
                 .size());
  auto out = RunText(text, {{"x", Floats({6}, {})}, {"W", Floats({2, 3}, {})}});
  ASSERT_FALSE(out.ok());
  std::string message(out.status().message());
  EXPECT_NE(message.find("error: reduces into dst[0, 0, 0, 0] before it is "
                         "written"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("m.tir:7:5: note: in the call to @fmacs\n"
                         "m.tir:6:3: note: in the task on PE (0, 0), "
                         "receiving x[0]"),
            std::string::npos)
      << message;
}

TEST(Cs1Test, ReadsOnlyWhatArrived) {
  // x_local[0] stands for x[-1], outside x: it is never written.
  auto out = RunText(R"(
(pe-program @shift ((in x (f32 4)) (out y (f32 4)))
  (grid (px 1) (py 1))
  (local x_local (f32 5) @PE (holds x -1))
  (local y_local (f32 4) @PE (holds y 0))
  (task (call @fmovs 4 1 1 1 (dsd y_local 0 (4 1)) (dsd x_local 0 (4 1)))))
)",
                     {{"x", Floats({4}, {})}});
  ASSERT_FALSE(out.ok());
  EXPECT_NE(std::string(out.status().message())
                .find("error: reads src[0, 0, 0, 0] before it is written"),
            std::string::npos)
      << out.status();
}

TEST(Cs1Test, LimitsTheGrid) {
  auto out = RunText(R"(
(pe-program @wide ((in x (f32 4)))
  (grid (px 2000) (py 1000)))
)",
                     {{"x", Floats({4}, {})}});
  ASSERT_FALSE(out.ok());
  EXPECT_NE(std::string(out.status().message())
                .find("m.tir:3:3: error: a grid of 2000 x 1000 PEs exceeds "
                      "run-sim's limit of 1048576 PEs"),
            std::string::npos)
      << out.status();
}

}  // namespace
}  // namespace tessel
