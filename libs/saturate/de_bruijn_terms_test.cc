#include "libs/saturate/de_bruijn_terms.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "libs/egraph/egraph.h"
#include "libs/ir/de_bruijn.h"
#include "libs/ir/node.h"
#include "libs/saturate/avoiding_extractor.h"
#include "libs/saturate/tir_encoding.h"
#include "libs/sexpr/reader.h"
#include "libs/support/source.h"

namespace tessel::saturate {
namespace {

// Terms of lams, apps, sums, references and De Bruijn variables.
class DeBruijnTermsTest : public ::testing::Test {
 protected:
  DeBruijnTermsTest() : g_(&encoding_.ops(), &encoding_.payloads()) {}

  // A random term with at most `depth` more levels; variables range over
  // the `lams` lams around it and two beyond.
  ir::Node* Random(int depth, int64_t lams) {
    int choice = std::uniform_int_distribution<int>(0, depth > 0 ? 5 : 1)(rng_);
    switch (choice) {
      case 0: {
        ir::Node* var = module_.Create(ir::Op::kVar);
        var->set_int(std::uniform_int_distribution<int64_t>(0, lams + 1)(rng_));
        return var;
      }
      case 1: {
        ir::Node* ref = module_.Create(ir::Op::kRef);
        ref->set_name(rng_() % 2 ? "x" : "y");
        return ref;
      }
      case 2:
      case 3: {
        ir::Node* lam = module_.Create(ir::Op::kLam);
        module_.Append(lam, Random(depth - 1, lams + 1));
        return lam;
      }
      default: {
        ir::Node* node =
            module_.Create(choice == 4 ? ir::Op::kAdd : ir::Op::kApp);
        module_.Append(node, Random(depth - 1, lams));
        module_.Append(node, Random(depth - 1, lams));
        return node;
      }
    }
  }

  // Whether a variable of `node`, under `depth` lams of it, refers to one
  // of the lams [lo, hi) around it.
  static bool RefersTo(const ir::Node& node, int64_t lo, int64_t hi,
                       int64_t depth = 0) {
    if (node.is(ir::Op::kVar)) {
      int64_t k = node.int_value() - depth;
      return k >= lo && k < hi;
    }
    int64_t inner = node.is(ir::Op::kLam) ? depth + 1 : depth;
    for (const ir::Node* operand : node.operands()) {
      if (RefersTo(*operand, lo, hi, inner)) return true;
    }
    return false;
  }

  // The same on an e-graph term, for the lams [0, bound) around it.
  bool TermRefersTo(const egraph::Term& term, uint32_t i, int64_t bound,
                    int64_t depth = 0) const {
    const egraph::Term::Node& node = term.node(i);
    if (node.op == encoding_.var_op()) {
      int64_t k = encoding_.VarIndex(node.payload) - depth;
      return k >= 0 && k < bound;
    }
    int64_t inner = encoding_.IsLam(node.op) ? depth + 1 : depth;
    for (uint32_t child : term.children(i)) {
      if (TermRefersTo(term, child, bound, inner)) return true;
    }
    return false;
  }

  // A term written with %K, names, (lam B), (+ A B) and (app F A).
  egraph::Term Parse(const std::string& text) {
    auto forms = ReadSexprs(MakeSource("term", text));
    EXPECT_TRUE(forms.ok() && forms->size() == 1);
    egraph::Term term;
    Build(forms->front(), term);
    return term;
  }
  uint32_t Build(const Sexpr& form, egraph::Term& term) {
    if (form.is_symbol()) {
      absl::string_view text = form.text();
      if (text[0] == '%') {
        return term.Add(
            encoding_.var_op(),
            encoding_.payloads().Int(std::stoll(std::string(text.substr(1)))));
      }
      return term.Add(encoding_.ref_op(), encoding_.payloads().Symbol(text));
    }
    std::vector<uint32_t> children;
    for (size_t i = 1; i < form.size(); ++i) {
      children.push_back(Build(form[i], term));
    }
    return term.Add(*encoding_.OpNamed(form.head()),
                    egraph::PayloadTable::kNone, children);
  }

