// The tensor level lowered to loops (tensor_lowering.h) computes what the
// tensor level defines: values bound once and strictly, only the chosen
// operand of select, short-circuit and/or, accumulators updated as whole
// values, in the tensor level's order and words for errors.
#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "libs/interp/testing.h"

namespace tessel {
namespace {

using testing_util::F32;
using testing_util::FailsWith;
using testing_util::Floats;
using testing_util::I32;
using testing_util::Runner;

TEST(TensorLoweringTest, NestedIfoldReadingTheOuterAccumulatorKeepsItsValue) {
  // The inner ifold adds the outer accumulator's value at its start (%2)
  // on each step: 1 -> 3 -> 9 -> 27. Updating one storage for both would
  // give 64.
  Runner runner(
      "(func @f () ((y f32))\n"
      "  (ifold 3 1.0 (lam (lam (ifold 2 %0 (lam (lam (+ %0 %2))))))))");
  ASSERT_TRUE(runner.compile_status().ok()) << runner.compile_status();
  auto out = runner.Run({}, {});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->at("y").Get<float>(0), 27.0f);
}

TEST(TensorLoweringTest, NestedIfoldsOfOneAccumulatorSumInOrder) {
  Runner runner(
      "(func @f ((x (f32 7 5))) ((y f32))\n"
      "  (ifold 7 0.5 (lam (lam (ifold 5 %0 (lam (lam\n"
      "    (+ %0 (index (index x %3) %1)))))))))");
  ASSERT_TRUE(runner.compile_status().ok()) << runner.compile_status();
  std::vector<float> x(35);
  for (int i = 0; i < 35; ++i) x[i] = 0.1f * i - 1.3f;
  auto out = runner.Run({}, {{"x", F32({7, 5}, x)}});
  ASSERT_TRUE(out.ok()) << out.status();
  float sum = 0.5f;
  for (float value : x) sum += value;
  EXPECT_EQ(out->at("y").Get<float>(0), sum);
}

TEST(TensorLoweringTest, SelectComputesOnlyTheChosenBranch) {
  // The second branch divides by a[%0], which is 0 where the first is
  // chosen.
  Runner runner(
      "(func @f ((a (i32 4))) ((y (i32 4)))\n"
      "  (build 4 (lam (select (< %0 2)\n"
      "    (ifold 2 0 (lam (lam (+ %0 (index a %1)))))\n"
      "    (ifold 1 100 (lam (lam (/ %0 (index a %2)))))))))");
  ASSERT_TRUE(runner.compile_status().ok()) << runner.compile_status();
  auto out = runner.Run({}, {{"a", I32({4}, {5, 0, 3, 4})}});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->at("y").Get<int32_t>(0), 5);
  EXPECT_EQ(out->at("y").Get<int32_t>(1), 5);
  EXPECT_EQ(out->at("y").Get<int32_t>(2), 33);
  EXPECT_EQ(out->at("y").Get<int32_t>(3), 25);
}

TEST(TensorLoweringTest, AndComputesItsSecondOperandOnlyWhenNeeded) {
  // At %0 = 1 the ifold would divide by a[2] = 0.
  Runner runner(
      "(func @f ((a (i32 3))) ((y (i32 2)))\n"
      "  (build 2 (lam (select\n"
      "    (and (< %0 1)\n"
      "         (< (ifold 2 0 (lam (lam (+ %0 (/ 10 (index a (+ %1 %2)))))))\n"
      "            100))\n"
      "    1 0))))");
  ASSERT_TRUE(runner.compile_status().ok()) << runner.compile_status();
  auto out = runner.Run({}, {{"a", I32({3}, {1, 2, 0})}});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->at("y").Get<int32_t>(0), 1);
  EXPECT_EQ(out->at("y").Get<int32_t>(1), 0);
}

TEST(TensorLoweringTest, AppComputesItsArgumentEvenUnused) {
  Runner runner(
      "(func @f ((a (i32 1))) ((y i32))\n"
      "  (app (lam 7) (/ 1 (index a 0))))");
  ASSERT_TRUE(runner.compile_status().ok()) << runner.compile_status();
  EXPECT_TRUE(FailsWith(runner.Run({}, {{"a", I32({1}, {0})}}),
                        "m.tir:2:16: error: integer division by zero"));
}

TEST(TensorLoweringTest, OperandsRunInOrderAroundStatements) {
  // The division by zero comes before the ifold that indexes out of
  // bounds: it is the error reported.
  Runner runner(
      "(func @f ((a (i32 2))) ((y i32))\n"
      "  (+ (/ 1 (index a 0)) (ifold 2 0 (lam (lam (+ %0 (index a %1)))))))");
  ASSERT_TRUE(runner.compile_status().ok()) << runner.compile_status();
  EXPECT_TRUE(FailsWith(runner.Run({}, {{"a", I32({2}, {0, 1})}}),
                        "m.tir:2:6: error: integer division by zero"));
}

TEST(TensorLoweringTest, TupleAccumulatorsUpdateAllPartsAtOnce) {
  Runner runner(
      "(func @f () ((p f32) (q f32))\n"
      "  (ifold 3 (tuple 1.0 2.0) (lam (lam (tuple (snd %0) (fst %0))))))");
  ASSERT_TRUE(runner.compile_status().ok()) << runner.compile_status();
  auto out = runner.Run({}, {});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->at("p").Get<float>(0), 2.0f);
  EXPECT_EQ(out->at("q").Get<float>(0), 1.0f);
}

TEST(TensorLoweringTest, ArrayAccumulatorsReadTheirOldValue) {
  // new[i] = old[2 - i] * 10 + old[i]: [1 2 3] -> [31 22 13] -> [161 242 323].
  Runner runner(
      "(func @f ((x (f32 3))) ((y (f32 3)))\n"
      "  (ifold 2 x (lam (lam (build 3 (lam\n"
      "    (+ (* (index %1 (- 2 %0)) 10.0) (index %1 %0))))))))");
  ASSERT_TRUE(runner.compile_status().ok()) << runner.compile_status();
  auto out = runner.Run({}, {{"x", F32({3}, {1, 2, 3})}});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Floats(out->at("y")), (std::vector<float>{161, 242, 323}));
}

TEST(TensorLoweringTest, ChecksIndicesOfPartsOfArrays) {
  Runner runner(
      "(func @f ((x (f32 2 3))) ((y (f32 2 3)))\n"
      "  (build 2 (lam (index x (+ %0 0)))))");
  // (+ %0 0) made (+ %0 1) after verification.
  runner.Edit([](ir::Module&, ir::Node& func) {
    ir::Node& add = *func.operand(2)->operand(1)->operand(0)->operand(1);
    ASSERT_TRUE(add.is(ir::Op::kAdd));
    add.operand(1)->set_int(1);
  });
  ASSERT_TRUE(runner.compile_status().ok()) << runner.compile_status();
  EXPECT_TRUE(FailsWith(runner.Run({}, {{"x", F32({2, 3}, {})}}),
                        "m.tir:2:26: error: index 2 is out of bounds for an "
                        "array of 2 elements"));
}

}  // namespace
}  // namespace tessel
