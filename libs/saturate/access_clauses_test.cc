#include "libs/saturate/access_clauses.h"

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "libs/ir/type.h"
#include "libs/saturate/access_shapes.h"
#include "libs/saturate/testing.h"
#include "libs/saturate/tir_binding.h"

namespace tessel::saturate {
namespace {

using testing::FuncGraph;
using ::testing::HasSubstr;

// A matrix product over access patterns: (access X 1) is ((20) (40)),
// (access W 1) is ((24) (40)), their cartProd ((20 24) (2 40)).
constexpr char kParams[] = "((X (f32 20 40)) (W (f32 24 40)))";
constexpr char kProduct[] =
    "(func @mm ((X (f32 20 40)) (W (f32 24 40))) ((out (f32 20 24)))"
    "  (compute dotProd (cartProd (access X 1) (access W 1))))";
constexpr char kX[] = "(access X 1)";
constexpr char kW[] = "(access W 1)";
constexpr char kCart[] = "(cartProd (access X 1) (access W 1))";

// Glenside's clauses (DefineAccessClauses, through TirBinding) in rule
// set `t`, run on one func's e-graph.
class AccessClausesTest : public testing::RulesTest {
 protected:
  // One iteration of the rule set `t` of `rules` on `f`.
  void Run(FuncGraph& f, const std::string& rules) {
    RulesTest::Run(f, rules, 1);
  }

  // Whether the terms `a` and `b` over kParams, of type `type`, are both
  // in the e-graph and in one class.
  bool Equal(FuncGraph& f, const std::string& type, const std::string& a,
             const std::string& b) {
    auto lookup = [&](const std::string& term) {
      ir::Module module = testing::ReadVerified(
          absl::StrCat("(func @t ", kParams, " ((r ", type, ")) ", term, ")"));
      const ir::Node* body = testing::FirstFunc(module)->operands().back();
      return f.g().LookupTerm(f.encoding().ToTerm(*body));
    };
    std::optional<egraph::ClassId> x = lookup(a);
    std::optional<egraph::ClassId> y = lookup(b);
    return x && y && f.g().Find(*x) == f.g().Find(*y);
  }

  // Which of (access X 1), (access W 1) and their cartProd satisfy
  // `condition` over ?a: the rule marks each with a slice of its first
  // dimension, whole.
  std::vector<bool> Marked(const std::string& condition) {
    SCOPED_TRACE(condition);
    FuncGraph f(kProduct);
    Run(f, absl::StrCat("(ruleset t (rule mark ?a (slice ?a 0 0 ?n)"
                        "  (if (access-pattern ?a) ",
                        condition, ") (let ?n (dim ?a 0))))"));
    return {
        Equal(f, "(f32 20 40)", kX, absl::StrCat("(slice ", kX, " 0 0 20)")),
        Equal(f, "(f32 24 40)", kW, absl::StrCat("(slice ", kW, " 0 0 24)")),
        Equal(f, "(f32 20 24 2 40)", kCart,
              absl::StrCat("(slice ", kCart, " 0 0 20)"))};
  }

