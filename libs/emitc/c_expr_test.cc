#include "libs/emitc/c_expr.h"

#include <charconv>
#include <cmath>
#include <limits>

#include "gtest/gtest.h"
#include "libs/emitc/scope.h"

namespace tessel::emitc {
namespace {

CExpr A() { return Primary("a"); }
CExpr B() { return Primary("b"); }
CExpr C() { return Primary("c"); }

TEST(CExprTest, ParenthesisesOnlyWhereCNeedsIt) {
  EXPECT_EQ(Binary("*", Binary("+", A(), B()), C()).text, "(a + b) * c");
  EXPECT_EQ(Binary("+", Binary("*", A(), B()), C()).text, "a * b + c");
  EXPECT_EQ(Binary("+", A(), Binary("*", B(), C())).text, "a + b * c");
  // Left-associative operators keep a right operand of equal precedence.
  EXPECT_EQ(Binary("-", A(), Binary("-", B(), C())).text, "a - (b - c)");
  EXPECT_EQ(Binary("-", Binary("-", A(), B()), C()).text, "a - b - c");
  EXPECT_EQ(Binary("/", A(), Binary("*", B(), C())).text, "a / (b * c)");
}

TEST(CExprTest, AddsTheParenthesesGccWarnsAbout) {
  EXPECT_EQ(Binary("==", Binary("<", A(), B()), C()).text, "(a < b) == c");
  EXPECT_EQ(Binary("==", Unary("!", A()), B()).text, "(!a) == b");
  EXPECT_EQ(Binary("||", Binary("&&", A(), B()), C()).text, "(a && b) || c");
  EXPECT_EQ(Binary("&&", Binary("||", A(), B()), C()).text, "(a || b) && c");
}

TEST(CExprTest, UnaryOperatorsAndCasts) {
  EXPECT_EQ(Unary("-", Binary("+", A(), B())).text, "-(a + b)");
  EXPECT_EQ(Unary("-", Unary("-", A())).text, "-(-a)");
  EXPECT_EQ(Unary("-", IntLiteral(-3)).text, "-(-3)");
  EXPECT_EQ(Binary("-", A(), IntLiteral(-3)).text, "a - -3");
  EXPECT_EQ(Cast("int8_t", Binary("*", A(), B())).text, "(int8_t)(a * b)");
  EXPECT_EQ(Binary("*", Unary("*", A()), B()).text, "*a * b");
  EXPECT_EQ(Binary("/", B(), Unary("*", A())).text, "b / *a");
}

TEST(CExprTest, Conditionals) {
  CExpr max = Conditional(Binary("<", A(), B()), B(), A());
  EXPECT_EQ(max.text, "a < b ? b : a");
  EXPECT_EQ(Binary("+", max, C()).text, "(a < b ? b : a) + c");
  EXPECT_EQ(Conditional(C(), max, A()).text, "c ? (a < b ? b : a) : a");
  EXPECT_EQ(Conditional(C(), A(), max).text, "c ? a : a < b ? b : a");
}

TEST(CExprTest, FloatLiterals) {
  EXPECT_EQ(FloatLiteral(0.5, ElemType::kF32).text, "0.5f");
  EXPECT_EQ(FloatLiteral(2, ElemType::kF32).text, "2.0f");
  EXPECT_EQ(FloatLiteral(2, ElemType::kF64).text, "2.0");
  EXPECT_EQ(FloatLiteral(0.1, ElemType::kF64).text, "0.1");
  // The shortest text that reads back as the float nearest to 0.1.
  EXPECT_EQ(FloatLiteral(0.1, ElemType::kF32).text, "0.1f");
  EXPECT_EQ(FloatLiteral(1e-5, ElemType::kF32).text, "1e-05f");
  EXPECT_EQ(FloatLiteral(-0.0, ElemType::kF32).text, "-0.0f");
  EXPECT_EQ(FloatLiteral(1e300, ElemType::kF32).text, "INFINITY");
  EXPECT_EQ(FloatLiteral(1e300, ElemType::kF64).text, "1e+300");
  double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(FloatLiteral(-inf, ElemType::kF64).text, "-INFINITY");
  EXPECT_EQ(FloatLiteral(std::nan(""), ElemType::kF32).text, "NAN");
  EXPECT_EQ(Unary("-", FloatLiteral(-inf, ElemType::kF64)).text,
            "-(-INFINITY)");
}

TEST(CExprTest, F16Literals) {
  // A float constant converted, as short as converts to the value.
  EXPECT_EQ(FloatLiteral(0.1, ElemType::kF16).text, "(_Float16)0.1f");
  EXPECT_EQ(FloatLiteral(1 + std::ldexp(1, -10), ElemType::kF16).text,
            "(_Float16)1.001f");
  EXPECT_EQ(FloatLiteral(65504, ElemType::kF16).text, "(_Float16)65500.0f");
  EXPECT_EQ(FloatLiteral(std::ldexp(1, -24), ElemType::kF16).text,
            "(_Float16)6e-08f");
  EXPECT_EQ(FloatLiteral(-0.0, ElemType::kF16).text, "(_Float16)-0.0f");
  EXPECT_EQ(FloatLiteral(1e5, ElemType::kF16).text, "(_Float16)INFINITY");
  EXPECT_EQ(FloatLiteral(-1e5, ElemType::kF16).text, "(_Float16)-INFINITY");
  EXPECT_EQ(FloatLiteral(std::nan(""), ElemType::kF16).text, "(_Float16)NAN");
  EXPECT_EQ(FloatLiteral(0.1, ElemType::kF16).prec, Prec::kUnary);
}

// Every finite f16 value: C reads the constant as a float (correctly
// rounded) and converts it to _Float16 (correctly rounded): the value.
TEST(CExprTest, F16LiteralsConvertBackToTheirValue) {
  const std::string prefix = "(_Float16)";
  for (uint64_t bits = 0; bits < 0x10000; ++bits) {
    if ((bits & 0x7c00) == 0x7c00) continue;  // infinities and NaNs
    const double value = DecodeFloat(bits, kBinary16);
    const std::string text = FloatLiteral(value, ElemType::kF16).text;
    ASSERT_EQ(text.substr(0, prefix.size()), prefix);
    ASSERT_EQ(text.back(), 'f');
    const std::string constant =
        text.substr(prefix.size(), text.size() - prefix.size() - 1);
    float single = 0;
    std::from_chars(constant.data(), constant.data() + constant.size(), single);
    ASSERT_EQ(RoundToFloat(ElemType::kF16, single), value) << text;
    ASSERT_LE(constant.size(), 12u) << text;
  }
}

TEST(CExprTest, IntegerLiterals) {
  EXPECT_EQ(IntLiteral(42).text, "42");
  EXPECT_EQ(IntLiteral(std::numeric_limits<int64_t>::min()).text,
            "(-9223372036854775807 - 1)");
}

TEST(CExprTest, AddressArithmeticFolds) {
  CExpr i = Primary("i");
  EXPECT_EQ(Add(IntLiteral(0), i).text, "i");
  EXPECT_EQ(Add(i, IntLiteral(-2)).text, "i - 2");
  EXPECT_EQ(Multiply(i, IntLiteral(1)).text, "i");
  EXPECT_EQ(Multiply(i, IntLiteral(0)).text, "0");
  EXPECT_EQ(Multiply(IntLiteral(4), IntLiteral(8)).text, "32");
  EXPECT_EQ(Add(Multiply(i, IntLiteral(16)), Primary("j")).text, "i * 16 + j");
  // (16 * io) * 32 is io * 512.
  EXPECT_EQ(
      Multiply(Binary("*", IntLiteral(16), Primary("io")), IntLiteral(32)).text,
      "io * 512");
  EXPECT_EQ(Multiply(Add(i, IntLiteral(1)), Primary("n")).text, "(i + 1) * n");
  // Integer sums are associative.
  EXPECT_EQ(Add(i, Binary("+", Primary("j"), Primary("k"))).text, "i + j + k");
  EXPECT_EQ(Add(i, Binary("-", Primary("j"), Primary("k"))).text, "i + j - k");
}

TEST(CExprTest, LiteralTermsOfAddressesGoLast) {
  CExpr i = Primary("i");
  CExpr j = Primary("j");
  // One literal last, a displacement, whatever the literals inside.
  EXPECT_EQ(
      Add(Multiply(Binary("+", i, IntLiteral(2)), IntLiteral(64)), j).text,
      "i * 64 + j + 128");
  EXPECT_EQ(Multiply(Binary("-", i, IntLiteral(1)), IntLiteral(8)).text,
            "i * 8 - 8");
  EXPECT_EQ(Add(IntLiteral(3), i).text, "i + 3");
  EXPECT_EQ(
      Add(Binary("+", i, IntLiteral(3)), Binary("-", j, IntLiteral(3))).text,
      "i + j");
  EXPECT_EQ(Multiply(Binary("+", Binary("*", IntLiteral(12), i),
                            Binary("+", j, IntLiteral(2))),
                     IntLiteral(64))
                .text,
            "(12 * i + j) * 64 + 128");
  EXPECT_EQ(
      Multiply(Binary("-", Binary("+", i, IntLiteral(2)), j), IntLiteral(4))
          .text,
      "(i - j) * 4 + 8");
  EXPECT_EQ(Multiply(Binary("-", IntLiteral(2), j), IntLiteral(4)).text,
            "(2 - j) * 4");
  // Literals that C would sum past int64's range stay apart.
  EXPECT_EQ(Add(Binary("+", IntLiteral(INT64_MAX), IntLiteral(1)), i).text,
            "9223372036854775807 + 1 + i");
  EXPECT_EQ(
      Add(Multiply(Binary("+", Binary("+", Binary("*", IntLiteral(12), i), j),
                          IntLiteral(2)),
                   IntLiteral(64)),
          Primary("k"))
          .text,
      "(12 * i + j) * 64 + k + 128");
  // A literal factor that is not one keeps the sum whole.
  EXPECT_EQ(Multiply(Binary("+", i, IntLiteral(1)), j).text, "(i + 1) * j");
}

TEST(CExprTest, UsesFollowTheText) {
  CExpr a = A();
  Binding binding;
  a.uses.reads.push_back(&binding);
  EXPECT_EQ(Binary("+", a, B()).uses.reads.size(), 1u);
  // A product with 0 no longer mentions `a`.
  EXPECT_TRUE(Multiply(a, IntLiteral(0)).uses.reads.empty());
  CExpr literal =
      WindowLiteral(WindowType{ElemType::kF32, 1, false}, a, {IntLiteral(1)});
  EXPECT_EQ(literal.text, "(struct tsl_win_f32_1){ a, { 1 } }");
  EXPECT_EQ(literal.uses.reads.size(), 1u);
  EXPECT_EQ(literal.uses.needs.windows.size(), 1u);
}

}  // namespace
}  // namespace tessel::emitc
