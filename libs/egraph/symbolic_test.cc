#include "libs/egraph/symbolic.h"

#include "gtest/gtest.h"

namespace tessel::egraph {
namespace {

TEST(SymbolicTest, TermsRoundTrip) {
  OpTable ops;
  PayloadTable payloads;
  SymbolicLanguage lang(&ops, &payloads);
  for (const char* text : {"x", "3", "-2.5", "(f)", "(+ x (* 2 y))",
                           "(lam x (app (var f) (var x)))"}) {
    absl::StatusOr<Term> t = lang.ParseTerm(text);
    ASSERT_TRUE(t.ok()) << t.status();
    EXPECT_EQ(lang.Print(*t), text);
  }
  Term t = *lang.ParseTerm("(f x 3)");
  EXPECT_EQ(t.node(0).op, lang.symbol_op());
  EXPECT_EQ(payloads.Text(t.node(0).payload), "x");
  EXPECT_EQ(t.node(1).op, lang.number_op());
  EXPECT_EQ(payloads.Kind(t.node(1).payload), PayloadKind::kInt);
  EXPECT_EQ(t.node(2).arity, 2u);
}

TEST(SymbolicTest, FloatNumbers) {
  OpTable ops;
  PayloadTable payloads;
  SymbolicLanguage lang(&ops, &payloads, SymbolicLanguage::Numbers::kFloat);
  Term a = *lang.ParseTerm("(* -1 x)");
  Term b = *lang.ParseTerm("(* -1.0 x)");
  EXPECT_EQ(a, b);
  EXPECT_EQ(payloads.Kind(a.node(0).payload), PayloadKind::kFloat);
  // -0.0 and 0.0 are one constant.
  EXPECT_EQ(payloads.Float(-0.0), payloads.Float(0.0));
}

TEST(SymbolicTest, Patterns) {
  OpTable ops;
  PayloadTable payloads;
  SymbolicLanguage lang(&ops, &payloads);
  VarTable vars;
  absl::StatusOr<Pattern> p = lang.ParsePattern("(+ ?a (* ?b ?a))", &vars);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(vars.size(), 2u);
  EXPECT_EQ(p->Vars(), (std::vector<VarId>{0, 1}));
  EXPECT_EQ(p->ToString(ops, payloads, vars), "(+ ?a (* ?b ?a))");
}

TEST(SymbolicTest, ErrorsHaveLocations) {
  OpTable ops;
  PayloadTable payloads;
  SymbolicLanguage lang(&ops, &payloads);
  VarTable vars;
  absl::StatusOr<Term> t = lang.ParseTerm("(f ?x)");
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("1:4"), std::string::npos) << t.status();
  EXPECT_FALSE(lang.ParseTerm("()").ok());
  EXPECT_FALSE(lang.ParseTerm("(\"s\")").ok());
  EXPECT_FALSE(lang.ParsePattern("(?f x)", &vars).ok());
  EXPECT_FALSE(lang.ParseTerm("x y").ok());
  EXPECT_FALSE(lang.ParseTerm("(f").ok());
}

}  // namespace
}  // namespace tessel::egraph
