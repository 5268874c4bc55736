#include "libs/saturate/tir_binding.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "libs/egraph/egraph.h"
#include "libs/ir/op.h"
#include "libs/ir/syntax.h"
#include "libs/ir/types.h"
#include "libs/saturate/access_clauses.h"
#include "libs/saturate/de_bruijn_terms.h"
#include "libs/saturate/rule_sorts.h"
#include "libs/saturate/sum_folds.h"
#include "libs/support/source.h"

namespace tessel::saturate {
namespace {

using egraph::ClassId;
using egraph::rules::Call;
using egraph::rules::RuleScope;

// The kind of operand position `i` of `op` (the last kind of a variadic
// list covers the rest).
std::optional<ir::OperandKind> OperandKindAt(ir::Op op, size_t i) {
  const std::vector<ir::OperandKind>& kinds = ir::Info(op).operands;
  if (kinds.empty()) return std::nullopt;
  return kinds[std::min(i, kinds.size() - 1)];
}

// Whether the literal `literal` of a pattern is an index (a length, a
// dimension, an index into an array) rather than data.
bool IsIndexLiteral(const ir::Node& literal) {
  const ir::Node* parent = literal.parent();
  if (parent == nullptr) return false;
  size_t position = literal.position();
  if (parent->is(ir::Op::kIndex)) return position == 1;
  std::optional<ir::OperandKind> kind = OperandKindAt(parent->op(), position);
  return kind == ir::OperandKind::kInt || kind == ir::OperandKind::kInts;
}

// The element type of a value of type `type`, if it has one.
std::optional<ElemType> ElemOf(const std::optional<ir::Type>& type) {
  if (!type) return std::nullopt;
  if (type->is_elem() || type->is_shaped()) return type->elem();
  return std::nullopt;
}

// Whether class `id` holds a literal of `value`'s value.
bool HoldsLiteral(const egraph::EGraph& g, const TirEncoding& encoding,
                  ClassId id, const ir::Node& value) {
  const egraph::PayloadTable& payloads = encoding.payloads();
  for (egraph::NodeId n : g.Nodes(g.Find(id))) {
    egraph::ENodeRef node = g.Node(n);
    if (encoding.Meaning(node.op).op != ir::Op::kConst) continue;
    double held = payloads.Kind(node.payload) == egraph::PayloadKind::kFloat
                      ? payloads.FloatValue(node.payload)
                      : static_cast<double>(payloads.IntValue(node.payload));
    double wanted = value.is_float_literal()
                        ? value.float_value()
                        : static_cast<double>(value.int_value());
    if (held == wanted) return true;
  }
  return false;
}

// How many lams enclose `node` inside its pattern.
int64_t DepthOf(const ir::Node& node) {
  int64_t depth = 0;
  for (const ir::Node* p = node.parent(); p != nullptr; p = p->parent()) {
    if (p->is(ir::Op::kLam)) ++depth;
  }
  return depth;
}

// The right side of a rule, built for each match: variables are moved to
// the depth they are used at (LIAR's shift, on a term of their class),
// literals take the element type of their context.
class TirApplier : public egraph::Applier {
 public:
  TirApplier(const ir::Node* rhs,
             absl::flat_hash_map<const ir::Node*, egraph::VarId> var_of,
             absl::flat_hash_map<egraph::VarId, int64_t> lhs_depth,
             TirEncoding* encoding, const TirAnalysis* analysis,
             std::shared_ptr<AvoidingTerms> avoiding)
      : rhs_(rhs),
        var_of_(std::move(var_of)),
        lhs_depth_(std::move(lhs_depth)),
        encoding_(encoding),
        analysis_(analysis),
        avoiding_(std::move(avoiding)) {}

  bool Apply(egraph::EGraph& g,
             const egraph::ApplyContext& match) const override {
    std::optional<ElemType> elem = ElemOf(analysis_->Get(g, match.root).type);
    std::optional<ClassId> built = Build(g, match, *rhs_, 0, elem);
    return built && g.Union(match.root, *built, match.why);
  }

