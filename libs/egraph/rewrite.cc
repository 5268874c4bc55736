#include "libs/egraph/rewrite.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"

namespace tessel::egraph {

bool PatternApplier::Apply(EGraph& g, const ApplyContext& match) const {
  ClassId rhs = Instantiate(g, rhs_, match.subst);
  // egg's argument order (its union keeps the first class on a tie): the
  // left side first when explaining, else the right side.
  if (g.explanations_enabled()) return g.Union(match.root, rhs, match.why);
  return g.Union(rhs, match.root, match.why);
}

Rewrite::Rewrite(std::string name, Pattern lhs,
                 std::shared_ptr<const Applier> apply,
                 std::vector<Condition> conditions, VarTable vars, Location loc)
    : name(std::move(name)),
      lhs(std::move(lhs)),
      searcher(this->lhs),
      conditions(std::move(conditions)),
      applier(std::move(apply)),
      vars(std::move(vars)),
      loc(std::move(loc)) {}

absl::StatusOr<Rewrite> Rewrite::FromPatterns(std::string name, Pattern lhs,
                                              Pattern rhs,
                                              std::vector<Condition> conditions,
                                              VarTable vars, Location loc) {
  std::vector<VarId> bound = lhs.Vars();
  for (VarId v : rhs.Vars()) {
    if (std::find(bound.begin(), bound.end(), v) != bound.end()) continue;
    std::string var_name =
        v < vars.size() ? std::string(vars.Name(v)) : absl::StrCat("?", v);
    return ErrorAt(
        loc, absl::StrCat("rule ", name, ": the right side uses ", var_name,
                          ", which the left side does not bind"));
  }
  return Rewrite(std::move(name), std::move(lhs),
                 std::make_shared<PatternApplier>(std::move(rhs)),
                 std::move(conditions), std::move(vars), std::move(loc));
}

uint32_t Rewrite::num_vars() const {
  return std::max(vars.size(), lhs.VarBound());
}

size_t ApplyMatches(EGraph& g, const Rewrite& rule, ReasonId reason,
                    const Matches& matches, RetrySet* failed,
                    size_t node_limit) {
  size_t applied = 0;
  Justification why = Justification::Because(reason);
  for (size_t i = 0; i < matches.size() && g.HashconsSize() <= node_limit;
       ++i) {
    ClassId root = matches.root(i);
    Subst subst = matches.subst(i);
    bool holds = true;
    for (const Condition& condition : rule.conditions) {
      if (!condition(g, root, subst)) {
        holds = false;
        break;
      }
    }
    if (!holds) {
      if (failed != nullptr) {
        failed->insert(
            MatchHash(root, subst.classes().first(rule.searcher.num_vars())));
      }
      continue;
    }
    // With explanations, the union must start from the exact instance of
    // the left side the rule rewrote.
    if (g.explanations_enabled()) root = Instantiate(g, rule.lhs, subst);
    if (rule.applier->Apply(g, {root, subst, why})) ++applied;
  }
  return applied;
}

}  // namespace tessel::egraph
