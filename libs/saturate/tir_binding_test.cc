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

// (closed ?a) holds for a parameter, not for a term of a lam's variable;
// (independent ?a K) for a term that refers to none of the K innermost
// lams; (elem ?a T...) for the element types T.
TEST_F(TirBindingTest, ClosedIndependentElem) {
  const std::string params = "((x (f32 3)) (n (i32 3)))";
  FuncGraph f(Func(params, "((y (f32 3)) (z (f32 3)) (w (i32 3)))",
                   "(tuple (build 3 (lam (* (index x %0) (index x 1))))"
                   " (tuple (build 3 (lam (* (index x 1) (index x %0))))"
                   "  (build 3 (lam (* (index n %0) (index n 1))))))"));
  Run(f,
      "(ruleset t (rule c (* ?a ?b) (+ ?a ?b) (if (closed ?b)))"
      "  (rule i (* ?a ?b) (- ?a ?b) (if (independent ?a 1)))"
      "  (rule e (* ?a ?b) (max ?a ?b) (if (elem ?a f32 f64))))",
      1);
  auto holds = [&](const std::string& result, const std::string& body,
                   std::vector<size_t> sub) {
    return Holds(f, Func(params, result, "(build 3 (lam " + body + "))"), sub);
  };
  const std::string y = "((y (f32 3)))";
  EXPECT_TRUE(holds(y, "(+ (index x %0) (index x 1))", {0}));
  EXPECT_FALSE(holds(y, "(+ (index x 1) (index x %0))", {1, 0}));
  EXPECT_TRUE(holds(y, "(- (index x 1) (index x %0))", {1, 0}));
  EXPECT_FALSE(holds(y, "(- (index x %0) (index x 1))", {0}));
  EXPECT_TRUE(holds(y, "(max (index x %0) (index x 1))", {0}));
  EXPECT_FALSE(
      holds("((w (i32 3)))", "(max (index n %0) (index n 1))", {1, 1}));
}

// The rules of normal-forms that make folds of sums written term by term.
constexpr char kFoldRules[] =
    "(ruleset t"
    "  (rule fold-pair (+ ?a ?b) (ifold 2 0 (lam (lam (+ %0 ?f))))"
    "    (let ?f (generalize ?a ?b)))"
    "  (rule fold-step (+ (ifold ?n ?s (lam (lam (+ %0 ?f)))) ?t)"
    "    (ifold ?m ?s (lam (lam (+ %0 ?f))))"
    "    (if (instance ?f ?n ?t)) (let ?m (sum ?n 1)))"
    "  (rule fold-folds"
    "    (ifold ?m (ifold ?m ?s (lam (lam ?b0))) (lam (lam ?b1)))"
    "    (ifold 2 ?s (lam (lam (ifold ?m %0 (lam (lam ?f))))))"
    "    (let ?f (generalize ?b0 ?b1 2)))"
    "  (rule fold-folds-step"
    "    (ifold ?m (ifold ?n ?s (lam (lam (ifold ?k %0 (lam (lam ?f))))))"
    "      (lam (lam ?b)))"
    "    (ifold ?n1 ?s (lam (lam (ifold ?k %0 (lam (lam ?f))))))"
    "    (if (equal ?m ?k) (instance ?f ?n ?b 2))"
    "    (let ?n1 (sum ?n 1))))";

// Terms that differ in their indices by a constant step are a fold: a dot
// product written out, a window (offsets of the build's index), a stride.
TEST_F(TirBindingTest, SumsWrittenOutAreFolds) {
  const std::string params = "((x (f32 7)) (y (f32 7)))";
  FuncGraph f(Func(
      params, "((d f32) (w (f32 3)) (s f32))",
      "(tuple (+ (+ (* (index x 0) (index y 0)) (* (index x 1) (index y 1)))"
      "          (* (index x 2) (index y 2)))"
      " (tuple (build 3 (lam (+ (+ (index x %0) (index x (+ %0 1)))"
      "                          (index x (+ 2 %0)))))"
      "  (+ (+ (index x 1) (index x 3)) (index x 5))))"));
  Run(f, kFoldRules);
  EXPECT_TRUE(Holds(f,
                    Func(params, "((d f32))",
                         "(ifold 3 0.0 (lam (lam (+ %0 (* (index x %1) "
                         "(index y %1))))))"),
                    {0}));
  EXPECT_TRUE(Holds(f,
                    Func(params, "((w (f32 3)))",
                         "(build 3 (lam (ifold 3 0.0 (lam (lam (+ %0 "
                         "(index x (+ %2 %1))))))))"),
                    {1, 0}));
  EXPECT_TRUE(Holds(f,
                    Func(params, "((s f32))",
                         "(ifold 3 0.0 (lam (lam (+ %0 (index x (+ 1 (* 2 "
                         "%1)))))))"),
                    {1, 1}));
}

