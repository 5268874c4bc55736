#include "libs/egraph/lang/lambda.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <limits>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"

namespace tessel::egraph::lang {
namespace {

using rules::Call;
using rules::RuleScope;

const std::pair<const char*, size_t> kOps[] = {
    {"var", 1}, {"+", 2},   {"=", 2},   {"app", 2},
    {"lam", 2}, {"let", 3}, {"fix", 2}, {"if", 3},
};

// Leaves are 32-bit integers (egg's i32) and symbols, true and false among
// them.
absl::Status CheckLeaf(const Sexpr& atom) {
  if (atom.is_float()) {
    return ErrorAt(atom.loc(), "lambda numbers are integers");
  }
  if (atom.is_int() &&
      (atom.int_value() < std::numeric_limits<int32_t>::min() ||
       atom.int_value() > std::numeric_limits<int32_t>::max())) {
    return ErrorAt(atom.loc(), "lambda integers are 32-bit");
  }
  return absl::OkStatus();
}

std::vector<ClassId> Union(const std::vector<ClassId>& a,
                           const std::vector<ClassId>& b) {
  std::vector<ClassId> out;
  out.reserve(a.size() + b.size());
  std::set_union(a.begin(), a.end(), b.begin(), b.end(),
                 std::back_inserter(out));
  return out;
}

void Erase(std::vector<ClassId>& set, ClassId id) {
  auto it = std::lower_bound(set.begin(), set.end(), id);
  if (it != set.end() && *it == id) set.erase(it);
}

// egg's CaptureAvoid: (let ?v1 ?e (lam ?v2 ?body)) becomes IF-NOT-FREE,
// unless ?v2 occurs free in ?e; then ?fresh is bound to a new symbol named
// after the matched class and the rule builds IF-FREE, which renames ?v2.
class CaptureAvoid : public Applier {
 public:
  CaptureAvoid(OpId symbol_op, VarId fresh, VarId v2, VarId e,
               Pattern if_not_free, Pattern if_free, uint32_t num_vars)
      : symbol_op_(symbol_op),
        fresh_(fresh),
        v2_(v2),
        e_(e),
        if_not_free_(std::move(if_not_free)),
        if_free_(std::move(if_free)),
        num_vars_(num_vars) {}

  bool Apply(EGraph& g, const ApplyContext& match) const override {
    const std::vector<ClassId>& free =
        AnalysisIn<LambdaAnalysis>(g).Get(g, match.subst[e_]).free;
    ClassId rhs;
    if (std::binary_search(free.begin(), free.end(),
                           g.Find(match.subst[v2_]))) {
      std::vector<ClassId> subst(num_vars_, kNoId);
      absl::Span<const ClassId> given = match.subst.classes();
      std::copy_n(given.begin(), std::min<size_t>(given.size(), num_vars_),
                  subst.begin());
      subst[fresh_] =
          g.Add(symbol_op_, g.payloads().Symbol(absl::StrCat("_", match.root)));
      rhs = Instantiate(g, if_free_, Subst(subst));
    } else {
      rhs = Instantiate(g, if_not_free_, match.subst);
    }
    return g.Union(match.root, rhs, match.why);
  }

