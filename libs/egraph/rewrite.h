// Rewrite rules: a searcher (the left-hand pattern), conditions that read the
// e-graph and its analyses, and an applier: the right-hand pattern or custom
// C++ (De Bruijn shifting and substitution, capture-avoiding substitution,
// right sides with variables the left side does not bind).
#ifndef TESSEL_LIBS_EGRAPH_REWRITE_H_
#define TESSEL_LIBS_EGRAPH_REWRITE_H_

#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/egraph/egraph.h"
#include "libs/egraph/matcher.h"
#include "libs/egraph/pattern.h"
#include "libs/egraph/relational.h"
#include "libs/support/source.h"

namespace tessel::egraph {

// A condition on one match, checked when the match is applied (as egg's
// ConditionalApplier does), so it sees the unions and analysis data of the
// matches applied before it in the same iteration. It may add e-nodes (egg's
// ConditionEqual instantiates patterns).
using Condition =
    std::function<bool(EGraph& g, ClassId root, const Subst& subst)>;

// What an applier gets for one match.
struct ApplyContext {
  // The matched class; with explanations on, the id of the matched instance
  // of the left side, so that a Union with it explains the right step.
  ClassId root;
  Subst subst;
  Justification why;  // the rule, to pass to Union
};

class Applier {
 public:
  virtual ~Applier() = default;
  // Applies one match; returns whether the e-graph changed (a Union that
  // merged two classes), which is what the runner counts as an application.
  virtual bool Apply(EGraph& g, const ApplyContext& match) const = 0;
  // True if applying a match a second time, after it was applied once,
  // never changes the e-graph (the runner then applies only new matches).
  virtual bool Idempotent() const { return false; }
};

// The usual applier: instantiate the right side, union it with the root.
class PatternApplier : public Applier {
 public:
  explicit PatternApplier(Pattern rhs) : rhs_(std::move(rhs)) {}
  bool Apply(EGraph& g, const ApplyContext& match) const override;
  // The instance and the union persist: a second application finds both.
  bool Idempotent() const override { return true; }
  const Pattern& rhs() const { return rhs_; }

 private:
  Pattern rhs_;
};

struct Rewrite {
  // `vars` names the variables; a custom applier may use variables beyond
  // the left side's (Subst has room for vars.size() of them, unbound ones
  // are kNoId).
  Rewrite(std::string name, Pattern lhs, std::shared_ptr<const Applier> apply,
          std::vector<Condition> conditions = {}, VarTable vars = {},
          Location loc = {});
  // The common case: lhs => rhs, both over `vars`. Fails (with `loc`) if
  // the right side uses a variable the left side does not bind.
  static absl::StatusOr<Rewrite> FromPatterns(
      std::string name, Pattern lhs, Pattern rhs,
      std::vector<Condition> conditions = {}, VarTable vars = {},
      Location loc = {});

  // Slots of a substitution for this rule.
  uint32_t num_vars() const;
  // Whether matches applied once need never be applied again: an
  // idempotent applier. Matches whose conditions failed are retried (a
  // condition may hold later, as analysis data grows): see RetrySet.
  bool ApplyOnce() const { return applier->Idempotent(); }
  // Searches the left side (CompiledPattern::Search's contract) with
  // `relational` if set, else with `searcher`.
  size_t Search(const EGraph& g, size_t limit, Matches* out,
                uint32_t old_before, const RetrySet* retry) const {
    return relational ? relational->Search(g, limit, out, old_before, retry)
                      : searcher.Search(g, limit, out, old_before, retry);
  }

  std::string name;
  Pattern lhs;
  CompiledPattern searcher;
  // Set to search with the relational matcher instead, to compare the two
  // (egg_bench --matcher relational).
  std::shared_ptr<const RelationalPattern> relational;
  std::vector<Condition> conditions;
  std::shared_ptr<const Applier> applier;
  VarTable vars;  // names of the variables, for messages
  Location loc;   // where the rule was read, for messages
};

// Applies `matches` of `rule` (found by its searcher) in order: checks the
// conditions, then calls the applier. With explanations on, each match's
// left side is instantiated first so that the union records the exact
// instance. Adds the matches whose conditions failed to `failed` if given.
// Stops early, leaving the remaining matches unapplied, once the e-graph
// holds more than `node_limit` e-nodes (EGraph::HashconsSize). Returns the
// number of matches whose application changed the e-graph.
size_t ApplyMatches(EGraph& g, const Rewrite& rule, ReasonId reason,
                    const Matches& matches, RetrySet* failed = nullptr,
                    size_t node_limit = std::numeric_limits<size_t>::max());

}  // namespace tessel::egraph

#endif  // TESSEL_LIBS_EGRAPH_REWRITE_H_
