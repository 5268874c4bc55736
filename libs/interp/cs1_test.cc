// Running the CS-1 level: placement, tasks in order on every PE, SIMD
// instructions through their bodies, and the run-time checks.
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gtest/gtest.h"
#include "libs/interp/cs1_program.h"
#include "libs/interp/diagnostics.h"
#include "libs/interp/interpreter.h"
#include "libs/interp/testing.h"
#include "libs/verify/read.h"
#include "targets/cs1/testing.h"

namespace tessel {
namespace {

using testing_util::FailsWith;

// `text` with the target library appended, read.
absl::StatusOr<ir::Module> ReadText(const std::string& text) {
  return ir::ReadModule(MakeSource("m.tir", text + cs1::LibraryText()));
}

// Runs the pe-program `text` (with the target library appended) on
// `inputs`; without `batching`, call by call.
absl::StatusOr<TensorMap> RunText(const std::string& text,
                                  const TensorMap& inputs,
                                  bool batching = true) {
  auto module = ReadText(text);
  if (!module.ok()) return module.status();
  auto entry = ir::FindEntry(*module, "");
  if (!entry.ok()) return entry.status();
  auto program = Program::Compile(*module, **entry);
  if (!program.ok()) return program.status();
  return program->Run({}, inputs, batching);
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

TEST(Cs1Test, ASparseInputsZerosAreNotSent) {
  // Each PE keeps the last element it receives: with x sparse, the last
  // that is not zero (-0 is zero too), in call by call and batched runs.
  for (bool batching : {true, false}) {
    auto out = RunText(R"(
(pe-program @last ((in x (f32 8)) (out y (f32 2)))
  (grid (px 2) (py 1))
  (sparse x)
  (local y_local (f32 1) @PE (holds y px))
  (task (recv x (i) v (== px (/ i 4)))
    (call @put v y_local)))
(proc @put ((in v f32) (out y (f32 1) @PE)) (assign (y 0) v))
)",
                       {{"x", Floats({8}, {1, 2, 3, 0, 5, 6, 7, -0.0f})}},
                       batching);
    ASSERT_TRUE(out.ok()) << out.status();
    EXPECT_EQ(Values(out->at("y")), (std::vector<float>{3, 7}));
  }
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

// Task nests (cs1_program.h, TaskNest): a receiving task's calls as one
// loop nest, batched. Each test runs batched and call by call, which must
// give the same bits or the same error. Errors the verifier would see are
// made by editing the module after it is read.

struct ReadProgram {
  std::unique_ptr<ir::Module> module;
  ir::Node* entry = nullptr;
};

ReadProgram Read(const std::string& text) {
  ReadProgram read;
  auto module = ReadText(text);
  EXPECT_TRUE(module.ok()) << module.status();
  if (!module.ok()) return read;
  read.module = std::make_unique<ir::Module>(*std::move(module));
  auto entry = ir::FindEntry(*read.module, "");
  EXPECT_TRUE(entry.ok()) << entry.status();
  if (entry.ok()) read.entry = *entry;
  return read;
}

// The first node under `root`, in pre-order, that TIR writes as `text`.
ir::Node* Find(ir::Node* root, const std::string& text) {
  if (NodeText(*root) == text) return root;
  for (ir::Node* operand : root->operands()) {
    if (ir::Node* found = Find(operand, text)) return found;
  }
  return nullptr;
}

// Runs `read` both ways and checks that they agree; the batched result.
absl::StatusOr<TensorMap> RunBothWays(const ReadProgram& read,
                                      const TensorMap& inputs) {
  if (read.entry == nullptr) return absl::InternalError("not read");
  auto program = Program::Compile(*read.module, *read.entry);
  if (!program.ok()) return program.status();
  auto batched = program->Run({}, inputs);
  auto one_by_one = program->Run({}, inputs, /*batching=*/false);
  EXPECT_EQ(batched.ok(), one_by_one.ok());
  if (batched.ok() && one_by_one.ok()) {
    for (const auto& [name, tensor] : *one_by_one) {
      EXPECT_EQ(batched->at(name).bytes, tensor.bytes) << name;
    }
  } else if (!batched.ok() && !one_by_one.ok()) {
    EXPECT_EQ(batched.status().message(), one_by_one.status().message());
  }
  return batched;
}

// Which tasks of `read` run as nests.
std::vector<bool> Nests(const ReadProgram& read) {
  std::vector<bool> nests;
  if (read.entry == nullptr) return nests;
  auto program = cs1::CompilePeProgram(*read.module, *read.entry);
  EXPECT_TRUE(program.ok()) << program.status();
  if (!program.ok()) return nests;
  for (const cs1::Task& task : (*program)->tasks) {
    nests.push_back(task.nest.has_value());
  }
  return nests;
}

HostTensor Ramp(std::vector<int64_t> shape, float scale) {
  int64_t count = 1;
  for (int64_t extent : shape) count *= extent;
  std::vector<float> values;
  for (int64_t i = 0; i < count; ++i) {
    values.push_back(0.25f + scale * static_cast<float>(i % 29));
  }
  return Floats(std::move(shape), values);
}

// kConv1d on N inputs, more than a batch, with the first ZEROED elements
// of y_local zeroed (all by default).
std::string Conv1d(int n, int zeroed = -1) {
  return absl::StrReplaceAll(
      R"(
(pe-program @conv ((in x (f32 N)) (in W (f32 2 3)) (out y (f32 2 M)))
  (grid (px 1) (py 2))
  (local W_local (f32 1 3) @PE (holds W py 0))
  (local y_local (f32 1 L) @PE (holds y py -2))
  (task (call @fzeros Z 1 1 1 (dsd y_local 0 (Z 1))))
  (task (recv x (i) v)
    (call @fmacs 3 1 1 1 (dsd y_local (+ i 2) (3 -1)) (dsd W_local 0 (3 1))
      v)))
)",
      {{"N", absl::StrCat(n)},
       {"M", absl::StrCat(n - 2)},
       {"L", absl::StrCat(n + 2)},
       {"Z", absl::StrCat(zeroed < 0 ? n + 2 : zeroed)}});
}

TEST(Cs1Test, TasksOfTheSameArgumentsInEveryCallRunAsNests) {
  EXPECT_EQ(Nests(Read(kConv1d)), (std::vector<bool>{false, true}));
  // A condition, a control argument of the element, a descriptor offset
  // not linear in it, a callee that calls: call by call.
  EXPECT_EQ(Nests(Read(R"(
(pe-program @some ((in x (f32 8)) (out y (f32 12)))
  (grid (px 1) (py 1))
  (local y_local (f32 12) @PE (holds y 0))
  (task (call @fzeros 12 1 1 1 (dsd y_local 0 (12 1))))
  (task (recv x (i) v (< i 4))
    (call @fmacs 2 1 1 1 (dsd y_local i (2 1)) (dsd y_local 10 (2 1)) v))
  (task (recv x (i) v) (call @put i v y_local))
  (task (recv x (i) v)
    (call @fmacs 2 1 1 1 (dsd y_local (% i 4) (2 1)) (dsd y_local 10 (2 1))
      v))
  (task (recv x (i) v) (call @twice v y_local)))
(proc @put ((index i) (in v f32) (inout y (f32 12) @PE))
  (assert (and (<= 0 i) (< i 8)))
  (reduce (y i) v))
(proc @twice ((in v f32) (inout y (f32 12) @PE))
  (call @fmacs 2 1 1 1 (dsd y 0 (2 1)) (dsd y 10 (2 1)) v))
)")),
            (std::vector<bool>{false, false, false, false, false}));
}

TEST(Cs1Test, ANestOfOverlappingWindowsComputesWhatTheCallsCompute) {
  // Each output element is reduced into by three calls, in their order.
  const int n = 1000;
  HostTensor x = Ramp({n}, 0.37f);
  HostTensor w = Floats({2, 3}, {0.5f, -1.25f, 3.0f, 0.1f, 0.2f, 0.3f});
  auto out = RunBothWays(Read(Conv1d(n)), {{"x", x}, {"W", w}});
  ASSERT_TRUE(out.ok()) << out.status();
  std::vector<float> expected;
  for (int k = 0; k < 2; ++k) {
    std::vector<float> local(n + 2, 0.0f);
    for (int i = 0; i < n; ++i) {
      for (int r = 0; r < 3; ++r) {
        local[i + 2 - r] += w.Get<float>(k * 3 + r) * x.Get<float>(i);
      }
    }
    expected.insert(expected.end(), local.begin() + 2, local.end() - 2);
  }
  EXPECT_EQ(Values(out->at("y")), expected);
}

TEST(Cs1Test, ANestReportsTheFirstErrorOfTheCalls) {
  const int n = 1000;
  const TensorMap inputs = {{"x", Ramp({n}, 0.5f)},
                            {"W", Ramp({2, 3}, 1.0f)}};
  // y_local zeroed up to element 700: the call receiving x[698] reduces
  // into y_local[700] first, in the third batch.
  auto unwritten = RunBothWays(Read(Conv1d(n, 700)), inputs);
  EXPECT_TRUE(FailsWith(unwritten,
                        "error: reduces into dst[0, 0, 0, 0] before it is "
                        "written"));
  EXPECT_TRUE(FailsWith(unwritten,
                        "note: in the call to @fmacs\n"
                        "m.tir:7:3: note: in the task on PE (0, 0), "
                        "receiving x[698]"));
  // A descriptor that leaves y_local from the call receiving x[996] on.
  ReadProgram outside = Read(Conv1d(n));
  Find(outside.entry, "(+ i 2)")->operand(1)->set_int(6);
  auto out = RunBothWays(outside, inputs);
  EXPECT_TRUE(FailsWith(out,
                        "error: the dsd on 'y_local' reaches element 1002, "
                        "outside its 1002 elements"));
  EXPECT_TRUE(FailsWith(out, "receiving x[996]"));
  // And one that starts before it.
  ReadProgram before = Read(Conv1d(n));
  Find(before.entry, "(+ i 2)")->operand(1)->set_int(1);
  EXPECT_TRUE(FailsWith(RunBothWays(before, inputs),
                        "error: the dsd on 'y_local' reaches element -1, "
                        "outside its 1002 elements"));
}

TEST(Cs1Test, ANestChecksTheCalleesAssertionsAndShapes) {
  const TensorMap inputs = {{"x", Ramp({300}, 0.5f)}};
  const std::string text = R"(
(pe-program @sum ((in x (f32 300)) (out y (f32 4)))
  (grid (px 1) (py 1))
  (local y_local (f32 4) @PE (holds y 0))
  (task (call @fzeros 4 1 1 1 (dsd y_local 0 (4 1))))
  (task (recv x (i) v) (call @acc 4 (dsd y_local 0 (4 1)) v)))
(proc @acc ((size n) (inout y (window f32 n 1 1 1) @PE) (in v f32))
  (assert (<= n 4))
  (for k 0 n (reduce (y k 0 0 0) v)))
)";
  ReadProgram fine = Read(text);
  EXPECT_EQ(Nests(fine), (std::vector<bool>{false, true}));
  auto out = RunBothWays(fine, inputs);
  ASSERT_TRUE(out.ok()) << out.status();
  float sum = 0.0f;
  for (int i = 0; i < 300; ++i) sum += 0.25f + 0.5f * static_cast<float>(i % 29);
  EXPECT_EQ(Values(out->at("y")), (std::vector<float>{sum, sum, sum, sum}));
  ReadProgram assertion = Read(text);
  ir::Node* call = Find(assertion.entry, "(call @acc 4 (dsd y_local 0 (4 1)) v)");
  Find(call->def(), "(<= n 4)")->operand(1)->set_int(3);
  EXPECT_TRUE(FailsWith(RunBothWays(assertion, inputs),
                        "error: the call violates the assertion (<= n 3) of "
                        "@acc"));
  ReadProgram shape = Read(text);
  Find(shape.entry, "(call @acc 4 (dsd y_local 0 (4 1)) v)")
      ->operand(0)
      ->set_int(3);
  EXPECT_TRUE(FailsWith(RunBothWays(shape, inputs),
                        "has shape (4, 1, 1, 1), expected (3, 1, 1, 1)"));
}

TEST(Cs1Test, ANestWhoseCalleeWritesWhatAnotherArgumentReadsRunsInOrder) {
  // Edited after verification, which would reject it, the call receiving
  // x[i] adds y_local[i .. i + 2] times v into y_local[i + 3 .. i + 5]:
  // later calls read what earlier ones wrote.
  const int n = 600;
  const std::string text = R"(
(pe-program @conv ((in x (f32 600)) (in W (f32 2 3)) (inout y (f32 2 598)))
  (grid (px 1) (py 2))
  (local W_local (f32 1 3) @PE (holds W py 0))
  (local y_local (f32 1 605) @PE (holds y py -2))
  (task (call @fzeros 2 1 1 1 (dsd y_local 0 (2 1))))
  (task (call @fzeros ZEROED 1 1 1 (dsd y_local 600 (ZEROED 1))))
  (task (recv x (i) v)
    (call @fmacs 3 1 1 1 (dsd y_local (+ i 3) (3 1))
      (dsd W_local (* 0 i) (3 1)) v)))
)";
  auto edited = [&](int zeroed) {
    ReadProgram read =
        Read(absl::StrReplaceAll(text, {{"ZEROED", absl::StrCat(zeroed)}}));
    const ir::Node* y_local =
        Find(read.entry, "(dsd y_local (+ i 3) (3 1))")->operand(0)->def();
    ir::Node* a = Find(read.entry, "(dsd W_local (* 0 i) (3 1))");
    a->operand(0)->set_def(const_cast<ir::Node*>(y_local));
    a->operand(0)->set_name("y_local");
    a->operand(1)->operand(0)->set_int(1);
    return read;
  };
  const TensorMap inputs = {{"x", Ramp({n}, 0.01f)},
                            {"W", Ramp({2, 3}, 1.0f)},
                            {"y", Ramp({2, n - 2}, 0.03f)}};
  ReadProgram unzeroed = edited(4);
  EXPECT_EQ(Nests(unzeroed), (std::vector<bool>{false, false, true}));
  // y_local[604] is never zeroed: the last call reduces into it.
  auto out = RunBothWays(unzeroed, inputs);
  EXPECT_TRUE(
      FailsWith(out, "error: reduces into dst[2, 0, 0, 0] before it is written"));
  EXPECT_TRUE(FailsWith(out, "receiving x[599]"));
  out = RunBothWays(edited(5), inputs);
  ASSERT_TRUE(out.ok()) << out.status();
  std::vector<float> expected;
  for (int k = 0; k < 2; ++k) {
    std::vector<float> local(n + 5, 0.0f);
    for (int j = 0; j < n - 2; ++j) {
      local[j + 2] = inputs.at("y").Get<float>(k * (n - 2) + j);
    }
    for (int i = 0; i < n; ++i) {
      for (int r = 0; r < 3; ++r) {
        local[i + 3 + r] += local[i + r] * inputs.at("x").Get<float>(i);
      }
    }
    expected.insert(expected.end(), local.begin() + 2, local.begin() + n);
  }
  EXPECT_EQ(Values(out->at("y")), expected);
}

TEST(Cs1Test, ANestOverATwoDimensionalTensorMovesEachWindowByItsIndices) {
  // Element (b, j) goes to y_local[3 * (2 - b) + j], a descriptor of a
  // negative coefficient for b; x[b, j] times W_local[j].
  ReadProgram read = Read(R"(
(pe-program @rows ((in x (f32 3 200)) (in W (f32 200)) (out y (f32 206)))
  (grid (px 1) (py 1))
  (local W_local (f32 200) @PE (holds W 0))
  (local y_local (f32 206) @PE (holds y 0))
  (task (call @fzeros 206 1 1 1 (dsd y_local 0 (206 1))))
  (task (recv x (b j) v)
    (call @fmacs 1 1 1 1 (dsd y_local (+ (* 3 (- 2 b)) j) (1 1))
      (dsd W_local j (1 1)) v)))
)");
  EXPECT_EQ(Nests(read), (std::vector<bool>{false, true}));
  HostTensor x = Ramp({3, 200}, 0.3f);
  HostTensor w = Ramp({200}, -0.7f);
  auto out = RunBothWays(read, {{"x", x}, {"W", w}});
  ASSERT_TRUE(out.ok()) << out.status();
  std::vector<float> expected(206, 0.0f);
  for (int b = 0; b < 3; ++b) {
    for (int j = 0; j < 200; ++j) {
      expected[3 * (2 - b) + j] += w.Get<float>(j) * x.Get<float>(b * 200 + j);
    }
  }
  EXPECT_EQ(Values(out->at("y")), expected);
}

}  // namespace
}  // namespace tessel
