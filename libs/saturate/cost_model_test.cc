#include "libs/saturate/cost_model.h"

#include <cmath>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "libs/egraph/cost.h"
#include "libs/saturate/testing.h"
#include "libs/support/source.h"

namespace tessel::saturate {
namespace {

using testing::FuncGraph;
using ::testing::HasSubstr;

constexpr absl::string_view kModels = R"(
; LIAR's base model, and one over it.
(costmodel base
  (cost (build ?n ?f) (+ (* (value ?n) (+ (cost ?f) 1)) 1))
  (default (+ (children) 1)))
(costmodel derived
  (extends base)
  (cost (index ?a ?i) 10)
  (cost (blas.dot ?x ?y) (+ (children) (* 0.5 (dim ?x 0))))
  (cost (blas.gemv N ?alpha ?A ?x ?beta ?y) (* 2 (elements ?A)))
  (cost (blas.gemv T ?alpha ?A ?x ?beta ?y) (* 3 (elements ?A))))
)";

// The cost of `f`'s term under model `name` of `models`.
double CostOf(FuncGraph& f, absl::string_view name,
              absl::string_view models = kModels) {
  CostModelLibrary library;
  absl::Status added =
      library.AddSource(MakeSource("test.costs", std::string(models)));
  EXPECT_TRUE(added.ok()) << added;
  auto model = library.Compile(name, f.encoding(), f.analysis());
  EXPECT_TRUE(model.ok()) << model.status();
  if (!model.ok()) return -1;
  auto cost = egraph::TermCost(f.g(), f.input(), **model);
  EXPECT_TRUE(cost.ok()) << cost.status();
  return cost.ok() ? *cost : -1;
}

// The error compiling model `name` of `models`.
std::string ErrorOf(absl::string_view models, absl::string_view name = "m") {
  FuncGraph f("(func @f ((x f32)) ((y f32)) (+ x 1.0))");
  CostModelLibrary library;
  absl::Status status =
      library.AddSource(MakeSource("test.costs", std::string(models)));
  if (status.ok()) {
    auto model = library.Compile(name, f.encoding(), f.analysis());
    status = model.status();
  }
  EXPECT_FALSE(status.ok()) << models;
  return std::string(status.message());
}

TEST(CostModelTest, PricesByRuleAndDefault) {
  FuncGraph f(
      "(func @f ((x (f32 4))) ((y (f32 4))) (build 4 (lam (index x %0))))");
  // x, %0: 1 each; index: 3; lam: 4; the length: 1; build: 4 * 5 + 1.
  EXPECT_EQ(CostOf(f, "base"), 21);
  // The derived model's own rule for index: lam 11, build 4 * 12 + 1.
  EXPECT_EQ(CostOf(f, "derived"), 49);
}

TEST(CostModelTest, CallsByKeywordsAndTypes) {
  const std::string params =
      "(func @f ((alpha f32) (beta f32) (A (f32 8 4)) (x (f32 4)) (y0 (f32 8))"
      " (z (f32 6))) ";
  FuncGraph n(params + "((y (f32 8))) (blas.gemv N alpha A x beta y0))");
  EXPECT_EQ(CostOf(n, "derived"), 2 * 32);
  FuncGraph t(params + "((y (f32 4))) (blas.gemv T alpha A y0 beta x))");
  EXPECT_EQ(CostOf(t, "derived"), 3 * 32);
  // Two children of cost 1, and half the extent of z.
  FuncGraph dot(params + "((s f32)) (blas.dot z z))");
  EXPECT_EQ(CostOf(dot, "derived"), 2 + 3);
  // A call no rule prices is never chosen: the base model has no rule for
  // calls, and a rule for gemv N is none for gemv T.
  EXPECT_TRUE(std::isinf(CostOf(dot, "base")));
  EXPECT_TRUE(std::isinf(CostOf(
      t, "m", "(costmodel m (cost (blas.gemv N ?alpha ?A ?x ?beta ?y) 1))")));
}

// What the analysis does not know prices a term at +infinity.
TEST(CostModelTest, UnknownDimensionsCostInfinity) {
  FuncGraph f("(func @f ((x f32)) ((y f32)) (+ x 1.0))");
  EXPECT_TRUE(
      std::isinf(CostOf(f, "m", "(costmodel m (cost (+ ?a ?b) (dim ?a 0)))")));
  EXPECT_EQ(CostOf(f, "m", "(costmodel m (cost (+ ?a ?b) (elements ?a)))"), 1);
}

TEST(CostModelTest, Names) {
  CostModelLibrary library;
  ASSERT_TRUE(
      library.AddSource(MakeSource("test.costs", std::string(kModels))).ok());
  EXPECT_THAT(library.Names(), ::testing::ElementsAre("base", "derived"));
}

TEST(CostModelTest, ErrorsAreLocated) {
  EXPECT_THAT(ErrorOf("(costmodel m (default 1))", "zz"),
              HasSubstr("no cost model named 'zz' (known: m)"));
  EXPECT_THAT(ErrorOf("(costmodel m\n  (extends nope))"),
              HasSubstr("test.costs:2:12: error: unknown cost model 'nope'"));
  EXPECT_THAT(ErrorOf("(costmodel m (extends n)) (costmodel n (extends m))"),
              HasSubstr("error: cost model 'm' extends itself"));
  EXPECT_THAT(ErrorOf("(costmodel m (cost (+ ?a ?b) (frob ?a)))"),
              HasSubstr("test.costs:1:30: error: expected a number, (+ ...)"));
  EXPECT_THAT(ErrorOf("(costmodel m (cost (+ ?a ?b) (cost ?c)))"),
              HasSubstr("test.costs:1:36: error: 'cost' needs a ?variable of "
                        "the rule's head"));
  EXPECT_THAT(ErrorOf("(costmodel m (cost (+ ?a ?b) (dim ?a x)))"),
              HasSubstr("test.costs:1:38: error: expected a dimension number"));
  EXPECT_THAT(ErrorOf("(costmodel m (cost (+ ?a ?b) -1))"),
              HasSubstr("test.costs:1:30: error: a cost must be finite and "
                        "non-negative"));
  EXPECT_THAT(ErrorOf("(costmodel m (cost (+ ?a ?b) (+)))"),
              HasSubstr("test.costs:1:30: error: '+' needs operands"));
  EXPECT_THAT(ErrorOf("(costmodel m (cost (frob ?a) 1))"),
              HasSubstr("test.costs:1:21: error: unknown op 'frob'"));
  EXPECT_THAT(ErrorOf("(costmodel m (cost (+ ?a ?a) 1))"),
              HasSubstr("test.costs:1:26: error: expected a distinct "
                        "?variable for each child"));
  EXPECT_THAT(ErrorOf("(costmodel m (frob))"),
              HasSubstr("test.costs:1:14: error: expected (extends BASE) "
                        "first"));
  EXPECT_THAT(ErrorOf("(costmodel m (default 1)) (costmodel m (default 2))"),
              HasSubstr("test.costs:1:38: error: cost model 'm' is already "
                        "defined"));
  EXPECT_THAT(ErrorOf("(model m)"),
              HasSubstr("test.costs:1:1: error: expected (costmodel NAME "));
  EXPECT_THAT(ErrorOf("(costmodel m (default 1)"),
              HasSubstr("test.costs:1:1: error: unterminated list"));
}

}  // namespace
}  // namespace tessel::saturate
