// Which loop nests the planner lets run a batch of iterations at a time
// (loop_plan.h): the batches' results are checked by batch_test.cc; these
// check that the nests that may batch do, so that the interpreter stays
// fast, and that those that may not do not.
#include "libs/interp/loop_plan.h"

#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "libs/interp/loop_compiler.h"
#include "libs/verify/read.h"

namespace tessel {
namespace {

struct Planned {
  std::unique_ptr<ir::Module> module;
  std::unique_ptr<loop::LoopProgram> program;
};

Planned Plan(const std::string& text, const std::string& entry = "") {
  Planned planned;
  auto module = ir::ReadModule(MakeSource("m.tir", text));
  EXPECT_TRUE(module.ok()) << module.status();
  if (!module.ok()) return planned;
  planned.module = std::make_unique<ir::Module>(*std::move(module));
  auto found = ir::FindEntry(*planned.module, entry);
  EXPECT_TRUE(found.ok()) << found.status();
  auto program = loop::CompileLoopProgram(*planned.module, **found);
  EXPECT_TRUE(program.ok()) << program.status();
  if (program.ok()) planned.program = *std::move(program);
  return planned;
}

// The number of loops of the region that the statement at `path` of the
// entry starts (a path of statement positions, each in the body of the
// one before), or 0.
size_t RegionDepth(const Planned& planned, std::vector<size_t> path) {
  const std::vector<loop::Stmt>* block = &planned.program->entry->body;
  const loop::Stmt* stmt = nullptr;
  for (size_t index : path) {
    stmt = &(*block)[index];
    block = &stmt->body;
  }
  return stmt->region == nullptr ? 0 : stmt->region->loops.size();
}

TEST(LoopPlanTest, BatchesMatmulsReductionOverItsInnerLoop) {
  Planned planned = Plan(R"(
(proc @p ((in A (f32 8 8)) (in B (f32 8 8)) (out C (f32 8 8)))
  (for i 0 8 (for j 0 8
    (assign (C i j) 0.0)
    (for k 0 8 (reduce (C i j) (* (A i k) (B k j)))))))
)");
  EXPECT_EQ(RegionDepth(planned, {0}), 0u);     // i: its body is not one loop
  EXPECT_EQ(RegionDepth(planned, {0, 0}), 0u);  // j: two statements
  EXPECT_EQ(RegionDepth(planned, {0, 0, 1}), 1u);
}

TEST(LoopPlanTest, CollapsesPerfectNests) {
  Planned planned = Plan(R"(
(proc @p ((in x (f32 4 6 8)) (out y (f32 4)))
  (for a 0 4 (assign (y a) 0.0))
  (for a 0 4 (for b 0 6 (for c 0 8 (reduce (y a) (x a b c))))))
)");
  EXPECT_EQ(RegionDepth(planned, {0}), 1u);
  EXPECT_EQ(RegionDepth(planned, {1}), 3u);
}

TEST(LoopPlanTest, KeepsInnerBoundsThatUseOuterVariablesApart) {
  Planned planned = Plan(R"(
(proc @p ((in x (f32 8 8)) (out y (f32 8)))
  (for i 0 8 (assign (y i) 0.0))
  (for i 0 8 (for j 0 (+ i 1) (reduce (y i) (x i j)))))
)");
  EXPECT_EQ(RegionDepth(planned, {1}), 0u);
  EXPECT_EQ(RegionDepth(planned, {1, 0}), 1u);
}

TEST(LoopPlanTest, BatchesAccumulationsIntoOneElement) {
  Planned planned = Plan(R"(
(proc @p ((in x (f32 8)) (out s f32) (out m f32))
  (assign s 0.0) (assign m 0.0)
  (for i 0 8 (assign s (+ s (x i))) (assign m (max (x i) m))))
)");
  EXPECT_EQ(RegionDepth(planned, {2}), 1u);
}

TEST(LoopPlanTest, RunsLoopCarriedDependencesIterationByIteration) {
  // y[i] reads y[i - 1], written the iteration before.
  Planned prefix = Plan(R"(
(proc @p ((in x (f32 8)) (out y (f32 8)))
  (assign (y 0) (x 0))
  (for i 1 8 (assign (y i) (+ (y (- i 1)) (x i)))))
)");
  EXPECT_EQ(RegionDepth(prefix, {1}), 0u);
  // A statement reads what a later one writes an iteration before.
  Planned backward = Plan(R"(
(proc @p ((in x (f32 8)) (out y (f32 8)))
  (alloc t (f32 8))
  (assign (t 0) 1.0) (assign (y 0) 0.0)
  (for i 1 8 (assign (y i) (t (- i 1))) (assign (t i) (x i))))
)");
  EXPECT_EQ(RegionDepth(backward, {3}), 0u);
  // One element read while the loop accumulates into it.
  Planned partial = Plan(R"(
(proc @p ((in x (f32 8)) (out s f32) (out y (f32 8)))
  (assign s 0.0)
  (for i 0 8 (reduce s (x i)) (assign (y i) s)))
)");
  EXPECT_EQ(RegionDepth(partial, {1}), 0u);
}

TEST(LoopPlanTest, BatchesStatementsThatShareAnElementPerIteration) {
  Planned planned = Plan(R"(
(proc @p ((in x (f32 8)) (out y (f32 8)))
  (alloc t (f32 8))
  (for i 0 8
    (assign (t i) (* (x i) 2.0))
    (if (< i 4) (then (assign (y i) (t i))) (else (assign (y i) (neg (t i)))))))
)");
  EXPECT_EQ(RegionDepth(planned, {1}), 1u);
}

TEST(LoopPlanTest, RunsCallsAndVectorsIterationByIteration) {
  Planned planned = Plan(R"(
(proc @q ((in a (window f32 1)) (out b (window f32 1))) (assign (b 0) (a 0)))
(proc @p ((in x (f32 8)) (out y (f32 8)))
  (for i 0 8 (call @q (window x (: i (+ i 1))) (window y (: i (+ i 1)))))
  (for i 0 2
    (alloc v (vector f32 4))
    (assign v (transfer-read (vector f32 4) x (* 4 i) 0.0))
    (transfer-write v y (* 4 i))))
)", "p");
  EXPECT_EQ(RegionDepth(planned, {0}), 0u);
  EXPECT_EQ(RegionDepth(planned, {1}), 0u);
}

}  // namespace
}  // namespace tessel
