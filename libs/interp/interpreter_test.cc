#include "libs/interp/interpreter.h"

#include <cmath>
#include <limits>

#include "gtest/gtest.h"
#include "libs/interp/testing.h"

namespace tessel {
namespace {

using testing_util::DropAssertions;
using testing_util::F32;
using testing_util::FailsWith;
using testing_util::Floats;
using testing_util::I32;
using testing_util::I8;
using testing_util::Runner;

constexpr char kMatmul[] = R"(
(proc @matmul ((size n) (in A (f32 n n)) (in B (f32 n n)) (out C (f32 n n)))
  (for i 0 n
    (for j 0 n
      (assign (C i j) 0.0)
      (for k 0 n (reduce (C i j) (* (A i k) (B k j)))))))
)";

TEST(LoopLevelTest, RunsMatmul) {
  Runner runner(kMatmul);
  ASSERT_TRUE(runner.compile_status().ok()) << runner.compile_status();
  EXPECT_EQ(runner.program().controls().size(), 1u);
  ASSERT_EQ(runner.program().inputs().size(), 2u);
  EXPECT_EQ(runner.program().inputs()[0].size_names,
            (std::vector<std::string>{"n", "n"}));
  auto out = runner.Run({{"n", 2}}, {{"A", F32({2, 2}, {1, 2, 3, 4})},
                                     {"B", F32({2, 2}, {5, 6, 7, 8})}});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Floats(out->at("C")), (std::vector<float>{19, 22, 43, 50}));
}

TEST(LoopLevelTest, ComputesShapesFromSizes) {
  Runner runner(
      "(proc @p ((size n) (size m) (in A (f32 (+ n 1) (* 2 m))) (out y f32))"
      " (assign y (A 0 0)))");
  ASSERT_TRUE(runner.compile_status().ok()) << runner.compile_status();
  const DataPort& a = runner.program().inputs()[0];
  EXPECT_EQ(a.size_names, (std::vector<std::string>{"", ""}));
  auto shape = runner.program().Shape(a, {{"n", 3}, {"m", 5}});
  ASSERT_TRUE(shape.ok()) << shape.status();
  EXPECT_EQ(*shape, (std::vector<int64_t>{4, 10}));
  EXPECT_FALSE(runner.program().Shape(a, {{"n", 3}}).ok());
}

TEST(LoopLevelTest, RejectsReadsBeforeWrites) {
  Runner runner(
      "(proc @p ((in x (f32 4)) (out y (f32 4 2)))\n"
      "  (for i 0 4 (assign (y i 1) (x i)))\n"
      "  (assign (y 0 0) (+ (y 3 0) 1.0)))");
  auto out = runner.Run({}, {{"x", F32({4}, {1, 2, 3, 4})}});
  EXPECT_TRUE(FailsWith(out,
                        "m.tir:3:22: error: reads y[3, 0] before it is "
                        "written"));
}

TEST(LoopLevelTest, RejectsOutputsNotWrittenCompletely) {
  Runner runner("(proc @p ((out y (f32 3))) (assign (y 0) 1.0))");
  EXPECT_TRUE(FailsWith(runner.Run({}, {}), "@p never writes y[1]"));
}

TEST(LoopLevelTest, RejectsAllocReadsPerIteration) {
  Runner runner(
      "(proc @p ((out y (f32 2)))\n"
      "  (for i 0 2\n"
      "    (alloc t f32)\n"
      "    (if (== i 0) (then (assign t 1.0)))\n"
      "    (assign (y i) t)))");
  EXPECT_TRUE(FailsWith(runner.Run({}, {}),
                        "m.tir:5:19: error: reads t before it is written"));
}

TEST(LoopLevelTest, RejectsReduceIntoUnwrittenElement) {
  Runner runner("(proc @p ((out y (f32 2))) (reduce (y 1) 1.0))");
  EXPECT_TRUE(
      FailsWith(runner.Run({}, {}), "reduces into y[1] before it is written"));
}

TEST(LoopLevelTest, ChecksBoundsAtRunTime) {
  Runner runner(
      "(proc @p ((index n) (in x (f32 4)) (out y (f32 4))) (assert (== n 0))\n"
      "  (for i 0 4 (assign (y i) (x (+ i n)))))");
  runner.Edit(DropAssertions);
  auto out = runner.Run({{"n", 1}}, {{"x", F32({4}, {1, 2, 3, 4})}});
  EXPECT_TRUE(FailsWith(out,
                        "m.tir:2:31: error: index 4 is out of bounds "
                        "for dimension 0 of 'x' (size 4)"));
}