  std::string CompileError(const std::string& rules) {
    return RulesTest::CompileError(kProduct, rules);
  }
};

using Marks = std::vector<bool>;

TEST_F(AccessClausesTest, ShapeConditions) {
  EXPECT_EQ(Marked(""), (Marks{true, true, true}));
  EXPECT_EQ(Marked("(access-rank ?a 1)"), (Marks{true, true, false}));
  EXPECT_EQ(Marked("(rank-above ?a 2)"), (Marks{false, false, true}));
  EXPECT_EQ(Marked("(dim-at-most ?a 0 20)"), (Marks{true, false, true}));
  EXPECT_EQ(Marked("(dim-at-most ?a 3 16)"), (Marks{false, false, false}));
  // Dimension 1 is a compute dimension of the operands, an access
  // dimension of the product, whose dimension 2 is the tuple dimension
  // dotProd multiplies across and 3 the one it sums.
  EXPECT_EQ(Marked("(access-dim ?a 1)"), (Marks{false, false, true}));
  EXPECT_EQ(Marked("(compute-dim ?a 1)"), (Marks{true, true, false}));
  EXPECT_EQ(Marked("(summed-dim ?a 2)"), (Marks{false, false, false}));
  EXPECT_EQ(Marked("(summed-dim ?a 3)"), (Marks{false, false, true}));
  // Out of range is false, never an error.
  EXPECT_EQ(Marked("(access-dim ?a 7)"), (Marks{false, false, false}));
  EXPECT_EQ(Marked("(has-shape ?a (shape 24) (shape 40))"),
            (Marks{false, true, false}));
  EXPECT_EQ(Marked("(operand-of ?a cartProd)"), (Marks{true, true, false}));
  EXPECT_EQ(Marked("(operand-of ?a cartProd 1)"), (Marks{false, true, false}));
  EXPECT_EQ(Marked("(operand-of ?a compute)"), (Marks{false, false, true}));
}

// Fig. 4's exploratory rule with its lets: the operands of the cartProd
// are flattened and reshaped back to their literal shapes.
TEST_F(AccessClausesTest, ShapeLets) {
  FuncGraph f(kProduct);
  Run(f,
      "(ruleset t (rule flatten ?a (reshape (flatten ?a) ?sa ?sc)"
      "  (if (access-pattern ?a) (operand-of ?a cartProd))"
      "  (let ?sa (access-shape ?a)) (let ?sc (compute-shape ?a))))");
  EXPECT_TRUE(Equal(f, "(f32 24 40)", kW,
                    "(reshape (flatten (access W 1)) (shape 24) (shape 40))"));
  // The reshape of a cartProd of reshapes, shapes concatenated.
  Run(f,
      "(ruleset t (rule bubble"
      "  (cartProd (reshape ?a0 ?sa0 ?sc0) (reshape ?a1 ?sa1 ?sc1))"
      "  (reshape (cartProd ?a0 ?a1) ?sa ?sc)"
      "  (if (same-compute-shape ?a0 ?a1))"
      "  (let ?sa (shape-concat ?sa0 ?sa1))"
      "  (let ?sc (shape-concat (shape 2) ?sc0))))");
  EXPECT_TRUE(
      Equal(f, "(f32 20 24 2 40)", kCart,
            "(reshape (cartProd (flatten (access X 1)) (flatten (access W 1)))"
            " (shape 20 24) (shape 2 40))"));
}

// split-point cuts a dimension longer than the block at the multiple of
// the block nearest its middle (40 at 32, 24 at 16), and a dimension that
// fits (40 in blocks of 64) not at all; sum adds integers and ?variables.
TEST_F(AccessClausesTest, IntegerLets) {
  FuncGraph f(kProduct);
  Run(f,
      "(ruleset t"
      "  (rule cut ?a (concat (slice ?a ?d 0 ?mid) (slice ?a ?d ?mid ?end) ?d)"
      "    (if (access-rank ?a 1))"
      "    (let ?r (access-rank ?a)) (let ?d (sum ?r 0))"
      "    (let ?mid (split-point ?a ?d 16)) (let ?end (dim ?a ?d)))"
      "  (rule cut-wide ?a (slice ?a 0 0 ?mid)"
      "    (if (access-rank ?a 1)) (let ?mid (split-point ?a 1 64))))");
  EXPECT_TRUE(Equal(f, "(f32 20 40)", kX,
                    "(concat (slice (access X 1) 1 0 32)"
                    " (slice (access X 1) 1 32 40) 1)"));
  EXPECT_TRUE(Equal(f, "(f32 24 40)", kW,
                    "(concat (slice (access W 1) 1 0 32)"
                    " (slice (access W 1) 1 32 40) 1)"));
  EXPECT_FALSE(Equal(f, "(f32 20 40)", kX, "(slice (access X 1) 0 0 20)"));
}

// A ?variable an integer or shape argument reads must be bound to a
// literal: bound to anything else, a condition is false and a let yields
// nothing, so the rule does not apply.
TEST_F(AccessClausesTest, NonLiteralArgumentsDoNotApply) {
  // ?b is an access pattern where an integer or a shape is read.
  FuncGraph f(kProduct);
  Run(f,
      "(ruleset t"
      "  (rule dim (cartProd ?a ?b) (slice (cartProd ?a ?b) 0 0 ?n)"
      "    (let ?n (dim ?a ?b)))"
      "  (rule has-shape (cartProd ?a ?b) (slice (cartProd ?a ?b) 0 0 20)"
      "    (if (has-shape ?a ?b (shape 40))))"
      "  (rule shape-concat (cartProd ?a ?b)"
      "    (reshape (cartProd ?a ?b) ?s (shape 2 40))"
      "    (let ?s (shape-concat ?a (shape 24)))))");
  EXPECT_FALSE(Equal(f, "(f32 20 24 2 40)", kCart,
                     absl::StrCat("(slice ", kCart, " 0 0 20)")));
  EXPECT_FALSE(
      Equal(f, "(f32 20 24 2 40)", kCart,
            absl::StrCat("(reshape ", kCart, " (shape 20 24) (shape 2 40))")));
  EXPECT_EQ(f.g().NumNodes(), FuncGraph(kProduct).g().NumNodes());

  // The same rules over literals apply.
  FuncGraph g(kProduct);
  Run(g,
      "(ruleset t"
      "  (rule dim (cartProd ?a ?b) (slice (cartProd ?a ?b) 0 0 ?n)"
      "    (let ?n (dim ?a 0)))"
      "  (rule shape-concat (cartProd ?a ?b)"
      "    (reshape (cartProd ?a ?b) ?s (shape 2 40))"
      "    (let ?s (shape-concat (shape 20) (shape 24)))))");
  EXPECT_TRUE(Equal(g, "(f32 20 24 2 40)", kCart,
                    absl::StrCat("(slice ", kCart, " 0 0 20)")));
  EXPECT_TRUE(
      Equal(g, "(f32 20 24 2 40)", kCart,
            absl::StrCat("(reshape ", kCart, " (shape 20 24) (shape 2 40))")));
}

TEST_F(AccessClausesTest, MalformedClausesAreErrors) {
  EXPECT_THAT(CompileError("(ruleset t (rule r ?a ?a"
                           "  (if (has-shape ?a (shape 0 4) (shape 2)))))"),
              HasSubstr("'has-shape' needs a ?variable or (shape N...) with "
                        "extents > 0 here"));
  EXPECT_THAT(CompileError("(ruleset t (rule r ?a ?a"
                           "  (if (has-shape ?a (list 1 0) (shape 2)))))"),
              HasSubstr("'has-shape' needs a ?variable or (shape N...)"));
  EXPECT_THAT(CompileError("(ruleset t (rule r ?a ?a"
                           "  (if (dim-at-most ?a first 16))))"),
              HasSubstr("'dim-at-most' needs an integer or a ?variable here"));
  EXPECT_THAT(CompileError("(ruleset t (rule r ?a ?a"
                           "  (if (operand-of ?a ?a))))"),
              HasSubstr("'operand-of' needs an op name here"));
  EXPECT_THAT(CompileError("(ruleset t (rule r ?a ?a"
                           "  (if (operand-of ?a cartProd -1))))"),
              HasSubstr("'operand-of' needs an operand position here"));
  EXPECT_THAT(CompileError("(ruleset t (rule r ?a ?a (if (access-dim ?a))))"),
              HasSubstr("rule 'r'"));
  EXPECT_THAT(CompileError("(ruleset t (rule r ?a ?a"
                           "  (if (same-compute-shape ?a ?b))))"),
              HasSubstr("uses ?b, which is not bound"));
}

ir::Type Access(std::vector<int64_t> extents, int split) {
  std::vector<ir::Dim> dims;
  for (int64_t extent : extents) dims.push_back(ir::Dim::Constant(extent));
  return ir::Type::Access(ElemType::kF32, std::move(dims), split);
}

AccessLiteral Int(int64_t value) { return {std::nullopt, {value}}; }
AccessLiteral List(ir::Op op, std::vector<int64_t> values) {
  return {op, std::move(values)};
}

// The shapes the analysis gives access patterns are the verifier's
// (Glenside's Table 1); where the verifier rejects a pattern, there is none.
TEST(AccessShapesTest, TypesAreTheVerifiers) {
  AccessShapes shapes;
  ir::Type x = Access({20, 40}, 1);
  ir::Type w = Access({24, 40}, 1);
  auto text = [](const std::optional<ir::Type>& type) {
    return type ? ir::TypeText(*type) : std::string("none");
  };
  EXPECT_EQ(
      text(shapes.TypeOf(ir::Op::kSlice, "", {x}, {Int(1), Int(16), Int(40)})),
      text(Access({20, 24}, 1)));
  EXPECT_EQ(text(shapes.TypeOf(ir::Op::kCartProd, "", {x, w}, {})),
            text(Access({20, 24, 2, 40}, 2)));
  EXPECT_EQ(text(shapes.TypeOf(ir::Op::kCompute, "dotProd",
                               {Access({20, 24, 2, 40}, 2)}, {})),
            text(Access({20, 24}, 2)));
  EXPECT_EQ(text(shapes.TypeOf(ir::Op::kTranspose, "", {x},
                               {List(ir::Op::kList, {1, 0})})),
            text(Access({40, 20}, 1)));
  EXPECT_EQ(text(shapes.TypeOf(ir::Op::kWindows, "", {Access({1, 3, 8, 8}, 1)},
                               {List(ir::Op::kShape, {3, 3, 3}),
                                List(ir::Op::kShape, {1, 2, 2})})),
            text(Access({1, 1, 3, 3, 3, 3, 3}, 4)));
  // Asked again, the same answer (from the cache).
  EXPECT_EQ(text(shapes.TypeOf(ir::Op::kCartProd, "", {x, w}, {})),
            text(Access({20, 24, 2, 40}, 2)));

  EXPECT_EQ(
      text(shapes.TypeOf(ir::Op::kSlice, "", {x}, {Int(1), Int(16), Int(41)})),
      "none");
  EXPECT_EQ(
      text(shapes.TypeOf(ir::Op::kCartProd, "", {x, Access({24, 16}, 1)}, {})),
      "none");
  EXPECT_EQ(text(shapes.TypeOf(ir::Op::kTranspose, "", {x},
                               {List(ir::Op::kList, {1, 1})})),
            "none");
  EXPECT_EQ(text(shapes.TypeOf(ir::Op::kCompute, "dotProd", {x}, {})),
            text(Access({20}, 1)));
  // A literal list where an integer goes, and an operand missing.
  EXPECT_EQ(text(shapes.TypeOf(ir::Op::kSlice, "", {x},
                               {List(ir::Op::kList, {1}), Int(0), Int(4)})),
            "none");
  EXPECT_EQ(text(shapes.TypeOf(ir::Op::kCartProd, "", {x}, {})), "none");
}

}  // namespace
}  // namespace tessel::saturate
