// Parallel loops in the verifier: every two iterations independent, a +=
// of one location from two iterations a race, an alloc of the body each
// iteration's own, a callee's effects those of its body.
#include "gtest/gtest.h"
#include "libs/verify/first_error.h"

namespace tessel::ir {
namespace {

TEST(VerifierParallelTest, IndependentIterations) {
  EXPECT_EQ(FirstError("(proc @p ((size n) (in x (f32 n 4)) (out y (f32 n)))\n"
                       "  (for-par i 0 n (alloc t f32) (assign t 0.0)\n"
                       "    (for j 0 4 (reduce t (x i j)))\n"
                       "    (assign (y i) t)))"),
            "ok");
}

TEST(VerifierParallelTest, AReductionIntoOneLocationRaces) {
  EXPECT_EQ(FirstError("(proc @p ((size n) (in x (f32 n)) (inout s (f32 1)))\n"
                       "  (for-par i 0 n (reduce (s 0) (x i))))"),
            "2:3: error: two iterations of the parallel loop 'i' are not "
            "independent (run at once, two += of one location race too): "
            "n = 2: instances (i = 0) and (i = 1) both access s[0]: both "
            "write");
}

TEST(VerifierParallelTest, AReadOfAnotherIterationsWrite) {
  EXPECT_EQ(FirstError("(proc @p ((size n) (inout y (f32 (+ n 1))))\n"
                       "  (for-par i 0 n (assign (y i) (y (+ i 1)))))"),
            "2:3: error: two iterations of the parallel loop 'i' are not "
            "independent (run at once, two += of one location race too): "
            "n = 2: instances (i = 0) and (i = 1) both access y[1]: the first "
            "reads, the second writes");
}

TEST(VerifierParallelTest, ACalleeWritingWhatEveryIterationWrites) {
  EXPECT_EQ(FirstError("(proc @zero ((out t (f32 4)))\n"
                       "  (for k 0 4 (assign (t k) 0.0)))\n"
                       "(proc @p ((size n) (out y (f32 n)) (out t (f32 4)))\n"
                       "  (for-par i 0 n (call @zero t) (assign (y i) 1.0)))"),
            "4:3: error: two iterations of the parallel loop 'i' are not "
            "independent (run at once, two += of one location race too): "
            "n = 2: instances (i = 0) and (i = 1) both access t[0]: both "
            "write");
}

// A memory whose alloc template is one static array for every thread.
TEST(VerifierParallelTest, AnAllocInAMemoryOfStaticBuffers) {
  EXPECT_EQ(FirstError("(memory @SCRATCH (alloc \"static {type} "
                       "{name}[{size}];\") (free \"\"))\n"
                       "(proc @p ((size n) (in x (f32 n)) (out y (f32 n)))\n"
                       "  (for-par i 0 n (alloc t f32 @SCRATCH) "
                       "(assign t (x i)) (assign (y i) t)))"),
            "3:3: error: 't' in @SCRATCH inside the parallel loop 'i': only "
            "@DRAM and register memories give each iteration a buffer of its "
            "own");
}

// So is one of a procedure the loop calls.
TEST(VerifierParallelTest, AnAllocInAMemoryOfStaticBuffersOfACallee) {
  EXPECT_EQ(FirstError("(memory @SCRATCH (alloc \"static {type} "
                       "{name}[{size}];\") (free \"\"))\n"
                       "(proc @twice ((in a (window f32 1)) "
                       "(out b (window f32 1)))\n"
                       "  (alloc t f32 @SCRATCH) (assign t (a 0)) "
                       "(assign (b 0) (* 2.0 t)))\n"
                       "(proc @p ((size n) (in x (f32 n)) (out y (f32 n)))\n"
                       "  (for-par i 0 n (call @twice (window x (: i (+ i 1))) "
                       "(window y (: i (+ i 1))))))"),
            "5:3: error: 't' in @SCRATCH inside the parallel loop 'i' (in "
            "@twice, which it calls): only @DRAM and register memories give "
            "each iteration a buffer of its own");
}

}  // namespace
}  // namespace tessel::ir