TEST(LoopLevelTest, ReportsIntegerDivisionByZero) {
  Runner runner(
      "(proc @p ((in a (i32 2)) (out y (i32 2)))\n"
      "  (for i 0 2 (assign (y i) (/ 7 (a i)))))");
  EXPECT_TRUE(FailsWith(runner.Run({}, {{"a", I32({2}, {2, 0})}}),
                        "m.tir:2:28: error: integer division by zero"));
  auto out = runner.Run({}, {{"a", I32({2}, {2, -2})}});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->at("y").Get<int32_t>(0), 3);
  EXPECT_EQ(out->at("y").Get<int32_t>(1), -3);  // truncating, as C
}

TEST(LoopLevelTest, WrapsIntegers) {
  Runner runner(
      "(proc @p ((in a (i8 2)) (in b (i32 2)) (out c (i8 3)) (out d (i32 "
      "2)))\n"
      "  (assign (c 0) (+ (a 0) (a 1)))\n"
      "  (assign (c 1) (* (a 0) 3))\n"
      "  (assign (c 2) (cast i8 (b 0)))\n"
      "  (assign (d 0) (+ (b 0) (b 1)))\n"
      "  (assign (d 1) (/ (+ (b 1) (neg 1)) -1)))");
  auto out = runner.Run(
      {}, {{"a", I8({2}, {100, 100})}, {"b", I32({2}, {0x7fffffff, 1 << 31})}});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->at("c").Get<int8_t>(0), -56);
  EXPECT_EQ(out->at("c").Get<int8_t>(1), 44);
  EXPECT_EQ(out->at("c").Get<int8_t>(2), -1);
  EXPECT_EQ(out->at("d").Get<int32_t>(0), -1);
  // (INT_MIN - 1) wraps to INT_MAX; INT_MAX / -1 = -INT_MAX.
  EXPECT_EQ(out->at("d").Get<int32_t>(1), -0x7fffffff);
}

TEST(LoopLevelTest, ComputesF32InSinglePrecision) {
  Runner runner(
      "(proc @p ((in a f32) (in b f32) (out c f32) (out d f64))\n"
      "  (assign c (+ a b))\n"
      "  (assign d (+ (cast f64 a) (cast f64 b))))");
  auto out = runner.Run({}, {{"a", F32({}, {0.1f})}, {"b", F32({}, {0.2f})}});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->at("c").Get<float>(0), 0.1f + 0.2f);
  EXPECT_EQ(out->at("d").Get<double>(0),
            static_cast<double>(0.1f) + static_cast<double>(0.2f));
}

TEST(LoopLevelTest, MaxAndMinFollowTheCExpressions) {
  Runner runner(
      "(proc @p ((in a (f32 2)) (out y (f32 4)))\n"
      "  (assign (y 0) (max (a 0) (a 1)))\n"
      "  (assign (y 1) (max (a 1) (a 0)))\n"
      "  (assign (y 2) (min (a 0) (a 1)))\n"
      "  (assign (y 3) (min (a 1) (a 0))))");
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto out = runner.Run({}, {{"a", F32({2}, {nan, 1})}});
  ASSERT_TRUE(out.ok()) << out.status();
  std::vector<float> y = Floats(out->at("y"));
  EXPECT_TRUE(std::isnan(y[0]));  // (nan < 1) ? 1 : nan
  EXPECT_EQ(y[1], 1);             // (1 < nan) ? nan : 1
  EXPECT_TRUE(std::isnan(y[2]));
  EXPECT_EQ(y[3], 1);
}

TEST(LoopLevelTest, CastsAsC) {
  Runner runner(
      "(proc @p ((in a (f32 2)) (out y (i32 2)))\n"
      "  (for i 0 2 (assign (y i) (cast i32 (a i)))))");
  auto out = runner.Run({}, {{"a", F32({2}, {-2.75f, 3.5f})}});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->at("y").Get<int32_t>(0), -2);
  EXPECT_EQ(out->at("y").Get<int32_t>(1), 3);
  EXPECT_TRUE(FailsWith(runner.Run({}, {{"a", F32({2}, {1, 3e9f})}}),
                        "cannot cast 3e+09 to i32"));
}

