// Cycles of pe-programs under a cost model, counted by hand here.
#include "libs/interp/cs1_cycles.h"

#include <string>

#include "absl/strings/str_replace.h"
#include "gtest/gtest.h"
#include "libs/verify/read.h"
#include "libs/support/source.h"
#include "targets/cs1/testing.h"

namespace tessel::cs1 {
namespace {

// The model of targets/cs1/cycles.model at the time of writing.
constexpr char kModel[] = R"(# a comment
task_activation 4
instruction_issue 2
configuration 12
simd_f16_per_cycle 4
simd_f32_per_cycle 1
loop_bounds 3
loop_iteration 2
scalar_op 1   # per load, operation and store
fabric_hop 1
)";

absl::StatusOr<CycleReport> TryCount(const std::string& program,
                                      const InputTensors& inputs) {
  auto module = ir::ReadModule(MakeSource("p.tir", LibraryText() + program));
  EXPECT_TRUE(module.ok()) << module.status();
  auto model = ParseCostModel("model", kModel);
  EXPECT_TRUE(model.ok()) << model.status();
  return CountCycles(*module->Find("@conv1d"), *model, inputs);
}

CycleReport Count(const std::string& program, const InputTensors& inputs = {}) {
  auto report = TryCount(program, inputs);
  EXPECT_TRUE(report.ok()) << report.status();
  return *report;
}

// Listing 3.
constexpr char kConv1d[] = R"(
(pe-program @conv1d ((in x (f32 16)) (in W (f32 2 3)) (out y (f32 2 14)))
  (grid (px 1) (py 2))
  (local W_local (f32 1 3) @PE (holds W py 0))
  (local y_local (f32 1 18) @PE (holds y py -2))
  (task (call @fzeros 18 1 1 1 (dsd y_local 0 (18 1))))
  (task (recv x (i) v)
    (call @fmacs 3 1 1 1 (dsd y_local (+ i 2) (3 -1)) (dsd W_local 0 (3 1))
      v)))
)";

// Listing 3 with x sparse.
std::string SparseConv1d() {
  return absl::StrReplaceAll(
      kConv1d, {{"(grid (px 1) (py 2))", "(grid (px 1) (py 2)) (sparse x)"}});
}

// A sparse input's zeros are not sent: with 6 zeros among the 16 elements
// of x (-0 among them), 10 arrivals of 4 + 2 + 3 cycles per PE.
TEST(Cs1CyclesTest, SparseZerosAreNotSent) {
  auto x = MakeHostTensor(ElemType::kF32, {16});
  ASSERT_TRUE(x.ok());
  for (int64_t i = 0; i < 16; ++i) {
    x->Set<float>(i, i % 3 == 0 ? (i == 3 ? -0.0f : 0.0f) : 0.5f);
  }
  CycleReport report = Count(SparseConv1d(), {{"x", *x}});
  for (const PeCycles& pe : report.pes) {
    ASSERT_EQ(pe.tasks.size(), 2u);
    EXPECT_EQ(pe.tasks[1].runs, 10);
    EXPECT_EQ(pe.tasks[1].cycles, 90);
    EXPECT_EQ(pe.cycles, 24 + 24 + 90);
  }
  EXPECT_EQ(report.simd_instances, 2 * 10 * 3);
}

TEST(Cs1CyclesTest, SparseInputWithoutData) {
  auto report = TryCount(SparseConv1d(), {});
  EXPECT_EQ(report.status().message(),
            "the cycles depend on the data of the sparse input 'x', which is "
            "missing");
}

// Listing 3: per PE, 2 configurations (24 cycles), the zeroing task
// (4 + 2 + 18) and 16 arrivals of 4 + 2 + 3 cycles: 192.
TEST(Cs1CyclesTest, SimdTasks) {
  CycleReport report = Count(kConv1d);
  ASSERT_EQ(report.pes.size(), 2u);
  for (const PeCycles& pe : report.pes) {
    EXPECT_EQ(pe.configurations, 2);
    ASSERT_EQ(pe.tasks.size(), 2u);
    EXPECT_EQ(pe.tasks[0].runs, 1);
    EXPECT_EQ(pe.tasks[0].cycles, 24);
    EXPECT_EQ(pe.tasks[1].runs, 16);
    EXPECT_EQ(pe.tasks[1].cycles, 144);
    EXPECT_EQ(pe.cycles, 192);
  }
  EXPECT_EQ(report.simd_instances, 2 * 16 * 3);
  EXPECT_EQ(report.scalar_instances, 0);
  EXPECT_EQ(CycleSummary(report),
            "cycles: 192 (the busiest PE, (0, 0); 2 PEs, 192.0 on average)\n"
            "SIMD: 100.0% of 96 compute instances (96 by SIMD instructions, 0 "
            "by explicit loops)\n");
}

