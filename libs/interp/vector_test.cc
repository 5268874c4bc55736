// The vector level's lane arithmetic (vector_ops.h) and its execution.
#include <cmath>

#include "gtest/gtest.h"
#include "libs/interp/interpreter.h"
#include "libs/interp/vector_ops.h"
#include "libs/ir/verify/read.h"

namespace tessel {
namespace {

Vec F32s(std::vector<int64_t> shape, std::vector<float> values) {
  Vec v = Vec::Filled(ElemType::kF32, std::move(shape), Scalar{});
  for (size_t i = 0; i < values.size(); ++i) {
    v.lanes[i] = Scalar::Float(ElemType::kF32, values[i]);
  }
  return v;
}

TEST(VectorOpsTest, FmaRoundsOnce) {
  // (1 + 2^-12)^2 - 1 - 2^-11 = 2^-24: lost when the product is rounded.
  const float a = 1.0f + std::ldexp(1.0f, -12);
  const float c = -(1.0f + std::ldexp(1.0f, -11));
  Vec va = F32s({1}, {a});
  Vec vc = F32s({1}, {c});
  EXPECT_EQ(VecFma(va, va, vc).lanes[0].f, std::ldexp(1.0, -24));
  Vec product;
  VecArith(ArithOp::kMul, va, va, product);
  Vec sum;
  VecArith(ArithOp::kAdd, product, vc, sum);
  EXPECT_EQ(sum.lanes[0].f, 0.0);
}

TEST(VectorOpsTest, IntegersWrapPerLane) {
  Vec v = Vec::Filled(ElemType::kI8, {2}, Scalar::Int(ElemType::kI8, 100));
  Vec sum;
  ASSERT_TRUE(VecArith(ArithOp::kAdd, v, v, sum).ok());
  EXPECT_EQ(sum.lanes[1].i, -56);
  EXPECT_EQ(FusedMultiplyAdd(v.lanes[0], v.lanes[0], v.lanes[0]).i,
            static_cast<int8_t>(10100 & 0xff));
  Vec zero = Vec::Filled(ElemType::kI8, {2}, Scalar::Int(ElemType::kI8, 0));
  zero.lanes[0] = Scalar::Int(ElemType::kI8, 1);
  Vec quotient;
  LaneError error = VecArith(ArithOp::kDiv, v, zero, quotient);
  EXPECT_EQ(error.error, ScalarError::kDivisionByZero);
  EXPECT_EQ(error.lane, 1);
}

TEST(VectorOpsTest, BroadcastExtractInsertReduce) {
  Vec row = F32s({3}, {1, 2, 3});
  Vec m = BroadcastVec(row, {2, 3});
  EXPECT_EQ(m.lanes[4].f, 2);
  Vec m2 = InsertVec(F32s({3}, {7, 8, 9}), m, {1});
  EXPECT_EQ(ExtractLane(m2, {1, 2}).f, 9);
  EXPECT_EQ(ExtractVec(m2, {0}).lanes[2].f, 3);
  EXPECT_EQ(Reduce(ArithOp::kAdd, m2).f, 30);
  EXPECT_EQ(Reduce(ArithOp::kMax, m2).f, 9);
  EXPECT_EQ(
      InsertLane(Scalar::Float(ElemType::kF32, -1), m2, {0, 1}).lanes[1].f, -1);
}

TEST(VectorOpsTest, ContractIsAMatmulPlusAcc) {
  Vec a = F32s({2, 3}, {1, 2, 3, 4, 5, 6});
  Vec b = F32s({3, 2}, {7, 8, 9, 10, 11, 12});
  Vec acc = F32s({2, 2}, {1, 1, 1, 1});
  Vec c = Contract(a, b, acc, {{0, 2}, {2, 1}, {0, 1}});
  EXPECT_EQ(c.lanes[0].f, 59);   // 1 + 1*7 + 2*9 + 3*11
  EXPECT_EQ(c.lanes[3].f, 155);  // 1 + 4*8 + 5*10 + 6*12
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
