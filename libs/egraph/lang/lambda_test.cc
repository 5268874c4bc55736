#include "libs/egraph/lang/lambda.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "libs/egraph/rules/compile.h"
#include "libs/egraph/runner.h"
#include "libs/egraph/scheduler.h"
#include "libs/sexpr/reader.h"

namespace tessel::egraph::lang {
namespace {

constexpr char kCaptureAvoid[] = R"((ruleset s
  (rule let-lam-diff
    (let ?v1 ?e (lam ?v2 ?body))
    (apply capture-avoid ?fresh ?v2 ?e
      (lam ?v2 (let ?v1 ?e ?body))
      (lam ?fresh (let ?v1 ?e (let ?v2 (var ?fresh) ?body))))
    (if (distinct ?v1 ?v2)))))";

class LambdaTest : public ::testing::Test {
 protected:
  LambdaTest() : g_(lambda_.NewEGraph()) {}

  absl::StatusOr<Term> Parse(const std::string& text) {
    auto forms = ReadSexprs(MakeSource("t", text));
    if (!forms.ok()) return forms.status();
    return lambda_.binding().CompileTerm(forms->front());
  }

  ClassId Add(const std::string& text) {
    auto term = Parse(text);
    EXPECT_TRUE(term.ok()) << term.status();
    return g_.egraph->AddTerm(*term);
  }

  const LambdaData& Data(ClassId id) {
    return static_cast<const LambdaAnalysis&>(*g_.analysis).Get(*g_.egraph, id);
  }

  // The names of the free variables of `id`'s class.
  std::vector<std::string> Free(ClassId id) {
    std::vector<std::string> names;
    for (ClassId symbol : Data(id).free) {
      const EGraph& g = *g_.egraph;
      names.emplace_back(
          g.payloads().Text(g.Node(g.Nodes(g.Find(symbol))[0]).payload));
    }
    std::sort(names.begin(), names.end());
    return names;
  }

  absl::StatusOr<std::vector<Rewrite>> Compile(const std::string& text) {
    rules::RuleLibrary library;
    absl::Status added = library.AddSource(MakeSource("t.rules", text));
    if (!added.ok()) return added;
    return library.Compile({"s"}, lambda_.binding());
  }

  LambdaLanguage lambda_;
  AnalyzedEGraph g_;
};

TEST_F(LambdaTest, FreeVariables) {
  using Names = std::vector<std::string>;
  EXPECT_EQ(Free(Add("(lam x (+ (var x) (var y)))")), Names{"y"});
  // (let v a b): v is bound in b, not in a.
  EXPECT_EQ(Free(Add("(let x (var x) (+ (var x) (var z)))")),
            (Names{"x", "z"}));
  EXPECT_EQ(Free(Add("(fix f (app (var f) (var g)))")), Names{"g"});
  EXPECT_EQ(Free(Add("(if true 1 (var w))")), Names{"w"});
  // Merging keeps the intersection, as egg's analysis does.
  ClassId a = Add("(+ (var p) (var q))");
  ClassId b = Add("(+ (var q) (var r))");
  g_.egraph->Union(a, b);
  g_.egraph->Rebuild();
  EXPECT_EQ(Free(a), Names{"q"});
}

TEST_F(LambdaTest, FoldsConstants) {
  EGraph& g = *g_.egraph;
  ClassId sum = Add("(+ 1 2)");
  ClassId same = Add("(= 1 1)");
  ClassId different = Add("(= 1 true)");
  ClassId overflow = Add("(+ 2147483647 1)");
  g.Rebuild();
  EXPECT_EQ(g.Find(sum), g.Find(Add("3")));
  EXPECT_EQ(g.Find(same), g.Find(Add("true")));
  EXPECT_EQ(g.Find(different), g.Find(Add("false")));
  EXPECT_FALSE(Data(overflow).constant.has_value());  // egg's checked_add
  // No pruning: the class of 3 keeps (+ 1 2).
  EXPECT_EQ(g.Nodes(g.Find(sum)).size(), 2u);
  EXPECT_EQ(lambda_.ConstantConflicts(g_), 0u);
}

TEST_F(LambdaTest, CaptureAvoidingSubstitution) {
  auto rules = Compile(kCaptureAvoid);
  ASSERT_TRUE(rules.ok()) << rules.status();
  EGraph& g = *g_.egraph;
  ClassId captured = Add("(let y (var x) (lam x (var y)))");
  ClassId plain = Add("(let y 1 (lam x (var y)))");
  g.Rebuild();
  // The fresh symbol is named after the class matched.
  std::string fresh = absl::StrCat("_", g.Find(captured));
  SimpleScheduler simple;
  Runner runner(&g, *rules, {1, 1000, 10}, &simple);
  runner.Run();
  g.Rebuild();
  EXPECT_EQ(g.Find(plain), g.Find(Add("(lam x (let y 1 (var y)))")));
  // x is free in (var x): the lambda's variable is renamed, as in egg.
  EXPECT_EQ(
      g.Find(captured),
      g.Find(Add(absl::StrCat("(lam ", fresh, " (let y (var x) (let x (var ",
                              fresh, ") (var y))))"))));
}

TEST_F(LambdaTest, Errors) {
  EXPECT_EQ(std::string(Parse("(+ 1 1.5)").status().message()),
            "t:1:6: error: lambda numbers are integers\n(+ 1 1.5)\n     ^");
  EXPECT_EQ(
      std::string(Parse("(+ 1 3000000000)").status().message()),
      "t:1:6: error: lambda integers are 32-bit\n(+ 1 3000000000)\n     ^");
  auto bound = Compile(
      "(ruleset s (rule r (let ?v1 ?e (lam ?v2 ?body)) (apply capture-avoid "
      "?e ?v2 ?e ?body ?body)))");
  ASSERT_FALSE(bound.ok());
  EXPECT_EQ(std::string(bound.status().message())
                .substr(0, bound.status().message().find('\n')),
            "t.rules:1:70: error: rule 'r': ?e is already bound; a fresh "
            "variable needs a new name");
}

}  // namespace
}  // namespace tessel::egraph::lang
