#include "libs/ir/keywords.h"

#include "gtest/gtest.h"

namespace tessel::ir {
namespace {

TEST(KeywordsTest, ComputeOpsReadBackFromTheirSpelling) {
  for (ComputeOp op :
       {ComputeOp::kReduceSum, ComputeOp::kReduceMax, ComputeOp::kDotProd,
        ComputeOp::kRelu, ComputeOp::kElementwiseAdd,
        ComputeOp::kElementwiseMul}) {
    EXPECT_EQ(FindComputeOp(Spelling(op)), op) << Spelling(op);
  }
  EXPECT_EQ(Spelling(ComputeOp::kDotProd), "dotProd");
  EXPECT_FALSE(FindComputeOp("dotprod"));
  EXPECT_FALSE(FindComputeOp("add"));
}

TEST(KeywordsTest, ReductionKindsReadBackFromTheirSpelling) {
  for (ReductionKind kind : {ReductionKind::kAdd, ReductionKind::kMul,
                             ReductionKind::kMax, ReductionKind::kMin}) {
    EXPECT_EQ(FindReductionKind(Spelling(kind)), kind) << Spelling(kind);
  }
  EXPECT_FALSE(FindReductionKind("reduceSum"));
}

// Glenside Table 2: which operators reduce and which take a tuple.
TEST(KeywordsTest, ComputeOpShapes) {
  EXPECT_TRUE(Reduces(ComputeOp::kDotProd));
  EXPECT_TRUE(TakesTuple(ComputeOp::kDotProd));
  EXPECT_TRUE(Reduces(ComputeOp::kReduceMax));
  EXPECT_FALSE(TakesTuple(ComputeOp::kReduceMax));
  EXPECT_FALSE(Reduces(ComputeOp::kElementwiseAdd));
  EXPECT_TRUE(TakesTuple(ComputeOp::kElementwiseAdd));
  EXPECT_FALSE(Reduces(ComputeOp::kRelu));
  EXPECT_FALSE(TakesTuple(ComputeOp::kRelu));
}

}  // namespace
}  // namespace tessel::ir
