#include "libs/egraph/lang/math.h"

#include <string>

#include "gtest/gtest.h"
#include "libs/egraph/rules/compile.h"
#include "libs/egraph/runner.h"
#include "libs/egraph/scheduler.h"
#include "libs/sexpr/reader.h"

namespace tessel::egraph::lang {
namespace {

class MathTest : public ::testing::Test {
 protected:
  MathTest() : g_(math_.NewEGraph()) {}

  ClassId Add(const std::string& text) {
    auto forms = ReadSexprs(MakeSource("t", text));
    EXPECT_TRUE(forms.ok() && forms->size() == 1);
    auto term = math_.binding().CompileTerm(forms->front());
    EXPECT_TRUE(term.ok()) << term.status();
    return g_.egraph->AddTerm(*term);
  }

  std::string TermError(const std::string& text) {
    auto forms = ReadSexprs(MakeSource("t", text));
    EXPECT_TRUE(forms.ok() && forms->size() == 1);
    auto term = math_.binding().CompileTerm(forms->front());
    EXPECT_FALSE(term.ok());
    return term.ok() ? "" : std::string(term.status().message());
  }

  const std::optional<double>& Constant(ClassId id) {
    return static_cast<const ConstantFold&>(*g_.analysis).Get(*g_.egraph, id);
  }

  // Runs the rules of `text` (one set, "s") for `iterations`.
  void Run(const std::string& text, size_t iterations) {
    rules::RuleLibrary library;
    ASSERT_TRUE(library.AddSource(MakeSource("t.rules", text)).ok());
    auto rewrites = library.Compile({"s"}, math_.binding());
    ASSERT_TRUE(rewrites.ok()) << rewrites.status();
    SimpleScheduler simple;
    Runner runner(g_.egraph.get(), *rewrites, {iterations, 100000, 10},
                  &simple);
    runner.Run();
    g_.egraph->Rebuild();
  }

  MathLanguage math_;
  AnalyzedEGraph g_;
};

TEST_F(MathTest, FoldsConstantsAndKeepsOnlyLeaves) {
  ClassId sum = Add("(+ 1 (* 2 3))");
  g_.egraph->Rebuild();
  ASSERT_TRUE(Constant(sum).has_value());
  EXPECT_EQ(*Constant(sum), 7);
  EXPECT_EQ(g_.egraph->Find(sum), g_.egraph->Find(Add("7")));
  // Classes: 1, 2, 3, 6, 7; each keeps only its number leaf, as egg's
  // pruning does; the pruned e-nodes stay hash-consed.
  EXPECT_EQ(g_.egraph->NumClasses(), 5u);
  EXPECT_EQ(g_.egraph->NumNodes(), 5u);
  EXPECT_EQ(g_.egraph->HashconsSize(), 7u);
  EXPECT_EQ(math_.ConstantConflicts(g_), 0u);
}

TEST_F(MathTest, FoldsWithEggsSemantics) {
  EXPECT_FALSE(Constant(Add("(/ 1 0)")).has_value());  // no division by 0
  EXPECT_FALSE(Constant(Add("(+ x 1)")).has_value());
  EXPECT_FALSE(Constant(Add("(pow 2 2)")).has_value());  // only + - * /
  EXPECT_EQ(*Constant(Add("(/ 1 4)")), 0.25);
  EXPECT_EQ(*Constant(Add("(- 1 3)")), -2);
  // 0 and -0 are one constant, as egg's NotNan compares them.
  g_.egraph->Rebuild();
  EXPECT_EQ(g_.egraph->Find(Add("(* -1 0)")), g_.egraph->Find(Add("0")));
}

TEST_F(MathTest, Conditions) {
  for (const char* term :
       {"(/ x 2)", "(/ x 0)", "(/ x y)", "(d x 5)", "(d x y)", "(d x x)",
        "(d 2 y)", "(d x (+ x 1))", "(i 3 x)", "(i y x)"}) {
    Add(term);
  }
  Run(R"((ruleset s
    (rule nz (/ ?a ?b) (* ?a ?b) (if (is-not-zero ?b)))
    (rule c (d ?x ?c) 0 (if (is-sym ?x) (is-const-or-distinct-var ?c ?x)))
    (rule k (i ?c ?x) ?c (if (is-const ?c)))))",
      1);
  auto equal = [&](const char* a, const char* b) {
    return g_.egraph->Find(Add(a)) == g_.egraph->Find(Add(b));
  };
  EXPECT_TRUE(equal("(/ x 2)", "(* x 2)"));
  EXPECT_FALSE(equal("(/ x 0)", "(* x 0)"));
  EXPECT_TRUE(equal("(/ x y)", "(* x y)"));  // not a constant: not zero
  EXPECT_TRUE(equal("(d x 5)", "0"));
  EXPECT_TRUE(equal("(d x y)", "0"));
  EXPECT_FALSE(equal("(d x x)", "0"));
  EXPECT_FALSE(equal("(d 2 y)", "0"));
  EXPECT_FALSE(equal("(d x (+ x 1))", "0"));
  EXPECT_TRUE(equal("(i 3 x)", "3"));
  EXPECT_FALSE(equal("(i y x)", "y"));
}

TEST_F(MathTest, LeafErrors) {
  EXPECT_EQ(TermError("(+ 1 nan)"),
            "t:1:6: error: math constants cannot be NaN\n(+ 1 nan)\n     ^");
  EXPECT_EQ(TermError("(tan x)"),
            "t:1:2: error: unknown op 'tan'\n(tan x)\n ^");
  EXPECT_EQ(TermError("(+ ?x 1)"),
            "t:1:4: error: a term cannot contain a variable\n(+ ?x 1)\n   ^");
}

}  // namespace
}  // namespace tessel::egraph::lang
