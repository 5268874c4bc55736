#include "libs/primitives/autolift_alloc.h"

#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives {
namespace {

struct Options {
  int64_t n_lifts = 1;
  std::string mode = "row";
  int64_t size = 0;
  bool keep_dims = true;
};

// autolift_alloc of the first alloc of the proc of `text`, run at n = 6
// and n = 1 (where the proc takes n).
std::string Lifted(const std::string& text, const Options& options) {
  return testing::Outcome(testing::Rewrite(
      text,
      [&](ir::Module& module, ir::Node& proc) {
        return AutoliftAlloc(
                   module,
                   ir::Cursor(module, &testing::Nth(proc, ir::Op::kAlloc)),
                   options.n_lifts, options.mode, options.size,
                   options.keep_dims)
            .status();
      },
      text.find("(size n)") == std::string::npos
          ? std::vector<testing::Sizes>{{}}
          : std::vector<testing::Sizes>{{{"n", 6}}, {{"n", 1}}}));
}

// Exo's test_simple_lift_alloc, with the loop's bound as the extent (Exo
// writes n + 1).
TEST(AutoliftAlloc, KeepsADimensionPerLoopItDependsOn) {
  EXPECT_EQ(Lifted("(proc @bar ((size n) (in A (i8 n)) (out B (i8 n)))\n"
                   "  (for i 0 n (alloc t i8) (assign t (A i)) "
                   "(assign (B i) t)))\n",
                   {}),
            "(proc @bar ((size n) (in A (i8 n)) (out B (i8 n)))\n"
            "  (alloc t (i8 n))\n"
            "  (for i 0 n (assign (t i) (A i)) (assign (B i) (t i))))\n");
}

// Exo's test_lift: `col` puts the loop's dimension last, of `size`.
TEST(AutoliftAlloc, ColumnModeAndSize) {
  EXPECT_EQ(Lifted("(proc @bar ((in A (i8 16 10)) (out B (i8 16 10)))\n"
                   "  (for i 0 10 (alloc a (i8 16))\n"
                   "    (for k 0 16 (assign (a k) (A k i)))\n"
                   "    (for k 0 16 (assign (B k i) (a k)))))\n",
                   {.mode = "col", .size = 20}),
            "(proc @bar ((in A (i8 16 10)) (out B (i8 16 10)))\n"
            "  (alloc a (i8 16 20))\n"
            "  (for i 0 10\n"
            "    (for k 0 16 (assign (a k i) (A k i)))\n"
            "    (for k 0 16 (assign (B k i) (a k i)))))\n");
}

// Two loops, one of which the values do not depend on: no dimension for
// it; the outer loop's first.
TEST(AutoliftAlloc, OnlyTheLoopsItDependsOn) {
  EXPECT_EQ(Lifted("(proc @bar ((size n) (in A (f32 n)) (out B (f32 4 n)))\n"
                   "  (for r 0 4 (for i 0 n (alloc t f32) (assign t (A i))\n"
                   "    (assign (B r i) t))))\n",
                   {.n_lifts = 2}),
            "(proc @bar ((size n) (in A (f32 n)) (out B (f32 4 n)))\n"
            "  (alloc t (f32 n))\n"
            "  (for r 0 4 (for i 0 n (assign (t i) (A i)) "
            "(assign (B r i) (t i)))))\n");
}

// Exo's test_autolift_alloc_error.
TEST(AutoliftAlloc, RefusesMoreLiftsThanScopes) {
  EXPECT_EQ(Lifted("(proc @bar ((size n) (in A (i8 n)) (out B (i8 n)))\n"
                   "  (for i 0 n (for j 0 n (alloc t i8) (assign t (A i)) "
                   "(assign (B i) t))))\n",
                   {.n_lifts = 3}),
            "autolift_alloc: cannot lift 3 times: there are 2 loops and ifs "
            "around 't'");
}

// A size below the trip count (Exo checks it for literal bounds only) is
// the verifier's rejection, and nothing changes.
TEST(AutoliftAlloc, RefusesASizeBelowTheTripCount) {
  std::string outcome =
      Lifted("(proc @bar ((in A (i8 10)) (out B (i8 10)))\n"
             "  (for i 0 10 (alloc t i8) (assign t (A i)) "
             "(assign (B i) t)))\n",
             {.size = 8});
  EXPECT_EQ(outcome.rfind("autolift_alloc: cannot expand 't' by 8 indexed by i",
                          0),
            0u)
      << outcome;
}

// A loop from a negative bound would index below 0.
TEST(AutoliftAlloc, RefusesALoopFromANegativeBound) {
  std::string outcome =
      Lifted("(proc @bar ((in A (i8 10)) (out B (i8 10)))\n"
             "  (for i -2 8 (alloc t i8) (assign t (A (+ i 2))) "
             "(assign (B (+ i 2)) t)))\n",
             {});
  EXPECT_EQ(outcome.rfind("autolift_alloc: cannot expand 't' by 8 indexed by i",
                          0),
            0u)
      << outcome;
}

TEST(AutoliftAlloc, WithoutKeepDimsOnlyLifts) {
  EXPECT_EQ(Lifted("(proc @bar ((size n) (in A (i8 n)) (out B (i8 n)))\n"
                   "  (for i 0 n (alloc t i8) (assign t (A i)) "
                   "(assign (B i) t)))\n",
                   {.keep_dims = false}),
            "(proc @bar ((size n) (in A (i8 n)) (out B (i8 n)))\n"
            "  (alloc t i8)\n"
            "  (for i 0 n (assign t (A i)) (assign (B i) t)))\n");
}

TEST(AutoliftAlloc, Spec) {
  EXPECT_EQ(AutoliftAllocSpec().name, "autolift_alloc");
}

}  // namespace
}  // namespace tessel::primitives
