// C expression text with its precedence, so that the emitter writes the
// fewest parentheses that keep C's parse equal to the TIR tree (and the few
// extra ones GCC's -Wparentheses asks for), and with what it refers to.
#ifndef TESSEL_LIBS_EMITC_C_EXPR_H_
#define TESSEL_LIBS_EMITC_C_EXPR_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "libs/emitc/uses.h"
#include "libs/ir/types.h"

namespace tessel::emitc {

// C operator precedence, loosest first.
enum class Prec {
  kConditional,     // a ? b : c
  kLogicalOr,       // ||
  kLogicalAnd,      // &&
  kBitwiseOr,       // | (of vector masks)
  kBitwiseAnd,      // &
  kEquality,        // == !=
  kRelational,      // < <= > >=
  kAdditive,        // + -
  kMultiplicative,  // * / %
  kUnary,           // -a !a *p &a (T)a
  kPostfix,         // names, literals, a[i], a.b, f(x), compound literals
};

struct CExpr {
  std::string text;
  Prec prec = Prec::kPostfix;
  // The value of an integer literal, so that index arithmetic can fold.
  std::optional<int64_t> constant;
  // For a product with a literal factor, `factor * scaled`, so that
  // (16 * io) * 32 folds to io * 512.
  int64_t factor = 0;
  std::shared_ptr<const CExpr> scaled;
  // For a sum or difference with a literal term, `shifted + addend`, so
  // that (x + 2) * 64 + y writes as x * 64 + y + 128: one literal last,
  // which compilers take as an address's displacement where they would
  // keep an index register per literal inside a product.
  int64_t addend = 0;
  std::shared_ptr<const CExpr> shifted;
  // A `!a`: GCC warns about `!a == b`, so comparisons parenthesise it.
  bool is_logical_not = false;
  // The bindings, types and helpers the text refers to. Every builder below
  // merges the uses of its operands.
  Uses uses;
};

// A name, member access or other primary expression.
CExpr Primary(std::string text);
// An integer literal; INT64_MIN is written so that C reads it as an int64.
CExpr IntLiteral(int64_t value);
// A literal of a floating-point element type: the shortest decimal that
// reads back as the same float (`0.1f`) or double (`0.1`), INFINITY or NAN;
// an f16 one is a float constant converted (`(_Float16)0.1f`).
CExpr FloatLiteral(double value, ElemType type);

// `left OP right` for a binary operator of C.
CExpr Binary(absl::string_view op, const CExpr& left, const CExpr& right);
// `OP operand` for - ! * &.
CExpr Unary(absl::string_view op, const CExpr& operand);
CExpr Cast(absl::string_view type, const CExpr& operand);
CExpr Conditional(const CExpr& condition, const CExpr& then_value,
                  const CExpr& else_value);
// `base[index]`.
CExpr Subscript(const CExpr& base, const CExpr& index);
// `base.member`.
CExpr Member(const CExpr& base, absl::string_view member);
// `base.member[index]`, e.g. `src.strides[0]`.
CExpr MemberElement(const CExpr& base, absl::string_view member, int index);
// `function(arguments...)`.
CExpr Call(absl::string_view function, const std::vector<CExpr>& arguments);
// A compound literal `(type){ a, { b, c } }` of a window struct: its data
// pointer and strides.
CExpr WindowLiteral(const WindowType& type, const CExpr& data,
                    const std::vector<CExpr>& strides);

// Sums and products for address arithmetic: literals fold, 0 and 1 vanish,
// and a sum's literal terms are gathered into one, last.
CExpr Add(const CExpr& left, const CExpr& right);
CExpr Subtract(const CExpr& left, const CExpr& right);
CExpr Multiply(const CExpr& left, const CExpr& right);

// The text of `expr`, parenthesised when it binds looser than `context`.
std::string TextAt(const CExpr& expr, Prec context);

}  // namespace tessel::emitc

#endif  // TESSEL_LIBS_EMITC_C_EXPR_H_
