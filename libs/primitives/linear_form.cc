#include "libs/primitives/linear_form.h"

#include <cstdlib>
#include <utility>
#include <vector>

#include "libs/ir/build.h"
#include "libs/ir/edit.h"
#include "libs/ir/syntax.h"
#include "libs/sexpr/printer.h"

namespace tessel::primitives {

using ir::Node;
using ir::Op;

LinearForm LinearForm::Constant(int64_t value) {
  LinearForm form;
  form.constant_ = value;
  return form;
}

LinearForm LinearForm::Of(Var var, int64_t coefficient) {
  LinearForm form;
  form.Add(var, coefficient);
  return form;
}

void LinearForm::Add(Var var, int64_t coefficient) {
  for (auto it = terms_.begin(); it != terms_.end(); ++it) {
    if (it->first != var) continue;
    it->second += coefficient;
    if (it->second == 0) terms_.erase(it);
    return;
  }
  if (coefficient != 0) terms_.emplace_back(var, coefficient);
}

std::optional<LinearForm> LinearForm::From(
    const Node& expr,
    absl::FunctionRef<std::optional<LinearForm>(const Node& binder)> name) {
  return From(expr, name, [](const Node&) -> std::optional<LinearForm> {
    return std::nullopt;
  });
}

std::optional<LinearForm> LinearForm::From(
    const Node& expr,
    absl::FunctionRef<std::optional<LinearForm>(const Node& binder)> name,
    absl::FunctionRef<std::optional<LinearForm>(const Node& expr)> other) {
  auto operand = [&](size_t i) { return From(*expr.operand(i), name, other); };
  switch (expr.op()) {
    case Op::kConst:
      if (expr.is_float_literal()) return std::nullopt;
      return Constant(expr.int_value());
    case Op::kRef:
      if (expr.def() == nullptr) return std::nullopt;
      return name(*expr.def());
    case Op::kNeg: {
      auto a = operand(0);
      if (!a) return std::nullopt;
      return a->Times(-1);
    }
    case Op::kAdd:
    case Op::kSub: {
      auto a = operand(0);
      auto b = operand(1);
      if (!a || !b) return std::nullopt;
      return a->Plus(b->Times(expr.is(Op::kSub) ? -1 : 1));
    }
    case Op::kMul: {
      auto a = operand(0);
      auto b = operand(1);
      if (!a || !b) return std::nullopt;
      if (a->terms_.empty()) return b->Times(a->constant_);
      if (b->terms_.empty()) return a->Times(b->constant_);
      return other(expr);
    }
    default:
      return other(expr);
  }
}

LinearForm LinearForm::Plus(const LinearForm& other) const {
  LinearForm sum = *this;
  for (const auto& [var, coefficient] : other.terms_) sum.Add(var, coefficient);
  sum.constant_ += other.constant_;
  return sum;
}

LinearForm LinearForm::Times(int64_t k) const {
  LinearForm product;
  for (const auto& [var, coefficient] : terms_)
    product.Add(var, coefficient * k);
  product.constant_ = constant_ * k;
  return product;
}

LinearForm LinearForm::Substituted(Var var, const LinearForm& value) const {
  int64_t k = coefficient(var);
  if (k == 0) return *this;
  return Plus(Of(var, -k)).Plus(value.Times(k));
}

int64_t LinearForm::coefficient(Var var) const {
  for (const auto& [v, coefficient] : terms_) {
    if (v == var) return coefficient;
  }
  return 0;
}

bool operator==(const LinearForm& a, const LinearForm& b) {
  if (a.constant_ != b.constant_ || a.terms_.size() != b.terms_.size()) {
    return false;
  }
  for (const auto& [var, coefficient] : a.terms_) {
    if (b.coefficient(var) != coefficient) return false;
  }
  return true;
}

Node* LinearForm::Build(ir::Module& module) const {
  return Build(module, [&](Var var) {
    return ir::Build::Ref(module, *static_cast<const Node*>(var));
  });
}

Node* LinearForm::Build(ir::Module& module,
                        absl::FunctionRef<Node*(Var var)> var_node) const {
  if (terms_.empty()) return ir::Build::Int(module, constant_);
  // The terms in order, the constant last (a null variable).
  std::vector<std::pair<Var, int64_t>> terms = terms_;
  if (constant_ != 0) terms.emplace_back(nullptr, constant_);
  auto magnitude = [&](const std::pair<Var, int64_t>& term) -> Node* {
    int64_t k = std::abs(term.second);
    if (term.first == nullptr) return ir::Build::Int(module, k);
    Node* ref = var_node(term.first);
    return k == 1 ? ref
                  : ir::Build::Mul(module, ir::Build::Int(module, k), ref);
  };
  // A positive term leads where there is one: `(- 4 X)`, not
  // `(+ (neg X) 4)`; the others follow in their order.
  size_t lead = 0;
  while (lead < terms.size() && terms[lead].second < 0) ++lead;
  if (lead == terms.size()) lead = 0;
  Node* sum = magnitude(terms[lead]);
  if (terms[lead].second < 0) sum = ir::Build::Unary(module, Op::kNeg, sum);
  for (size_t i = 0; i < terms.size(); ++i) {
    if (i == lead) continue;
    sum = terms[i].second < 0
              ? ir::Build::Sub(module, sum, magnitude(terms[i]))
              : ir::Build::Add(module, sum, magnitude(terms[i]));
  }
  return sum;
}

std::optional<LinearForm> OpaqueTerms::Form(const Node& expr) {
  return LinearForm::From(
      expr,
      [](const Node& binder) -> std::optional<LinearForm> {
        return LinearForm::Of(&binder);
      },
      [&](const Node& term) -> std::optional<LinearForm> {
        if (NamesVarying(term)) return std::nullopt;
        auto [it, added] =
            terms_.try_emplace(PrintFlat(ir::WriteNode(term)), &term);
        if (added) term_nodes_.insert(&term);
        return LinearForm::Of(it->second);
      });
}

Node* OpaqueTerms::Build(ir::Module& module, const LinearForm& form) const {
  return form.Build(module, [&](LinearForm::Var var) -> Node* {
    const Node& node = *static_cast<const Node*>(var);
    if (term_nodes_.contains(&node)) return module.Clone(&node);
    return ir::Build::Ref(module, node);
  });
}

bool OpaqueTerms::NamesVarying(const Node& expr) const {
  bool names = false;
  ir::Walk(const_cast<Node&>(expr), [&](Node& node) {
    if (node.is(Op::kRef) && varying_.contains(node.def())) names = true;
  });
  return names;
}

}  // namespace tessel::primitives