TEST(LoopLevelTest, SelectEvaluatesOnlyTheChosenOperand) {
  Runner runner(
      "(proc @p ((in a (i32 2)) (out y (i32 2)))\n"
      "  (for i 0 2 (assign (y i) (select (== (a i) 0) 0 (/ 10 (a i))))))");
  auto out = runner.Run({}, {{"a", I32({2}, {0, 5})}});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->at("y").Get<int32_t>(1), 2);
}

constexpr char kInstrProgram[] = R"(
(config @Cfg (scale f32) (rows size))

(instr @ld ((size n) (size m) (in src (window f32 n m)) (out dst (window f32 n 4)))
  (c "ld({src_data}, {dst_data}, {m}, {n});")
  (assert (<= m 4))
  (for i 0 n
    (for j 0 m
      (assign (dst i j) (* (read-config @Cfg scale) (src i j))))))

(instr @set_scale ((in s f32)) (c "set({s});")
  (write-config @Cfg scale s))

(proc @main ((size m) (in A (f32 2 8)) (in s f32) (out B (f32 2 4)))
  (assert (<= m 4))
  (call @set_scale s)
  (write-config @Cfg rows 2)
  (for j 0 4 (assign (B 0 j) 0.0) (assign (B 1 j) 0.0))
  (call @ld (read-config @Cfg rows) m (window A (: 0 2) (: 2 (+ 2 m)))
        (window B (: 0 2) (: 0 4))))
)";

TEST(LoopLevelTest, RunsInstructionBodiesWithWindowsAndConfig) {
  Runner runner(kInstrProgram);
  ASSERT_TRUE(runner.compile_status().ok()) << runner.compile_status();
  HostTensor a = F32({2, 8}, {0, 1, 2, 3, 4, 5, 6, 7,  //
                              8, 9, 10, 11, 12, 13, 14, 15});
  auto out = runner.Run({{"m", 3}}, {{"A", a}, {"s", F32({}, {2})}});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Floats(out->at("B")),
            (std::vector<float>{4, 6, 8, 0, 20, 22, 24, 0}));

  runner.Edit(DropAssertions);
  EXPECT_TRUE(FailsWith(runner.Run({{"m", 5}}, {{"A", a}, {"s", F32({}, {2})}}),
                        "the call violates the assertion (<= m 4) of @ld"));
  EXPECT_TRUE(FailsWith(runner.Run({{"m", 7}}, {{"A", a}, {"s", F32({}, {2})}}),
                        "the interval [2, 9) is out of bounds in dimension 1 "
                        "of 'A' (size 8)"));
}

TEST(LoopLevelTest, RejectsReadingUnsetConfig) {
  Runner runner(
      "(config @C (k index))\n"
      "(proc @p ((out y (f32 2)))\n"
      "  (for i 0 (min (read-config @C k) 2) (assign (y i) 0.0)))");
  EXPECT_TRUE(FailsWith(runner.Run({}, {}),
                        "m.tir:3:17: error: reads @C.k before it is written"));
}

TEST(LoopLevelTest, ChecksEntryAssertions) {
  Runner runner(
      "(proc @p ((size n) (out y (f32 n)))\n"
      "  (assert (<= n 4))\n"
      "  (for i 0 n (assign (y i) 0.0)))");
  EXPECT_TRUE(runner.Run({{"n", 4}}, {}).ok());
  EXPECT_TRUE(FailsWith(runner.Run({{"n", 5}}, {}),
                        "m.tir:2:3: error: the arguments violate the "
                        "assertion (<= n 4) of @p"));
  EXPECT_TRUE(FailsWith(runner.Run({{"n", 0}}, {}),
                        "size 'n' of @p must be positive, not 0"));
  EXPECT_TRUE(
      FailsWith(runner.Run({}, {}), "size parameter 'n' of @p has no value"));
}

TEST(LoopLevelTest, ReadsStrides) {
  Runner runner(
      "(proc @p ((in A (f32 3 5)) (out y (f32 6)))\n"
      "  (let w (window A (: 1 3) (: 0 5)))\n"
      "  (for i 0 6 (assign (y i) 0.0))\n"
      "  (assign (y (stride w 0)) 5.0)\n"
      "  (assign (y (stride w 1)) 7.0))");
  auto out = runner.Run({}, {{"A", F32({3, 5}, {})}});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Floats(out->at("y")), (std::vector<float>{0, 7, 0, 0, 0, 5}));
}

