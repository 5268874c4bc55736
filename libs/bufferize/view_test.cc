#include "libs/bufferize/view.h"

#include "gtest/gtest.h"

namespace tessel::bufferize {
namespace {

TEST(ViewTest, WholeIsItsBuffer) {
  View a = View::Whole("A", {4, 6});
  EXPECT_TRUE(a.IsWhole());
  EXPECT_EQ(a.Element({"i", "j"}), "(A i j)");
  EXPECT_EQ(View::Whole("s", {}).Element({}), "s");
}

TEST(ViewTest, TransposeOfSliceComposes) {
  View a = View::Whole("A", {4, 6}).Slice(1, 2, 6).Transpose({1, 0});
  EXPECT_EQ(a.dims, (std::vector<int64_t>{4, 4}));
  EXPECT_EQ(a.Element({"i", "j"}), "(A j (+ i 2))");
  EXPECT_FALSE(a.IsWhole());
}

TEST(ViewTest, ReshapeIsRowMajor) {
  View flat = View::Whole("A", {2, 3}).Reshape({6});
  EXPECT_EQ(flat.Element({"k"}), "(A (/ k 3) (% k 3))");
}

TEST(ViewTest, FixAndSameAs) {
  View a = View::Whole("A", {4, 6});
  EXPECT_EQ(a.Fix(0, "i").Element({"j"}), "(A i j)");
  EXPECT_TRUE(a.Slice(0, 1, 3).SameAs(a.Slice(0, 1, 3)));
  EXPECT_FALSE(a.Slice(0, 1, 3).SameAs(a.Slice(0, 0, 2)));
}

TEST(ViewTest, WindowsStrideTheirPositions) {
  View w = View::Whole("x", {8}).Windows(0, {3}, {2});
  EXPECT_EQ(w.dims, (std::vector<int64_t>{3, 3}));
  EXPECT_EQ(w.Element({"p", "q"}), "(x (+ (* p 2) q))");
}

TEST(ViewTest, WindowTextOfRowsAndSlices) {
  View a = View::Whole("A", {4, 6});
  EXPECT_EQ(*a.WindowText(true), "(window A (: 0 4) (: 0 6))");
  EXPECT_EQ(*a.Slice(1, 2, 5).Fix(0, "i").WindowText(true),
            "(window A i (: 2 5))");
  EXPECT_EQ(*View::Whole("B", {3, 4, 6}).Fix(0, "(+ r 1)").WindowText(true),
            "(window B (+ r 1) (: 0 4) (: 0 6))");
  // A column is a vector of stride 6: a window, but not a matrix's.
  EXPECT_EQ(*a.Fix(1, "j").WindowText(true), "(window A (: 0 4) j)");
  EXPECT_FALSE(
      View::Whole("B", {3, 4, 6}).Fix(2, "0").WindowText(true).has_value());
  EXPECT_TRUE(
      View::Whole("B", {3, 4, 6}).Fix(2, "0").WindowText(false).has_value());
}

TEST(ViewTest, PermutedSteppedAndSplitWindows) {
  View a = View::Whole("A", {4, 6});
  EXPECT_EQ(*a.Transpose({1, 0}).WindowText(false),
            "(window A (: 0 4) (: 0 6) (perm 1 0))");
  // BLAS's matrices end in unit steps along the last dimension.
  EXPECT_FALSE(a.Transpose({1, 0}).WindowText(true).has_value());
  // Windows of 2 every 2, p * 2 + q: rows of a split.
  EXPECT_EQ(*View::Whole("x", {8}).Windows(0, {2}, {2}).WindowText(false),
            "(window x (split 0 8 2))");
  // A fixed position within each window: every second element.
  EXPECT_EQ(*View::Whole("x", {8}).Windows(0, {2}, {2}).Fix(1, "1")
                 .WindowText(true),
            "(window x (: 1 8 2))");
  // A reshape that splits a dimension, and one of a slice's rows.
  View v = View::Whole("v", {3, 24});
  EXPECT_EQ(*v.Fix(0, "i").Reshape({4, 6}).WindowText(true),
            "(window v i (split 0 24 6))");
  EXPECT_EQ(*v.Fix(0, "i").Slice(0, 6, 18).Reshape({6, 2}).WindowText(true),
            "(window v i (split 6 18 2))");
}

TEST(ViewTest, NoWindowWhereTheLayoutMergesDimensions) {
  View a = View::Whole("A", {4, 6});
  // Rows of the buffer merged into one dimension: no window of `A`.
  EXPECT_FALSE(a.Reshape({24}).WindowText(false).has_value());
  // Nor a transpose's, whose merged dimensions are not contiguous.
  EXPECT_FALSE(a.Transpose({1, 0}).Reshape({24}).WindowText(false));
  // Overlapping windows (of 3 every 2) are no split.
  EXPECT_FALSE(View::Whole("x", {8}).Windows(0, {3}, {2}).WindowText(false));
  // Nor is a dimension split in three.
  EXPECT_FALSE(View::Whole("x", {24}).Reshape({2, 3, 4}).WindowText(false));
  // A broadcast steps along no dimension of its buffer.
  EXPECT_FALSE(a.Broadcast(0, {3}).WindowText(false).has_value());
}

}  // namespace
}  // namespace tessel::bufferize
