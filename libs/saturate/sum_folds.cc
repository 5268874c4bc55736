#include "libs/saturate/sum_folds.h"

#include <functional>
#include <map>
#include <utility>
#include <vector>

#include "libs/ir/op.h"
#include "libs/ir/type.h"

namespace tessel::saturate {
namespace {

using egraph::ClassId;
using egraph::Term;

// An index expression as an affine function of De Bruijn variables.
struct Affine {
  std::map<int64_t, int64_t> coefficients;  // variable -> its factor
  int64_t constant = 0;

  void Add(const Affine& other, int64_t factor) {
    for (const auto& [var, c] : other.coefficients) {
      coefficients[var] += factor * c;
      if (coefficients[var] == 0) coefficients.erase(var);
    }
    constant += factor * other.constant;
  }
  bool operator==(const Affine&) const = default;
};

// The affine form of node `i` of `term`, with each variable %K replaced by
// `var(K)`; nullopt if it is not affine or a variable has no replacement.
using VarMap = std::function<std::optional<Affine>(int64_t)>;

std::optional<Affine> AffineOf(const Term& term, uint32_t i,
                               const TirEncoding& encoding, const VarMap& var) {
  const Term::Node& node = term.node(i);
  if (node.op == encoding.var_op()) return var(encoding.VarIndex(node.payload));
  const OpMeaning& meaning = encoding.Meaning(node.op);
  if (meaning.op == ir::Op::kConst) {
    if (!meaning.literal_type || !meaning.literal_type->is_control()) {
      return std::nullopt;
    }
    return Affine{{}, encoding.payloads().IntValue(node.payload)};
  }
  auto operand = [&](size_t k) {
    return AffineOf(term, term.children(i)[k], encoding, var);
  };
  switch (meaning.op) {
    case ir::Op::kNeg: {
      std::optional<Affine> a = operand(0);
      if (!a) return std::nullopt;
      Affine negated;
      negated.Add(*a, -1);
      return negated;
    }
    case ir::Op::kAdd:
    case ir::Op::kSub: {
      std::optional<Affine> a = operand(0);
      std::optional<Affine> b = operand(1);
      if (!a || !b) return std::nullopt;
      a->Add(*b, meaning.op == ir::Op::kAdd ? 1 : -1);
      return a;
    }
    case ir::Op::kMul: {
      std::optional<Affine> a = operand(0);
      std::optional<Affine> b = operand(1);
      if (!a || !b) return std::nullopt;
      if (!a->coefficients.empty()) std::swap(a, b);
      if (!a->coefficients.empty()) return std::nullopt;  // not affine
      Affine scaled;
      scaled.Add(*b, a->constant);
      return scaled;
    }
    default:
      return std::nullopt;
  }
}

std::optional<Affine> Identity(int64_t k) { return Affine{{{k, 1}}, 0}; }

// The affine form of the index expressions of class `id`, from its
// smallest term.
std::optional<Affine> AffineOfClass(const egraph::EGraph& g,
                                    const TirEncoding& encoding,
                                    AvoidingTerms& avoiding, ClassId id) {
  const std::optional<Term>& term = avoiding.Get(g, encoding, id, 0);
  if (!term) return std::nullopt;
  return AffineOf(*term, term->root(), encoding, Identity);
}

bool IsIndexOperand(const TirEncoding& encoding, const Term::Node& parent,
                    size_t position) {
  return encoding.Meaning(parent.op).op == ir::Op::kIndex && position == 1;
}

// Where a step's variable at `depth` lams inside it refers, for a step
// under `bound` lams of its own: one of those or of the step's own lams,
// the fold's accumulator, its index, or a variable free outside (its
// index outside the fold's two lams).
struct Scope {
  int64_t bound;

  bool Local(int64_t k, int64_t depth) const { return k < depth + bound; }
  int64_t Accumulator(int64_t depth) const { return depth + bound; }
  int64_t Index(int64_t depth) const { return depth + bound + 1; }
};

// Generalize's walk: a term of the first class against the classes of the
// second, recording for each index expression of the term that differs
// by a constant the difference (`steps`, by node of the term: a term
// ExtractAvoiding makes is a tree, each node at one place).
class Generalizer {
 public:
  Generalizer(const egraph::EGraph& g, const TirEncoding& encoding,
              AvoidingTerms& avoiding, const Term& a)
      : g_(g), encoding_(encoding), avoiding_(avoiding), a_(a) {}

