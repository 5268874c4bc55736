#include "libs/egraph/rules/binding.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace tessel::egraph::rules {
namespace {

template <typename Map>
absl::StatusOr<const typename Map::mapped_type*> FindMaker(
    const Map& makers, const Call& call, absl::string_view what) {
  auto it = makers.find(call.name);
  if (it != makers.end()) return &it->second;
  std::vector<absl::string_view> known;
  for (const auto& [name, maker] : makers) known.push_back(name);
  return ErrorAt(
      call.loc,
      absl::StrCat(
          "unknown ", what, " '", call.name, "'",
          known.empty()
              ? std::string(" (none defined)")
              : absl::StrCat(" (known: ", absl::StrJoin(known, ", "), ")")));
}

// egg's ConditionEqual: instantiates both patterns (adding their e-nodes)
// and holds if they are in one class.
absl::StatusOr<Condition> MakeEqual(const Call& call, RuleScope& scope) {
  if (absl::Status s = scope.ExpectArgs(call, 2); !s.ok()) return s;
  auto a = scope.BoundPattern(call.args[0]);
  if (!a.ok()) return a.status();
  auto b = scope.BoundPattern(call.args[1]);
  if (!b.ok()) return b.status();
  return Condition([a = *std::move(a), b = *std::move(b)](EGraph& g, ClassId,
                                                          const Subst& subst) {
    ClassId x = Instantiate(g, a, subst);
    ClassId y = Instantiate(g, b, subst);
    return g.Find(x) == g.Find(y);
  });
}

// Two variables bound to different classes (egg's lambda is_not_same_var).
absl::StatusOr<Condition> MakeDistinct(const Call& call, RuleScope& scope) {
  if (absl::Status s = scope.ExpectArgs(call, 2); !s.ok()) return s;
  auto a = scope.BoundVar(call.args[0]);
  if (!a.ok()) return a.status();
  auto b = scope.BoundVar(call.args[1]);
  if (!b.ok()) return b.status();
  return Condition([a = *a, b = *b](EGraph& g, ClassId, const Subst& subst) {
    return g.Find(subst[a]) != g.Find(subst[b]);
  });
}

}  // namespace

absl::Status RuleScope::Error(const Location& loc,
                              absl::string_view message) const {
  return ErrorAt(loc, absl::StrCat("rule '", rule_->name, "': ", message));
}

absl::Status RuleScope::ExpectArgs(const Call& call, size_t count) const {
  if (call.args.size() == count) return absl::OkStatus();
  return Error(call.loc, absl::StrCat("'", call.name, "' takes ", count,
                                      count == 1 ? " argument" : " arguments",
                                      ", got ", call.args.size()));
}

absl::StatusOr<VarId> RuleScope::BoundVar(const Sexpr& arg) {
  if (!arg.is_symbol() || !IsVariable(arg.text())) {
    return Error(arg.loc(), "expected a variable ?NAME");
  }
  std::optional<VarId> var = vars_->Find(arg.text());
  if (!var.has_value() || !IsBound(*var)) {
    return Error(arg.loc(), absl::StrCat(arg.text(), " is not bound here"));
  }
  return *var;
}

absl::StatusOr<VarId> RuleScope::FreshVar(const Sexpr& arg) {
  if (!arg.is_symbol() || !IsVariable(arg.text())) {
    return Error(arg.loc(), "expected a variable ?NAME");
  }
  std::optional<VarId> var = vars_->Find(arg.text());
  if (var.has_value() && IsBound(*var)) {
    return Error(arg.loc(), absl::StrCat(arg.text(),
                                         " is already bound; a fresh "
                                         "variable needs a new name"));
  }
  VarId fresh = vars_->Intern(arg.text());
  Bind(fresh);
  return fresh;
}

absl::StatusOr<Pattern> RuleScope::BoundPattern(const Sexpr& arg) {
  auto pattern = binding_->CompilePattern(arg, vars_);
  if (!pattern.ok()) return pattern.status();
  for (VarId var : pattern->Vars()) {
    if (!IsBound(var)) {
      return Error(arg.loc(),
                   absl::StrCat(vars_->Name(var), " is not bound here"));
    }
  }
  return pattern;
}

Binding::Binding() {
  DefineCondition("equal", MakeEqual);
  DefineCondition("distinct", MakeDistinct);
}

void Binding::DefineCondition(std::string name, ConditionMaker make) {
  conditions_[std::move(name)] = std::move(make);
}
void Binding::DefineBinder(std::string name, BinderMaker make) {
  binders_[std::move(name)] = std::move(make);
}
void Binding::DefineApplier(std::string name, ApplierMaker make) {
  appliers_[std::move(name)] = std::move(make);
}

absl::StatusOr<Pattern> Binding::CompileLeft(const Sexpr& form, VarTable* vars,
                                             std::vector<Condition>*) const {
  return CompilePattern(form, vars);
}

absl::StatusOr<std::shared_ptr<const Applier>> Binding::CompileRight(
    const RuleDecl& rule, RuleScope& scope) const {
  auto rhs = scope.BoundPattern(rule.rhs);
  if (!rhs.ok()) return rhs.status();
  return std::make_shared<PatternApplier>(*std::move(rhs));
}

absl::StatusOr<const Binding::ConditionMaker*> Binding::FindCondition(
    const Call& call) const {
  return FindMaker(conditions_, call, "condition");
}
absl::StatusOr<const Binding::BinderMaker*> Binding::FindBinder(
    const Call& call) const {
  return FindMaker(binders_, call, "let function");
}
absl::StatusOr<const Binding::ApplierMaker*> Binding::FindApplier(
    const Call& call) const {
  return FindMaker(appliers_, call, "applier");
}

}  // namespace tessel::egraph::rules
