#include "libs/kernel/scalar_lowering.h"

#include <cmath>
#include <limits>

#include "libs/kernel/build_sexpr.h"

namespace tessel::kernel {
namespace {

struct Term {
  int64_t coeff;
  int var;  // -1 for the constant
};

// coeff * var (or the constant) as written, sign included.
Sexpr RenderTerm(int64_t coeff, int var, const Location& loc,
                 const LeafRenderer& render) {
  if (var < 0) return Sexpr::Int(coeff, loc);
  if (coeff == 1) return render.var(var, loc);
  if (coeff == -1) return Form("neg", {render.var(var, loc)}, loc);
  return Form("*", {Sexpr::Int(coeff, loc), render.var(var, loc)}, loc);
}

}  // namespace

Sexpr RenderIndex(const AffineExpr& index, const LeafRenderer& render) {
  const Location& loc = index.loc;
  std::vector<Term> terms;
  for (size_t v = 0; v < index.coeffs.size(); ++v) {
    if (index.coeffs[v] != 0) {
      terms.push_back(Term{index.coeffs[v], static_cast<int>(v)});
    }
  }
  if (index.constant != 0) terms.push_back(Term{index.constant, -1});
  if (terms.empty()) return Sexpr::Int(0, loc);
  size_t first = 0;
  while (first < terms.size() && terms[first].coeff < 0) ++first;
  if (first == terms.size()) first = 0;
  Sexpr result = RenderTerm(terms[first].coeff, terms[first].var, loc, render);
  for (size_t t = 0; t < terms.size(); ++t) {
    if (t == first) continue;
    int64_t coeff = terms[t].coeff;
    // Subtract a negative term, unless its magnitude does not fit.
    bool subtract = coeff < 0 && coeff != std::numeric_limits<int64_t>::min();
    result = Form(subtract ? "-" : "+",
                  {std::move(result), RenderTerm(subtract ? -coeff : coeff,
                                                 terms[t].var, loc, render)},
                  loc);
  }
  return result;
}

Sexpr RenderAccess(const Access& access, const LeafRenderer& render) {
  std::vector<Sexpr> indices;
  for (const AffineExpr& index : access.indices) {
    indices.push_back(RenderIndex(index, render));
  }
  return render.read(access, std::move(indices));
}

namespace {

const char* OperatorName(ValueOp op) {
  switch (op) {
    case ValueOp::kNeg:
      return "neg";
    case ValueOp::kAdd:
      return "+";
    case ValueOp::kSub:
      return "-";
    case ValueOp::kMul:
      return "*";
    case ValueOp::kDiv:
      return "/";
    case ValueOp::kMax:
      return "max";
    case ValueOp::kMin:
      return "min";
    case ValueOp::kLiteral:
    case ValueOp::kRead:
    case ValueOp::kCast:
      break;
  }
  return "?";
}

}  // namespace

Sexpr RenderValue(const Value& value, const Statement& statement,
                  const LeafRenderer& render) {
  switch (value.op) {
    case ValueOp::kLiteral:
      return IsFloat(value.type) ? Sexpr::Float(value.float_value, value.loc)
                                 : Sexpr::Int(value.int_value, value.loc);
    case ValueOp::kRead:
      return RenderAccess(statement.reads[value.read], render);
    case ValueOp::kCast:
      return Form("cast",
                  {Sym(ElemTypeName(value.type), value.loc),
                   RenderValue(value.operands[0], statement, render)},
                  value.loc);
    default:
      break;
  }
  std::vector<Sexpr> operands;
  for (const Value& operand : value.operands) {
    operands.push_back(RenderValue(operand, statement, render));
  }
  return Form(OperatorName(value.op), std::move(operands), value.loc);
}

Sexpr InitialValue(AssignOp op, ElemType type, const Location& loc) {
  if (op == AssignOp::kAssign || op == AssignOp::kAdd) {
    return IsFloat(type) ? Sexpr::Float(0.0, loc) : Sexpr::Int(0, loc);
  }
  bool lowest = op == AssignOp::kMax;
  if (IsFloat(type)) {
    double inf = std::numeric_limits<double>::infinity();
    return Sexpr::Float(lowest ? -inf : inf, loc);
  }
  return Sexpr::Int(lowest ? IntMin(type) : IntMax(type), loc);
}

Sexpr Combine(AssignOp op, Sexpr acc, Sexpr value, const Location& loc) {
  switch (op) {
    case AssignOp::kAssign:
      return value;
    case AssignOp::kAdd:
      return Form("+", {std::move(acc), std::move(value)}, loc);
    case AssignOp::kMax:
      return Form("max", {std::move(acc), std::move(value)}, loc);
    case AssignOp::kMin:
      return Form("min", {std::move(acc), std::move(value)}, loc);
  }
  return value;
}

}  // namespace tessel::kernel
