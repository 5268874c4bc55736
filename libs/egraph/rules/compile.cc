#include "libs/egraph/rules/compile.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"

namespace tessel::egraph::rules {
namespace {

// The clauses from the first `let` on, then the right side, for one match:
// conditions filter, lets branch (one application per class they yield).
class ClauseApplier : public Applier {
 public:
  struct Step {
    VarId var = kNoId;    // a let's variable; kNoId for a condition
    Condition condition;  // for a condition
    Binder binder;        // for a let
  };

  ClauseApplier(std::vector<Step> steps, std::shared_ptr<const Applier> last,
                uint32_t num_vars)
      : steps_(std::move(steps)), last_(std::move(last)), num_vars_(num_vars) {}

  bool Apply(EGraph& g, const ApplyContext& match) const override {
    std::vector<ClassId> subst(num_vars_, kNoId);
    absl::Span<const ClassId> given = match.subst.classes();
    std::copy_n(given.begin(), std::min<size_t>(given.size(), num_vars_),
                subst.begin());
    return Run(g, match, 0, subst);
  }

 private:
  bool Run(EGraph& g, const ApplyContext& match, size_t step,
           std::vector<ClassId>& subst) const {
    for (; step < steps_.size(); ++step) {
      const Step& s = steps_[step];
      if (s.var == kNoId) {
        if (!s.condition(g, match.root, Subst(subst))) return false;
        continue;
      }
      std::vector<ClassId> candidates;
      s.binder(g, match.root, Subst(subst), &candidates);
      bool changed = false;
      for (ClassId candidate : candidates) {
        subst[s.var] = candidate;
        changed |= Run(g, match, step + 1, subst);
      }
      subst[s.var] = kNoId;
      return changed;
    }
    ApplyContext bound = match;
    bound.subst = Subst(subst);
    return last_->Apply(g, bound);
  }

  std::vector<Step> steps_;
  std::shared_ptr<const Applier> last_;
  uint32_t num_vars_;
};

}  // namespace

absl::StatusOr<Rewrite> CompileRule(const RuleDecl& rule,
                                    const Binding& binding) {
  VarTable vars;
  std::vector<Condition> conditions;
  auto lhs = binding.CompileLeft(rule.lhs, &vars, &conditions);
  if (!lhs.ok()) return lhs.status();
  RuleScope scope(&binding, &rule, &vars);
  for (VarId var : lhs->Vars()) scope.Bind(var);

  std::vector<ClauseApplier::Step> steps;
  for (const Clause& clause : rule.clauses) {
    if (clause.kind == Clause::Kind::kIf) {
      auto maker = binding.FindCondition(clause.call);
      if (!maker.ok()) return maker.status();
      auto condition = (**maker)(clause.call, scope);
      if (!condition.ok()) return condition.status();
      if (steps.empty()) {
        conditions.push_back(*std::move(condition));
      } else {
        steps.push_back({kNoId, *std::move(condition), nullptr});
      }
    } else {
      auto maker = binding.FindBinder(clause.call);
      if (!maker.ok()) return maker.status();
      auto binder = (**maker)(clause.call, scope);
      if (!binder.ok()) return binder.status();
      VarId var = vars.Intern(clause.var);
      scope.Bind(var);
      steps.push_back({var, nullptr, *std::move(binder)});
    }
  }

  std::shared_ptr<const Applier> applier;
  if (rule.apply.has_value()) {
    auto maker = binding.FindApplier(*rule.apply);
    if (!maker.ok()) return maker.status();
    auto custom = (**maker)(*rule.apply, scope);
    if (!custom.ok()) return custom.status();
    applier = *std::move(custom);
  } else {
    auto right = binding.CompileRight(rule, scope);
    if (!right.ok()) return right.status();
    applier = *std::move(right);
  }
  if (!steps.empty()) {
    applier = std::make_shared<ClauseApplier>(std::move(steps),
                                              std::move(applier), vars.size());
  }
  return Rewrite(rule.name, *std::move(lhs), std::move(applier),
                 std::move(conditions), std::move(vars), rule.loc);
}

absl::Status RuleLibrary::AddFile(const std::string& path) {
  auto source = ReadSource(path);
  if (!source.ok()) return source.status();
  return AddSource(*source);
}

absl::Status RuleLibrary::AddSource(const SourceRef& source) {
  auto sets = ParseRuleFile(source);
  if (!sets.ok()) return sets.status();
  for (RuleSetDecl& set : *sets) {
    if (const RuleSetDecl* known = Find(set.name)) {
      return ErrorAt(set.loc, absl::StrCat("rule set '", set.name,
                                           "' is already defined (at ",
                                           LocationText(known->loc), ")"));
    }
    sets_.push_back(std::move(set));
  }
  return absl::OkStatus();
}

const RuleSetDecl* RuleLibrary::Find(absl::string_view name) const {
  for (const RuleSetDecl& set : sets_) {
    if (set.name == name) return &set;
  }
  return nullptr;
}

absl::StatusOr<std::vector<Rewrite>> RuleLibrary::Compile(
    absl::Span<const std::string> set_names, const Binding& binding) const {
  std::vector<Rewrite> rewrites;
  absl::flat_hash_map<std::string, const RuleDecl*> seen;
  for (const std::string& name : set_names) {
    const RuleSetDecl* set = Find(name);
    if (set == nullptr) {
      return absl::NotFoundError(
          absl::StrCat("no rule set named '", name, "'"));
    }
    for (const RuleDecl& rule : set->rules) {
      if (auto [it, fresh] = seen.emplace(rule.name, &rule); !fresh) {
        return ErrorAt(
            rule.loc, absl::StrCat("rule '", rule.name, "' is also defined at ",
                                   LocationText(it->second->loc),
                                   "; rule names must be unique among the "
                                   "rule sets used together"));
      }
      auto rewrite = CompileRule(rule, binding);
      if (!rewrite.ok()) return rewrite.status();
      rewrites.push_back(*std::move(rewrite));
    }
  }
  return rewrites;
}

}  // namespace tessel::egraph::rules
