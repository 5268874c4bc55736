#include "libs/schedule/expr_build.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "libs/ir/syntax.h"
#include "libs/ir/views.h"
#include "libs/primitives/testing.h"
#include "libs/schedule/testing.h"
#include "libs/sexpr/printer.h"

namespace tessel::schedule {
namespace {

using ::testing::HasSubstr;

class ExprBuildTest : public ::testing::Test {
 protected:
  ExprBuildTest()
      : module_(primitives::testing::ReadVerified(testing::kProc)),
        proc_(primitives::testing::ProcNamed(module_, "@p")) {
    ir::Node& i_loop = *ir::ProcView(proc_).body()[0];
    k_reduce_ = ir::ForView(*ir::ForView(i_loop).body()[1]).body()[0];
    i_assign_ = ir::ForView(i_loop).body()[0];
    ir::Node& j_loop = *ir::ProcView(proc_).body()[1];
    j_if_ = ir::ForView(j_loop).body()[2];
  }

  std::string Built(const ir::Node* scope, const std::string& text) {
    absl::StatusOr<ir::Node*> node = BuildExprText(module_, proc_, scope, text);
    if (!node.ok()) return std::string(node.status().message());
    return PrintFlat(ir::WriteNode(**node));
  }

  ir::Module module_;
  ir::Node& proc_;
  ir::Node* k_reduce_;
  ir::Node* i_assign_;
  ir::Node* j_if_;
};

TEST_F(ExprBuildTest, BuildsExoExpressions) {
  EXPECT_EQ(Built(k_reduce_, "A[i, k] * 2.0 + 1.5"), "(+ (* (A i k) 2.0) 1.5)");
  EXPECT_EQ(Built(k_reduce_, "A[i, 0:8]"), "(window A i (: 0 8))");
  EXPECT_EQ(Built(k_reduce_, "A[i + 1, k - 1]"), "(A (+ i 1) (- k 1))");
  EXPECT_EQ(Built(nullptr, "n % 4 == 0 and not n < 8 or n >= 2"),
            "(or (and (== (% n 4) 0) (not (< n 8))) (>= n 2))");
  EXPECT_EQ(Built(nullptr, "stride(A, 0)"), "(stride A 0)");
  EXPECT_EQ(Built(nullptr, "-n / 2"), "(/ (neg n) 2)");
  EXPECT_EQ(Built(nullptr, "max(n, 4) - min(n, 2)"), "(- (max n 4) (min n 2))");
  EXPECT_EQ(Built(j_if_, "t + C[j]"), "(+ t (C j))");
}

TEST_F(ExprBuildTest, ResolvesNamesToTheirBinders) {
  absl::StatusOr<ir::Node*> node =
      BuildExprText(module_, proc_, k_reduce_, "A[i, k]");
  ASSERT_TRUE(node.ok());
  ir::LoadView load(**node);
  EXPECT_EQ(load.buffer(), ir::ParamsOf(proc_)[1]);
  EXPECT_EQ(load.indices()[0]->def(), ir::ProcView(proc_).body()[0]);
  EXPECT_EQ(load.indices()[1]->def(), k_reduce_->parent());
}

TEST_F(ExprBuildTest, RejectsNamesOutOfScope) {
  // k is bound inside the statement, t after it, j elsewhere.
  EXPECT_EQ(Built(i_assign_, "k"), "'k' is not in scope at column 1");
  EXPECT_EQ(Built(k_reduce_, "t"), "'t' is not in scope at column 1");
  EXPECT_EQ(Built(k_reduce_, "A[j, 0]"), "'j' is not in scope at column 3");
  EXPECT_EQ(Built(nullptr, "i"), "'i' is not in scope at column 1");
}

TEST_F(ExprBuildTest, RejectsWhatIsNotAnExpression) {
  EXPECT_THAT(Built(nullptr, "_"), HasSubstr("'_' is a pattern's hole"));
  EXPECT_THAT(Built(nullptr, "n n"), HasSubstr("unexpected text"));
  EXPECT_THAT(Built(nullptr, "foo(n)"), HasSubstr("unknown function 'foo'"));
  EXPECT_THAT(Built(nullptr, "stride(A)"), HasSubstr("stride takes"));
  EXPECT_THAT(Built(nullptr, "cfg.x"), HasSubstr("'cfg' is not a config"));
  EXPECT_THAT(Built(nullptr, "n +"), HasSubstr("expected an expression"));
}

}  // namespace
}  // namespace tessel::schedule