TEST(LoopLevelTest, ReadsSteppedSplitAndPermutedWindows) {
  // A holds 0..23 as 4 rows of 6, x 0, 10, ..., 50. w[j][i] is
  // A[1 + 2i][2j] (rows 1 and 3, every second column, transposed); v[j][i]
  // is x[3i + j] (x as 2 rows of 3, transposed).
  Runner runner(
      "(proc @p ((in A (f32 4 6)) (in x (f32 6)) (out y (f32 3 2))\n"
      "          (out z (f32 3 2)) (out s (f32 13)))\n"
      "  (let w (window A (: 1 4 2) (: 0 6 2) (perm 1 0)))\n"
      "  (let v (window x (split 0 6 3) (perm 1 0)))\n"
      "  (for j 0 3 (for i 0 2 (assign (y j i) (w j i))))\n"
      "  (for j 0 3 (for i 0 2 (assign (z j i) (v j i))))\n"
      "  (for k 0 13 (assign (s k) 0.0))\n"
      "  (assign (s (stride w 0)) 1.0)\n"
      "  (assign (s (stride w 1)) 2.0)\n"
      "  (assign (s (stride v 0)) 3.0)\n"
      "  (assign (s (stride v 1)) 4.0))");
  ASSERT_TRUE(runner.compile_status().ok()) << runner.compile_status();
  std::vector<float> a(24), x(6);
  for (int k = 0; k < 24; ++k) a[k] = static_cast<float>(k);
  for (int k = 0; k < 6; ++k) x[k] = static_cast<float>(10 * k);
  auto out = runner.Run({}, {{"A", F32({4, 6}, a)}, {"x", F32({6}, x)}});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Floats(out->at("y")), (std::vector<float>{6, 18, 8, 20, 10, 22}));
  EXPECT_EQ(Floats(out->at("z")), (std::vector<float>{0, 30, 10, 40, 20, 50}));
  // Strides 2 and 12 of w, 1 and 3 of v.
  EXPECT_EQ(Floats(out->at("s")),
            (std::vector<float>{0, 3, 1, 4, 0, 0, 0, 0, 0, 0, 0, 0, 2}));
}

TEST(LoopLevelTest, RejectsStridedWindowsForDenseParameters) {
  Runner runner(
      "(proc @q ((in x (window f32 2 2)) (out y f32)) (assign y (x 1 1)))\n"
      "(proc @p ((in A (f32 4 4)) (out y f32))\n"
      "  (call @q (window A (: 0 2) (: 0 2)) y))",
      "p");
  // @q's x made a dense tensor after verification.
  runner.Edit([](ir::Module& module, ir::Node&) {
    ir::Node& x = *module.Find("@q")->operand(0);
    x.set_declared_type(
        ir::Type::Tensor(x.declared_type().elem(), x.declared_type().dims()));
  });
  EXPECT_TRUE(FailsWith(runner.Run({}, {{"A", F32({4, 4}, {})}}),
                        "argument 'x' of @q is a strided window"));
}

TEST(LoopLevelTest, RejectsMalformedPrograms) {
  EXPECT_FALSE(
      Runner("(proc @p ((in x f32)) (assign x 1.0))").compile_status().ok());
  EXPECT_FALSE(Runner("(proc @p ((out y (f32 2))) (assign (y 0 0) 1.0))")
                   .compile_status()
                   .ok());
  EXPECT_FALSE(
      Runner("(proc @p ((out y f32)) (assign y z))").compile_status().ok());
  EXPECT_FALSE(
      Runner("(proc @p ((out y i32)) (assign y 1.5))").compile_status().ok());
  EXPECT_FALSE(Runner("(proc @p ((in a f32) (out y i32)) (assign y a))")
                   .compile_status()
                   .ok());
  EXPECT_FALSE(
      Runner("(proc @p ((out y f32)) (frob y))").compile_status().ok());
  auto recursive = Runner(
      "(proc @a ((out y f32)) (call @b y))\n"
      "(proc @b ((out y f32)) (call @a y))\n"
      "(proc @main ((out y f32)) (call @a y))",
      "main");
  EXPECT_NE(recursive.compile_status().message().find("recursive call"),
            std::string::npos)
      << recursive.compile_status();
}

