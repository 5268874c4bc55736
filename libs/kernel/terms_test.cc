#include "libs/kernel/terms.h"

#include "gtest/gtest.h"
#include "libs/kernel/compile.h"
#include "libs/sexpr/printer.h"

namespace tessel::kernel {
namespace {

std::string Terms(const std::string& text,
                  const std::map<std::string, int64_t>& sizes = {}) {
  auto forms =
      CompileKernels(MakeSource("t.tk", text), sizes, EmitLevel::kTerms);
  EXPECT_TRUE(forms.ok()) << forms.status();
  if (!forms.ok()) return "";
  std::string flat;
  for (const Sexpr& form : *forms) flat += PrintFlat(form) + "\n";
  return flat;
}

TEST(TermsTest, LowersGemvLikeTheSpec) {
  EXPECT_EQ(Terms("kernel gemv(alpha: f32, A: f32[8, 4], x: f32[4]) -> "
                  "(y: f32[8]) {\n"
                  "  all (i, j) in (8, 4) y[i] += alpha * (A[i, j] * x[j]);\n"
                  "}"),
            "(func @gemv ((alpha f32) (A (f32 8 4)) (x (f32 4))) ((y (f32 "
            "8))) (build 8 (lam (ifold 4 0.0 (lam (lam (+ %0 (* alpha (* "
            "(index (index A %2) %1) (index x %1))))))))))\n");
}

TEST(TermsTest, NestsFoldsInLoopOrder) {
  // The inner fold starts from the outer accumulator, as the loop nest
  // accumulates.
  EXPECT_EQ(Terms("kernel c(x: f32[4], W: f32[2, 2]) -> (y: f32[3]) {\n"
                  "  all (w, r, s) in (3, 2, 2) y[w] += x[w + r] * W[r, s];\n"
                  "}"),
            "(func @c ((x (f32 4)) (W (f32 2 2))) ((y (f32 3))) (build 3 (lam "
            "(ifold 2 0.0 (lam (lam (ifold 2 %0 (lam (lam (+ %0 (* (index x "
            "(+ %4 %3)) (index (index W %3) %1))))))))))))\n");
}

TEST(TermsTest, GuardsAGeneralTarget) {
  EXPECT_EQ(Terms("kernel p(a: f32[3], b: f32[2]) -> (y: f32[4]) {\n"
                  "  all (i, j) in (3, 2) y[i + j] += a[i] * b[j];\n"
                  "}"),
            "(func @p ((a (f32 3)) (b (f32 2))) ((y (f32 4))) (build 4 (lam "
            "(ifold 3 0.0 (lam (lam (ifold 2 %0 (lam (lam (select (== (+ %3 "
            "%1) %4) (+ %0 (* (index a %3) (index b %1))) %0))))))))))\n");
  // A variable bound by one dimension and compared in another.
  EXPECT_EQ(Terms("kernel d(x: i32[3]) -> (y: i32[3, 3]) {\n"
                  "  all (i) in (3) y[i, i] = x[i];\n"
                  "}"),
            "(func @d ((x (i32 3))) ((y (i32 3 3))) (build 3 (lam (build 3 "
            "(lam (select (== %1 %0) (index x %1) 0))))))\n");
}

TEST(TermsTest, BindsTensorsReadLaterAndTuplesOutputs) {
  EXPECT_EQ(Terms("kernel two(x: f32[2]) -> (s: f32, y: f32[2]) {\n"
                  "  local t: f32[2];\n"
                  "  local unused: f32;\n"
                  "  all (i) in (2) t[i] = relu(x[i]);\n"
                  "  all () in () unused = 1;\n"
                  "  all (i) in (2) s max= t[i];\n"
                  "  all (i) in (2) y[i] = t[i] / s;\n"
                  "}"),
            "(func @two ((x (f32 2))) ((s f32) (y (f32 2))) (app (lam (app "
            "(lam (tuple %0 (build 2 (lam (/ (index %2 %0) %1))))) (ifold 2 "
            "-inf (lam (lam (max %0 (index %2 %1))))))) (build 2 (lam (max "
            "(index x %0) 0.0)))))\n");
}

TEST(TermsTest, StartsReductionsWithoutFoldsFromTheInitialValue) {
  // No variable is left to fold: the one step still adds to 0, exactly as
  // the loop nest does.
  EXPECT_EQ(Terms("kernel c(x: i8[2]) -> (y: i8[2]) {\n"
                  "  all (i) in (2) y[i] += x[i];\n"
                  "}"),
            "(func @c ((x (i8 2))) ((y (i8 2))) (build 2 (lam (+ 0 (index x "
            "%0)))))\n");
}

TEST(TermsTest, LowersEveryKernelOfAFile) {
  EXPECT_EQ(Terms("kernel a() -> (y: f64) { all () in () y = 1; }\n"
                  "kernel b() -> (y: f32[2]) { all (i) in (2) y[i] = 2; }"),
            "(func @a () ((y f64)) 1.0)\n"
            "(func @b () ((y (f32 2))) (build 2 (lam 2.0)))\n");
}

TEST(TermsTest, GivesEveryNodeAKernelLocation) {
  auto forms = CompileKernels(
      MakeSource("t.tk",
                 "kernel k(x: f32[4, 2]) -> (y: f32[4], z: f32[4]) {\n"
                 "  all (i, j) in (4, 2) y[i] max= x[i, j];\n"
                 "  all (i) in (4) z[3 - i] = y[i];\n"
                 "}"),
      {}, EmitLevel::kTerms);
  ASSERT_TRUE(forms.ok()) << forms.status();
  std::vector<const Sexpr*> stack = {&(*forms)[0]};
  while (!stack.empty()) {
    const Sexpr* node = stack.back();
    stack.pop_back();
    EXPECT_TRUE(node->loc().known()) << PrintFlat(*node);
    for (const Sexpr& item : node->items()) stack.push_back(&item);
  }
}

TEST(TermsTest, RejectsKernelsNestedDeeperThanTirAllows) {
  // Each let-bound statement nests the rest two levels deeper.
  std::string text = "kernel chain(x: f32) -> (y: f32) {\n";
  for (int i = 0; i < 130; ++i) {
    text += "  local t" + std::to_string(i) + ": f32;\n";
  }
  text += "  all () in () t0 = x;\n";
  for (int i = 1; i < 130; ++i) {
    text += "  all () in () t" + std::to_string(i) + " = t" +
            std::to_string(i - 1) + " + 1;\n";
  }
  text += "  all () in () y = t129;\n}\n";
  auto forms = CompileKernels(MakeSource("t.tk", text), {}, EmitLevel::kTerms);
  ASSERT_FALSE(forms.ok());
  EXPECT_NE(forms.status().message().find(
                "t.tk:1:8: error: kernel 'chain' lowers to TIR nested 261 "
                "deep, more than the 256 TIR allows"),
            std::string::npos)
      << forms.status();
  EXPECT_TRUE(
      CompileKernels(MakeSource("t.tk", text), {}, EmitLevel::kLoops).ok());
}

}  // namespace
}  // namespace tessel::kernel
