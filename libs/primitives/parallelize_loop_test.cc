#include "libs/primitives/parallelize_loop.h"

#include <string>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "libs/verify/verifier.h"
#include "libs/primitives/lift_alloc.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives {
namespace {

using testing::Nth;

// parallelize_loop of the `n`-th loop of the proc of `text`, at n = 5 and 1.
std::string Parallel(const std::string& text, int n = 0) {
  return testing::Outcome(testing::Rewrite(
      text,
      [&](ir::Module& module, ir::Node& proc) {
        return ParallelizeLoop(module,
                               ir::Cursor(module, &Nth(proc, ir::Op::kFor, n)))
            .status();
      },
      {{{"n", 5}}, {{"n", 1}}}));
}

TEST(ParallelizeLoop, MarksALoopOfIndependentIterations) {
  EXPECT_EQ(Parallel("(proc @p ((size n) (in x (f32 n 4)) (out y (f32 n 4)))\n"
                     "  (for i 0 n (alloc t f32)\n"
                     "    (for j 0 4 (assign t (x i j)) "
                     "(assign (y i j) (* 2.0 t)))))\n"),
            "(proc @p ((size n) (in x (f32 n 4)) (out y (f32 n 4)))\n"
            "  (for-par i 0 n\n"
            "    (alloc t f32)\n"
            "    (for j 0 4 (assign t (x i j)) (assign (y i j) (* 2.0 t)))))"
            "\n");
}

// The inner loop of a row sum: each iteration adds into its row's element.
TEST(ParallelizeLoop, MarksTheRowsOfAReduction) {
  EXPECT_EQ(Parallel("(proc @p ((size n) (in x (f32 n 4)) (out y (f32 n)))\n"
                     "  (for i 0 n (assign (y i) 0.0)\n"
                     "    (for j 0 4 (reduce (y i) (x i j)))))\n"),
            "(proc @p ((size n) (in x (f32 n 4)) (out y (f32 n)))\n"
            "  (for-par i 0 n (assign (y i) 0.0) "
            "(for j 0 4 (reduce (y i) (x i j)))))\n");
}

// Two += of one location commute, but at once they race.
TEST(ParallelizeLoop, RefusesAReductionIntoOneLocation) {
  EXPECT_EQ(Parallel("(proc @p ((size n) (in x (f32 n 4)) (out y (f32 4)))\n"
                     "  (for j 0 4 (assign (y j) 0.0))\n"
                     "  (for i 0 n (for j 0 4 (reduce (y j) (x i j)))))\n",
                     1),
            "parallelize_loop: two iterations of the parallel loop 'i' are "
            "not independent (run at once, two += of one location race too): "
            "n = 2: instances (i = 0, j = 0) and (i = 1, "
            "j = 0) both access y[0]: both write");
}

TEST(ParallelizeLoop, RefusesAnIterationReadingAnEarlierOnesWrite) {
  EXPECT_EQ(Parallel("(proc @p ((size n) (inout y (f32 n)))\n"
                     "  (for i 1 n (assign (y i) (* 2.0 (y (- i 1))))))\n"),
            "parallelize_loop: two iterations of the parallel loop 'i' are "
            "not independent (run at once, two += of one location race too): "
            "n = 3: instances (i = 1) and (i = 2) both "
            "access y[1]: the first writes, the second reads");
}

// Its buffer would be one static array for all the threads.
TEST(ParallelizeLoop, RefusesAnAllocInAMemoryOfStaticBuffers) {
  EXPECT_EQ(Parallel("(memory @SCRATCH (alloc \"static {type} "
                     "{name}[{size}];\") (free \"\"))\n"
                     "(proc @p ((size n) (in x (f32 n)) (out y (f32 n)))\n"
                     "  (for i 0 n (alloc t f32 @SCRATCH) (assign t (x i)) "
                     "(assign (y i) t)))\n"),
            "parallelize_loop: 't' in @SCRATCH inside the parallel loop 'i': "
            "only @DRAM and register memories give each iteration a buffer of "
            "its own");
}

TEST(ParallelizeLoop, RefusesAnIf) {
  EXPECT_EQ(testing::OutcomeAt("(proc @p ((size n) (out y (f32 n)))\n"
                               "  (if (> n 2) (then (for i 0 n "
                               "(assign (y i) 0.0)))))\n",
                               {0},
                               [](ir::Module& module, const ir::Cursor& at) {
                                 return ParallelizeLoop(module, at).status();
                               }),
            "parallelize_loop: expected a loop");
}

// A buffer lifted out of a parallel loop is shared by its iterations: the
// procedure no longer verifies, which a schedule reports as a rejection.
TEST(ParallelizeLoop, ALaterEditThatSharesABufferDoesNotVerify) {
  ir::Module module = testing::ReadVerified(
      "(proc @p ((size n) (in x (f32 n)) (out y (f32 n)))\n"
      "  (for-par i 0 n (alloc t f32) (assign t (x i)) "
      "(assign (y i) (* 2.0 t))))\n");
  ir::Node& proc = testing::ProcNamed(module, "@p");
  ASSERT_TRUE(
      LiftAlloc(module, ir::Cursor(module, &Nth(proc, ir::Op::kAlloc))).ok());
  absl::Status status = ir::VerifyProc(module, proc, kEditChecks);
  EXPECT_EQ(status.message().substr(0, status.message().find('\n')),
            "m.tir:2:3: error: two iterations of the parallel loop 'i' are "
            "not independent (run at once, two += of one location race too): "
            "n = 2: instances (i = 0) and (i = 1) both access t: both write");
}

TEST(ParallelizeLoop, Spec) {
  EXPECT_EQ(ParallelizeLoopSpec().name, "parallelize_loop");
}

}  // namespace
}  // namespace tessel::primitives
