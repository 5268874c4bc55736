#include "libs/egraph/rules/compile.h"

#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "libs/egraph/rules/symbolic_binding.h"
#include "libs/egraph/runner.h"
#include "libs/egraph/scheduler.h"

namespace tessel::egraph::rules {
namespace {

// A small language: f/2, g/1, pair/2, numbers and symbols; a condition
// (leaf ?x), a let function (leaves) yielding every class with a leaf, and
// an applier (swap-into OP ?a ?b) building (OP ?b ?a).
class TestBinding : public SymbolicBinding {
 public:
  explicit TestBinding(const SymbolicLanguage* language)
      : SymbolicBinding(language, {{"f", 2}, {"g", 1}, {"pair", 2}},
                        [](const Sexpr&) { return absl::OkStatus(); }) {
    DefineCondition(
        "leaf",
        [](const Call& call, RuleScope& scope) -> absl::StatusOr<Condition> {
          if (absl::Status s = scope.ExpectArgs(call, 1); !s.ok()) return s;
          auto var = scope.BoundVar(call.args[0]);
          if (!var.ok()) return var.status();
          return Condition([v = *var](EGraph& g, ClassId, const Subst& s) {
            return HasLeaf(g, s[v]);
          });
        });
    DefineBinder(
        "leaves",
        [](const Call& call, RuleScope& scope) -> absl::StatusOr<Binder> {
          if (absl::Status s = scope.ExpectArgs(call, 0); !s.ok()) return s;
          return Binder(
              [](EGraph& g, ClassId, const Subst&, std::vector<ClassId>* out) {
                for (ClassId c : g.Classes()) {
                  if (HasLeaf(g, c)) out->push_back(c);
                }
              });
        });
    DefineApplier("swap-into",
                  [language](const Call& call, RuleScope& scope)
                      -> absl::StatusOr<std::shared_ptr<const Applier>> {
                    if (absl::Status s = scope.ExpectArgs(call, 3); !s.ok())
                      return s;
                    if (!call.args[0].is_symbol()) {
                      return scope.Error(call.args[0].loc(), "expected an op");
                    }
                    auto a = scope.BoundVar(call.args[1]);
                    if (!a.ok()) return a.status();
                    auto b = scope.BoundVar(call.args[2]);
                    if (!b.ok()) return b.status();
                    OpId op = language->ops().Intern(call.args[0].text());
                    return std::make_shared<SwapInto>(op, *a, *b);
                  });
  }

 private:
  static bool HasLeaf(const EGraph& g, ClassId c) {
    for (NodeId n : g.Nodes(g.Find(c))) {
      if (g.Node(n).children.empty()) return true;
    }
    return false;
  }

  class SwapInto : public Applier {
   public:
    SwapInto(OpId op, VarId a, VarId b) : op_(op), a_(a), b_(b) {}
    bool Apply(EGraph& g, const ApplyContext& m) const override {
      ClassId built =
          g.Add(op_, PayloadTable::kNone, {m.subst[b_], m.subst[a_]});
      return g.Union(m.root, built, m.why);
    }

   private:
    OpId op_;
    VarId a_, b_;
  };
};

class CompileTest : public ::testing::Test {
 protected:
  CompileTest()
      : language_(&ops_, &payloads_),
        binding_(&language_),
        g_(&ops_, &payloads_) {}

  // The rules of set `set` in `text`.
  std::vector<Rewrite> Compile(const std::string& text,
                               std::vector<std::string> sets = {"s"}) {
    RuleLibrary library;
    absl::Status added = library.AddSource(MakeSource("t.rules", text));
    EXPECT_TRUE(added.ok()) << added;
    auto rewrites = library.Compile(sets, binding_);
    EXPECT_TRUE(rewrites.ok()) << rewrites.status();
    return rewrites.ok() ? *std::move(rewrites) : std::vector<Rewrite>{};
  }

