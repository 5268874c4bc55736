#include "libs/primitives/simplify_expr.h"

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "libs/ir/build.h"
#include "libs/ir/node.h"
#include "libs/ir/op.h"
#include "libs/ir/types.h"

namespace tessel::primitives {
namespace {

using ir::Build;
using ir::Module;
using ir::Node;
using ir::Op;

// An integer control expression (not a condition): the simplifier's domain.
bool IsIntControl(const Node& node) {
  const ir::Type& type = node.type();
  return type.is_control() && !type.is_control(ControlType::kBool);
}

// May be an integer control expression: one, or a tree a rewrite just
// built, which the verifier has not typed yet (a control expression by
// SimplifyExpr's contract).
bool MayBeIntControl(const Node& node) {
  return node.type().is_none() || IsIntControl(node);
}

bool IsAffineOp(Op op) {
  return op == Op::kAdd || op == Op::kSub || op == Op::kMul || op == Op::kDiv ||
         op == Op::kFloorMod || op == Op::kNeg || op == Op::kMin ||
         op == Op::kMax;
}

// Floor division and modulo by a positive divisor.
int64_t FloorDiv(int64_t a, int64_t n) {
  return a / n - (a % n != 0 && a < 0 ? 1 : 0);
}
int64_t FloorMod(int64_t a, int64_t n) { return a - FloorDiv(a, n) * n; }

struct Term {
  const Node* atom;  // a Ref of the expression, or a detached simplified tree
  int64_t coeff;
};

// sum(coeff * atom) + constant. Arithmetic that would overflow int64 makes
// the whole expression an atom instead (nothing is folded unsoundly).
struct Linear {
  std::vector<Term> terms;
  int64_t constant = 0;
  bool IsConstant() const { return terms.empty(); }
};

class Simplifier {
 public:
  explicit Simplifier(Module& module) : module_(module) {}

  Node* Simplify(const Node& expr) {
    if (!MayBeIntControl(expr) ||
        !(IsAffineOp(expr.op()) || expr.is(Op::kConst))) {
      return module_.Clone(&expr);
    }
    std::optional<Linear> linear = ToLinear(expr);
    if (!linear) return module_.Clone(&expr);
    return Emit(*linear);
  }

 private:
  std::optional<Linear> ToLinear(const Node& e) {
    if (!MayBeIntControl(e)) return Atom(module_.Clone(&e));
    switch (e.op()) {
      case Op::kConst:
        if (e.is_float_literal()) return std::nullopt;
        return Linear{{}, e.int_value()};
      case Op::kRef:
        return Linear{{{&e, 1}}, 0};
      case Op::kAdd:
      case Op::kSub: {
        std::optional<Linear> a = ToLinear(*e.operand(0));
        std::optional<Linear> b = ToLinear(*e.operand(1));
        if (!a || !b) return std::nullopt;
        return Combine(*a, *b, e.is(Op::kSub) ? -1 : 1);
      }
      case Op::kNeg: {
        std::optional<Linear> a = ToLinear(*e.operand(0));
        if (!a) return std::nullopt;
        return Scale(*a, -1);
      }
      case Op::kMul: {
        std::optional<Linear> a = ToLinear(*e.operand(0));
        std::optional<Linear> b = ToLinear(*e.operand(1));
        if (!a || !b) return std::nullopt;
        if (a->IsConstant()) return Scale(*b, a->constant);
        if (b->IsConstant()) return Scale(*a, b->constant);
        return Atom(Build::Mul(module_, Emit(*a), Emit(*b)));
      }
      case Op::kDiv:
      case Op::kFloorMod:
        return DivMod(e);
      case Op::kMin:
      case Op::kMax: {
        std::optional<Linear> a = ToLinear(*e.operand(0));
        std::optional<Linear> b = ToLinear(*e.operand(1));
        if (!a || !b) return std::nullopt;
        if (a->IsConstant() && b->IsConstant()) {
          bool min = e.is(Op::kMin);
          return Linear{
              {},
              (a->constant < b->constant) == min ? a->constant : b->constant};
        }
        return Atom(Build::Binary(module_, e.op(), Emit(*a), Emit(*b)));
      }
      default:
        return Atom(module_.Clone(&e));
    }
  }

  // (/ a N) and (% a N): the multiples of N in `a` leave the division.
  std::optional<Linear> DivMod(const Node& e) {
    std::optional<Linear> a = ToLinear(*e.operand(0));
    std::optional<Linear> d = ToLinear(*e.operand(1));
    if (!a || !d) return std::nullopt;
    bool div = e.is(Op::kDiv);
    if (!d->IsConstant() || d->constant <= 0) {
      return Atom(Build::Binary(module_, e.op(), Emit(*a), Emit(*d)));
    }
    int64_t n = d->constant;
    Linear quotient, rest;
    for (const Term& t : a->terms) {
      if (t.coeff % n == 0) {
        quotient.terms.push_back({t.atom, t.coeff / n});
      } else {
        rest.terms.push_back(t);
      }
    }
    quotient.constant = FloorDiv(a->constant, n);
    rest.constant = FloorMod(a->constant, n);
    // 0 <= rest < n: its floor division by n is 0, its modulo itself.
    std::optional<std::pair<int64_t, int64_t>> range = Range(rest);
    bool small = range && range->first >= 0 && range->second < n;
    if (!div) {
      if (small) return rest;
      return Atom(Build::Mod(module_, Emit(rest), Build::Int(module_, n)));
    }
    if (small) return quotient;
    return Combine(
        quotient, Atom(Build::Div(module_, Emit(rest), Build::Int(module_, n))),
        1);
  }

