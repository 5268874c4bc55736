#include "libs/kernel/parser.h"

#include "gtest/gtest.h"

namespace tessel::kernel {
namespace {

ast::Program ParseOk(const std::string& text) {
  auto program = ParseProgram(MakeSource("t.tk", text));
  EXPECT_TRUE(program.ok()) << program.status();
  return program.ok() ? *program : ast::Program{};
}

std::string ParseError(const std::string& text) {
  auto program = ParseProgram(MakeSource("t.tk", text));
  EXPECT_FALSE(program.ok());
  return program.ok() ? "" : std::string(program.status().message());
}

TEST(ParserTest, ParsesAKernel) {
  auto program = ParseOk(
      "kernel gemm(alpha: f32, A: f32[M, 4]) -> (D: f32[M, 4], s: i32) {\n"
      "  local T: f64[M, 4];\n"
      "  all (i, j) in (M, 4) T[i, j] = alpha * A[i, j];\n"
      "  all () in () s max= 1;\n"
      "}\n"
      "kernel other() -> (y: i8) { all (i) in (2) y min= -3; }");
  ASSERT_EQ(program.kernels.size(), 2u);
  const ast::Kernel& gemm = program.kernels[0];
  EXPECT_EQ(gemm.name.text, "gemm");
  ASSERT_EQ(gemm.inputs.size(), 2u);
  EXPECT_TRUE(gemm.inputs[0].type.dims.empty());
  ASSERT_EQ(gemm.inputs[1].type.dims.size(), 2u);
  EXPECT_EQ(gemm.inputs[1].type.dims[0].name, "M");
  EXPECT_EQ(gemm.inputs[1].type.dims[1].value, 4);
  EXPECT_EQ(gemm.outputs[1].type.elem, ElemType::kI32);
  ASSERT_EQ(gemm.locals.size(), 1u);
  EXPECT_EQ(gemm.locals[0].type.elem, ElemType::kF64);
  ASSERT_EQ(gemm.statements.size(), 2u);
  const ast::Statement& first = gemm.statements[0];
  EXPECT_EQ(first.vars.size(), 2u);
  EXPECT_EQ(first.target.text, "T");
  EXPECT_TRUE(first.target_indexed);
  EXPECT_EQ(first.op, ast::AssignOp::kAssign);
  EXPECT_EQ(first.value.kind, ast::ExprKind::kBinary);
  EXPECT_EQ(first.value.op, ast::BinaryOp::kMul);
  const ast::Statement& second = gemm.statements[1];
  EXPECT_TRUE(second.vars.empty());
  EXPECT_FALSE(second.target_indexed);
  EXPECT_EQ(second.op, ast::AssignOp::kMax);
  EXPECT_EQ(program.kernels[1].statements[0].op, ast::AssignOp::kMin);
  EXPECT_EQ(program.kernels[1].statements[0].value.kind, ast::ExprKind::kNeg);
}

TEST(ParserTest, FollowsPrecedenceAndAssociativity) {
  auto program =
      ParseOk("kernel k() -> (y: f32) { all () in () y = a - b - c * d / e; }");
  const ast::Expr& value = program.kernels[0].statements[0].value;
  // (a - b) - ((c * d) / e)
  ASSERT_EQ(value.kind, ast::ExprKind::kBinary);
  EXPECT_EQ(value.op, ast::BinaryOp::kSub);
  EXPECT_EQ(value.operands[0].op, ast::BinaryOp::kSub);
  EXPECT_EQ(value.operands[1].op, ast::BinaryOp::kDiv);
  EXPECT_EQ(value.operands[1].operands[0].op, ast::BinaryOp::kMul);
  EXPECT_EQ(value.depth, 4);
}

TEST(ParserTest, ParsesCallsAndElements) {
  auto program = ParseOk(
      "kernel k() -> (y: f32) { all () in () y = max(x[0, 1], relu((s))); }");
  const ast::Expr& value = program.kernels[0].statements[0].value;
  ASSERT_EQ(value.kind, ast::ExprKind::kCall);
  EXPECT_EQ(value.name, "max");
  ASSERT_EQ(value.operands.size(), 2u);
  EXPECT_EQ(value.operands[0].kind, ast::ExprKind::kElement);
  EXPECT_EQ(value.operands[0].operands.size(), 2u);
  EXPECT_EQ(value.operands[1].operands[0].kind, ast::ExprKind::kName);
}

TEST(ParserTest, ReportsAMissingSemicolonAfterTheStatement) {
  EXPECT_EQ(ParseError("kernel k(x: f32[4]) -> (y: f32[4]) {\n"
                       "  all (i) in (4) y[i] = x[i]\n"
                       "}\n"),
            "t.tk:2:29: error: expected ';' after the statement\n"
            "  all (i) in (4) y[i] = x[i]\n"
            "                            ^");
}

TEST(ParserTest, ReportsTruncatedInput) {
  EXPECT_NE(ParseError("kernel k(x: f32[4]) -> (y: f32[4]) {\n"
                       "  all (i) in (4) y[i] = x[i];\n")
                .find("2:30: error: expected '}' to close the '{' at 1:36, "
                      "but the input ends here"),
            std::string::npos);
  EXPECT_NE(ParseError("kernel k(x: f32[4]) -> (y: f32[4]) { all (i) in (4) "
                       "y[i] = x[i] +")
                .find("expected an expression, but the input ends here"),
            std::string::npos);
}

TEST(ParserTest, ReportsUnbalancedBrackets) {
  EXPECT_NE(ParseError("kernel k(x: f32[4]) -> (y: f32[4]) { all (i) in (4) "
                       "y[i] = x[i;}")
                .find("expected ']' to close the '[' at 1:61"),
            std::string::npos);
  EXPECT_NE(ParseError("kernel k(x: f32[4]) -> (y: f32[4]) { all (i) in (4) "
                       "y[i] = (x[i] + 1;}")
                .find("expected ')' to close the '(' at 1:60"),
            std::string::npos);
  EXPECT_NE(ParseError("kernel k(x: f32[4] -> (y: f32[4]) {}")
                .find("expected ')' to close the '(' at 1:9"),
            std::string::npos);
}

TEST(ParserTest, ReportsOtherSyntaxErrors) {
  EXPECT_NE(ParseError("all").find("expected 'kernel' to start a kernel"),
            std::string::npos);
  EXPECT_NE(ParseError("kernel k(x f32) -> (y: f32) {}")
                .find("expected ':' and a type after 'x'"),
            std::string::npos);
  EXPECT_NE(ParseError("kernel k(x: bf16) -> (y: f32) {}")
                .find("unknown element type 'bf16'; expected f16, f32, f64, "
                      "i8 or i32"),
            std::string::npos);
  EXPECT_NE(ParseError("kernel k(x: f32[-1]) -> (y: f32) {}")
                .find("expected a size: an integer or a name bound with -D"),
            std::string::npos);
  EXPECT_NE(ParseError("kernel k() -> (y: f32) { all (i) in (4) y := 1; }")
                .find("expected '=', '+=', 'max=' or 'min=' after the target"),
            std::string::npos);
  EXPECT_NE(ParseError("kernel k() -> (y: f32) { y = 1; }")
                .find("expected a statement ('all ...' or 'LABEL: all ...')"),
            std::string::npos);
  EXPECT_NE(ParseError("kernel k() (y: f32) {}")
                .find("expected '->' before the results"),
            std::string::npos);
}

TEST(ParserTest, ParsesStatementLabels) {
  auto program = ParseOk(
      "kernel k(x: f32[4]) -> (y: f32[4], z: f32[4]) {\n"
      "  ff: all (i) in (4) y[i] = x[i];\n"
      "  all (i) in (4) z[i] = x[i];\n"
      "}");
  ASSERT_EQ(program.kernels.size(), 1u);
  const ast::Kernel& k = program.kernels[0];
  ASSERT_EQ(k.statements.size(), 2u);
  EXPECT_EQ(k.statements[0].label.text, "ff");
  EXPECT_EQ(k.statements[0].label.loc.line, 2);
  EXPECT_EQ(k.statements[0].label.loc.col, 3);
  EXPECT_EQ(k.statements[0].loc.col, 7);
  EXPECT_EQ(k.statements[1].label.text, "");
  EXPECT_NE(ParseError("kernel k() -> (y: f32) { ff: y = 1; }")
                .find("t.tk:1:29: error: expected 'all' after the label 'ff:'"),
            std::string::npos);
  EXPECT_NE(ParseError("kernel k() -> (y: f32) { ff all () in () y = 1; }")
                .find("expected a statement ('all ...' or 'LABEL: all ...')"),
            std::string::npos);
}

TEST(ParserTest, BoundsExpressionDepth) {
  std::string deep = "kernel k() -> (y: f32) { all () in () y = ";
  for (int i = 0; i < 200; ++i) deep += "(";
  deep += "1";
  for (int i = 0; i < 200; ++i) deep += ")";
  deep += "; }";
  EXPECT_NE(ParseError(deep).find("expression nests too deeply"),
            std::string::npos);
  std::string chain = "kernel k() -> (y: f32) { all () in () y = 1";
  for (int i = 0; i < 200; ++i) chain += " + 1";
  chain += "; }";
  EXPECT_NE(ParseError(chain).find("expression nests too deeply"),
            std::string::npos);
  std::string negations = "kernel k() -> (y: f32) { all () in () y = ";
  for (int i = 0; i < 100000; ++i) negations += "-";
  negations += "1; }";
  EXPECT_NE(ParseError(negations).find("expression nests too deeply"),
            std::string::npos);
}

}  // namespace
}  // namespace tessel::kernel
