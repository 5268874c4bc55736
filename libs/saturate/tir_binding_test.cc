#include "libs/saturate/tir_binding.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "libs/saturate/testing.h"

namespace tessel::saturate {
namespace {

using testing::FuncGraph;
using ::testing::HasSubstr;

// A func's text.
std::string Func(const std::string& params, const std::string& results,
                 const std::string& body) {
  return absl::StrCat("(func @f ", params, " ", results, " ", body, ")");
}

// Rules of one set `t` run on one func's e-graph.
class TirBindingTest : public testing::RulesTest {
 protected:
  void Run(FuncGraph& f, const std::string& rules, size_t iterations = 8) {
    RulesTest::Run(f, rules, iterations);
  }

  // Whether the body of `expected`, a func over the same parameters, is in
  // the class of `f`'s term (or, with `sub`, of the subterm at that path of
  // operand positions).
  bool Holds(FuncGraph& f, const std::string& expected,
             std::vector<size_t> sub = {}) {
    ir::Module module = testing::ReadVerified(expected);
    ir::Node* want = testing::FirstFunc(module)->operands().back();
    std::optional<egraph::ClassId> found =
        f.g().LookupTerm(f.encoding().ToTerm(*want));
    if (!found) return false;
    const ir::Node* at = &f.body();
    for (size_t i : sub) at = at->operand(i);
    std::optional<egraph::ClassId> cls =
        f.g().LookupTerm(f.encoding().ToTerm(*at));
    return cls && f.g().Find(*cls) == f.g().Find(*found);
  }