 private:
  std::optional<ClassId> Build(egraph::EGraph& g,
                               const egraph::ApplyContext& match,
                               const ir::Node& node, int64_t depth,
                               std::optional<ElemType> elem) const {
    if (node.is(ir::Op::kMeta)) {
      egraph::VarId var = var_of_.at(&node);
      return Moved(g, match.subst[var], lhs_depth_.at(var), depth);
    }
    if (node.is(ir::Op::kConst)) {
      ir::Type type = ir::Type::Control(ControlType::kIndex);
      if (!IsIndexLiteral(node)) {
        if (!elem) return std::nullopt;
        type = ir::Type::Elem(*elem);
      }
      return g.AddOccurrence(encoding_->LiteralOp(type),
                             encoding_->LiteralPayload(node, type), {});
    }
    int64_t inner = node.is(ir::Op::kLam) ? depth + 1 : depth;
    // Operands that are not literals first: their types give the literals
    // beside them theirs.
    std::vector<ClassId> children(node.num_operands(), egraph::kNoId);
    for (size_t i = 0; i < node.num_operands(); ++i) {
      if (node.operand(i)->is(ir::Op::kConst)) continue;
      std::optional<ClassId> child =
          Build(g, match, *node.operand(i), inner, elem);
      if (!child) return std::nullopt;
      children[i] = *child;
      if (std::optional<ElemType> found =
              ElemOf(analysis_->Get(g, *child).type)) {
        elem = found;
      }
    }
    for (size_t i = 0; i < node.num_operands(); ++i) {
      if (children[i] != egraph::kNoId) continue;
      std::optional<ClassId> child =
          Build(g, match, *node.operand(i), inner, elem);
      if (!child) return std::nullopt;
      children[i] = *child;
    }
    return g.AddOccurrence(encoding_->OpOf(node), encoding_->PayloadOf(node),
                           children);
  }

  // Class `id`, matched under `from` lams, used under `to`.
  std::optional<ClassId> Moved(egraph::EGraph& g, ClassId id, int64_t from,
                               int64_t to) const {
    if (from == to) return id;
    const std::optional<egraph::Term>& term =
        avoiding_->Get(g, *encoding_, id, from);
    if (!term) return std::nullopt;
    return g.AddTerm(ShiftTerm(*term, *encoding_, to - from));
  }

  const ir::Node* rhs_;
  absl::flat_hash_map<const ir::Node*, egraph::VarId> var_of_;
  absl::flat_hash_map<egraph::VarId, int64_t> lhs_depth_;
  TirEncoding* encoding_;
  const TirAnalysis* analysis_;
  std::shared_ptr<AvoidingTerms> avoiding_;
};

// (apply beta ?body ?arg) on (app (lam ?body) ?arg): LIAR's R-BETAREDUCE.
class BetaApplier : public egraph::Applier {
 public:
  BetaApplier(egraph::VarId body, egraph::VarId arg, TirEncoding* encoding,
              std::shared_ptr<AvoidingTerms> avoiding)
      : body_(body),
        arg_(arg),
        encoding_(encoding),
        avoiding_(std::move(avoiding)) {}

  bool Apply(egraph::EGraph& g,
             const egraph::ApplyContext& match) const override {
    const std::optional<egraph::Term>& body =
        avoiding_->Get(g, *encoding_, match.subst[body_], 0);
    const std::optional<egraph::Term>& arg =
        avoiding_->Get(g, *encoding_, match.subst[arg_], 0);
    if (!body || !arg) return false;
    ClassId reduced = g.AddTerm(SubstituteTerm(*body, *arg, *encoding_));
    return g.Union(match.root, reduced, match.why);
  }

