// The vector level: typing and its located diagnostics.
#include <string>

#include "gtest/gtest.h"
#include "libs/verify/first_error.h"

namespace tessel::ir {
namespace {

std::string Proc(const std::string& params, const std::string& body) {
  return "(proc @p (" + params + ")\n" + body + ")";
}

TEST(VectorTest, ValidKernel) {
  EXPECT_EQ(FirstError(Proc(
                "(in x (f32 2 8)) (in v (vector f32 4)) (out y (f32 2 8)) "
                "(out s f32)",
                "  (alloc w (vector f32 2 4))\n"
                "  (assign w (transfer-read (vector f32 2 4) x 0 6 0.0))\n"
                "  (assign w (select (and (< w w) (not (== w w))) w\n"
                "    (fma w w (broadcast (vector f32 2 4) v))))\n"
                "  (transfer-write (cast f32 (cast i32 w)) y 0 7)\n"
                "  (assign s (+ (reduction add (extract w 1))\n"
                "    (extract (insert 2 w 1 3) 1 3)))\n"
                "  (assign w (contract w w (broadcast (vector f32 2 2) 0)\n"
                "    (list 0 2) (list 1 2) (list 0 1)))")),
            "9:13: error: 'w' is (vector f32 2 4), but the value is "
            "(vector f32 2 2)");
}

TEST(VectorTest, TypesTheOpsThatMoveLanes) {
  EXPECT_EQ(
      FirstError(Proc(
          "(in A (f32 4 8)) (in v (vector f32 2 4)) (out y (f32 8 4))",
          "  (alloc t (vector f32 4 2))\n"
          "  (assign t (transpose v (list 1 0)))\n"
          "  (assign t (shape-cast (vector f32 4 2) (shape-cast (vector f32 8) "
          "v)))\n"
          "  (assign t (insert-strided-slice (extract-strided-slice t (list 0) "
          "(list 1) (list 1)) t (list 2 0) (list 1 1)))\n"
          "  (transfer-write (outer-product (extract t 0) (extract v 1)\n"
          "    (transfer-read (vector f32 2 4) A 0 0 0.0 (permutation-map 1 "
          "0)))\n"
          "    y 0 0 (mask (create-mask (shape 2 4) 1 4)) (in-bounds 1 1))\n"
          "  (transfer-write (multi-reduction max t (extract t 0) (list 0))\n"
          "    y 7 0)")),
      "ok");
  EXPECT_EQ(FirstError(Proc("(in v (vector f32 2 4)) (out y (f32 4 2))",
                            "  (transfer-write (transpose v (list 1 2)) y 0 "
                            "0)")),
            "2:40: error: the permutation of a transpose: 2 is not in [0, 2)");
}

TEST(VectorTest, TypesEveryVectorNode) {
  EXPECT_EQ(FirstError(Proc("(in x (f32 8)) (out y (f32 8))",
                            "  (alloc v (vector f32 4))\n"
                            "  (assign v (transfer-read (vector f32 4) x 6 "
                            "0.0))\n"
                            "  (transfer-write (neg v) y 5)")),
            "ok");
}

TEST(VectorTest, ShapeMismatches) {
  EXPECT_EQ(FirstError(Proc("(in x (f32 8)) (out y (f32 8))",
                            "  (transfer-write (* (transfer-read (vector f32 "
                            "4) x 0 0.0) (transfer-read (vector f32 2) x 0 "
                            "0.0)) y 0)")),
            "2:61: error: the operands of '*' must have one type: expected "
            "(vector f32 4), found (vector f32 2)");
  EXPECT_EQ(FirstError(Proc("(in v (vector f32 4)) (out y (f32 8))",
                            "  (transfer-write (broadcast (vector f32 4 2) "
                            "v) y 0)")),
            "2:47: error: cannot broadcast (vector f32 4) to (vector f32 4 2): "
            "the element types must match and the source's shape must be a "
            "suffix of the result's");
  EXPECT_EQ(FirstError(Proc("(in v (vector f32 4)) (in w (vector f32 2)) "
                            "(out y (f32 8))",
                            "  (transfer-write (contract v w v (list 0) "
                            "(list 0) (list 0)) y 0)")),
            "2:50: error: iteration dimension 0 has extent 4 in A but 2 in "
            "B");
  EXPECT_EQ(FirstError(Proc("(in v (vector f32 4)) (out y (f32 8))",
                            "  (transfer-write (contract v v v (list 0) "
                            "(list 0) (list 0 1)) y 0)")),
            "2:53: error: ACC is (vector f32 4), but its list gives 2 "
            "iteration dimensions");
}

TEST(VectorTest, Ranks) {
  EXPECT_EQ(FirstError(Proc("(in x (f32 8)) (out y (f32 8))",
                            "  (transfer-write (transfer-read (vector f32 2 "
                            "4) x 0 0.0) y 0)")),
            "2:19: error: a transfer of (vector f32 2 4) needs a tensor of "
            "rank >= 2, but 'x' has rank 1");
  EXPECT_EQ(FirstError(Proc("(in x (f32 4 8)) (out s f32)",
                            "  (assign s (reduction add (transfer-read "
                            "(vector f32 8) x 0 0.0)))")),
            "2:28: error: 'x' has rank 2, but 1 index is given (before PAD)");
  EXPECT_EQ(FirstError(Proc("(in v (vector f32 4)) (out s f32)",
                            "  (assign s (extract v 1 2))")),
            "2:13: error: 'extract' on (vector f32 4) takes 1 to 1 positions, "
            "found 2");
  EXPECT_EQ(FirstError(Proc("(in v (vector f32 4)) (out s f32)",
                            "  (assign s (extract v 4))")),
            "2:24: error: position 4 is outside dimension 0 of (vector f32 4) "
            "(size 4)");
}

TEST(VectorTest, PositionsAreLiterals) {
  EXPECT_EQ(FirstError(Proc("(index i) (in v (vector f32 4)) (out s f32)",
                            "  (assign s (extract v i))")),
            "2:24: error: a position of extract must be an integer literal, "
            "found 'i'");
}

TEST(VectorTest, WritesAndScalars) {
  EXPECT_EQ(FirstError(Proc("(in x (f32 8))",
                            "  (transfer-write (broadcast (vector f32 4) 1.0) "
                            "x 0)")),
            "2:50: error: 'x' is an in parameter and cannot be written");
  EXPECT_EQ(FirstError(Proc("(in v (vector f32 4))",
                            "  (assign v (broadcast (vector f32 4) 1.0))")),
            "2:11: error: 'v' is an in parameter and cannot be written");
  EXPECT_EQ(FirstError(Proc("(in v (vector f32 4)) (out s f32)",
                            "  (assign s (+ v 1.0))")),
            "2:16: error: 'v' is a vector (vector f32 4), not a scalar: read "
            "a lane with (extract v P...)");
  EXPECT_EQ(FirstError(Proc("(out y (f32 4))",
                            "  (alloc v (vector f32 4))\n"
                            "  (assign v 1.0)")),
            "3:13: error: 'v' is a vector (vector f32 4); a scalar becomes one "
            "with (broadcast (vector f32 4) X)");
  EXPECT_EQ(FirstError(Proc("(in v (vector f32 4)) (out s f32)",
                            "  (assign s (reduction sum v))")),
            "2:24: error: unknown reduction 'sum'; expected add, mul, max or "
            "min");
}

TEST(VectorTest, BoundsOfLeadingIndices) {
  // Trailing (lane) indices may leave the tensor: PAD covers them.
  EXPECT_EQ(FirstError(Proc("(in a (f32 4 8)) (out s f32)",
                            "  (assign s (reduction add (transfer-read "
                            "(vector f32 8) a 3 -5 0.0)))")),
            "ok");
  EXPECT_EQ(FirstError(Proc("(in a (f32 4 8)) (out s f32)",
                            "  (assign s (reduction add (transfer-read "
                            "(vector f32 8) a 4 0 0.0)))")),
            "2:60: error: index 0 of 'a' can reach 4, outside its extent 4");
}

TEST(VectorTest, TypeSyntax) {
  EXPECT_EQ(FirstError(Proc("(size n) (in v (vector f32 n))", "")),
            "1:38: error: a vector dimension must be an integer literal > 0, "
            "found 'n'");
  EXPECT_EQ(FirstError("(func @f ((v (vector f32 4))) ((y f32)) 0.0)"),
            "1:14: error: vectors exist only at the loop level");
}

}  // namespace
}  // namespace tessel::ir
