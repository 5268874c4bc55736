#include "libs/primitives/linear_form.h"

#include <cstdlib>

#include "libs/ir/build.h"

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
  auto operand = [&](size_t i) { return From(*expr.operand(i), name); };
  switch (expr.op()) {
    case Op::kConst:
      if (expr.is_float_literal()) return std::nullopt;
      return Constant(expr.int_value());
    case Op::kRef:
      if (expr.def() == nullptr) return std::nullopt;
      return name(*expr.def());
    case Op::kStride:
      return name(expr);
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
      return std::nullopt;
    }
    default:
      return std::nullopt;
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

Node* LinearForm::Build(ir::Module& module) const {
  Node* sum = nullptr;
  auto term = [&](Node* magnitude, bool negative) {
    if (sum == nullptr) {
      sum =
          negative ? ir::Build::Unary(module, Op::kNeg, magnitude) : magnitude;
    } else {
      sum = negative ? ir::Build::Sub(module, sum, magnitude)
                     : ir::Build::Add(module, sum, magnitude);
    }
  };
  for (const auto& [var, coefficient] : terms_) {
    const Node& atom = *static_cast<const Node*>(var);
    Node* ref = atom.is(Op::kStride) ? module.Clone(&atom)
                                     : ir::Build::Ref(module, atom);
    int64_t magnitude = std::abs(coefficient);
    term(magnitude == 1
             ? ref
             : ir::Build::Mul(module, ir::Build::Int(module, magnitude), ref),
         coefficient < 0);
  }
  if (sum == nullptr) return ir::Build::Int(module, constant_);
  if (constant_ != 0) {
    term(ir::Build::Int(module, std::abs(constant_)), constant_ < 0);
  }
  return sum;
}

}  // namespace tessel::primitives
