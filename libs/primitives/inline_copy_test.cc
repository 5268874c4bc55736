#include "libs/primitives/inline_copy.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives {
namespace {

// inline_copy of the alloc at `path` in the proc of `text`.
std::string Inlined(const std::string& text, const std::vector<size_t>& path) {
  return testing::OutcomeAt(text, path, InlineCopy);
}

// A transposed copy that a packing copies again, tile by tile: the packing
// reads the tensor.
TEST(InlineCopy, ReadsTheTensorThroughThePermutation) {
  EXPECT_EQ(Inlined("(proc @f ((in B (f32 8 4)) (out C (f32 2 4 4)))\n"
                    "  (alloc L (f32 4 8))\n"
                    "  (for i 0 4 (for j 0 8 (assign (L i j) (B j i))))\n"
                    "  (for jo 0 2\n"
                    "    (for k 0 4\n"
                    "      (for ji 0 4\n"
                    "        (assign (C jo k ji) (L k (+ (* 4 jo) ji)))))))\n",
                    {0}),
            "(proc @f ((in B (f32 8 4)) (out C (f32 2 4 4)))\n"
            "  (for jo 0 2\n"
            "    (for k 0 4 (for ji 0 4 (assign (C jo k ji) (B (+ (* 4 jo) ji) "
            "k))))))\n");
}

// stage_mem's copy of a window: the offsets stay.
TEST(InlineCopy, KeepsTheWindowsOffsets) {
  EXPECT_EQ(
      Inlined("(proc @f ((in x (f32 10)) (out y (f32 4)))\n"
              "  (for o 0 2\n"
              "    (alloc s (f32 6))\n"
              "    (for i 0 6 (assign (s i) (x (+ (* 4 o) i))))\n"
              "    (for i 0 2 (assign (y (+ (* 2 o) i)) (+ (s i) (s (+ "
              "i 4)))))))\n",
              {0, 0}),
      "(proc @f ((in x (f32 10)) (out y (f32 4)))\n"
      "  (for o 0 2\n"
      "    (for i 0 2\n"
      "      (assign (y (+ (* 2 o) i)) (+ (x (+ (* 4 o) i)) (x (+ (* 4 o) "
      "(+ i 4))))))))\n");
}

TEST(InlineCopy, RejectsALaterWriteOfTheTensor) {
  EXPECT_EQ(Inlined("(proc @f ((inout x (f32 4)) (out y (f32 4)))\n"
                    "  (alloc s (f32 4))\n"
                    "  (for i 0 4 (assign (s i) (x i)))\n"
                    "  (assign (x 0) 1.0)\n"
                    "  (for i 0 4 (assign (y i) (s i))))\n",
                    {0}),
            "inline_copy: '(assign (x 0) 1.0)' may write 'x', which the copy "
            "reads");
}

TEST(InlineCopy, RejectsALaterWriteOfTheCopy) {
  EXPECT_EQ(Inlined("(proc @f ((in x (f32 4)) (out y (f32 4)))\n"
                    "  (alloc s (f32 4))\n"
                    "  (for i 0 4 (assign (s i) (x i)))\n"
                    "  (reduce (s 1) 1.0)\n"
                    "  (for i 0 4 (assign (y i) (s i))))\n",
                    {0}),
            "inline_copy: '(reduce (s 1) 1.0)' may write 's', which is the "
            "copy");
}

TEST(InlineCopy, RejectsACopyOfPart) {
  EXPECT_EQ(Inlined("(proc @f ((in x (f32 4)) (out y (f32 4)))\n"
                    "  (alloc s (f32 4))\n"
                    "  (for i 0 3 (assign (s i) (x i)))\n"
                    "  (assign (s 3) 0.0)\n"
                    "  (for i 0 4 (assign (y i) (s i))))\n",
                    {0}),
            "inline_copy: 's' must be followed by its copy, a nest of loops "
            "around '(assign (s v...) (T e...))' that writes all of it; '(for "
            "i 0 3 (assign (s i) (x i)))' does not write all of it");
}

TEST(InlineCopy, RejectsAComputedValue) {
  EXPECT_EQ(Inlined("(proc @f ((in x (f32 4)) (out y (f32 4)))\n"
                    "  (alloc s (f32 4))\n"
                    "  (for i 0 4 (assign (s i) (* (x i) 2.0)))\n"
                    "  (for i 0 4 (assign (y i) (s i))))\n",
                    {0}),
            "inline_copy: 's' must be followed by its copy, a nest of loops "
            "around '(assign (s v...) (T e...))' that writes all of it; '(for "
            "i 0 4 (assign (s i) (* (x i) 2.0)))' is not one");
}

TEST(InlineCopy, RejectsAVectorRead) {
  EXPECT_EQ(Inlined("(proc @f ((in x (f32 8)) (out y (f32 8)))\n"
                    "  (alloc s (f32 8))\n"
                    "  (for i 0 8 (assign (s i) (x i)))\n"
                    "  (alloc v (vector f32 8))\n"
                    "  (assign v (transfer-read (vector f32 8) s 0 0.0))\n"
                    "  (transfer-write v y 0))\n",
                    {0}),
            "'s' is used whole in '(transfer-read (vector f32 8) s 0 0.0)'; "
            "only its elements and windows can be rewritten");
}

TEST(InlineCopy, Spec) { EXPECT_EQ(InlineCopySpec().name, "inline_copy"); }

}  // namespace
}  // namespace tessel::primitives
