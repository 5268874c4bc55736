// isl's expressions and ASTs as TIR.
#include "libs/polysimd/isl_to_tir.h"

#include "gtest/gtest.h"
#include "libs/poly/poly.h"
#include "libs/sexpr/printer.h"

namespace tessel::polysimd {
namespace {

class IslToTirTest : public ::testing::Test {
 protected:
  std::string Expr(const char* pw_aff, const char* context = "{ : }") {
    auto expr = ParamExpr(isl::pw_aff(ctx_, pw_aff), isl::set(ctx_, context),
                          names_);
    return expr.ok() ? PrintFlat(*expr) : std::string(expr.status().message());
  }

  poly::Context context_;
  isl::ctx ctx_{context_.get()};
  IslNames names_ = {{"n", Sexpr::Symbol("n")}, {"m", Sexpr::Symbol("m")}};
};

TEST_F(IslToTirTest, QuasiAffineExpressions) {
  EXPECT_EQ(Expr("[n] -> { [(2n + 3)] }"), "(+ (* 2 n) 3)");
  EXPECT_EQ(Expr("[n] -> { [(-n)] }"), "(neg n)");
  EXPECT_EQ(Expr("[n] -> { [(floor(n/4))] }"), "(/ n 4)");
  // isl knows n >= 0 here and writes a remainder of a non-negative value.
  EXPECT_EQ(Expr("[n] -> { [(n mod 8)] }", "[n] -> { : n >= 0 }"), "(% n 8)");
  EXPECT_EQ(Expr("[n, m] -> { [(n)] : n <= m; [(m)] : m < n }"), "(min n m)");
}

TEST_F(IslToTirTest, Conditions) {
  auto cond = ParamCondition(isl::set(ctx_, "[n, m] -> { : 0 <= n < m }"),
                             isl::set(ctx_, "{ : }"), names_);
  ASSERT_TRUE(cond.ok());
  EXPECT_EQ(PrintFlat(*cond), "(and (>= n 0) (>= m (+ n 1)))");
}

TEST_F(IslToTirTest, UnknownNamesAreErrors) {
  EXPECT_EQ(Expr("[k] -> { [(k)] }"), "isl's 'k' stands for nothing in TIR");
}

// The statements isl's AST builder writes for `domain`, each instance a
// call (S c0 c1 ...), printed flat; or the error.
std::string Loops(isl::ctx ctx, const IslNames& base, const char* domain,
                  const char* context) {
  isl::set set(ctx, domain);
  isl::union_map schedule(
      isl::manage(isl_map_identity(
                      isl_space_map_from_set(set.space().release())))
          .intersect_domain(set));
  isl::ast_node tree =
      BuildFrom(isl::set(ctx, context)).node_from_schedule_map(schedule);
  IslNames names = base;
  auto stmts = AstStatements(
      tree, "c", names,
      [](const std::vector<Sexpr>& at) -> absl::StatusOr<std::vector<Sexpr>> {
        std::vector<Sexpr> call = {Sexpr::Symbol("S")};
        call.insert(call.end(), at.begin(), at.end());
        return std::vector<Sexpr>{Sexpr::List(std::move(call))};
      });
  if (!stmts.ok()) return std::string(stmts.status().message());
  EXPECT_EQ(names.size(), base.size()) << "iterators left in the names";
  std::string text;
  for (const Sexpr& stmt : *stmts) text += PrintFlat(stmt);
  return text;
}

TEST_F(IslToTirTest, LoopsAndGuards) {
  EXPECT_EQ(Loops(ctx_, names_,
                  "[n] -> { [i, j] : 0 <= i < n and 0 <= j <= i }",
                  "[n] -> { : n > 0 }"),
            "(for c0 0 n (for c1 0 (+ c0 1) (S c0 c1)))");
  EXPECT_EQ(Loops(ctx_, names_, "[n, m] -> { [i] : 0 <= i < n and m > 2 }",
                  "{ : }"),
            "(if (>= m 3) (then (for c0 0 n (S c0))))");
  // TIR's loops step by 1: isl's loop of step 2 counts its steps.
  EXPECT_EQ(Loops(ctx_, names_,
                  "[n] -> { [i] : 0 <= i < n and i mod 2 = 0 }", "{ : }"),
            "(for c0 0 (/ (+ (- n 0) 1) 2) (S (+ 0 (* 2 c0))))");
  EXPECT_EQ(Loops(ctx_, names_,
                  "[n] -> { [i] : n <= i < 20 and (i - n) mod 3 = 0 }",
                  "{ : }"),
            "(for c0 0 (/ (+ (- (+ 19 1) n) 2) 3) (S (+ n (* 3 c0))))");
}

}  // namespace
}  // namespace tessel::polysimd