  // The error compiling `rules` on a small func.
  std::string CompileError(const std::string& rules) {
    return RulesTest::CompileError("(func @f ((x f32)) ((y f32)) (+ x 1.0))",
                                   rules);
  }
};

// (dim ?A 0 ?n) holds when ?A has ?n rows; ?A, matched under the lam, is
// moved out of it (shifted down), so an inner eta step enables an outer one.
TEST_F(TirBindingTest, DimAndVariablesMovedOutOfLams) {
  const std::string params = "((M (f32 2 4)) (B (f32 5 4)))";
  FuncGraph f(Func(params, "((y (f32 2 4)) (z (f32 3 4)))",
                   "(tuple (build 2 (lam (build 4 (lam (index (index M %1) "
                   "%0))))) (build 3 (lam (index B %0))))"));
  Run(f,
      "(ruleset t (rule eta (build ?n (lam (index ?A %0))) ?A"
      "  (if (dim ?A 0 ?n))))");
  EXPECT_TRUE(Holds(f, Func(params, "((y (f32 2 4)) (z (f32 3 4)))",
                            "(tuple M (build 3 (lam (index B %0))))")));
  EXPECT_TRUE(Holds(
      f, Func(params, "((y (f32 2 4)))", "(build 2 (lam (index M %0)))"), {0}));
  // B has 5 rows, not 3.
  EXPECT_FALSE(Holds(f, Func(params, "((y (f32 5 4)))", "B"), {1}));
}

// A variable used under more lams than it was matched under is shifted up.
TEST_F(TirBindingTest, VariablesMovedIntoLams) {
  const std::string params = "((A (f32 3 4)))";
  FuncGraph f(Func(params, "((y (f32 3 4)))",
                   "(build 3 (lam (build 4 (lam (index (index A %1) %0)))))"));
  Run(f,
      "(ruleset t (rule wrap (index (index ?A ?i) ?j)"
      "  (app (lam (index (index ?A ?i) %0)) ?j)))",
      2);
  EXPECT_TRUE(Holds(f, Func(params, "((y (f32 3 4)))",
                            "(build 3 (lam (build 4 (lam (app (lam (index "
                            "(index A %2) %0)) %0)))))")));
}

// (rank ?a R) reads the analysis' type.
TEST_F(TirBindingTest, Rank) {
  const std::string params = "((A (f32 2 2)) (x f32))";
  FuncGraph f(Func(params, "((p (f32 2 2)) (q f32))",
                   "(tuple (fst (tuple A x)) (fst (tuple x A)))"));
  Run(f,
      "(ruleset t (rule fst-matrix (fst (tuple ?a ?b)) ?a (if (rank ?a 2))))");
  EXPECT_TRUE(Holds(f, Func(params, "((p (f32 2 2)))", "A"), {0}));
  EXPECT_FALSE(Holds(f, Func(params, "((q f32))", "x"), {1}));
}

// A data literal on a left side matches its value at any element type; on
// a right side it takes the element type of its context.
TEST_F(TirBindingTest, TypedLiterals) {
  const std::string params = "((x f64) (i i32) (h f16))";
  FuncGraph f(Func(params, "((a f64) (b i32) (c f16))",
                   "(tuple (* x 1.0) (tuple (* i 1) (+ h h)))"));
  Run(f,
      "(ruleset t (rule mul-one (* ?a 1) ?a)"
      "           (rule double (+ ?a ?a) (* 2 ?a)))");
  EXPECT_TRUE(Holds(f, Func(params, "((a f64))", "x"), {0}));
  EXPECT_TRUE(Holds(f, Func(params, "((b i32))", "i"), {1, 0}));
  EXPECT_TRUE(Holds(f, Func(params, "((c f16))", "(* 2.0 h)"), {1, 1}));
  // Not at another element type: no f32 literal 2.0 was made.
  egraph::Term f32_two;
  f32_two.Add(f.encoding().LiteralOp(ir::Type::Elem(ElemType::kF32)),
              f.encoding().payloads().Float(2.0));
  EXPECT_FALSE(f.g().LookupTerm(f32_two).has_value());
}

TEST_F(TirBindingTest, RuleErrorsAreLocated) {
  EXPECT_THAT(CompileError("(ruleset t (rule bad (+ ?a) ?a))"),
              HasSubstr("test.rules:1:22: error: '+' takes 2 operands"));
  EXPECT_THAT(
      CompileError("(ruleset t\n  (rule bad (+ ?a ?b) ?a (if (frob ?a))))"),
      HasSubstr("test.rules:2:31: error: unknown condition 'frob' (known: "));
  EXPECT_THAT(CompileError("(ruleset t (rule bad (+ ?a ?b) (+ ?c ?a)))"),
              HasSubstr("test.rules:1:35: error: rule 'bad': right side uses "
                        "?c, which is not bound"));
  EXPECT_THAT(
      CompileError("(ruleset t (rule bad (+ ?a ?b) ?a (if (rank ?a x))))"),
      HasSubstr("test.rules:1:48: error: rule 'bad': 'rank' needs an "
                "integer here"));
  EXPECT_THAT(
      CompileError("(ruleset t (rule bad (+ ?a ?b) ?a (if (dim ?a 0))))"),
      HasSubstr("test.rules:1:40: error: rule 'bad': 'dim' takes 3 "
                "arguments"));
  EXPECT_THAT(
      CompileError("(ruleset t (rule bad (+ ?a (build 3 (lam ?a))) ?a))"),
      HasSubstr("test.rules:1:42: error: rule 'bad': '?a' is matched "
                "under different numbers of lams"));
  EXPECT_THAT(
      CompileError("(ruleset t (rule bad (app (lam ?b) ?e) (apply beta ?b)))"),
      HasSubstr("test.rules:1:47: error: rule 'bad': 'beta' takes 2"));
}

// Right sides that can never have the left side's type.
TEST_F(TirBindingTest, RightSidesThatDoNotTypeCheck) {
  EXPECT_THAT(CompileError("(ruleset t (rule bad (* ?a ?b) (+ ?a (lam ?b))))"),
              HasSubstr("test.rules:1:38: error: rule 'bad': a lam where a "
                        "value is needed"));
  EXPECT_THAT(CompileError("(ruleset t (rule bad (+ ?a ?b) (index 2.5 ?a)))"),
              HasSubstr("test.rules:1:39: error: rule 'bad': 'index' needs an "
                        "array here, found a scalar literal"));
  EXPECT_THAT(CompileError("(ruleset t (rule bad (+ ?a ?b) (fst (build 2 "
                           "(lam ?a)))))"),
              HasSubstr("test.rules:1:37: error: rule 'bad': 'fst' needs a "
                        "tuple here, found an array (a build)"));
  EXPECT_THAT(CompileError("(ruleset t (rule bad (+ ?a ?b) (+ ?a (< ?a ?b))))"),
              HasSubstr("error: rule 'bad': '+' needs a number or an array "
                        "here, found a condition"));
  EXPECT_THAT(CompileError("(ruleset t (rule bad (tuple ?a ?b) 1.0))"),
              HasSubstr("test.rules:1:36: error: rule 'bad': the right side "
                        "is a scalar literal and the left side a tuple"));
  EXPECT_THAT(
      CompileError("(ruleset t (rule bad (build ?n (lam ?b)) (lam ?b)))"),
      HasSubstr("test.rules:1:42: error: rule 'bad': the right side is a lam "
                "and the left side an array (a build)"));
}

}  // namespace
}  // namespace tessel::saturate