  std::mt19937 rng_{20261123};
  ir::Module module_;
  TirEncoding encoding_;
  egraph::EGraph g_;
};

// ShiftTerm agrees with ir::Shift, for every cutoff and for shifts down
// that remove lams no variable refers to.
TEST_F(DeBruijnTermsTest, ShiftAgreesWithTheIr) {
  int checked_down = 0;
  for (int trial = 0; trial < 400; ++trial) {
    ir::Node* term = Random(5, 0);
    for (int64_t cutoff = 0; cutoff < 3; ++cutoff) {
      for (int64_t by : {-2, -1, 1, 3}) {
        if (by < 0 && RefersTo(*term, cutoff, cutoff - by)) continue;
        if (by < 0) ++checked_down;
        ir::Node* copy = module_.Clone(term);
        ir::Shift(*copy, by, cutoff);
        EXPECT_EQ(ShiftTerm(encoding_.ToTerm(*term), encoding_, by, cutoff),
                  encoding_.ToTerm(*copy))
            << "by " << by << " cutoff " << cutoff;
      }
    }
  }
  EXPECT_GT(checked_down, 100);
}

// SubstituteTerm agrees with ir::Instantiate (beta reduction).
TEST_F(DeBruijnTermsTest, SubstituteAgreesWithTheIr) {
  for (int trial = 0; trial < 400; ++trial) {
    ir::Node* body = Random(5, 1);
    ir::Node* value = Random(3, 0);
    egraph::Term expected = [&] {
      ir::Node* copy = module_.Clone(body);
      return encoding_.ToTerm(*ir::Instantiate(module_, copy, *value));
    }();
    EXPECT_EQ(SubstituteTerm(encoding_.ToTerm(*body), encoding_.ToTerm(*value),
                             encoding_),
              expected);
  }
}

TEST_F(DeBruijnTermsTest, ShiftAndSubstituteByHand) {
  EXPECT_EQ(ShiftTerm(Parse("(+ %0 (lam (+ %0 %1)))"), encoding_, 2),
            Parse("(+ %2 (lam (+ %0 %3)))"));
  EXPECT_EQ(ShiftTerm(Parse("(+ %0 %1)"), encoding_, -1, 1),
            Parse("(+ %0 %0)"));
  // (lam (+ %0 %1)) applied to (+ %0 y): the argument's %0 is the lam
  // outside, %1 under the inner lam.
  EXPECT_EQ(SubstituteTerm(Parse("(lam (+ %1 (+ %0 %2)))"), Parse("(+ %0 y)"),
                           encoding_),
            Parse("(lam (+ (+ %1 y) (+ %0 %1)))"));
}

// ExtractAvoiding finds the smallest term whose variables do not refer to
// the `bound` lams around the class; a lam of the term itself moves the
// window.
TEST_F(DeBruijnTermsTest, ExtractAvoidingWindow) {
  egraph::ClassId small = g_.AddTerm(Parse("(+ %0 y)"));
  egraph::ClassId large = g_.AddTerm(Parse("(+ (+ y y) %1)"));
  g_.Union(small, large);
  egraph::ClassId lam = g_.AddTerm(Parse("(lam (+ %0 y))"));
  egraph::ClassId var = g_.AddTerm(Parse("%0"));
  g_.Rebuild();

  auto unconstrained = ExtractAvoiding(g_, encoding_, small, 0);
  ASSERT_TRUE(unconstrained.has_value());
  EXPECT_EQ(*unconstrained, Parse("(+ %0 y)"));
  auto without_0 = ExtractAvoiding(g_, encoding_, small, 1);
  ASSERT_TRUE(without_0.has_value());
  EXPECT_EQ(*without_0, Parse("(+ (+ y y) %1)"));
  // %1 refers to the second lam around: forbidden with bound 2, and the
  // class has no other term.
  EXPECT_FALSE(ExtractAvoiding(g_, encoding_, small, 2).has_value());
  // Under the lam, %0 is its own argument; %1 would be the first around.
  auto in_lam = ExtractAvoiding(g_, encoding_, lam, 1);
  ASSERT_TRUE(in_lam.has_value());
  EXPECT_EQ(*in_lam, Parse("(lam (+ %0 y))"));
  auto in_lam_3 = ExtractAvoiding(g_, encoding_, lam, 3);
  ASSERT_TRUE(in_lam_3.has_value());
  EXPECT_EQ(*in_lam_3, Parse("(lam (+ %0 y))"));
  EXPECT_FALSE(ExtractAvoiding(g_, encoding_, var, 1).has_value());
  EXPECT_TRUE(ExtractAvoiding(g_, encoding_, var, 0).has_value());
}

// A class that contains a term of itself: the cycle is never followed.
TEST_F(DeBruijnTermsTest, ExtractAvoidingOnACycle) {
  egraph::ClassId y = g_.AddTerm(Parse("y"));
  egraph::ClassId sum = g_.AddTerm(Parse("(+ y %0)"));
  g_.Union(y, sum);
  g_.Rebuild();
  auto term = ExtractAvoiding(g_, encoding_, sum, 1);
  ASSERT_TRUE(term.has_value());
  EXPECT_EQ(*term, Parse("y"));
  egraph::ClassId var = g_.AddTerm(Parse("%0"));
  egraph::ClassId loop = g_.AddTerm(Parse("(+ %0 %0)"));
  g_.Union(var, loop);
  g_.Rebuild();
  EXPECT_FALSE(ExtractAvoiding(g_, encoding_, loop, 1).has_value());
}

// A class whose only term goes through a class on a cycle: a walk that
// reaches it from inside that cycle must not give up on it for good.
TEST_F(DeBruijnTermsTest, ExtractAvoidingThroughACycleReachedFirst) {
  // A = {y, (+ B y)} and B = {(+ A y)}: from (+ A B), A is entered first
  // and reaches B with A still open.
  egraph::ClassId a = g_.AddTerm(Parse("y"));
  egraph::ClassId b = g_.AddTerm(Parse("(+ y y)"));
  g_.Union(a, g_.AddTerm(Parse("(+ (+ y y) y)")));
  egraph::ClassId root = g_.AddTerm(Parse("(+ y (+ y y))"));
  g_.Rebuild();
  ASSERT_NE(g_.Find(a), g_.Find(b));
  auto term = ExtractAvoiding(g_, encoding_, root, 0);
  ASSERT_TRUE(term.has_value());
  EXPECT_EQ(*term, Parse("(+ y (+ y y))"));
}

// Round a cycle through a lam the window moves on: X = {%2, (lam X)} has
// no term free of the three lams around it at the top, but three lams down
// %2 refers to the term's own outermost lam.
TEST_F(DeBruijnTermsTest, ExtractAvoidingRoundALamCycle) {
  egraph::ClassId x = g_.AddTerm(Parse("%2"));
  g_.Union(x, g_.AddTerm(Parse("(lam %2)")));
  g_.Rebuild();
  auto term = ExtractAvoiding(g_, encoding_, x, 3);
  ASSERT_TRUE(term.has_value());
  EXPECT_EQ(*term, Parse("(lam (lam (lam %2)))"));
  // Two lams around: %2 is outside both.
  EXPECT_EQ(*ExtractAvoiding(g_, encoding_, x, 2), Parse("%2"));
}

// One extractor asked about many classes and bounds, in any order, finds
// terms as small as a fresh extractor for each: what it settled for one
// question holds for the next. Random unions make cycles, through lams
// too.
TEST_F(DeBruijnTermsTest, OneExtractorAnswersAsFreshOnes) {
  int found = 0;
  for (int trial = 0; trial < 20; ++trial) {
    egraph::EGraph g(&encoding_.ops(), &encoding_.payloads());
    std::vector<egraph::ClassId> classes;
    for (int i = 0; i < 30; ++i) {
      classes.push_back(g.AddTerm(encoding_.ToTerm(*Random(4, 1))));
    }
    for (int i = 0; i < 10; ++i) {
      g.Union(classes[rng_() % classes.size()],
              classes[rng_() % classes.size()]);
    }
    g.Rebuild();
    std::shuffle(classes.begin(), classes.end(), rng_);
    AvoidingExtractor shared(g, encoding_);
    for (egraph::ClassId id : classes) {
      for (int64_t bound = 0; bound < 4; ++bound) {
        std::optional<egraph::Term> fresh =
            ExtractAvoiding(g, encoding_, id, bound);
        std::optional<egraph::Term> kept = shared.Extract(id, bound);
        ASSERT_EQ(kept.has_value(), fresh.has_value());
        if (!kept.has_value()) continue;
        ++found;
        EXPECT_EQ(kept->size(), fresh->size());
        EXPECT_FALSE(TermRefersTo(*kept, kept->root(), bound));
        EXPECT_EQ(g.LookupTerm(*kept), g.Find(id));
      }
    }
  }
  EXPECT_GT(found, 1000);
}

// AvoidingTerms keeps a term for its class and bound while the e-graph's
// epoch lasts, also once a smaller term has joined the class, and asks
// again in the next epoch or for another e-graph.
TEST_F(DeBruijnTermsTest, AvoidingTermsKeepsTermsForAnEpoch) {
  AvoidingTerms terms;
  egraph::ClassId large = g_.AddTerm(Parse("(+ (+ y y) %1)"));
  g_.Rebuild();
  const std::optional<egraph::Term>& first = terms.Get(g_, encoding_, large, 1);
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(*first, Parse("(+ (+ y y) %1)"));
  EXPECT_FALSE(terms.Get(g_, encoding_, large, 2).has_value());

  egraph::ClassId small = g_.AddTerm(Parse("(+ y %1)"));
  g_.Union(large, small);
  g_.Rebuild();
  // Kept, under either id of the merged class: still a term of it.
  EXPECT_EQ(*terms.Get(g_, encoding_, small, 1), Parse("(+ (+ y y) %1)"));
  g_.AdvanceEpoch();
  EXPECT_EQ(*terms.Get(g_, encoding_, large, 1), Parse("(+ y %1)"));

  // Another e-graph with the same class ids and epoch is asked afresh.
  egraph::EGraph other(&encoding_.ops(), &encoding_.payloads());
  egraph::ClassId root = other.AddTerm(Parse("(+ (+ y y) %2)"));
  while (other.epoch() < g_.epoch()) other.AdvanceEpoch();
  other.Rebuild();
  ASSERT_EQ(root, large);
  EXPECT_EQ(*terms.Get(other, encoding_, root, 1), Parse("(+ (+ y y) %2)"));
}

}  // namespace
}  // namespace tessel::saturate
