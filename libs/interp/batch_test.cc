// The interpreter runs loops a batch of iterations at a time where that
// computes what running them one by one computes. These programs are the
// cases where it does not, or only with care (loop-carried dependences,
// aliasing windows, accumulations, several writes to one element), and the
// errors of a batch, which must be the first error the iterations run one
// by one meet, with its message. Loops are longer than a batch.
#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "libs/interp/testing.h"

namespace tessel {
namespace {

using testing_util::DropAssertions;
using testing_util::F32;
using testing_util::FailsWith;
using testing_util::Floats;
using testing_util::I32;
using testing_util::Runner;

constexpr int kN = 1000;

HostTensor Ramp(int64_t n, float scale) {
  std::vector<float> values;
  for (int64_t i = 0; i < n; ++i) values.push_back(0.1f + scale * (i % 37));
  return F32({n}, values);
}

TEST(BatchTest, PrefixSumReadsTheIterationBefore) {
  Runner runner(
      "(proc @p ((in x (f32 1000)) (out y (f32 1000)))\n"
      "  (assign (y 0) (x 0))\n"
      "  (for i 1 1000 (assign (y i) (+ (y (- i 1)) (x i)))))");
  HostTensor x = Ramp(kN, 0.37f);
  auto out = runner.Run({}, {{"x", x}});
  ASSERT_TRUE(out.ok()) << out.status();
  std::vector<float> expected(kN);
  expected[0] = x.Get<float>(0);
  for (int i = 1; i < kN; ++i) expected[i] = expected[i - 1] + x.Get<float>(i);
  EXPECT_EQ(Floats(out->at("y")), expected);
}

TEST(BatchTest, AccumulatesInEitherOperandOrder) {
  Runner runner(
      "(proc @p ((in x (f32 1000)) (out y f32) (out z f32) (out m f32))\n"
      "  (assign y 0.0) (assign z 0.0) (assign m 0.0)\n"
      "  (for i 0 1000\n"
      "    (assign y (+ y (x i)))\n"
      "    (assign z (- (x i) z))\n"
      "    (assign m (max m (* (x i) z)))))");
  HostTensor x = Ramp(kN, 0.013f);
  auto out = runner.Run({}, {{"x", x}});
  ASSERT_TRUE(out.ok()) << out.status();
  float y = 0, z = 0, m = 0;
  for (int i = 0; i < kN; ++i) {
    y = y + x.Get<float>(i);
    z = x.Get<float>(i) - z;
    const float p = x.Get<float>(i) * z;
    m = m < p ? p : m;
  }
  EXPECT_EQ(out->at("y").Get<float>(0), y);
  EXPECT_EQ(out->at("z").Get<float>(0), z);
  EXPECT_EQ(out->at("m").Get<float>(0), m);
}

TEST(BatchTest, ReadsWhatALaterStatementWroteAnIterationBefore) {
  Runner runner(
      "(proc @p ((in x (f32 1000)) (out y (f32 1000)))\n"
      "  (alloc t (f32 1000))\n"
      "  (assign (t 0) 5.0) (assign (y 0) 0.0)\n"
      "  (for i 1 1000\n"
      "    (assign (y i) (t (- i 1)))\n"
      "    (assign (t i) (* (x i) 2.0))))");
  HostTensor x = Ramp(kN, 0.5f);
  auto out = runner.Run({}, {{"x", x}});
  ASSERT_TRUE(out.ok()) << out.status();
  std::vector<float> expected(kN);
  expected[0] = 0;
  expected[1] = 5;
  for (int i = 2; i < kN; ++i) expected[i] = x.Get<float>(i - 1) * 2.0f;
  EXPECT_EQ(Floats(out->at("y")), expected);
}

TEST(BatchTest, SeesWritesThroughAWindowOfTheSameBuffer) {
  Runner runner(
      "(proc @p ((in x f32) (out y (f32 1001)))\n"
      "  (assign (y 0) x)\n"
      "  (let w (window y (: 1 1001)))\n"
      "  (for i 0 1000 (assign (w i) (+ (y i) 1.0))))");
  auto out = runner.Run({}, {{"x", F32({}, {0.25f})}});
  ASSERT_TRUE(out.ok()) << out.status();
  std::vector<float> expected(kN + 1);
  expected[0] = 0.25f;
  for (int i = 1; i <= kN; ++i) expected[i] = expected[i - 1] + 1.0f;
  EXPECT_EQ(Floats(out->at("y")), expected);
}

TEST(BatchTest, ReadsOldValuesAheadOfTheWrites) {
  Runner runner(
      "(proc @p ((inout y (f32 1001)))\n"
      "  (for i 0 1000 (assign (y i) (+ (y (+ i 1)) 1.0))))");
  HostTensor y = Ramp(kN + 1, 0.75f);
  auto out = runner.Run({}, {{"y", y}});
  ASSERT_TRUE(out.ok()) << out.status();
  std::vector<float> expected = Floats(y);
  for (int i = 0; i < kN; ++i) expected[i] = y.Get<float>(i + 1) + 1.0f;
  EXPECT_EQ(Floats(out->at("y")), expected);
}

TEST(BatchTest, KeepsTheLastOfSeveralWritesToAnElement) {
  Runner runner(
      "(proc @p ((in x (f32 1000)) (out y (f32 500)))\n"
      "  (for i 0 1000 (assign (y (/ i 2)) (x i))))");
  HostTensor x = Ramp(kN, 1.0f);
  auto out = runner.Run({}, {{"x", x}});
  ASSERT_TRUE(out.ok()) << out.status();
  for (int k = 0; k < kN / 2; ++k) {
    EXPECT_EQ(out->at("y").Get<float>(k), x.Get<float>(2 * k + 1)) << k;
  }
}

TEST(BatchTest, ReducesNestedLoopsInOrder) {
  // A convolution: the reduction over (c, k) into each y[o] runs in the
  // order of its iterations.
  Runner runner(
      "(proc @p ((in x (f32 40 1000)) (in w (f32 40 3)) (out y (f32 998)))\n"
      "  (for o 0 998\n"
      "    (assign (y o) 0.0)\n"
      "    (for c 0 40 (for k 0 3\n"
      "      (reduce (y o) (* (x c (+ o k)) (w c k)))))))");
  HostTensor x = *MakeHostTensor(ElemType::kF32, {40, 1000});
  for (int i = 0; i < 40 * 1000; ++i) x.Set<float>(i, 0.01f * (i % 101));
  HostTensor w = *MakeHostTensor(ElemType::kF32, {40, 3});
  for (int i = 0; i < 120; ++i) w.Set<float>(i, 0.3f - 0.007f * i);
  auto out = runner.Run({}, {{"x", x}, {"w", w}});
  ASSERT_TRUE(out.ok()) << out.status();
  for (int o = 0; o < 998; ++o) {
    float sum = 0;
    for (int c = 0; c < 40; ++c) {
      for (int k = 0; k < 3; ++k) {
        sum += x.Get<float>(c * 1000 + o + k) * w.Get<float>(c * 3 + k);
      }
    }
    ASSERT_EQ(out->at("y").Get<float>(o), sum) << o;
  }
}

TEST(BatchTest, RunsEachBranchOnItsIterations) {
  Runner runner(
      "(proc @p ((in a (i32 1000)) (out y (i32 1000)) (out z (i32 1000)))\n"
      "  (for i 0 1000\n"
      "    (if (== (% i 5) 0) (then (assign (y i) -1))\n"
      "        (else (assign (y i) (/ 1000 (a i)))))\n"
      "    (assign (z i) (select (== (a i) 0) 7 (/ 999 (a i))))))");
  std::vector<int32_t> a(kN);
  for (int i = 0; i < kN; ++i) a[i] = i % 5 == 0 ? 0 : i - 500;
  auto out = runner.Run({}, {{"a", I32({kN}, a)}});
  ASSERT_TRUE(out.ok()) << out.status();
  for (int i = 0; i < kN; ++i) {
    EXPECT_EQ(out->at("y").Get<int32_t>(i), a[i] == 0 ? -1 : 1000 / a[i]);
    EXPECT_EQ(out->at("z").Get<int32_t>(i), a[i] == 0 ? 7 : 999 / a[i]);
  }
}

// Errors: the first one met in the order the iterations run, whichever
// statement meets it.
TEST(BatchTest, ReportsTheFirstErrorOfTheIterations) {
  Runner runner(
      "(proc @p ((in a (i32 1000)) (out y (i32 1000)) (out z (i32 1000)))\n"
      "  (alloc t (i32 1000))\n"
      "  (for i 0 1000 (if (< i 700) (then (assign (t i) 1))))\n"
      "  (for i 0 1000\n"
      "    (assign (y i) (/ 7 (a i)))\n"
      "    (assign (z i) (t i))))");
  std::vector<int32_t> a(kN, 1);
  a[900] = 0;
  EXPECT_TRUE(FailsWith(runner.Run({}, {{"a", I32({kN}, a)}}),
                        "m.tir:6:19: error: reads t[700] before it is "
                        "written"));
  a[600] = 0;
  EXPECT_TRUE(FailsWith(runner.Run({}, {{"a", I32({kN}, a)}}),
                        "m.tir:5:19: error: integer division by zero"));
  a[600] = 1;
  a[700] = 0;
  EXPECT_TRUE(FailsWith(runner.Run({}, {{"a", I32({kN}, a)}}),
                        "m.tir:5:19: error: integer division by zero"));
}

TEST(BatchTest, ChecksBoundsInTheMiddleOfALoop) {
  Runner runner(
      "(proc @p ((index n) (in x (f32 1000)) (out y (f32 1000)))\n"
      "  (assert (== n 0))\n"
      "  (for i 0 1000 (assign (y i) (x (+ i n)))))");
  runner.Edit(DropAssertions);
  EXPECT_TRUE(FailsWith(runner.Run({{"n", 1}}, {{"x", Ramp(kN, 1.0f)}}),
                        "m.tir:3:34: error: index 1000 is out of bounds "
                        "for dimension 0 of 'x' (size 1000)"));
  EXPECT_TRUE(FailsWith(runner.Run({{"n", -400}}, {{"x", Ramp(kN, 1.0f)}}),
                        "m.tir:3:34: error: index -400 is out of bounds "
                        "for dimension 0 of 'x' (size 1000)"));
}

TEST(BatchTest, ReportsAReductionIntoAnUnwrittenElement) {
  Runner runner(
      "(proc @p ((in x (f32 1000)) (out y (f32 10)))\n"
      "  (for r 0 9 (assign (y r) 0.0))\n"
      "  (for i 0 1000 (reduce (y (/ i 100)) (x i))))");
  EXPECT_TRUE(FailsWith(runner.Run({}, {{"x", Ramp(kN, 1.0f)}}),
                        "m.tir:3:17: error: reduces into y[9] before it is "
                        "written"));
}

TEST(BatchTest, ReportsACastOutOfRange) {
  Runner runner(
      "(proc @p ((in x (f32 1000)) (out y (i32 1000)))\n"
      "  (for i 0 1000 (assign (y i) (cast i32 (* (x i) 1e8)))))");
  std::vector<float> x(kN, 1.0f);
  x[555] = 100.0f;
  x[556] = -100.0f;
  EXPECT_TRUE(FailsWith(runner.Run({}, {{"x", F32({kN}, x)}}),
                        "m.tir:2:31: error: cannot cast 1e+10 to i32: the "
                        "value is out of its range"));
}

}  // namespace
}  // namespace tessel