// The same by explicit loops: per arrival of x[i], the loop's bounds (3)
// and, per iteration (42 over the 16 elements), 2 cycles and the reduce's
// load of W_local, multiplication, load, addition and store of y_local
// (5); the zeroing task (4 + 2 + 14) with its one configuration (12).
TEST(Cs1CyclesTest, ExplicitLoops) {
  CycleReport report = Count(R"(
(proc @task ((index px) (index py) (index idx) (in v f32)
             (inout y_local (f32 1 14) @PE) (in W_local (f32 1 3) @PE))
  (assert (and (and (and (and (>= idx 0) (<= idx 15)) (== px 0)) (>= py 0))
               (<= py 1)))
  (for c0 (max 0 (- idx 13)) (+ (min 2 idx) 1)
    (reduce (y_local 0 (- idx c0)) (* v (W_local 0 c0)))))

(pe-program @conv1d ((in x (f32 16)) (in W (f32 2 3)) (out y (f32 2 14)))
  (grid (px 1) (py 2))
  (local W_local (f32 1 3) @PE (holds W py 0))
  (local y_local (f32 1 14) @PE (holds y py 0))
  (task (call @fzeros 14 1 1 1 (dsd y_local 0 (14 1))))
  (task (recv x (i0) v) (call @task px py i0 v y_local W_local)))
)");
  const PeCycles& pe = report.Busiest();
  EXPECT_EQ(pe.configurations, 1);
  EXPECT_EQ(pe.tasks[0].cycles, 20);
  EXPECT_EQ(pe.tasks[1].cycles, 16 * 4 + 16 * 3 + 42 * (2 + 5));
  EXPECT_EQ(pe.cycles, 12 + 20 + 16 * 4 + 16 * 3 + 42 * 7);
  EXPECT_EQ(report.simd_instances, 0);
  EXPECT_EQ(report.scalar_instances, 2 * 42);
}

// Partial sums are sent on, one hop per element of the local array.
TEST(Cs1CyclesTest, PartialResultsAreSent) {
  CycleReport report = Count(R"(
(pe-program @conv1d ((in x (f32 16)) (in W (f32 2 3)) (out y (f32 2 14)))
  (grid (px 2) (py 2))
  (local W_local (f32 1 3) @PE (holds W py 0))
  (local y_local (f32 1 18) @PE (holds y py -2) (partial add))
  (task (call @fzeros 18 1 1 1 (dsd y_local 0 (18 1))))
  (task (recv x (i) v (== (% i 2) px))
    (call @fmacs 3 1 1 1 (dsd y_local (+ i 2) (3 -1)) (dsd W_local 0 (3 1))
      v)))
)");
  for (const PeCycles& pe : report.pes) {
    EXPECT_EQ(pe.tasks[1].runs, 8);
    EXPECT_EQ(pe.collection_cycles, 18);
    EXPECT_EQ(pe.cycles, 24 + 24 + 8 * 9 + 18);
  }
}

// A copy computes nothing, whatever its indices compute.
TEST(Cs1CyclesTest, CopiesAreNoComputeInstances) {
  CycleReport report = Count(R"(
(proc @shift ((in y_local (f32 1 18) @PE) (inout y_kept (f32 1 14) @PE))
  (for c0 0 14 (assign (y_kept 0 c0) (y_local 0 (+ c0 2)))))

(pe-program @conv1d ((in x (f32 16)) (in W (f32 2 3)) (out y (f32 2 14)))
  (grid (px 1) (py 2))
  (local y_local (f32 1 18) @PE)
  (local y_kept (f32 1 14) @PE (holds y py 0))
  (task (call @fzeros 18 1 1 1 (dsd y_local 0 (18 1))))
  (task (call @shift y_local y_kept)))
)");
  EXPECT_EQ(report.simd_instances, 0);
  EXPECT_EQ(report.scalar_instances, 0);
  // The copy's load (with its index's addition) and store: 3 per element.
  EXPECT_EQ(report.Busiest().tasks[1].cycles, 4 + 3 + 14 * (2 + 3));
}

TEST(Cs1CyclesTest, CostModelErrors) {
  EXPECT_EQ(ParseCostModel("m", "task_activation 4 5\n").status().message(),
            "m:1: error: expected 'task_activation VALUE', an integer of at "
            "least 0");
  EXPECT_EQ(ParseCostModel("m", "\nsimd_f32_per_cycle 0\n").status().message(),
            "m:2: error: expected 'simd_f32_per_cycle VALUE', an integer of "
            "at least 1");
  EXPECT_EQ(ParseCostModel("m", "hop 1\n").status().message(),
            "m:1: error: unknown parameter 'hop'");
  EXPECT_EQ(ParseCostModel("m", "scalar_op 1\nscalar_op 2\n").status().message(),
            "m:2: error: 'scalar_op' is given twice");
  EXPECT_EQ(ParseCostModel("m", "scalar_op 1\n").status().message(),
            "m: error: the parameter 'task_activation' is missing");
  EXPECT_TRUE(DefaultCostModel().ok());
}

}  // namespace
}  // namespace tessel::cs1
