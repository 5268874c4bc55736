#include "libs/kernel/sema.h"

#include "gtest/gtest.h"
#include "libs/kernel/parser.h"

namespace tessel::kernel {
namespace {

using Sizes = std::map<std::string, int64_t>;

absl::StatusOr<std::vector<Kernel>> Check(const std::string& text,
                                          const Sizes& sizes = {}) {
  auto program = ParseProgram(MakeSource("t.tk", text));
  if (!program.ok()) return program.status();
  return CheckProgram(*program, sizes);
}

// The first line of the diagnostic for `text`.
std::string Error(const std::string& text, const Sizes& sizes = {}) {
  auto kernels = Check(text, sizes);
  EXPECT_FALSE(kernels.ok()) << text;
  if (kernels.ok()) return "";
  std::string message(kernels.status().message());
  return message.substr(0, message.find('\n'));
}

// A kernel with inputs x: f32[4], a: f32[4, 4], alpha: f32 and output
// y: f32[4] around `body`.
std::string K(const std::string& body) {
  return "kernel k(x: f32[4], a: f32[4, 4], alpha: f32) -> (y: f32[4]) {\n" +
         body + "\n}\n";
}

TEST(SemaTest, ResolvesAKernel) {
  auto kernels = Check(
      "kernel gemm(alpha: f32, A: f32[M, K], B: f32[K, N]) -> "
      "(D: f32[M, N]) {\n"
      "  local T: f32[M, N];\n"
      "  all (i, j, k) in (M, N, K) T[i, j] += A[i, k] * B[k, j];\n"
      "  all (i, j) in (M, N) D[i, j] = alpha * T[i, j];\n"
      "}",
      {{"M", 8}, {"N", 4}, {"K", 2}});
  ASSERT_TRUE(kernels.ok()) << kernels.status();
  const Kernel& kernel = (*kernels)[0];
  ASSERT_EQ(kernel.tensors.size(), 5u);
  EXPECT_EQ(kernel.tensors[3].name, "D");
  EXPECT_EQ(kernel.tensors[3].role, TensorRole::kOutput);
  EXPECT_EQ(kernel.tensors[4].role, TensorRole::kLocal);
  EXPECT_EQ(kernel.tensors[4].dims, (std::vector<int64_t>{8, 4}));
  ASSERT_EQ(kernel.statements.size(), 2u);
  const Statement& first = kernel.statements[0];
  EXPECT_EQ(first.vars[2].extent, 2);
  EXPECT_EQ(first.target.tensor, 4);
  ASSERT_EQ(first.reads.size(), 2u);
  EXPECT_EQ(first.reads[1].indices[0].AsVariable(), 2);
  EXPECT_EQ(first.value.op, ValueOp::kMul);
}

TEST(SemaTest, RecordsTheSizesEachKernelUses) {
  // Sizes count where they are used: shapes, extents and indices; others
  // are ignored (parse rejects them, parse_command_test.cc).
  const std::string two =
      "kernel a(x: f32[N]) -> (y: f32[N]) { all (i) in (N) y[i] = x[i]; }\n"
      "kernel b(x: f32[8]) -> (y: f32[4]) {\n"
      "  all (i) in (P) y[i] = x[i + Q];\n"
      "}\n";
  auto kernels = Check(two, {{"N", 3}, {"P", 4}, {"Q", 2}, {"M", 1}});
  ASSERT_TRUE(kernels.ok()) << kernels.status();
  EXPECT_EQ((*kernels)[0].sizes, (std::set<std::string>{"N"}));
  EXPECT_EQ((*kernels)[1].sizes, (std::set<std::string>{"P", "Q"}));
}

TEST(SemaTest, AcceptsSizesAndConstantsInIndices) {
  auto kernels = Check(
      "kernel rev(x: f32[N]) -> (y: f32[N]) {\n"
      "  all (i) in (N) y[i] = x[N - 1 - i];\n"
      "}",
      {{"N", 6}});
  ASSERT_TRUE(kernels.ok()) << kernels.status();
  const AffineExpr& index = (*kernels)[0].statements[0].reads[0].indices[0];
  EXPECT_EQ(index.constant, 5);
  EXPECT_EQ(index.coeffs, (std::vector<int64_t>{-1}));
}

TEST(SemaTest, RecordsWhetherAnAssignmentCoversItsTarget) {
  auto kernels = Check(
      "kernel s(x: f32[4]) -> (y: f32[8], z: f32[4]) {\n"
      "  all (i) in (4) y[2 * i] = x[i];\n"
      "  all (i) in (4) z[i] = x[i];\n"
      "}");
  ASSERT_TRUE(kernels.ok()) << kernels.status();
  EXPECT_FALSE((*kernels)[0].statements[0].covers_target);
  EXPECT_TRUE((*kernels)[0].statements[1].covers_target);
}

TEST(SemaTest, ReportsUnknownNames) {
  EXPECT_EQ(Error(K("all (i) in (4) z[i] = x[i];")),
            "t.tk:2:16: error: unknown tensor 'z'");
  EXPECT_EQ(Error(K("all (i) in (4) y[i] = q[i];")),
            "t.tk:2:23: error: unknown tensor 'q'");
  EXPECT_EQ(Error(K("all (i) in (4) y[i] = q;")),
            "t.tk:2:23: error: unknown name 'q'");
  EXPECT_EQ(Error(K("all (i) in (4) y[i] = x[j];")),
            "t.tk:2:25: error: unknown name 'j' in an index; expected a "
            "domain variable or a size");
  EXPECT_EQ(Error(K("all (i) in (4) y[i] = exp(x[i]);")),
            "t.tk:2:23: error: unknown function 'exp'; the functions are "
            "max(a, b), min(a, b) and relu(a)");
  EXPECT_EQ(Error(K("all (i) in (4) y[i] = max(x[i]);")),
            "t.tk:2:23: error: 'max' takes 2 arguments, not 1");
  EXPECT_EQ(Error(K("all (i) in (4) y[i] = i;")),
            "t.tk:2:23: error: 'i' is a domain variable; domain variables "
            "can only be used in indices");
  EXPECT_EQ(Error(K("all (i) in (4) y[i] = N;"), {{"N", 2}}),
            "t.tk:2:23: error: size 'N' can only be used in shapes, extents "
            "and indices");
}

TEST(SemaTest, NamesStatementsByTheirLabels) {
  auto kernels = Check(K("ff: all (i, j) in (4, 4) y[i] += a[i, j] * x[j];"));
  ASSERT_TRUE(kernels.ok()) << kernels.status();
  EXPECT_EQ((*kernels)[0].statements[0].label, "ff");
  EXPECT_EQ(Error(K("x: all (i) in (4) y[i] = x[i];")),
            "t.tk:2:1: error: label 'x' is the name of a tensor (declared at "
            "1:10); an unlabelled statement is named after its target, so "
            "labels must differ from tensors");
  EXPECT_EQ(Error("kernel k(x: f32[4]) -> (y: f32[4], z: f32[4]) {\n"
                  "  s: all (i) in (4) y[i] = x[i];\n"
                  "  s: all (i) in (4) z[i] = x[i];\n}"),
            "t.tk:3:3: error: label 's' already names the statement at 2:3");
  EXPECT_EQ(Error(K("for: all (i) in (4) y[i] = x[i];")),
            "t.tk:2:1: error: 'for' is a reserved word and cannot name a "
            "statement");
}

TEST(SemaTest, ReportsDuplicateAndReservedNames) {
  EXPECT_EQ(Error("kernel k(x: f32, x: f32) -> (y: f32) {}"),
            "t.tk:1:18: error: 'x' is already declared at 1:10");
  EXPECT_EQ(Error("kernel k(x: f32) -> (y: f32) { local x: f32; }"),
            "t.tk:1:38: error: 'x' is already declared at 1:10");
  EXPECT_EQ(Error("kernel k() -> (y: f32) { all () in () y = 1; }\n"
                  "kernel k() -> (y: f32) { all () in () y = 1; }"),
            "t.tk:2:8: error: kernel 'k' is already defined at 1:8");
  EXPECT_EQ(Error(K("all (x) in (4) y[x] = 1;")),
            "t.tk:2:6: error: domain variable 'x' has the name of a tensor; "
            "rename one of them");
  EXPECT_EQ(Error(K("all (i, i) in (4, 4) y[i] += 1;")),
            "t.tk:2:9: error: domain variable 'i' is repeated (first at 2:6)");
  EXPECT_EQ(Error("kernel k(f16: f32) -> (y: f32) {}"),
            "t.tk:1:10: error: 'f16' is a reserved word and cannot name a "
            "tensor");
  EXPECT_EQ(Error("kernel k(for: f32) -> (y: f32) {}"),
            "t.tk:1:10: error: 'for' is a reserved word and cannot name a "
            "tensor");
  EXPECT_EQ(Error(K("all (index) in (4) y[index] = 1;")),
            "t.tk:2:6: error: 'index' is a reserved word and cannot name a "
            "domain variable");
}

TEST(SemaTest, ReportsSizeErrors) {
  EXPECT_EQ(Error("kernel k(x: f32[M]) -> (y: f32) {}"),
            "t.tk:1:17: error: size 'M' is not bound; pass -D M=VALUE");
  EXPECT_EQ(Error("kernel k(x: f32[0]) -> (y: f32) {}"),
            "t.tk:1:17: error: a dimension must be positive, not 0");
  EXPECT_EQ(Error(K("all (i) in (N) y[i] = 1;"), {{"N", -2}}),
            "t.tk:2:13: error: an extent must be positive, but size 'N' is -2");
  EXPECT_EQ(Error(K("all (i, j) in (4) y[i] += 1;")),
            "t.tk:2:15: error: 2 domain variables but 1 extent; give one "
            "extent per variable");
  EXPECT_EQ(Error("kernel k(x: f32) -> () {}"),
            "t.tk:1:8: error: kernel 'k' has no results; declare its outputs "
            "after '->'");
}

TEST(SemaTest, ReportsRankErrors) {
  EXPECT_EQ(Error(K("all (i) in (4) y[i] = a[i];")),
            "t.tk:2:23: error: 'a' has rank 2 but 1 index given");
  EXPECT_EQ(Error(K("all (i) in (4) y[i] = alpha[i];")),
            "t.tk:2:23: error: 'alpha' is a scalar and takes no indices");
  EXPECT_EQ(Error(K("all (i) in (4) y[i] = x;")),
            "t.tk:2:23: error: 'x' has rank 1; write x[...] with 1 index");
  EXPECT_EQ(Error(K("all (i) in (4) y += x[i];")),
            "t.tk:2:16: error: 'y' has rank 1; write y[...] with 1 index");
}

TEST(SemaTest, ReportsNonAffineIndices) {
  EXPECT_EQ(Error(K("all (i, j) in (2, 2) y[i] += a[i * j, j];")),
            "t.tk:2:34: error: an index cannot multiply two domain "
            "variables: indices are affine in the domain variables");
  EXPECT_EQ(Error(K("all (i) in (4) y[i] = x[i / 2];")),
            "t.tk:2:27: error: an index cannot divide: indices are affine "
            "in the domain variables");
  EXPECT_EQ(Error(K("all (i) in (4) y[i] = x[a[i, i]];")),
            "t.tk:2:25: error: an index cannot read a tensor element "
            "('a[...]'): indices are affine in the domain variables");
  EXPECT_EQ(Error(K("all (i) in (4) y[i] = x[alpha];")),
            "t.tk:2:25: error: an index cannot use the scalar 'alpha': "
            "indices are affine in the domain variables");
  EXPECT_EQ(Error(K("all (i) in (4) y[i] = x[1.0];")),
            "t.tk:2:25: error: an index must be an integer, not a "
            "floating-point number");
  EXPECT_EQ(Error(K("all (i) in (4) y[max(i, 1)] = x[i];")),
            "t.tk:2:18: error: an index cannot call 'max': indices are affine "
            "in the domain variables");
}

TEST(SemaTest, ReportsAccessesOutOfBounds) {
  EXPECT_EQ(Error(K("all (i) in (4) y[i] = x[i + 1];")),
            "t.tk:2:23: error: access out of bounds: at i = 3 it reaches "
            "x[4], but 'x' is f32[4]");
  EXPECT_EQ(Error(K("all (i) in (4) y[i] = x[i - 1];")),
            "t.tk:2:23: error: access out of bounds: at i = 0 it reaches "
            "x[-1], but 'x' is f32[4]");
  EXPECT_EQ(Error(K("all (i, j) in (4, 5) y[i] += a[i, j];")),
            "t.tk:2:30: error: access out of bounds: at i = 0, j = 4 it "
            "reaches a[0, 4], but 'a' is f32[4, 4]");
  EXPECT_EQ(Error(K("all (i) in (3) y[2 * i] = x[i];")),
            "t.tk:2:16: error: access out of bounds: at i = 2 it reaches "
            "y[4], but 'y' is f32[4]");
}

TEST(SemaTest, ReportsDefinitionErrors) {
  EXPECT_EQ(Error(K("all (i) in (4) y[i] = x[i];\n"
                    "all (i) in (4) y[i] = 2;")),
            "t.tk:3:16: error: 'y' is already assigned by the statement at "
            "2:1; each tensor is defined by one statement");
  EXPECT_EQ(Error(K("all (i) in (4) x[i] = 1;")),
            "t.tk:2:16: error: 'x' is an input and cannot be assigned");
  EXPECT_EQ(Error(K("")), "t.tk:1:51: error: output 'y' is never assigned");
  EXPECT_EQ(Error("kernel k() -> (y: f32) { local t: f32;\n"
                  "all () in () y = 1; }"),
            "t.tk:1:32: error: local 't' is never assigned");
  EXPECT_EQ(Error("kernel k() -> (y: f32) { local t: f32;\n"
                  "all () in () y = t;\n"
                  "all () in () t = 1; }"),
            "t.tk:2:18: error: 't' is read before the statement that defines "
            "it");
  EXPECT_EQ(Error(K("all (i) in (4) y[i] = y[i] + 1;")),
            "t.tk:2:23: error: 'y' is read by the statement that defines it; "
            "a statement defines its target from scratch (use a local for an "
            "earlier value)");
  EXPECT_EQ(Error(K("all (i, j) in (4, 2) y[i] = a[i, j];")),
            "t.tk:2:27: error: '=' writes y[0] twice (at i = 0, j = 0 and at "
            "i = 0, j = 1); use '+=', 'max=' or 'min=' to combine the values");
}

TEST(SemaTest, ReportsLiteralErrors) {
  EXPECT_EQ(Error("kernel k() -> (y: i8) { all () in () y = 300; }"),
            "t.tk:1:42: error: the number 300 does not fit in i8");
  EXPECT_EQ(Error("kernel k(x: i32) -> (y: i32) { all () in () y = x * "
                  "5000000000; }"),
            "t.tk:1:53: error: the number 5000000000 does not fit in i32");
  EXPECT_EQ(Error("kernel k() -> (y: f32) { all () in () y = 1 / (2 - 2); }"),
            "t.tk:1:45: error: division by zero");
  EXPECT_EQ(Error("kernel k() -> (y: f32) { all () in () y = 1e39; }"),
            "t.tk:1:43: error: the number 1e+39 does not fit in f32");
  // Past the midpoint between FLT_MAX and 2^128: it rounds to infinity.
  EXPECT_EQ(Error("kernel k() -> (y: f32) { all () in () y = 3.4028236e38; }"),
            "t.tk:1:43: error: the number 3.4028236e+38 does not fit in f32");
  // f16's largest value is 65504; 65520 and above round to infinity.
  EXPECT_EQ(Error("kernel k(x: f16) -> (y: f16) { all () in () y = x * "
                  "65520; }"),
            "t.tk:1:53: error: the number 65520 does not fit in f16");
  EXPECT_TRUE(Check("kernel k(x: f16) -> (y: f16) { all () in () y = x * "
                    "65519.9 + 1e-9; }")
                  .ok());
}

TEST(SemaTest, AcceptsLiteralsThatRoundToAFiniteF32) {
  // NumPy's text for FLT_MAX is above it but rounds to it.
  auto kernels = Check(
      "kernel k(x: f32) -> (y: f32) { all () in () y = "
      "max(x, -3.4028235e38) + 3.4028235e38; }");
  EXPECT_TRUE(kernels.ok()) << kernels.status();
}

}  // namespace
}  // namespace tessel::kernel
