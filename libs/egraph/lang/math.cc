#include "libs/egraph/lang/math.h"

#include <cmath>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"

namespace tessel::egraph::lang {
namespace {

using rules::Call;
using rules::RuleScope;

const std::pair<const char*, size_t> kOps[] = {
    {"d", 2},   {"i", 2},  {"+", 2},    {"-", 2},   {"*", 2},   {"/", 2},
    {"pow", 2}, {"ln", 1}, {"sqrt", 1}, {"sin", 1}, {"cos", 1},
};

// Leaves are numbers (egg's NotNan<f64>: any double but NaN) and symbols.
absl::Status CheckLeaf(const Sexpr& atom) {
  if (atom.is_float() && std::isnan(atom.float_value())) {
    return ErrorAt(atom.loc(), "math constants cannot be NaN");
  }
  return absl::OkStatus();
}

const std::optional<double>& Constant(const EGraph& g, ClassId id) {
  return AnalysisIn<ConstantFold>(g).Get(g, id);
}

bool HasSymbol(const EGraph& g, ClassId id, OpId symbol_op) {
  const ClassId c = g.Find(id);
  // Most classes have no symbol, and their op summary says so without
  // reading their e-nodes (on integ_part1 the scan took 8% of the run).
  if ((g.OpMask(c) & EGraph::OpBit(symbol_op)) == 0) return false;
  for (NodeId n : g.Nodes(c)) {
    if (g.Node(n).op == symbol_op) return true;
  }
  return false;
}

// A condition on one variable: (NAME ?x).
template <typename Test>
rules::Binding::ConditionMaker OnVar(Test test) {
  return
      [test](const Call& call, RuleScope& scope) -> absl::StatusOr<Condition> {
        if (absl::Status s = scope.ExpectArgs(call, 1); !s.ok()) return s;
        auto var = scope.BoundVar(call.args[0]);
        if (!var.ok()) return var.status();
        return Condition([test, v = *var](EGraph& g, ClassId, const Subst& s) {
          return test(g, s[v]);
        });
      };
}

}  // namespace

ConstantFold::ConstantFold(OpId number_op, const OpTable& ops)
    : number_op_(number_op) {
  fold_.resize(ops.size(), Fold::kNone);
  const std::pair<const char*, Fold> folds[] = {{"+", Fold::kAdd},
                                                {"-", Fold::kSub},
                                                {"*", Fold::kMul},
                                                {"/", Fold::kDiv}};
  for (const auto& [name, fold] : folds) {
    if (std::optional<OpId> op = ops.Find(name)) fold_[*op] = fold;
  }
}

std::optional<double> ConstantFold::Make(const EGraph& g,
                                         const ENodeRef& node) {
  if (node.op == number_op_) return g.payloads().FloatValue(node.payload);
  Fold fold = node.op < fold_.size() ? fold_[node.op] : Fold::kNone;
  if (fold == Fold::kNone || node.children.size() != 2) return std::nullopt;
  const std::optional<double>& a = Get(g, node.children[0]);
  const std::optional<double>& b = Get(g, node.children[1]);
  if (!a.has_value() || !b.has_value()) return std::nullopt;
  double value = 0;
  switch (fold) {
    case Fold::kAdd:
      value = *a + *b;
      break;
    case Fold::kSub:
      value = *a - *b;
      break;
    case Fold::kMul:
      value = *a * *b;
      break;
    case Fold::kDiv:
      if (*b == 0) return std::nullopt;  // egg does not fold x / 0
      value = *a / *b;
      break;
    case Fold::kNone:
      break;
  }
  // egg's NotNan would abort (inf - inf); leave such a class unfolded.
  if (std::isnan(value)) return std::nullopt;
  return value;
}

DidMerge ConstantFold::Merge(std::optional<double>& into,
                             std::optional<double> from) {
  if (!from.has_value()) return {false, into.has_value()};
  if (!into.has_value()) {
    into = from;
    return {true, false};
  }
  if (*into != *from) ++conflicts_;
  return {false, false};
}

void ConstantFold::Modify(EGraph& g, ClassId id) {
  const std::optional<double> value = (*this)[id];
  if (!value.has_value()) return;
  if (reason_ == kNoId) reason_ = g.InternReason("constant_fold");
  ClassId constant = g.Add(number_op_, g.payloads().Float(*value));
  g.Union(id, constant, Justification::Because(reason_));
  g.RemoveNodesIf(g.Find(id),
                  [&g](NodeId n) { return !g.Node(n).children.empty(); });
}

MathLanguage::MathLanguage()
    : Language(kOps, SymbolicLanguage::Numbers::kFloat, CheckLeaf) {
  rules::SymbolicBinding& binding = mutable_binding();
  const OpId symbol_op = symbolic().symbol_op();

  binding.DefineCondition("is-not-zero", OnVar([](const EGraph& g, ClassId x) {
                            const std::optional<double>& c = Constant(g, x);
                            return !c.has_value() || *c != 0;
                          }));
  binding.DefineCondition("is-const", OnVar([](const EGraph& g, ClassId x) {
                            return Constant(g, x).has_value();
                          }));
  binding.DefineCondition("is-sym",
                          OnVar([symbol_op](const EGraph& g, ClassId x) {
                            return HasSymbol(g, x, symbol_op);
                          }));
  // (is-const-or-distinct-var ?c ?x): ?c is a constant or a symbol other
  // than ?x.
  binding.DefineCondition(
      "is-const-or-distinct-var",
      [symbol_op](const Call& call,
                  RuleScope& scope) -> absl::StatusOr<Condition> {
        if (absl::Status s = scope.ExpectArgs(call, 2); !s.ok()) return s;
        auto c = scope.BoundVar(call.args[0]);
        if (!c.ok()) return c.status();
        auto x = scope.BoundVar(call.args[1]);
        if (!x.ok()) return x.status();
        return Condition(
            [symbol_op, c = *c, x = *x](EGraph& g, ClassId, const Subst& s) {
              return g.Find(s[c]) != g.Find(s[x]) &&
                     (Constant(g, s[c]).has_value() ||
                      HasSymbol(g, s[c], symbol_op));
            });
      });
}

std::unique_ptr<Analysis> MathLanguage::NewAnalysis() const {
  return std::make_unique<ConstantFold>(symbolic().number_op(), ops());
}

size_t MathLanguage::Conflicts(const Analysis& analysis) const {
  return static_cast<const ConstantFold&>(analysis).conflicts();
}

}  // namespace tessel::egraph::lang