 private:
  egraph::VarId body_;
  egraph::VarId arg_;
  TirEncoding* encoding_;
  std::shared_ptr<AvoidingTerms> avoiding_;
};

// An integer-literal argument of a condition.
absl::StatusOr<int64_t> IntArg(const Call& call, size_t i,
                               const RuleScope& scope) {
  if (!call.args[i].is_int()) {
    return scope.Error(call.args[i].loc(),
                       absl::StrCat("'", call.name, "' needs an integer here"));
  }
  return call.args[i].int_value();
}

// A count of lams, argument `i` of `call`: the second of `independent`,
// the optional last of `generalize` and `instance` (how many lams of their
// own the terms are under; 0 if not given).
absl::StatusOr<int64_t> LamCount(const Call& call, size_t i,
                                 const RuleScope& scope) {
  if (call.args.size() <= i) return 0;
  auto bound = IntArg(call, i, scope);
  if (!bound.ok()) return bound.status();
  if (*bound < 0) {
    return scope.Error(call.args[i].loc(),
                       absl::StrCat("'", call.name, "' needs a count >= 0"));
  }
  return *bound;
}

absl::Status ExpectArgsBetween(const Call& call, size_t lo, size_t hi,
                               const RuleScope& scope) {
  if (call.args.size() >= lo && call.args.size() <= hi) {
    return absl::OkStatus();
  }
  return scope.Error(call.loc, absl::StrCat("'", call.name, "' takes ", lo,
                                            " or ", hi, " arguments"));
}

}  // namespace

TirBinding::TirBinding(TirEncoding* encoding, const TirAnalysis* analysis)
    : encoding_(encoding),
      analysis_(analysis),
      patterns_(std::make_unique<ir::Module>()),
      avoiding_terms_(std::make_shared<AvoidingTerms>()) {
  DefineConditions();
  DefineSumFolds();
  DefineAppliers();
  DefineAccessClauses(*this, encoding_, analysis_);
}

TirBinding::~TirBinding() = default;

absl::StatusOr<const ir::Node*> TirBinding::ReadPattern(
    const Sexpr& form) const {
  return ir::ReadPattern(form, *patterns_);
}

absl::StatusOr<egraph::Pattern> TirBinding::Encode(
    const ir::Node& root, egraph::VarTable* vars,
    std::vector<egraph::Condition>* implied) const {
  egraph::Pattern pattern;
  absl::Status status = absl::OkStatus();
  // Post-order: children before parents, as Pattern's builder wants.
  auto encode = [&](auto& self, const ir::Node& node) -> uint32_t {
    if (node.is(ir::Op::kMeta))
      return pattern.AddVar(vars->Intern(node.name()));
    if (node.is(ir::Op::kConst)) {
      if (IsIndexLiteral(node)) {
        ir::Type index = ir::Type::Control(ControlType::kIndex);
        return pattern.AddNode(encoding_->LiteralOp(index),
                               encoding_->LiteralPayload(node, index));
      }
      if (implied == nullptr) {
        status = ErrorAt(node.loc(),
                         "a data literal may only be matched or built by a "
                         "rule's sides, where its type is known");
        return pattern.AddVar(vars->Intern("?"));
      }
      // Data literals match by value whatever their element type: a
      // variable of their own, with a condition.
      // (Named so that no rule can write it: not a ?variable.)
      egraph::VarId var =
          vars->Intern(absl::StrCat("literal#", implied->size()));
      const TirEncoding* encoding = encoding_;
      const ir::Node* literal = &node;
      implied->push_back([encoding, var, literal](egraph::EGraph& g, ClassId,
                                                  const egraph::Subst& s) {
        return HoldsLiteral(g, *encoding, s[var], *literal);
      });
      return pattern.AddVar(var);
    }
    std::vector<uint32_t> children;
    for (const ir::Node* operand : node.operands()) {
      children.push_back(self(self, *operand));
    }
    return pattern.AddNode(encoding_->OpOf(node), encoding_->PayloadOf(node),
                           children);
  };
  encode(encode, root);
  if (!status.ok()) return status;
  return pattern;
}

absl::StatusOr<egraph::Pattern> TirBinding::CompilePattern(
    const Sexpr& form, egraph::VarTable* vars) const {
  auto node = ReadPattern(form);
  if (!node.ok()) return node.status();
  return Encode(**node, vars, nullptr);
}

absl::StatusOr<egraph::Pattern> TirBinding::CompileLeft(
    const Sexpr& form, egraph::VarTable* vars,
    std::vector<egraph::Condition>* implied) const {
  auto node = ReadPattern(form);
  if (!node.ok()) return node.status();
  return Encode(**node, vars, implied);
}

absl::StatusOr<std::shared_ptr<const egraph::Applier>> TirBinding::CompileRight(
    const egraph::rules::RuleDecl& rule, RuleScope& scope) const {
  auto lhs = ReadPattern(rule.lhs);
  if (!lhs.ok()) return lhs.status();
  auto rhs = ReadPattern(rule.rhs);
  if (!rhs.ok()) return rhs.status();
  if (auto status = CheckRuleSorts(**lhs, **rhs, scope); !status.ok()) {
    return status;
  }
  absl::flat_hash_map<egraph::VarId, int64_t> lhs_depth;
  absl::Status status = absl::OkStatus();
  auto record_lhs = [&](auto& self, const ir::Node& node) -> void {
    if (node.is(ir::Op::kMeta)) {
      egraph::VarId var = scope.vars().Intern(node.name());
      auto [it, fresh] = lhs_depth.emplace(var, DepthOf(node));
      if (!fresh && it->second != DepthOf(node) && status.ok()) {
        status =
            scope.Error(node.loc(), absl::StrCat("'", node.name(),
                                                 "' is matched under different "
                                                 "numbers of lams"));
      }
    }
    for (const ir::Node* operand : node.operands()) self(self, *operand);
  };
  record_lhs(record_lhs, **lhs);
  if (!status.ok()) return status;
  absl::flat_hash_map<const ir::Node*, egraph::VarId> var_of;
  auto record_rhs = [&](auto& self, const ir::Node& node) -> void {
    if (node.is(ir::Op::kMeta)) {
      std::optional<egraph::VarId> var = scope.vars().Find(node.name());
      if (!var || !scope.IsBound(*var)) {
        if (status.ok()) {
          status =
              scope.Error(node.loc(), absl::StrCat("'", node.name(),
                                                   "' is not bound by the left "
                                                   "side or a let; a rule that "
                                                   "makes up terms needs an "
                                                   "applier"));
        }
        return;
      }
      // Variables bound by lets are used where they were made.
      lhs_depth.try_emplace(*var, DepthOf(node));
      var_of.emplace(&node, *var);
    }
    for (const ir::Node* operand : node.operands()) self(self, *operand);
  };
  record_rhs(record_rhs, **rhs);
  if (!status.ok()) return status;
  return std::make_shared<TirApplier>(*rhs, std::move(var_of),
                                      std::move(lhs_depth), encoding_,
                                      analysis_, avoiding_terms_);
}

void TirBinding::DefineConditions() {
  const TirAnalysis* analysis = analysis_;
  // (dim ?a K ?n): dimension K of ?a's type is ?n's value.
  DefineCondition(
      "dim",
      [analysis](const Call& call,
                 RuleScope& scope) -> absl::StatusOr<egraph::Condition> {
        if (auto status = scope.ExpectArgs(call, 3); !status.ok()) {
          return status;
        }
        auto array = scope.BoundVar(call.args[0]);
        if (!array.ok()) return array.status();
        auto k = IntArg(call, 1, scope);
        if (!k.ok()) return k.status();
        auto extent = scope.BoundVar(call.args[2]);
        if (!extent.ok()) return extent.status();
        return [analysis, a = *array, k = *k, n = *extent](
                   egraph::EGraph& g, ClassId, const egraph::Subst& s) {
          const std::optional<ir::Type>& type = analysis->Get(g, s[a]).type;
          std::optional<int64_t> value = analysis->Get(g, s[n]).integer;
          if (!type || !type->is_shaped() || !value || k >= type->rank()) {
            return false;
          }
          const ir::Dim& dim = type->dims()[k];
          return dim.is_constant() && dim.value == *value;
        };
      });
  // (rank ?a R): ?a's type has rank R (a scalar has rank 0).
  DefineCondition(
      "rank",
      [analysis](const Call& call,
                 RuleScope& scope) -> absl::StatusOr<egraph::Condition> {
        if (auto status = scope.ExpectArgs(call, 2); !status.ok()) {
          return status;
        }
        auto array = scope.BoundVar(call.args[0]);
        if (!array.ok()) return array.status();
        auto rank = IntArg(call, 1, scope);
        if (!rank.ok()) return rank.status();
        return [analysis, a = *array, r = *rank](egraph::EGraph& g, ClassId,
                                                 const egraph::Subst& s) {
          const std::optional<ir::Type>& type = analysis->Get(g, s[a]).type;
          if (!type) return false;
          if (type->is_elem()) return r == 0;
          return type->is_shaped() && type->rank() == r;
        };
      });
  // (elem ?a T...): ?a's element type is one of the types T (a library
  // that has no routine for the others: BLAS computes in f32 and f64).
  DefineCondition(
      "elem",
      [analysis](const Call& call,
                 RuleScope& scope) -> absl::StatusOr<egraph::Condition> {
        if (call.args.size() < 2) {
          return scope.Error(call.loc,
                             "'elem' takes ?a and one or more element types");
        }
        auto value = scope.BoundVar(call.args[0]);
        if (!value.ok()) return value.status();
        std::vector<ElemType> types;
        for (size_t i = 1; i < call.args.size(); ++i) {
          std::optional<ElemType> type =
              call.args[i].is_symbol() ? ParseElemType(call.args[i].text())
                                       : std::nullopt;
          if (!type) {
            return scope.Error(call.args[i].loc(),
                               "'elem' needs an element type here");
          }
          types.push_back(*type);
        }
        return [analysis, a = *value, types](egraph::EGraph& g, ClassId,
                                             const egraph::Subst& s) {
          std::optional<ElemType> elem = ElemOf(analysis->Get(g, s[a]).type);
          return elem && absl::c_linear_search(types, *elem);
        };
      });
  // (independent ?a K): a term of ?a's class refers to none of the K lams
  // around it (%0 ... %(K-1)), so neither does its value; (closed ?a): to
  // none at all (a parameter, a literal, a call on them), the same value
  // wherever it occurs.
  TirEncoding* encoding = encoding_;
  std::shared_ptr<AvoidingTerms> avoiding = avoiding_terms_;
  for (bool closed : {false, true}) {
    DefineCondition(
        closed ? "closed" : "independent",
        [encoding, analysis, avoiding, closed](
            const Call& call,
            RuleScope& scope) -> absl::StatusOr<egraph::Condition> {
          if (auto status = scope.ExpectArgs(call, closed ? 1 : 2);
              !status.ok()) {
            return status;
          }
          auto value = scope.BoundVar(call.args[0]);
          if (!value.ok()) return value.status();
          // -1 for all of them (closed).
          auto lams =
              closed ? absl::StatusOr<int64_t>(-1) : LamCount(call, 1, scope);
          if (!lams.ok()) return lams.status();
          return [encoding, analysis, avoiding, a = *value, k = *lams](
                     egraph::EGraph& g, ClassId, const egraph::Subst& s) {
            // A variable every term of the class has (the analysis keeps
            // their intersection, %63 standing for all from 63 up) rules
            // the class out without looking for a term.
            VarSet window =
                k >= 0 && k < 64 ? (VarSet{1} << k) - 1 : ~VarSet{0};
            if ((analysis->Get(g, s[a]).free & window) != 0) return false;
            // A window above every variable forbids them all.
            int64_t bound =
                k >= 0 ? k : AvoidingExtractor::MaxVar(g, *encoding) + 1;
            return avoiding->Get(g, *encoding, s[a], bound).has_value();
          };
        });
  }
}

void TirBinding::DefineSumFolds() {
  TirEncoding* encoding = encoding_;
  std::shared_ptr<AvoidingTerms> avoiding = avoiding_terms_;
  // (generalize ?a ?b [K]): the step of a fold whose first two steps are
  // ?a and ?b, under K lams of their own (sum_folds.h).
  DefineBinder("generalize",
               [encoding, avoiding](const Call& call, RuleScope& scope)
                   -> absl::StatusOr<egraph::rules::Binder> {
                 if (auto status = ExpectArgsBetween(call, 2, 3, scope);
                     !status.ok()) {
                   return status;
                 }
                 auto a = scope.BoundVar(call.args[0]);
                 if (!a.ok()) return a.status();
                 auto b = scope.BoundVar(call.args[1]);
                 if (!b.ok()) return b.status();
                 auto bound = LamCount(call, 2, scope);
                 if (!bound.ok()) return bound.status();
                 return [encoding, avoiding, a = *a, b = *b, bound = *bound](
                            egraph::EGraph& g, ClassId, const egraph::Subst& s,
                            std::vector<ClassId>* out) {
                   std::optional<egraph::Term> step =
                       Generalize(g, *encoding, *avoiding, s[a], s[b], bound);
                   if (step) out->push_back(g.AddTerm(*step));
                 };
               });
  // (instance ?f ?n ?t [K]): the step ?f at index ?n (an integer) is ?t.
  const TirAnalysis* analysis = analysis_;
  DefineCondition(
      "instance",
      [encoding, avoiding, analysis](const Call& call, RuleScope& scope)
          -> absl::StatusOr<egraph::Condition> {
        if (auto status = ExpectArgsBetween(call, 3, 4, scope); !status.ok()) {
          return status;
        }
        auto f = scope.BoundVar(call.args[0]);
        if (!f.ok()) return f.status();
        auto n = scope.BoundVar(call.args[1]);
        if (!n.ok()) return n.status();
        auto t = scope.BoundVar(call.args[2]);
        if (!t.ok()) return t.status();
        auto bound = LamCount(call, 3, scope);
        if (!bound.ok()) return bound.status();
        return [encoding, avoiding, analysis, f = *f, n = *n, t = *t,
                bound = *bound](egraph::EGraph& g, ClassId,
                                const egraph::Subst& s) {
          std::optional<int64_t> index = analysis->Get(g, s[n]).integer;
          return index &&
                 IsInstance(g, *encoding, *avoiding, s[f], *index, s[t], bound);
        };
      });
}

void TirBinding::DefineAppliers() {
  TirEncoding* encoding = encoding_;
  std::shared_ptr<AvoidingTerms> avoiding = avoiding_terms_;
  DefineApplier("beta",
                [encoding, avoiding](const Call& call, RuleScope& scope)
                    -> absl::StatusOr<std::shared_ptr<const egraph::Applier>> {
                  if (auto status = scope.ExpectArgs(call, 2); !status.ok()) {
                    return status;
                  }
                  auto body = scope.BoundVar(call.args[0]);
                  if (!body.ok()) return body.status();
                  auto arg = scope.BoundVar(call.args[1]);
                  if (!arg.ok()) return arg.status();
                  return std::make_shared<BetaApplier>(*body, *arg, encoding,
                                                       avoiding);
                });
}

}  // namespace tessel::saturate
