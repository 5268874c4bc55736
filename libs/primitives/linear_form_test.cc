#include "libs/primitives/linear_form.h"

#include <string>

#include "gtest/gtest.h"
#include "libs/ir/forms.h"
#include "libs/ir/syntax.h"
#include "libs/primitives/testing.h"
#include "libs/sexpr/printer.h"

namespace tessel::primitives {
namespace {

using testing::ProcNamed;
using testing::ReadVerified;

class LinearFormTest : public ::testing::Test {
 protected:
  const ir::Node& Param(const char* name) {
    return *ir::FindParam(ProcNamed(module_, "@p"), name);
  }
  // `form` built as a control expression, as text.
  std::string Text(const LinearForm& form) {
    return PrintFlat(ir::WriteNode(*form.Build(module_)));
  }
  LinearForm X(int64_t k) { return LinearForm::Of(&Param("x"), k); }
  LinearForm Y(int64_t k) { return LinearForm::Of(&Param("y"), k); }
  static LinearForm C(int64_t k) { return LinearForm::Constant(k); }

  ir::Module module_ = ReadVerified("(proc @p ((size x) (size y)))\n");
};

TEST_F(LinearFormTest, APositiveTermLeads) {
  EXPECT_EQ(Text(X(-1).Plus(C(4))), "(- 4 x)");
  EXPECT_EQ(Text(X(-2).Plus(Y(1)).Plus(C(3))), "(+ (- y (* 2 x)) 3)");
  EXPECT_EQ(Text(X(-1).Plus(Y(-1)).Plus(C(3))), "(- (- 3 x) y)");
}

TEST_F(LinearFormTest, TermsKeepTheirOrderOtherwise) {
  EXPECT_EQ(Text(X(16).Plus(Y(-1)).Plus(C(4))), "(+ (- (* 16 x) y) 4)");
  EXPECT_EQ(Text(X(1).Plus(C(-1))), "(- x 1)");
  EXPECT_EQ(Text(X(1).Plus(Y(3))), "(+ x (* 3 y))");
}

TEST_F(LinearFormTest, OnlyNegativeTermsStartWithANegation) {
  EXPECT_EQ(Text(X(-1)), "(neg x)");
  EXPECT_EQ(Text(X(-3).Plus(C(-2))), "(- (neg (* 3 x)) 2)");
}

TEST_F(LinearFormTest, ConstantsAreLiterals) {
  EXPECT_EQ(Text(C(0)), "0");
  EXPECT_EQ(Text(C(-5)), "-5");
  EXPECT_EQ(Text(X(2).Plus(X(-2)).Plus(C(7))), "7");
}

TEST_F(LinearFormTest, EqualFormsHaveTheSameTermsInAnyOrder) {
  EXPECT_EQ(X(2).Plus(Y(1)).Plus(C(3)), Y(1).Plus(C(3)).Plus(X(2)));
  EXPECT_FALSE(X(2).Plus(C(3)) == X(2).Plus(C(4)));
  EXPECT_FALSE(X(2) == X(2).Plus(Y(1)));
  EXPECT_FALSE(X(2).Plus(Y(1)) == X(2).Plus(Y(-1)));
}

}  // namespace
}  // namespace tessel::primitives