// The interpreter takes every type from the IR's elaboration: retyping the
// literals of a division changes what it computes.
TEST(LoopLevelTest, FollowsTheElaboratedTypes) {
  Runner runner("(proc @p ((out y f32)) (assign y (cast f32 (/ 7 2))))");
  ASSERT_TRUE(runner.compile_status().ok()) << runner.compile_status();
  auto out = runner.Run({}, {});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->at("y").Get<float>(0), 3.0f);  // literals default to i32

  ir::Node& proc = *runner.module().forms()[0];
  ir::Node& div = *proc.operand(1)->operand(1)->operand(0);
  ASSERT_TRUE(div.is(ir::Op::kDiv));
  for (ir::Node* node : {&div, div.operand(0), div.operand(1)}) {
    ASSERT_EQ(node->type(), ir::Type::Elem(ElemType::kI32));
    node->set_type(ir::Type::Elem(ElemType::kF64));
  }
  runner.Compile(proc);
  ASSERT_TRUE(runner.compile_status().ok()) << runner.compile_status();
  out = runner.Run({}, {});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->at("y").Get<float>(0), 3.5f);
}

TEST(LoopLevelTest, RejectsUnelaboratedModules) {
  Runner runner("(proc @p ((out y f32)) (assign y (+ 1.0 2.0)))");
  ASSERT_TRUE(runner.compile_status().ok()) << runner.compile_status();
  ir::Node& proc = *runner.module().forms()[0];
  proc.operand(1)->operand(1)->set_type(ir::Type());
  runner.Compile(proc);
  EXPECT_NE(runner.compile_status().message().find(
                "m.tir:1:34: error: internal error: '(+ 1.0 2.0)' is not "
                "typed as a data value"),
            std::string::npos)
      << runner.compile_status();
}

TEST(LoopLevelTest, RunsMatmulOfSize64) {
  Runner runner(kMatmul);
  ASSERT_TRUE(runner.compile_status().ok());
  const int n = 64;
  HostTensor a = *MakeHostTensor(ElemType::kF32, {n, n});
  for (int i = 0; i < n * n; ++i) a.Set<float>(i, (i % 7) * 0.25f);
  auto out = runner.Run({{"n", n}}, {{"A", a}, {"B", a}});
  ASSERT_TRUE(out.ok()) << out.status();
  float expected = 0;
  for (int k = 0; k < n; ++k) {
    expected += a.Get<float>(5 * n + k) * a.Get<float>(k * n + 9);
  }
  EXPECT_EQ(out->at("C").Get<float>(5 * n + 9), expected);
}

constexpr char kGemv[] = R"(
(func @gemv ((alpha f32) (A (f32 3 2)) (x (f32 2)))
  ((y (f32 3)))
  (build 3 (lam (* alpha (ifold 2 0.0 (lam (lam (+ %0 (* (index (index A %2) %1) (index x %1))))))))))
)";

TEST(TensorLevelTest, RunsGemv) {
  Runner runner(kGemv);
  ASSERT_TRUE(runner.compile_status().ok()) << runner.compile_status();
  EXPECT_TRUE(runner.program().controls().empty());
  auto out = runner.Run({}, {{"alpha", F32({}, {2})},
                             {"A", F32({3, 2}, {1, 2, 3, 4, 5, 6})},
                             {"x", F32({2}, {1, -1})}});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Floats(out->at("y")), (std::vector<float>{-2, -2, -2}));
}

TEST(TensorLevelTest, IfoldVisitsIndexZeroFirst) {
  Runner runner(
      "(func @f ((x (f32 3))) ((y f32))\n"
      "  (ifold 3 0.0 (lam (lam (- (* %0 10.0) (index x %1))))))");
  auto out = runner.Run({}, {{"x", F32({3}, {0, 1, 2})}});
  ASSERT_TRUE(out.ok()) << out.status();
  // ((0*10 - 0)*10 - 1)*10 - 2
  EXPECT_EQ(out->at("y").Get<float>(0), -12.0f);
}