  // The first line of the error compiling set "s" of `text`.
  std::string CompileError(const std::string& text) {
    RuleLibrary library;
    absl::Status added = library.AddSource(MakeSource("t.rules", text));
    EXPECT_TRUE(added.ok()) << added;
    auto rewrites = library.Compile({"s"}, binding_);
    EXPECT_FALSE(rewrites.ok());
    if (rewrites.ok()) return "";
    std::string message(rewrites.status().message());
    return message.substr(0, message.find('\n'));
  }

  ClassId Add(const std::string& text) {
    auto term = language_.ParseTerm(text);
    EXPECT_TRUE(term.ok()) << term.status();
    return g_.AddTerm(*term);
  }

  bool Equal(const std::string& a, const std::string& b) {
    return g_.Find(Add(a)) == g_.Find(Add(b));
  }

  void Run(const std::vector<Rewrite>& rewrites, size_t iterations) {
    g_.Rebuild();
    SimpleScheduler simple;
    Runner runner(&g_, rewrites, {iterations, 100000, 10}, &simple);
    runner.Run();
    g_.Rebuild();
  }

  OpTable ops_;
  PayloadTable payloads_;
  SymbolicLanguage language_;
  TestBinding binding_;
  EGraph g_;
};

TEST_F(CompileTest, PatternRule) {
  auto rules = Compile("(ruleset s (rule comm (f ?a ?b) (f ?b ?a)))");
  ASSERT_EQ(rules.size(), 1u);
  EXPECT_EQ(rules[0].name, "comm");
  EXPECT_EQ(rules[0].loc.line, 1);
  Add("(f x y)");
  Run(rules, 1);
  EXPECT_TRUE(Equal("(f x y)", "(f y x)"));
}

TEST_F(CompileTest, ConditionsAreCheckedPerMatch) {
  auto rules = Compile("(ruleset s (rule r (g ?a) ?a (if (leaf ?a))))");
  Add("(g x)");
  Add("(g (f x y))");
  Run(rules, 1);
  EXPECT_TRUE(Equal("(g x)", "x"));
  EXPECT_FALSE(Equal("(g (f x y))", "(f x y)"));
}

TEST_F(CompileTest, BuiltinDistinctAndEqual) {
  auto rules = Compile(R"((ruleset s
    (rule d (f ?a ?b) (pair ?a ?b) (if (distinct ?a ?b)))
    (rule e (g ?a) (pair ?a ?a) (if (equal (g ?a) (g (g ?a)))))))");
  Add("(f x x)");
  Add("(f x y)");
  Add("(g z)");
  Run(rules, 1);
  EXPECT_FALSE(Equal("(f x x)", "(pair x x)"));
  EXPECT_TRUE(Equal("(f x y)", "(pair x y)"));
  // equal instantiates both sides (egg's ConditionEqual), so (g (g z)) now
  // exists, but it is not equal to (g z).
  EXPECT_TRUE(
      g_.Lookup(*ops_.Find("g"), PayloadTable::kNone, {g_.Find(Add("(g z)"))})
          .has_value());
  EXPECT_FALSE(Equal("(g z)", "(pair z z)"));
}

TEST_F(CompileTest, LetBindsEachClassTheFunctionYields) {
  // Like LIAR's intro rules: the right side's ?b ranges over classes.
  auto rules = Compile(
      "(ruleset s (rule intro (g ?a) (g (pair ?a ?b)) (let ?b (leaves)) "
      "(if (distinct ?a ?b))))");
  Add("(g x)");
  Add("y");
  Run(rules, 1);
  // ?a = x; ?b = y only (x is excluded by the condition after the let,
  // (g x) has no leaf).
  EXPECT_TRUE(Equal("(g x)", "(g (pair x y))"));
  EXPECT_FALSE(g_.Lookup(*ops_.Find("pair"), PayloadTable::kNone,
                         {g_.Find(Add("x")), g_.Find(Add("x"))})
                   .has_value());
}

TEST_F(CompileTest, CustomApplier) {
  auto rules =
      Compile("(ruleset s (rule r (f ?a ?b) (apply swap-into pair ?a ?b)))");
  Add("(f x y)");
  Run(rules, 1);
  EXPECT_TRUE(Equal("(f x y)", "(pair y x)"));
}

TEST_F(CompileTest, BareVariableLeftSide) {
  auto rules = Compile("(ruleset s (rule wrap ?a (g ?a)))");
  Add("x");
  Run(rules, 1);
  EXPECT_TRUE(Equal("x", "(g x)"));
}

TEST_F(CompileTest, LanguageErrors) {
  EXPECT_EQ(CompileError("(ruleset s (rule r (h ?a) ?a))"),
            "t.rules:1:21: error: unknown op 'h'");
  EXPECT_EQ(CompileError("(ruleset s (rule r (f ?a) ?a))"),
            "t.rules:1:21: error: 'f' takes 2 operands, got 1");
  EXPECT_EQ(CompileError("(ruleset s (rule r ?a (g (g ?a ?a))))"),
            "t.rules:1:27: error: 'g' takes 1 operand, got 2");
  EXPECT_EQ(CompileError("(ruleset s (rule r (g ?a) g))"),
            "t.rules:1:27: error: op 'g' needs operands: write (g ...)");
  EXPECT_EQ(CompileError("(ruleset s (rule r (g ?a) \"text\"))"),
            "t.rules:1:27: error: this language has no strings");
  EXPECT_EQ(CompileError("(ruleset s (rule r (g ?a) ?a (if (big ?a))))"),
            "t.rules:1:35: error: unknown condition 'big' (known: distinct, "
            "equal, leaf)");
  EXPECT_EQ(CompileError("(ruleset s (rule r (g ?a) ?a (let ?b (all))))"),
            "t.rules:1:39: error: unknown let function 'all' (known: "
            "leaves)");
  EXPECT_EQ(CompileError("(ruleset s (rule r (g ?a) (apply magic ?a)))"),
            "t.rules:1:34: error: unknown applier 'magic' (known: "
            "swap-into)");
  EXPECT_EQ(CompileError("(ruleset s (rule r (g ?a) ?a (if (leaf ?a ?a))))"),
            "t.rules:1:35: error: rule 'r': 'leaf' takes 1 argument, got 2");
  EXPECT_EQ(CompileError("(ruleset s (rule r (g ?a) ?a (if (leaf (g ?a)))))"),
            "t.rules:1:40: error: rule 'r': expected a variable ?NAME");
  EXPECT_EQ(CompileError(
                "(ruleset s (rule r (f ?a ?b) (apply swap-into pair ?a ?c)))"),
            "t.rules:1:55: error: rule 'r': ?c is not bound here");
  EXPECT_EQ(CompileError(
                "(ruleset s (rule r (f ?a ?b) (apply swap-into (p) ?a ?b)))"),
            "t.rules:1:47: error: rule 'r': expected an op");
}

TEST_F(CompileTest, LibraryChecksSetsAndNamesUsedTogether) {
  RuleLibrary library;
  ASSERT_TRUE(library
                  .AddSource(MakeSource("a.rules",
                                        "(ruleset a (rule r (g ?x) ?x))\n"
                                        "(ruleset b (rule r (f ?x ?y) ?x))"))
                  .ok());
  EXPECT_NE(library.Find("a"), nullptr);
  EXPECT_EQ(library.Find("c"), nullptr);
  EXPECT_TRUE(library.Compile({"a"}, binding_).ok());
  EXPECT_TRUE(library.Compile({"b"}, binding_).ok());

  auto both = library.Compile({"a", "b"}, binding_);
  ASSERT_FALSE(both.ok());
  EXPECT_EQ(std::string(both.status().message())
                .substr(0, both.status().message().find('\n')),
            "a.rules:2:18: error: rule 'r' is also defined at a.rules:1:18; "
            "rule names must be unique among the rule sets used together");

  auto missing = library.Compile({"c"}, binding_);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().message(), "no rule set named 'c'");

  absl::Status again = library.AddSource(
      MakeSource("b.rules", "(ruleset a (rule q (g ?x) ?x))"));
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(std::string(again.message()).substr(0, again.message().find('\n')),
            "b.rules:1:10: error: rule set 'a' is already defined (at "
            "a.rules:1:10)");
}

}  // namespace
}  // namespace tessel::egraph::rules
