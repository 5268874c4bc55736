// A language binding: what the names in a rule file mean for one language.
// It turns S-expression patterns into engine patterns (checking ops and
// arities), and condition, let-function and applier names into C++ through
// makers registered by name. Every binding knows the builtin conditions
// `equal` and `distinct` (formats/rules/README.md).
#ifndef TESSEL_LIBS_EGRAPH_RULES_BINDING_H_
#define TESSEL_LIBS_EGRAPH_RULES_BINDING_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/btree_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "libs/egraph/pattern.h"
#include "libs/egraph/rewrite.h"
#include "libs/egraph/rules/rule_file.h"
#include "libs/sexpr/sexpr.h"

namespace tessel::egraph::rules {

class Binding;

// The variables of the rule being compiled, and which are bound at the
// clause being compiled. Makers read their arguments through it.
class RuleScope {
 public:
  RuleScope(const Binding* binding, const RuleDecl* rule, VarTable* vars)
      : binding_(binding), rule_(rule), vars_(vars) {}

  const RuleDecl& rule() const { return *rule_; }
  VarTable& vars() { return *vars_; }

  // An error at `loc` whose message names the rule.
  absl::Status Error(const Location& loc, absl::string_view message) const;
  // Checks that `call` has exactly `count` arguments.
  absl::Status ExpectArgs(const Call& call, size_t count) const;

  // An argument that must be a bound variable.
  absl::StatusOr<VarId> BoundVar(const Sexpr& arg);
  // An argument that must be a variable not bound yet (an applier's fresh
  // variable); it is bound from now on.
  absl::StatusOr<VarId> FreshVar(const Sexpr& arg);
  // A pattern argument; its variables must be bound.
  absl::StatusOr<Pattern> BoundPattern(const Sexpr& arg);

  bool IsBound(VarId var) const { return bound_.contains(var); }
  void Bind(VarId var) { bound_.insert(var); }

 private:
  const Binding* binding_;
  const RuleDecl* rule_;
  VarTable* vars_;
  absl::flat_hash_set<VarId> bound_;
};

// For one match, the classes a `let` binds its variable to (the rule
// applies once for each; none: it does not apply). `subst` binds the left
// side's variables and those of earlier lets.
using Binder = std::function<void(EGraph& g, ClassId root, const Subst& subst,
                                  std::vector<ClassId>* out)>;

class Binding {
 public:
  using ConditionMaker =
      std::function<absl::StatusOr<Condition>(const Call&, RuleScope&)>;
  using BinderMaker =
      std::function<absl::StatusOr<Binder>(const Call&, RuleScope&)>;
  using ApplierMaker =
      std::function<absl::StatusOr<std::shared_ptr<const Applier>>(const Call&,
                                                                   RuleScope&)>;

  // Defines the builtin conditions.
  Binding();
  virtual ~Binding() = default;

  // A pattern of the language. Unknown ops, wrong arities and malformed
  // leaves are errors at their location; variables are interned in `vars`.
  virtual absl::StatusOr<Pattern> CompilePattern(const Sexpr& form,
                                                 VarTable* vars) const = 0;

  // A rule's left side, and the conditions its reading implies (TIR's data
  // literals match by value, whatever their type: a variable with a
  // condition). By default CompilePattern, implying nothing.
  virtual absl::StatusOr<Pattern> CompileLeft(
      const Sexpr& form, VarTable* vars, std::vector<Condition>* implied) const;
  // The applier of a rule's right side (not an `apply`), its variables
  // bound in `scope`. By default instantiating the pattern; TIR moves
  // variables across lams as De Bruijn indices require.
  virtual absl::StatusOr<std::shared_ptr<const Applier>> CompileRight(
      const RuleDecl& rule, RuleScope& scope) const;

  // Registers a named condition, let function or applier (a later
  // definition of a name replaces an earlier one).
  void DefineCondition(std::string name, ConditionMaker make);
  void DefineBinder(std::string name, BinderMaker make);
  void DefineApplier(std::string name, ApplierMaker make);

  // The maker of a name; an error at `call.loc` listing the known names if
  // there is none.
  absl::StatusOr<const ConditionMaker*> FindCondition(const Call& call) const;
  absl::StatusOr<const BinderMaker*> FindBinder(const Call& call) const;
  absl::StatusOr<const ApplierMaker*> FindApplier(const Call& call) const;

 private:
  // Ordered so that "known: ..." lists are sorted.
  absl::btree_map<std::string, ConditionMaker> conditions_;
  absl::btree_map<std::string, BinderMaker> binders_;
  absl::btree_map<std::string, ApplierMaker> appliers_;
};

}  // namespace tessel::egraph::rules

#endif  // TESSEL_LIBS_EGRAPH_RULES_BINDING_H_