TEST(TensorLevelTest, RunsTuplesAppAndNestedBuilds) {
  Runner runner(
      "(func @f ((x (f32 2 3))) ((t (f32 3 2)) (s f32) (n (i32 2)))\n"
      "  (app (lam (tuple %0 (tuple (index (index %0 2) 1)\n"
      "                               (build 2 (lam (select (< %0 1) 0 "
      "1))))))\n"
      "       (build 3 (lam (build 2 (lam (index (index x %0) %1)))))))");
  ASSERT_TRUE(runner.compile_status().ok()) << runner.compile_status();
  auto out = runner.Run({}, {{"x", F32({2, 3}, {1, 2, 3, 4, 5, 6})}});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Floats(out->at("t")), (std::vector<float>{1, 4, 2, 5, 3, 6}));
  EXPECT_EQ(out->at("s").Get<float>(0), 6);
  EXPECT_EQ(out->at("n").Get<int32_t>(1), 1);
}

TEST(TensorLevelTest, LiteralsTakeTheirContextsType) {
  Runner runner(
      "(func @f ((x (f32 2))) ((y (f32 2)))\n"
      "  (app (lam (build 2 (lam (+ (index x %0) %1)))) 1))");
  ASSERT_TRUE(runner.compile_status().ok()) << runner.compile_status();
  auto out = runner.Run({}, {{"x", F32({2}, {1, 2})}});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Floats(out->at("y")), (std::vector<float>{2, 3}));

  // The literals of an array built in an app's argument take the type of
  // their use.
  Runner far(
      "(func @f ((x (f32 2))) ((y (f32 2)))\n"
      "  (app (lam (build 2 (lam (+ (index %1 %0) (index x %0)))))\n"
      "       (build 2 (lam 0.1))))");
  ASSERT_TRUE(far.compile_status().ok()) << far.compile_status();
  out = far.Run({}, {{"x", F32({2}, {0.2f, 1})}});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Floats(out->at("y")), (std::vector<float>{0.1f + 0.2f, 1.1f}));

  // Without a context, literals are f64 or i32, as C types constants.
  Runner defaults("(func @f () ((y f32)) (cast f32 (app (lam (/ %0 3)) 1.0)))");
  ASSERT_TRUE(defaults.compile_status().ok()) << defaults.compile_status();
  out = defaults.Run({}, {});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->at("y").Get<float>(0), static_cast<float>(1.0 / 3.0));

  Runner untyped("(func @f () ((y i32)) (ifold 4 0 (lam (lam (+ %0 1)))))");
  ASSERT_TRUE(untyped.compile_status().ok()) << untyped.compile_status();
  out = untyped.Run({}, {});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->at("y").Get<int32_t>(0), 4);
}

TEST(TensorLevelTest, ChecksIndicesAtRunTime) {
  Runner runner(
      "(func @f ((x (f32 4))) ((y (f32 4)))\n"
      "  (build 4 (lam (index x (+ %0 0)))))");
  // (+ %0 0) made (+ %0 1) after verification.
  runner.Edit([](ir::Module&, ir::Node& func) {
    ir::Node& add = *func.operand(2)->operand(1)->operand(0)->operand(1);
    ASSERT_TRUE(add.is(ir::Op::kAdd));
    add.operand(1)->set_int(1);
  });
  ASSERT_TRUE(runner.compile_status().ok()) << runner.compile_status();
  EXPECT_TRUE(FailsWith(runner.Run({}, {{"x", F32({4}, {})}}),
                        "m.tir:2:26: error: index 4 is out of bounds for an "
                        "array of 4 elements"));
}

// What the verifier rejects never reaches the interpreter.
TEST(TensorLevelTest, RunsOnlyVerifiedFunctions) {
  for (const char* text : {
           "(func @f ((x (f32 4))) ((y f32)) (blas.sum x))",
           "(func @f ((x (f32 4))) ((y (f32 4))) (lam %0))",
           "(func @f ((x (f32 4))) ((y (f32 4))) (build 4 (lam %1)))",
           "(func @f ((x (f32 4))) ((y (f32 3))) (build 4 (lam (index x "
           "%0))))",
           "(func @f ((x (i32 4))) ((y (i32 4))) (build 4 (lam (+ (index x "
           "%0) 0.5))))",
       }) {
    EXPECT_FALSE(Runner(text).compile_status().ok()) << text;
  }
}

}  // namespace
}  // namespace tessel