  bool Walk(uint32_t i, ClassId b) {
    if (++steps_taken_ > kMaxSteps) return false;
    // Variables compare as they are: both terms sit under the same lams.
    const Term::Node& node = a_.node(i);
    for (egraph::NodeId n : g_.Nodes(g_.Find(b))) {
      egraph::ENodeRef other = g_.Node(n);
      if (other.op != node.op || other.payload != node.payload ||
          other.children.size() != node.arity) {
        continue;
      }
      size_t undo = steps_.size();
      bool all = true;
      for (size_t k = 0; k < node.arity && all; ++k) {
        uint32_t child = a_.children(i)[k];
        all = IsIndexOperand(encoding_, node, k)
                  ? Index(child, other.children[k])
                  : Walk(child, other.children[k]);
      }
      if (all) return true;
      steps_.resize(undo);
    }
    return false;
  }

  // Index expression `i` of the term against class `b`.
  bool Index(uint32_t i, ClassId b) {
    std::optional<Affine> mine = AffineOf(a_, i, encoding_, Identity);
    std::optional<Affine> theirs = AffineOfClass(g_, encoding_, avoiding_, b);
    if (!mine || !theirs) return Walk(i, b);
    Affine difference = *theirs;
    difference.Add(*mine, -1);
    if (!difference.coefficients.empty()) return false;
    if (difference.constant != 0) {
      steps_.push_back({i, difference.constant});
    }
    return true;
  }

  const std::vector<std::pair<uint32_t, int64_t>>& steps() const {
    return steps_;
  }

 private:
  // Terms are small; the walk tries each e-node of a class, and this
  // bounds it where many e-nodes match.
  static constexpr int kMaxSteps = 4096;

  const egraph::EGraph& g_;
  const TirEncoding& encoding_;
  AvoidingTerms& avoiding_;
  const Term& a_;
  std::vector<std::pair<uint32_t, int64_t>> steps_;
  int steps_taken_ = 0;
};

// Copies node `i` of `from` (under `depth` lams of it) into `to` as the
// step: variables free outside the step's scope move out past the fold's
// two lams, and the index expressions in `steps` advance by their step
// times the fold's index. Returns the copy's index in `to`.
uint32_t CopyStep(const Term& from, uint32_t i, int64_t depth, Scope scope,
                  const std::map<uint32_t, int64_t>& steps,
                  TirEncoding& encoding, Term& to) {
  const Term::Node& node = from.node(i);
  uint32_t copy;
  if (node.op == encoding.var_op()) {
    int64_t k = encoding.VarIndex(node.payload);
    if (!scope.Local(k, depth)) k += 2;
    copy = to.Add(encoding.var_op(), encoding.payloads().Int(k));
  } else {
    int64_t inner = encoding.IsLam(node.op) ? depth + 1 : depth;
    std::vector<uint32_t> children;
    for (uint32_t child : from.children(i)) {
      children.push_back(
          CopyStep(from, child, inner, scope, steps, encoding, to));
    }
    copy = to.Add(node.op, node.payload, children);
  }
  auto step = steps.find(i);
  if (step == steps.end()) return copy;
  // I + c * k, or c * k alone when I is 0 (the common x[0], x[1], ...).
  egraph::OpId index_literal =
      encoding.LiteralOp(ir::Type::Control(ControlType::kIndex));
  uint32_t k =
      to.Add(encoding.var_op(), encoding.payloads().Int(scope.Index(depth)));
  if (step->second != 1) {
    uint32_t c = to.Add(index_literal, encoding.payloads().Int(step->second));
    k = to.Add(*encoding.OpNamed("*"), egraph::PayloadTable::kNone, {c, k});
  }
  const Term::Node& copied = to.node(copy);
  if (copied.op == index_literal &&
      encoding.payloads().IntValue(copied.payload) == 0) {
    return k;
  }
  return to.Add(*encoding.OpNamed("+"), egraph::PayloadTable::kNone, {copy, k});
}

// IsInstance's walk: a term of the step against the classes of the
// candidate term, with the fold's index at `n`.
class InstanceMatcher {
 public:
  InstanceMatcher(const egraph::EGraph& g, const TirEncoding& encoding,
                  AvoidingTerms& avoiding, const Term& f, int64_t n,
                  Scope scope)
      : g_(g),
        encoding_(encoding),
        avoiding_(avoiding),
        f_(f),
        n_(n),
        scope_(scope) {}