 private:
  OpId symbol_op_;
  VarId fresh_, v2_, e_;
  Pattern if_not_free_, if_free_;
  uint32_t num_vars_;
};

// (apply capture-avoid ?fresh ?v2 ?e IF-NOT-FREE IF-FREE)
absl::StatusOr<std::shared_ptr<const Applier>> MakeCaptureAvoid(
    OpId symbol_op, const Call& call, RuleScope& scope) {
  if (absl::Status s = scope.ExpectArgs(call, 5); !s.ok()) return s;
  auto v2 = scope.BoundVar(call.args[1]);
  if (!v2.ok()) return v2.status();
  auto e = scope.BoundVar(call.args[2]);
  if (!e.ok()) return e.status();
  auto if_not_free = scope.BoundPattern(call.args[3]);
  if (!if_not_free.ok()) return if_not_free.status();
  auto fresh = scope.FreshVar(call.args[0]);
  if (!fresh.ok()) return fresh.status();
  auto if_free = scope.BoundPattern(call.args[4]);
  if (!if_free.ok()) return if_free.status();
  return std::make_shared<CaptureAvoid>(
      symbol_op, *fresh, *v2, *e, *std::move(if_not_free), *std::move(if_free),
      scope.vars().size());
}

}  // namespace

LambdaAnalysis::LambdaAnalysis(const OpTable& ops,
                               const SymbolicLanguage& symbolic)
    : var_(*ops.Find("var")),
      add_(*ops.Find("+")),
      eq_(*ops.Find("=")),
      lam_(*ops.Find("lam")),
      let_(*ops.Find("let")),
      fix_(*ops.Find("fix")),
      number_op_(symbolic.number_op()),
      symbol_op_(symbolic.symbol_op()),
      true_(symbolic.payloads().Symbol("true")),
      false_(symbolic.payloads().Symbol("false")) {}

std::optional<LambdaConstant> LambdaAnalysis::Eval(const EGraph& g,
                                                   const ENodeRef& node) const {
  if (node.op == number_op_) return LambdaConstant{node.op, node.payload};
  if (node.op == symbol_op_) {
    if (node.payload == true_ || node.payload == false_) {
      return LambdaConstant{node.op, node.payload};
    }
    return std::nullopt;
  }
  if ((node.op != add_ && node.op != eq_) || node.children.size() != 2) {
    return std::nullopt;
  }
  const std::optional<LambdaConstant>& a = Get(g, node.children[0]).constant;
  const std::optional<LambdaConstant>& b = Get(g, node.children[1]).constant;
  if (!a.has_value() || !b.has_value()) return std::nullopt;
  if (node.op == eq_) {
    return LambdaConstant{symbol_op_, *a == *b ? true_ : false_};
  }
  if (a->op != number_op_ || b->op != number_op_) return std::nullopt;
  PayloadTable& payloads = g.payloads();
  int64_t sum = payloads.IntValue(a->payload) + payloads.IntValue(b->payload);
  if (sum < std::numeric_limits<int32_t>::min() ||
      sum > std::numeric_limits<int32_t>::max()) {
    return std::nullopt;  // egg's checked_add
  }
  return LambdaConstant{number_op_, payloads.Int(sum)};
}

LambdaData LambdaAnalysis::Make(const EGraph& g, const ENodeRef& node) {
  LambdaData data;
  auto free_of = [&](ClassId child) -> const std::vector<ClassId>& {
    return Get(g, child).free;
  };
  if (node.op == var_) {
    data.free.push_back(g.Find(node.children[0]));
  } else if (node.op == let_) {
    // (let v a b): v is bound in b only.
    data.free = free_of(node.children[2]);
    Erase(data.free, g.Find(node.children[0]));
    data.free = Union(data.free, free_of(node.children[1]));
  } else if (node.op == lam_ || node.op == fix_) {
    data.free = free_of(node.children[1]);
    Erase(data.free, g.Find(node.children[0]));
  } else {
    for (ClassId child : node.children) {
      data.free = Union(data.free, free_of(child));
    }
  }
  data.constant = Eval(g, node);
  return data;
}

DidMerge LambdaAnalysis::Merge(LambdaData& into, LambdaData from) {
  size_t before = into.free.size();
  std::vector<ClassId> common;
  std::set_intersection(into.free.begin(), into.free.end(), from.free.begin(),
                        from.free.end(), std::back_inserter(common));
  into.free = std::move(common);
  DidMerge result{before != into.free.size(),
                  into.free.size() != from.free.size()};
  if (!from.constant.has_value()) {
    return result | DidMerge{false, into.constant.has_value()};
  }
  if (!into.constant.has_value()) {
    into.constant = from.constant;
    return result | DidMerge{true, false};
  }
  if (!(*into.constant == *from.constant)) ++conflicts_;
  return result;
}

void LambdaAnalysis::Modify(EGraph& g, ClassId id) {
  const std::optional<LambdaConstant> constant = (*this)[id].constant;
  if (!constant.has_value()) return;
  if (reason_ == kNoId) reason_ = g.InternReason("analysis");
  ClassId leaf = g.Add(constant->op, constant->payload);
  g.Union(id, leaf, Justification::Because(reason_));
}

LambdaLanguage::LambdaLanguage()
    : Language(kOps, SymbolicLanguage::Numbers::kAsWritten, CheckLeaf) {
  rules::SymbolicBinding& binding = mutable_binding();
  binding.DefineCondition(
      "is-const",
      [](const Call& call, RuleScope& scope) -> absl::StatusOr<Condition> {
        if (absl::Status s = scope.ExpectArgs(call, 1); !s.ok()) return s;
        auto var = scope.BoundVar(call.args[0]);
        if (!var.ok()) return var.status();
        return Condition([v = *var](EGraph& g, ClassId, const Subst& s) {
          return AnalysisIn<LambdaAnalysis>(g)
              .Get(g, s[v])
              .constant.has_value();
        });
      });
  binding.DefineApplier(
      "capture-avoid",
      [symbol_op = symbolic().symbol_op()](const Call& call, RuleScope& scope) {
        return MakeCaptureAvoid(symbol_op, call, scope);
      });
}

std::unique_ptr<Analysis> LambdaLanguage::NewAnalysis() const {
  return std::make_unique<LambdaAnalysis>(ops(), symbolic());
}

size_t LambdaLanguage::Conflicts(const Analysis& analysis) const {
  return static_cast<const LambdaAnalysis&>(analysis).conflicts();
}

}  // namespace tessel::egraph::lang
