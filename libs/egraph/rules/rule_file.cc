#include "libs/egraph/rules/rule_file.h"

#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "libs/sexpr/reader.h"

namespace tessel::egraph::rules {
namespace {

using VarSet = absl::flat_hash_set<std::string>;

// Calls `f` on every variable symbol of `form`, left to right.
template <typename F>
void ForEachVar(const Sexpr& form, F&& f) {
  if (form.is_symbol() && IsVariable(form.text())) {
    f(form);
  } else if (form.is_list()) {
    for (const Sexpr& item : form.items()) ForEachVar(item, f);
  }
}

// A lone `?` is a typo for a variable, not a symbol.
absl::Status CheckMalformedVars(const Sexpr& form) {
  if (form.is_symbol("?")) {
    return ErrorAt(form.loc(), "a variable needs a name after '?'");
  }
  for (const Sexpr& item : form.items()) {
    absl::Status status = CheckMalformedVars(item);
    if (!status.ok()) return status;
  }
  return absl::OkStatus();
}

// Every variable of `form` must be in `bound`; `what` says where the form
// is, for the message.
absl::Status CheckBound(const RuleDecl& rule, const Sexpr& form,
                        const VarSet& bound, absl::string_view what) {
  absl::Status status;
  ForEachVar(form, [&](const Sexpr& var) {
    if (status.ok() && !bound.contains(var.text())) {
      status = ErrorAt(
          var.loc(),
          absl::StrCat("rule '", rule.name, "': ", what, " uses ", var.text(),
                       ", which is not bound by the left side",
                       what == "right side"
                           ? " (bind it with a let clause, or use an applier)"
                           : " or an earlier let"));
    }
  });
  return status;
}

// The scoping rules of formats/rules/README.md: the left side binds its
// variables; each clause may use only variables bound before it and a let
// binds a new one; the right side uses only bound variables. Applier
// arguments are the binding's to check.
absl::Status CheckScopes(const RuleDecl& rule) {
  VarSet bound;
  ForEachVar(rule.lhs, [&](const Sexpr& var) { bound.insert(var.text()); });
  for (const Clause& clause : rule.clauses) {
    for (const Sexpr& arg : clause.call.args) {
      absl::Status status = CheckBound(
          rule, arg, bound,
          clause.kind == Clause::Kind::kIf ? "a condition" : "a let");
      if (!status.ok()) return status;
    }
    if (clause.kind == Clause::Kind::kLet && !bound.insert(clause.var).second) {
      return ErrorAt(clause.var_loc,
                     absl::StrCat("rule '", rule.name, "': let binds ",
                                  clause.var, ", which is already bound"));
    }
  }
  if (rule.apply.has_value()) return absl::OkStatus();
  return CheckBound(rule, rule.rhs, bound, "right side");
}

absl::StatusOr<Call> ParseCall(const Sexpr& form, absl::string_view what) {
  if (!form.is_list() || form.size() == 0 || !form[0].is_symbol()) {
    return ErrorAt(form.loc(),
                   absl::StrCat("expected ", what, " (NAME ARG...)"));
  }
  Call call;
  call.name = form[0].text();
  call.loc = form[0].loc();
  call.args.assign(form.items().begin() + 1, form.items().end());
  for (const Sexpr& arg : call.args) {
    absl::Status status = CheckMalformedVars(arg);
    if (!status.ok()) return status;
  }
  return call;
}

// Clauses: (if COND...) and, where allowed, (let ?v (FN ARG...)).
absl::Status ParseClauses(const Sexpr& form, size_t first, bool allow_let,
                          std::vector<Clause>* out) {
  for (size_t i = first; i < form.size(); ++i) {
    const Sexpr& item = form[i];
    if (item.is_form("if")) {
      if (item.size() < 2) {
        return ErrorAt(item.loc(), "(if COND...) needs at least one condition");
      }
      for (size_t c = 1; c < item.size(); ++c) {
        auto call = ParseCall(item[c], "a condition");
        if (!call.ok()) return call.status();
        out->push_back({Clause::Kind::kIf, "", {}, *std::move(call)});
      }
    } else if (item.is_form("let")) {
      if (!allow_let) {
        return ErrorAt(item.loc(),
                       "a birule cannot have let clauses (they would bind "
                       "variables in one direction only)");
      }
      if (item.size() != 3 || !item[1].is_symbol() ||
          !IsVariable(item[1].text())) {
        return ErrorAt(item.loc(), "expected (let ?VAR (FN ARG...))");
      }
      auto call = ParseCall(item[2], "a let function");
      if (!call.ok()) return call.status();
      out->push_back({Clause::Kind::kLet, item[1].text(), item[1].loc(),
                      *std::move(call)});
    } else {
      return ErrorAt(item.loc(), allow_let
                                     ? "expected a clause: (if COND...) or "
                                       "(let ?VAR (FN ARG...))"
                                     : "expected a clause: (if COND...)");
    }
  }
  return absl::OkStatus();
}

// (rule NAME LHS RHS CLAUSE...) or (birule NAME LHS RHS CLAUSE...); a birule
// becomes two rules.
absl::Status ParseRule(const Sexpr& form, std::vector<RuleDecl>* out) {
  bool bidirectional = form.is_form("birule");
  absl::string_view keyword = bidirectional ? "birule" : "rule";
  if (form.size() < 4 || !form[1].is_symbol()) {
    return ErrorAt(form.loc(), absl::StrCat("expected (", keyword,
                                            " NAME LHS RHS CLAUSE...)"));
  }
  RuleDecl rule;
  rule.name = form[1].text();
  rule.loc = form[1].loc();
  rule.lhs = form[2];
  for (const Sexpr* side : {&form[2], &form[3]}) {
    absl::Status status = CheckMalformedVars(*side);
    if (!status.ok()) return status;
  }
  if (form[3].is_form("apply")) {
    if (bidirectional) {
      return ErrorAt(form[3].loc(), "a birule cannot use an applier");
    }
    if (form[3].size() < 2 || !form[3][1].is_symbol()) {
      return ErrorAt(form[3].loc(), "expected (apply APPLIER ARG...)");
    }
    Sexpr call_form = form[3];
    call_form.mutable_items().erase(call_form.mutable_items().begin());
    auto call = ParseCall(call_form, "an applier");
    if (!call.ok()) return call.status();
    rule.apply = *std::move(call);
  } else {
    rule.rhs = form[3];
  }
  absl::Status status =
      ParseClauses(form, 4, /*allow_let=*/!bidirectional, &rule.clauses);
  if (!status.ok()) return status;
  status = CheckScopes(rule);
  if (!status.ok()) return status;
  if (bidirectional) {
    RuleDecl reverse = rule;
    reverse.name = absl::StrCat(rule.name, "-rev");
    std::swap(reverse.lhs, reverse.rhs);
    status = CheckScopes(reverse);
    if (!status.ok()) return status;
    out->push_back(std::move(rule));
    out->push_back(std::move(reverse));
  } else {
    out->push_back(std::move(rule));
  }
  return absl::OkStatus();
}

absl::StatusOr<RuleSetDecl> ParseRuleSet(const Sexpr& form) {
  if (!form.is_form("ruleset")) {
    return ErrorAt(form.loc(), "expected (ruleset NAME RULE...)");
  }
  if (form.size() < 2 || !form[1].is_symbol()) {
    return ErrorAt(form.loc(), "expected (ruleset NAME RULE...)");
  }
  RuleSetDecl set;
  set.name = form[1].text();
  set.loc = form[1].loc();
  absl::flat_hash_map<std::string, Location> rule_names;
  for (size_t i = 2; i < form.size(); ++i) {
    const Sexpr& item = form[i];
    if (!item.is_form("rule") && !item.is_form("birule")) {
      return ErrorAt(item.loc(),
                     "expected (rule NAME LHS RHS CLAUSE...) or "
                     "(birule NAME LHS RHS CLAUSE...)");
    }
    size_t first_new = set.rules.size();
    absl::Status status = ParseRule(item, &set.rules);
    if (!status.ok()) return status;
    for (size_t r = first_new; r < set.rules.size(); ++r) {
      const RuleDecl& rule = set.rules[r];
      if (auto [it, fresh] = rule_names.emplace(rule.name, rule.loc); !fresh) {
        return ErrorAt(rule.loc, absl::StrCat("duplicate rule name '",
                                              rule.name, "' in rule set '",
                                              set.name, "' (first defined at ",
                                              LocationText(it->second), ")"));
      }
    }
  }
  return set;
}

}  // namespace

std::string LocationText(const Location& loc) {
  if (!loc.known()) return "an unknown place";
  return absl::StrCat(loc.source->name(), ":", loc.line, ":", loc.col);
}

bool IsVariable(absl::string_view name) {
  return name.size() >= 2 && name[0] == '?';
}

absl::StatusOr<std::vector<RuleSetDecl>> ParseRuleFile(
    const SourceRef& source) {
  auto forms = ReadSexprs(source);
  if (!forms.ok()) return forms.status();
  // A file of no rule sets is a mistake (a wrong file, an empty one).
  if (forms->empty()) {
    return ErrorAt(Location{source, 0, 0},
                   "the rule file has no rule sets: expected (ruleset NAME "
                   "RULE...)");
  }
  std::vector<RuleSetDecl> sets;
  absl::flat_hash_map<std::string, Location> set_names;
  for (const Sexpr& form : *forms) {
    auto set = ParseRuleSet(form);
    if (!set.ok()) return set.status();
    if (auto [it, fresh] = set_names.emplace(set->name, set->loc); !fresh) {
      return ErrorAt(set->loc, absl::StrCat("duplicate rule set name '",
                                            set->name, "' (first defined at ",
                                            LocationText(it->second), ")"));
    }
    sets.push_back(*std::move(set));
  }
  return sets;
}

absl::StatusOr<std::vector<RuleSetDecl>> ReadRuleFile(const std::string& path) {
  auto source = ReadSource(path);
  if (!source.ok()) return source.status();
  return ParseRuleFile(*source);
}

}  // namespace tessel::egraph::rules