  bool Walk(uint32_t i, int64_t depth, ClassId t) {
    if (++steps_taken_ > kMaxSteps) return false;
    const Term::Node& node = f_.node(i);
    egraph::PayloadId payload = node.payload;
    if (node.op == encoding_.var_op()) {
      // An index outside an index expression, or the accumulator, is not
      // a term outside the fold.
      std::optional<int64_t> k = Outside(encoding_.VarIndex(payload), depth);
      if (!k) return false;
      for (egraph::NodeId m : g_.Nodes(g_.Find(t))) {
        egraph::ENodeRef other = g_.Node(m);
        if (other.op == node.op && encoding_.VarIndex(other.payload) == *k) {
          return true;
        }
      }
      return false;
    }
    int64_t inner = encoding_.IsLam(node.op) ? depth + 1 : depth;
    for (egraph::NodeId m : g_.Nodes(g_.Find(t))) {
      egraph::ENodeRef other = g_.Node(m);
      if (other.op != node.op || other.payload != payload ||
          other.children.size() != node.arity) {
        continue;
      }
      bool all = true;
      for (size_t k = 0; k < node.arity && all; ++k) {
        uint32_t child = f_.children(i)[k];
        all = IsIndexOperand(encoding_, node, k)
                  ? Index(child, depth, other.children[k])
                  : Walk(child, inner, other.children[k]);
      }
      if (all) return true;
    }
    return false;
  }

 private:
  static constexpr int kMaxSteps = 4096;

  // Variable %K of the step at `depth`, seen from outside the fold.
  std::optional<int64_t> Outside(int64_t k, int64_t depth) const {
    if (scope_.Local(k, depth)) return k;
    if (k == scope_.Accumulator(depth) || k == scope_.Index(depth)) {
      return std::nullopt;
    }
    return k - 2;
  }

  bool Index(uint32_t i, int64_t depth, ClassId t) {
    VarMap var = [&](int64_t k) -> std::optional<Affine> {
      if (k == scope_.Index(depth)) return Affine{{}, n_};
      std::optional<int64_t> outside = Outside(k, depth);
      if (!outside) return std::nullopt;
      return Identity(*outside);
    };
    std::optional<Affine> mine = AffineOf(f_, i, encoding_, var);
    std::optional<Affine> theirs = AffineOfClass(g_, encoding_, avoiding_, t);
    if (!mine || !theirs) return Walk(i, depth, t);
    return *mine == *theirs;
  }

  const egraph::EGraph& g_;
  const TirEncoding& encoding_;
  AvoidingTerms& avoiding_;
  const Term& f_;
  int64_t n_;
  Scope scope_;
  int steps_taken_ = 0;
};

}  // namespace

std::optional<Term> Generalize(const egraph::EGraph& g, TirEncoding& encoding,
                               AvoidingTerms& avoiding, ClassId a, ClassId b,
                               int64_t bound) {
  if (g.Find(a) == g.Find(b)) return std::nullopt;
  const std::optional<Term>& first = avoiding.Get(g, encoding, a, 0);
  if (!first) return std::nullopt;
  Generalizer walk(g, encoding, avoiding, *first);
  if (!walk.Walk(first->root(), b) || walk.steps().empty()) {
    return std::nullopt;
  }
  std::map<uint32_t, int64_t> steps(walk.steps().begin(), walk.steps().end());
  Term step;
  CopyStep(*first, first->root(), 0, Scope{bound}, steps, encoding, step);
  return step;
}

bool IsInstance(const egraph::EGraph& g, const TirEncoding& encoding,
                AvoidingTerms& avoiding, ClassId f, int64_t n, ClassId t,
                int64_t bound) {
  const std::optional<Term>& step = avoiding.Get(g, encoding, f, 0);
  if (!step) return false;
  InstanceMatcher walk(g, encoding, avoiding, *step, n, Scope{bound});
  return walk.Walk(step->root(), 0, t);
}

}  // namespace tessel::saturate
