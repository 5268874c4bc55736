// The vector level's lane arithmetic (vector_ops.h) and its execution.
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "libs/interp/interpreter.h"
#include "libs/interp/vector_ops.h"
#include "libs/verify/read.h"

namespace tessel {
namespace {

TEST(VectorOpsTest, FmaRoundsOnce) {
  // (1 + 2^-12)^2 - 1 - 2^-11 = 2^-24: lost when the product is rounded.
  const float a[] = {1.0f + std::ldexp(1.0f, -12)};
  const float c[] = {-(1.0f + std::ldexp(1.0f, -11))};
  float fused[1];
  FmaColumn(ElemType::kF32, a, a, c, fused, 1);
  EXPECT_EQ(fused[0], std::ldexp(1.0f, -24));
  float product[1];
  float sum[1];
  ArithColumn(ElemType::kF32, ArithOp::kMul, a, a, product, LaneSet::Dense(1));
  ArithColumn(ElemType::kF32, ArithOp::kAdd, product, c, sum,
              LaneSet::Dense(1));
  EXPECT_EQ(sum[0], 0.0f);
}

TEST(VectorOpsTest, IntegersWrapPerLane) {
  // i8 lanes are held as int32_t, wrapped to 8 bits.
  const int32_t v[] = {100, 100};
  int32_t sum[2];
  ASSERT_EQ(ArithColumn(ElemType::kI8, ArithOp::kAdd, v, v, sum,
                        LaneSet::Dense(2)),
            -1);
  EXPECT_EQ(sum[1], -56);
  int32_t fused[2];
  FmaColumn(ElemType::kI8, v, v, v, fused, 2);
  EXPECT_EQ(fused[0], static_cast<int8_t>(10100 & 0xff));
  const int32_t divisors[] = {1, 0};
  int32_t quotient[2];
  EXPECT_EQ(ArithColumn(ElemType::kI8, ArithOp::kDiv, v, divisors, quotient,
                        LaneSet::Dense(2)),
            1);
}

TEST(VectorOpsTest, PartsAndReductions) {
  const std::vector<int64_t> shape = {2, 3};
  EXPECT_EQ(VectorPart(shape, {1}), std::make_pair(int64_t{3}, int64_t{3}));
  EXPECT_EQ(VectorPart(shape, {1, 2}), std::make_pair(int64_t{5}, int64_t{1}));
  EXPECT_EQ(VectorPart(shape, {}), std::make_pair(int64_t{0}, int64_t{6}));
  const float m[] = {1, 2, 3, 7, 8, 9};
  float sum;
  ReduceColumn(ElemType::kF32, ArithOp::kAdd, m, 6, &sum);
  EXPECT_EQ(sum, 30);
  float max;
  ReduceColumn(ElemType::kF32, ArithOp::kMax, m, 6, &max);
  EXPECT_EQ(max, 9);
}

TEST(VectorOpsTest, ContractIsAMatmulPlusAcc) {
  const float a[] = {1, 2, 3, 4, 5, 6};
  const float b[] = {7, 8, 9, 10, 11, 12};
  const float acc[] = {1, 1, 1, 1};
  const std::vector<int64_t> a_shape = {2, 3};
  const std::vector<int64_t> b_shape = {3, 2};
  const std::vector<int64_t> acc_shape = {2, 2};
  float c[4];
  ContractColumn(ElemType::kF32, ArithOp::kAdd, {a, a_shape}, {b, b_shape}, {acc, acc_shape},
                 {{0, 2}, {2, 1}, {0, 1}}, c);
  EXPECT_EQ(c[0], 59);   // 1 + 1*7 + 2*9 + 3*11
  EXPECT_EQ(c[3], 155);  // 1 + 4*8 + 5*10 + 6*12
}

TEST(VectorOpsTest, ContractCombinesWithItsKind) {
  // (kind max): the largest product of each row of a with each column of
  // b, and acc.
  const float a[] = {1, -2, 3, 4, 5, -6};
  const float b[] = {1, 0, 1, 0, 1, 0};
  const float acc[] = {0, 0, 0, 0};
  const std::vector<int64_t> a_shape = {2, 3};
  const std::vector<int64_t> b_shape = {3, 2};
  const std::vector<int64_t> acc_shape = {2, 2};
  float c[4];
  ContractColumn(ElemType::kF32, ArithOp::kMax, {a, a_shape}, {b, b_shape},
                 {acc, acc_shape}, {{0, 2}, {2, 1}, {0, 1}}, c);
  EXPECT_EQ(c[0], 3);  // max(0, 1, -2, 3)
  EXPECT_EQ(c[1], 0);  // every product 0
  EXPECT_EQ(c[2], 5);  // max(0, 4, 5, -6)
}

TEST(VectorOpsTest, MultiReductionAndShuffles) {
  // The rows of a 2x3 vector summed after acc, in order.
  const float v[] = {1, 2, 3, 4, 5, 6};
  const float acc[] = {10, 20};
  float rows[2];
  MultiReduceColumn(ElemType::kF32, ArithOp::kAdd, v, acc,
                    {{0, 3}, {1, 4}, {2, 5}}, /*halving=*/false, 2, rows);
  EXPECT_EQ(rows[0], 16);
  EXPECT_EQ(rows[1], 35);
  float t[6];
  ShuffleColumn(sizeof(float), v, {0, 3, 1, 4, 2, 5}, t);
  EXPECT_EQ(std::vector<float>(t, t + 6),
            (std::vector<float>{1, 4, 2, 5, 3, 6}));
}

TEST(VectorOpsTest, HalvingMultiReductionPairsTheUpperHalfOntoTheLower) {
  // Four steps whose sum rounds differently in order and halving: in
  // order, ((1e8 + 1) - 1e8) + 1 = 1 in f32 (1e8 + 1 rounds to 1e8);
  // halving, (1e8 - 1e8) + (1 + 1) = 2.
  const float v[] = {1e8f, 1, -1e8f, 1};
  const float acc[] = {0};
  float sum = 0;
  MultiReduceColumn(ElemType::kF32, ArithOp::kAdd, v, acc, {{0}, {1}, {2}, {3}},
                    /*halving=*/false, 1, &sum);
  EXPECT_EQ(sum, 1);
  MultiReduceColumn(ElemType::kF32, ArithOp::kAdd, v, acc, {{0}, {1}, {2}, {3}},
                    /*halving=*/true, 1, &sum);
  EXPECT_EQ(sum, 2);
}

TEST(VectorExecutionTest, TransfersPadAndMask) {
  auto module = ir::ReadModule(MakeSource("m.tir", R"(
(proc @p ((in x (f32 3)) (out y (f32 3)) (out s f32))
  (alloc v (vector f32 4))
  (assign v (transfer-read (vector f32 4) x -1 9.0))
  (assign s (reduction add v))
  (transfer-write v y 1))
)"));
  ASSERT_TRUE(module.ok()) << module.status();
  auto entry = ir::FindEntry(*module, "");
  ASSERT_TRUE(entry.ok()) << entry.status();
  auto program = Program::Compile(*module, **entry);
  ASSERT_TRUE(program.ok()) << program.status();
  HostTensor x = *MakeHostTensor(ElemType::kF32, {3});
  for (int i = 0; i < 3; ++i) x.Set<float>(i, static_cast<float>(i + 1));
  // v = [9, 1, 2, 3]: y[1..2] = 9, 1, and y[0] is never written.
  auto out = program->Run({}, {{"x", x}});
  ASSERT_FALSE(out.ok());
  EXPECT_NE(std::string(out.status().message()).find("never writes y[0]"),
            std::string::npos)
      << out.status();
}

}  // namespace
}  // namespace tessel
