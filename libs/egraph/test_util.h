// Helpers for the engine's tests: an e-graph over the symbolic language, with
// terms and patterns written as S-expressions.
#ifndef TESSEL_LIBS_EGRAPH_TEST_UTIL_H_
#define TESSEL_LIBS_EGRAPH_TEST_UTIL_H_

#include <string>

#include "absl/strings/string_view.h"
#include "gtest/gtest.h"
#include "libs/egraph/egraph.h"
#include "libs/egraph/pattern.h"
#include "libs/egraph/rewrite.h"
#include "libs/egraph/symbolic.h"

namespace tessel::egraph::testing {

class SymbolicTest : public ::testing::Test {
 protected:
  explicit SymbolicTest(
      SymbolicLanguage::Numbers numbers = SymbolicLanguage::Numbers::kAsWritten)
      : lang_(&ops_, &payloads_, numbers), g_(&ops_, &payloads_) {}

  Term T(absl::string_view text) {
    absl::StatusOr<Term> t = lang_.ParseTerm(text);
    EXPECT_TRUE(t.ok()) << t.status();
    return t.ok() ? *t : Term();
  }
  ClassId Add(absl::string_view text) { return g_.AddTerm(T(text)); }
  Pattern P(absl::string_view text, VarTable* vars) {
    absl::StatusOr<Pattern> p = lang_.ParsePattern(text, vars);
    EXPECT_TRUE(p.ok()) << p.status();
    return p.ok() ? *p : Pattern();
  }
  Rewrite Rule(absl::string_view name, absl::string_view lhs,
               absl::string_view rhs, std::vector<Condition> conditions = {}) {
    VarTable vars;
    Pattern l = P(lhs, &vars);
    Pattern r = P(rhs, &vars);
    absl::StatusOr<Rewrite> rule =
        Rewrite::FromPatterns(std::string(name), std::move(l), std::move(r),
                              std::move(conditions), std::move(vars));
    EXPECT_TRUE(rule.ok()) << rule.status();
    return std::move(*rule);
  }
  // Whether the term is in the e-graph in class `id`.
  bool Represents(ClassId id, absl::string_view text) {
    std::optional<ClassId> c = g_.LookupTerm(T(text));
    return c && g_.Find(*c) == g_.Find(id);
  }
  void ExpectValid() {
    absl::Status s = g_.Verify();
    EXPECT_TRUE(s.ok()) << s;
  }

  OpTable ops_;
  PayloadTable payloads_;
  SymbolicLanguage lang_;
  EGraph g_;
};

}  // namespace tessel::egraph::testing

#endif  // TESSEL_LIBS_EGRAPH_TEST_UTIL_H_
