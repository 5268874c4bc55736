// Fuzz target: the e-graph engine on random terms, unions and rules of the
// symbolic language. Input: S-expressions; (=> LHS RHS) is a rule, (= A B)
// unions two terms, any other form is a term. After a short run with
// explanations on, the e-graph's invariants must hold (EGraph::Verify) and
// every union must be explained by a chain from A to B.
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "libs/egraph/egraph.h"
#include "libs/egraph/runner.h"
#include "libs/egraph/symbolic.h"
#include "libs/sexpr/reader.h"

namespace tessel::egraph {
namespace {

void Check(bool ok) {
  if (!ok) __builtin_trap();
}

void Run(absl::string_view text) {
  absl::StatusOr<std::vector<Sexpr>> forms =
      ReadSexprs(MakeSource("fuzz.eg", std::string(text)));
  if (!forms.ok()) return;
  OpTable ops;
  PayloadTable payloads;
  SymbolicLanguage lang(&ops, &payloads);
  EGraph g(&ops, &payloads);
  g.EnableExplanations();
  std::vector<Rewrite> rules;
  std::vector<std::pair<Term, Term>> unions;
  for (const Sexpr& form : *forms) {
    if ((form.is_form("=>") || form.is_form("=")) && form.size() == 3) {
      if (form.is_form("=")) {
        absl::StatusOr<Term> a = lang.TermFromSexpr(form[1]);
        absl::StatusOr<Term> b = lang.TermFromSexpr(form[2]);
        if (!a.ok() || !b.ok()) continue;
        g.Union(g.AddTerm(*a), g.AddTerm(*b),
                Justification::Because(g.InternReason("given")));
        unions.emplace_back(std::move(*a), std::move(*b));
        continue;
      }
      VarTable vars;
      absl::StatusOr<Pattern> lhs = lang.PatternFromSexpr(form[1], &vars);
      absl::StatusOr<Pattern> rhs = lang.PatternFromSexpr(form[2], &vars);
      if (!lhs.ok() || !rhs.ok()) continue;
      absl::StatusOr<Rewrite> rule = Rewrite::FromPatterns(
          "r" + std::to_string(rules.size()), std::move(*lhs), std::move(*rhs),
          {}, std::move(vars));
      if (rule.ok()) rules.push_back(std::move(*rule));
      continue;
    }
    absl::StatusOr<Term> term = lang.TermFromSexpr(form);
    if (term.ok()) g.AddTerm(*term);
  }
  BackoffScheduler backoff(/*match_limit=*/64, /*ban_length=*/2);
  Runner runner(&g, rules, {/*iterations=*/6, /*nodes=*/3000, /*seconds=*/1e9},
                &backoff);
  runner.Run();
  g.Rebuild();
  Check(g.Verify().ok());
  for (const auto& [a, b] : unions) {
    absl::StatusOr<std::vector<ExplanationStep>> steps = g.Explain(a, b);
    // Long chains may be refused; a wrong one never.
    if (!steps.ok()) continue;
    Check(!steps->empty() && steps->front().term == a &&
          steps->back().term == b);
  }
}

}  // namespace
}  // namespace tessel::egraph

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tessel::egraph::Run(
      absl::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