  // The least and greatest value of `l`, when every atom is a loop
  // variable with literal bounds; none otherwise (or on overflow).
  static std::optional<std::pair<int64_t, int64_t>> Range(const Linear& l) {
    int64_t lo = l.constant, hi = l.constant;
    for (const Term& t : l.terms) {
      if (!t.atom->is(Op::kRef) || t.atom->def() == nullptr)
        return std::nullopt;
      const Node& loop = *t.atom->def();
      if (!loop.is(Op::kFor) || !loop.operand(0)->is(Op::kConst) ||
          !loop.operand(1)->is(Op::kConst)) {
        return std::nullopt;
      }
      int64_t first = loop.operand(0)->int_value();
      int64_t last = loop.operand(1)->int_value() - 1;
      if (last < first) return std::nullopt;  // an empty loop: nothing runs
      int64_t x, y;
      if (__builtin_mul_overflow(t.coeff, first, &x) ||
          __builtin_mul_overflow(t.coeff, last, &y)) {
        return std::nullopt;
      }
      if (x > y) std::swap(x, y);
      if (__builtin_add_overflow(lo, x, &lo) ||
          __builtin_add_overflow(hi, y, &hi)) {
        return std::nullopt;
      }
    }
    return std::make_pair(lo, hi);
  }

  static Linear Atom(Node* atom) { return Linear{{{atom, 1}}, 0}; }

  // a + sign * b, like terms collected (atoms compared structurally).
  static std::optional<Linear> Combine(const Linear& a, const Linear& b,
                                       int64_t sign) {
    std::optional<Linear> sb = Scale(b, sign);
    if (!sb) return std::nullopt;
    Linear out = a;
    for (const Term& t : sb->terms) {
      bool merged = false;
      for (Term& o : out.terms) {
        if (ir::AlphaEquivalent(o.atom, t.atom)) {
          if (__builtin_add_overflow(o.coeff, t.coeff, &o.coeff)) {
            return std::nullopt;
          }
          merged = true;
          break;
        }
      }
      if (!merged) out.terms.push_back(t);
    }
    if (__builtin_add_overflow(out.constant, sb->constant, &out.constant)) {
      return std::nullopt;
    }
    std::erase_if(out.terms, [](const Term& t) { return t.coeff == 0; });
    return out;
  }

  static std::optional<Linear> Scale(const Linear& a, int64_t k) {
    Linear out;
    if (k == 0) return out;
    for (const Term& t : a.terms) {
      int64_t c;
      if (__builtin_mul_overflow(t.coeff, k, &c)) return std::nullopt;
      out.terms.push_back({t.atom, c});
    }
    if (__builtin_mul_overflow(a.constant, k, &out.constant)) {
      return std::nullopt;
    }
    return out;
  }

  Node* TermNode(const Term& t, int64_t coeff) {
    Node* atom = module_.Clone(t.atom);
    if (coeff == 1) return atom;
    return Build::Mul(module_, Build::Int(module_, coeff), atom);
  }

  // The normal form's tree of `l`.
  Node* Emit(const Linear& l) {
    Node* out = nullptr;
    for (const Term& t : l.terms) {
      if (out == nullptr) {
        out = t.coeff == -1 ? Build::Unary(module_, Op::kNeg, TermNode(t, 1))
                            : TermNode(t, t.coeff);
      } else if (t.coeff > 0) {
        out = Build::Add(module_, out, TermNode(t, t.coeff));
      } else {
        out = Build::Sub(module_, out, TermNode(t, -t.coeff));
      }
    }
    if (out == nullptr) return Build::Int(module_, l.constant);
    if (l.constant > 0) {
      out = Build::Add(module_, out, Build::Int(module_, l.constant));
    } else if (l.constant < 0 && l.constant != INT64_MIN) {
      out = Build::Sub(module_, out, Build::Int(module_, -l.constant));
    } else if (l.constant < 0) {
      out = Build::Add(module_, out, Build::Int(module_, l.constant));
    }
    return out;
  }

  Module& module_;
};

// The outermost integer control arithmetic of `node`'s tree, simplified
// where that changes it.
void SimplifyTree(Module& module, Node& node) {
  if (IsIntControl(node) && IsAffineOp(node.op())) {
    Node* simplified = Simplifier(module).Simplify(node);
    if (!ir::AlphaEquivalent(simplified, &node))
      module.Replace(&node, simplified);
    return;
  }
  std::vector<Node*> operands(node.operands().begin(), node.operands().end());
  for (Node* operand : operands) SimplifyTree(module, *operand);
}

absl::Status RunSimplify(Target& target, const Args&) {
  return Simplify(target.module, target.proc);
}

}  // namespace

Node* SimplifyExpr(Module& module, const Node& expr) {
  return Simplifier(module).Simplify(expr);
}

absl::Status Simplify(Module& module, Node& proc) {
  SimplifyTree(module, proc);
  return absl::OkStatus();
}

PrimitiveSpec SimplifySpec() { return {"simplify", {}, &RunSimplify}; }

}  // namespace tessel::primitives
