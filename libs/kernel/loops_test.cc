#include "libs/kernel/loops.h"

#include "gtest/gtest.h"
#include "libs/ir/op.h"
#include "libs/kernel/compile.h"
#include "libs/sexpr/printer.h"

namespace tessel::kernel {
namespace {

std::string Loops(const std::string& text,
                  const std::map<std::string, int64_t>& sizes = {}) {
  auto forms =
      CompileKernels(MakeSource("t.tk", text), sizes, EmitLevel::kLoops);
  EXPECT_TRUE(forms.ok()) << forms.status();
  return forms.ok() ? PrintForms(*forms, ir::HeaderOperands) : "";
}

TEST(LoopsTest, LowersMatmulWithInitialisationInsideTheNest) {
  EXPECT_EQ(Loops("kernel matmul(A: f32[M, K], B: f32[K, N]) -> "
                  "(C: f32[M, N]) {\n"
                  "  all (i, j, k) in (M, N, K) C[i, j] += A[i, k] * B[k, j];\n"
                  "}",
                  {{"M", 64}, {"N", 16}, {"K", 32}}),
            "(proc @matmul ((in A (f32 64 32)) (in B (f32 32 16)) (out C "
            "(f32 64 16)))\n"
            "  (for i 0 64\n"
            "    (for j 0 16\n"
            "      (assign (C i j) 0.0)\n"
            "      (for k 0 32 (reduce (C i j) (* (A i k) (B k j)))))))\n");
}

TEST(LoopsTest, LowersALabelledStatementToAProcedureOfItsOwn) {
  EXPECT_EQ(Loops("kernel fc(W: f32[4, 2], x: f32[2], b: f32[4]) -> "
                  "(y: f32[4]) {\n"
                  "  local t: f32[4];\n"
                  "  ff: all (i, j) in (4, 2) t[i] += W[i, j] * x[j];\n"
                  "  all (i) in (4) y[i] = t[i] + b[i];\n"
                  "}"),
            "(proc @fc.ff ((in W (f32 4 2)) (in x (f32 2)) (out t (f32 4)))\n"
            "  (for i 0 4 (assign (t i) 0.0) (for j 0 2 (reduce (t i) (* (W i "
            "j) (x j))))))\n"
            "\n"
            "(proc @fc ((in W (f32 4 2)) (in x (f32 2)) (in b (f32 4)) (out y "
            "(f32 4)))\n"
            "  (alloc t (f32 4))\n"
            "  (call @fc.ff W x t)\n"
            "  (for i 0 4 (assign (y i) (+ (t i) (b i)))))\n");
}

TEST(LoopsTest, InitialisesInASeparateNestWhenTheTargetIsNotLeading) {
  // The reduction variable comes first, and y[i + j] is not a plain
  // variable: both need a separate initialisation.
  EXPECT_EQ(Loops("kernel k(x: f32[3, 4]) -> (y: f32[4]) {\n"
                  "  all (j, i) in (3, 4) y[i] max= x[j, i];\n"
                  "}"),
            "(proc @k ((in x (f32 3 4)) (out y (f32 4)))\n"
            "  (for i0 0 4 (assign (y i0) -inf))\n"
            "  (for j 0 3 (for i 0 4 (assign (y i) (max (y i) (x j i))))))\n");
  EXPECT_EQ(
      Loops("kernel k(a: i32[3], b: i32[2]) -> (y: i32[4]) {\n"
            "  all (i, j) in (3, 2) y[i + j] min= a[i] * b[j];\n"
            "}"),
      "(proc @k ((in a (i32 3)) (in b (i32 2)) (out y (i32 4)))\n"
      "  (for i0 0 4 (assign (y i0) 2147483647))\n"
      "  (for i 0 3 (for j 0 2 (assign (y (+ i j)) (min (y (+ i j)) (* (a "
      "i) (b j)))))))\n");
}

TEST(LoopsTest, ZeroFillsOnlyWhatAnAssignmentDoesNotCover) {
  EXPECT_EQ(Loops("kernel k(x: f32[4]) -> (y: f32[8], z: f32[4]) {\n"
                  "  all (i) in (4) y[2 * i + 1] = x[i];\n"
                  "  all (i) in (4) z[3 - i] = x[i];\n"
                  "}"),
            "(proc @k ((in x (f32 4)) (out y (f32 8)) (out z (f32 4)))\n"
            "  (for i0 0 8 (assign (y i0) 0.0))\n"
            "  (for i 0 4 (assign (y (+ (* 2 i) 1)) (x i)))\n"
            "  (for i 0 4 (assign (z (- 3 i)) (x i))))\n");
}

TEST(LoopsTest, PicksFreshNamesForTheInitialisationNest) {
  EXPECT_EQ(Loops("kernel k(i0: f32[4]) -> (y: f32[8]) {\n"
                  "  all (i) in (4) y[2 * i] = i0[i];\n"
                  "}"),
            "(proc @k ((in i0 (f32 4)) (out y (f32 8)))\n"
            "  (for i0_ 0 8 (assign (y i0_) 0.0))\n"
            "  (for i 0 4 (assign (y (* 2 i)) (i0 i))))\n");
}

TEST(LoopsTest, LowersScalarsAndLocals) {
  EXPECT_EQ(Loops("kernel dot(x: f64[3], s: f64) -> (r: f64) {\n"
                  "  local t: f64[3];\n"
                  "  all (i) in (3) t[i] = s * x[i];\n"
                  "  all (i) in (3) r += t[i];\n"
                  "}"),
            "(proc @dot ((in x (f64 3)) (in s f64) (out r f64))\n"
            "  (alloc t (f64 3))\n"
            "  (for i 0 3 (assign (t i) (* s (x i))))\n"
            "  (assign r 0.0)\n"
            "  (for i 0 3 (reduce r (t i))))\n");
}

TEST(LoopsTest, InsertsCastsFollowingC) {
  // i8 operands are promoted to i32; the sum is accumulated in i32.
  EXPECT_EQ(Loops("kernel q(A: i8[2, 3], B: i8[3]) -> (y: i32[2]) {\n"
                  "  all (i, k) in (2, 3) y[i] += A[i, k] * B[k];\n"
                  "}"),
            "(proc @q ((in A (i8 2 3)) (in B (i8 3)) (out y (i32 2)))\n"
            "  (for i 0 2\n"
            "    (assign (y i) 0)\n"
            "    (for k 0 3 (reduce (y i) (* (cast i32 (A i k)) (cast i32 (B "
            "k)))))))\n");
  // int meets float as the float; f32 meets f64 as f64; the result is
  // converted to the target.
  EXPECT_EQ(Loops("kernel m(a: i32[2], b: f32[2], c: f64) -> (y: f32[2]) {\n"
                  "  all (i) in (2) y[i] = a[i] * b[i] + c;\n"
                  "}"),
            "(proc @m ((in a (i32 2)) (in b (f32 2)) (in c f64) (out y (f32 "
            "2)))\n"
            "  (for i 0 2\n"
            "    (assign (y i) (cast f32 (+ (cast f64 (* (cast f32 (a i)) (b "
            "i))) c)))))\n");
}

TEST(LoopsTest, ComputesF16AsF16) {
  // f16 data stays f16 (literals too); an integer meets it as f16, f32 as
  // f32; max= starts from -inf.
  EXPECT_EQ(Loops("kernel h(x: f16[2], n: i32[2], s: f32) -> "
                  "(y: f16[2], z: f32, m: f16) {\n"
                  "  all (i) in (2) y[i] = x[i] * 0.5 + n[i];\n"
                  "  all (i) in (2) z += x[i] * s;\n"
                  "  all (i) in (2) m max= x[i];\n"
                  "}"),
            "(proc @h ((in x (f16 2))\n"
            "          (in n (i32 2))\n"
            "          (in s f32)\n"
            "          (out y (f16 2))\n"
            "          (out z f32)\n"
            "          (out m f16))\n"
            "  (for i 0 2 (assign (y i) (+ (* (x i) 0.5) (cast f16 (n i)))))\n"
            "  (assign z 0.0)\n"
            "  (for i 0 2 (reduce z (* (cast f32 (x i)) s)))\n"
            "  (assign m -inf)\n"
            "  (for i 0 2 (assign m (max m (x i)))))\n");
}

TEST(LoopsTest, GivesLiteralsTheTypeOfTheOtherOperand) {
  EXPECT_EQ(Loops("kernel l(x: f32[2], n: i32[2], b: i8[2]) -> "
                  "(y: f32[2], z: f64[2], w: i8[2]) {\n"
                  "  all (i) in (2) y[i] = 2 * x[i] - 0.5 + (3 - 1) / 4;\n"
                  "  all (i) in (2) z[i] = n[i] * 0.5;\n"
                  "  all (i) in (2) w[i] = -b[i] + relu(b[i]);\n"
                  "}"),
            "(proc @l ((in x (f32 2))\n"
            "          (in n (i32 2))\n"
            "          (in b (i8 2))\n"
            "          (out y (f32 2))\n"
            "          (out z (f64 2))\n"
            "          (out w (i8 2)))\n"
            "  (for i 0 2 (assign (y i) (+ (- (* 2.0 (x i)) 0.5) 0.5)))\n"
            "  (for i 0 2 (assign (z i) (* (cast f64 (n i)) 0.5)))\n"
            "  (for i 0 2\n"
            "    (assign (w i) (cast i8 (+ (neg (cast i32 (b i))) (max (cast "
            "i32 (b i)) 0))))))\n");
}

TEST(LoopsTest, KeepsTheTextOfALiteralThatRoundsToFltMax) {
  EXPECT_EQ(Loops("kernel m(x: f32) -> (y: f32) {\n"
                  "  all () in () y = max(x, -3.4028235e38);\n"
                  "}"),
            "(proc @m ((in x f32) (out y f32)) (assign y (max x "
            "-3.4028235e+38)))\n");
}

TEST(LoopsTest, GivesEveryNodeAKernelLocation) {
  auto forms =
      CompileKernels(MakeSource("t.tk",
                                "kernel k(x: f32[4]) -> (y: f32[4]) {\n"
                                "  all (i) in (4) y[i] = relu(x[i]);\n"
                                "}"),
                     {}, EmitLevel::kLoops);
  ASSERT_TRUE(forms.ok()) << forms.status();
  std::vector<const Sexpr*> stack = {&(*forms)[0]};
  while (!stack.empty()) {
    const Sexpr* node = stack.back();
    stack.pop_back();
    EXPECT_TRUE(node->loc().known()) << PrintFlat(*node);
    EXPECT_EQ(node->loc().source->name(), "t.tk");
    for (const Sexpr& item : node->items()) stack.push_back(&item);
  }
  // (for i 0 4 ...) points at the variable's declaration.
  const Sexpr& loop = (*forms)[0][3];
  EXPECT_EQ(loop.loc().line, 2);
  EXPECT_EQ(loop.loc().col, 8);
}

}  // namespace
}  // namespace tessel::kernel