// Terms that differ other than in indices, or by steps that are not
// constant, are no fold.
TEST_F(TirBindingTest, SumsThatAreNoFolds) {
  const std::string params = "((x (f32 7)) (y (f32 7)))";
  FuncGraph f(Func(params, "((a f32) (b f32))",
                   "(tuple (+ (+ (index x 0) (index y 1)) (index x 2))"
                   " (+ (+ (index x 0) (index x 1)) (index x 3)))"));
  Run(f, kFoldRules);
  EXPECT_FALSE(Holds(f,
                     Func(params, "((a f32))",
                          "(ifold 2 0.0 (lam (lam (+ %0 (index x %1)))))"),
                     {0, 0}));
  EXPECT_FALSE(Holds(f,
                     Func(params, "((b f32))",
                          "(ifold 3 0.0 (lam (lam (+ %0 (index x %1)))))"),
                     {1}));
  // The first two are one.
  EXPECT_TRUE(Holds(f,
                    Func(params, "((b f32))",
                         "(+ (ifold 2 0.0 (lam (lam (+ %0 (index x %1)))))"
                         " (index x 3))"),
                    {1}));
}

// A 2 x 2 window written out: two folds over one row each, one after the
// other, make a fold of folds.
TEST_F(TirBindingTest, WindowsWrittenOutAreFoldsOfFolds) {
  const std::string params = "((X (f32 4 4)))";
  const std::string result = "((y (f32 3 3)))";
  FuncGraph f(
      Func(params, result,
           "(build 3 (lam (build 3 (lam"
           " (+ (+ (+ (index (index X %1) %0) (index (index X %1) (+ %0 1)))"
           "       (index (index X (+ %1 1)) %0))"
           "    (index (index X (+ %1 1)) (+ %0 1)))))))"));
  // The pair of the first two terms and the pair of the last two, from the
  // first.
  Run(f, std::string(kFoldRules)
             .insert(sizeof("(ruleset t") - 1,
                     "  (rule fold-pair-after (+ (+ ?s ?a) ?b)"
                     "    (ifold 2 ?s (lam (lam (+ %0 ?f))))"
                     "    (let ?f (generalize ?a ?b)))"));
  EXPECT_TRUE(Holds(
      f,
      Func(
          params, result,
          "(build 3 (lam (build 3 (lam (ifold 2 0.0 (lam (lam (ifold 2 %0 "
          "(lam (lam (+ %0 (index (index X (+ %5 %3)) (+ %4 %1)))))))))))))")));
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
      CompileError("(ruleset t (rule bad (+ ?a ?b) ?a (if (elem ?a))))"),
      HasSubstr("error: rule 'bad': 'elem' takes ?a and one or more "
                "element types"));
  EXPECT_THAT(
      CompileError("(ruleset t (rule bad (+ ?a ?b) ?a (if (elem ?a f33))))"),
      HasSubstr("test.rules:1:48: error: rule 'bad': 'elem' needs an element "
                "type here"));
  EXPECT_THAT(
      CompileError(
          "(ruleset t (rule bad (+ ?a ?b) ?a (if (independent ?a -1))))"),
      HasSubstr("error: rule 'bad': 'independent' needs a count >= 0"));
  EXPECT_THAT(CompileError("(ruleset t (rule bad (+ ?a ?b) (+ ?f ?b) (let ?f "
                           "(generalize ?a))))"),
              HasSubstr("error: rule 'bad': 'generalize' takes 2 or 3 "
                        "arguments"));
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
