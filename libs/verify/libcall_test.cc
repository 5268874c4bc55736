// Named library calls in the verifier: typed as their definitions, with
// diagnostics at the call, and expanded into their definitions.
#include "libs/verify/libcall.h"

#include <string>

#include "gtest/gtest.h"
#include "libs/ir/edit.h"
#include "libs/ir/syntax.h"
#include "libs/verify/common.h"
#include "libs/verify/func.h"
#include "libs/verify/test_util.h"
#include "libs/poly/poly.h"
#include "libs/sexpr/printer.h"

namespace tessel::ir {
namespace {

absl::Status VerifyFuncs(Module& module) {
  poly::Context ctx;
  for (Node* form : module.forms()) {
    if (auto status = VerifyFunc(*form, ctx); !status.ok()) return status;
  }
  return absl::OkStatus();
}

std::string FirstError(const std::string& text) {
  return FirstLine(CheckText(text, VerifyFuncs));
}

Module Verified(const std::string& text) {
  auto module = ReadText(MakeSource("m.tir", text));
  EXPECT_TRUE(module.ok()) << module.status();
  if (!module.ok()) return Module();
  auto status = VerifyFuncs(*module);
  EXPECT_TRUE(status.ok()) << status;
  return *std::move(module);
}

Node& Term(const Module& module) {
  Node* func = module.forms()[0];
  return *func->operand(func->num_operands() - 1);
}

std::string TypeOf(const Node& node) { return TypeText(node.type()); }

TEST(LibCallTest, CallsHaveTheTypesOfTheirDefinitions) {
  Module module = Verified(
      "(func @f ((x (f64 3)) (A (f64 3 3))) ((y (f64 3)) (s f64) (T (f64 3 "
      "3)))\n"
      "  (tuple (torch.mul 2.5 x)\n"
      "    (tuple (blas.dot x x)\n"
      "      (blas.gemm N T 1 A A 0 (blas.memset 3 3 0)))))");
  const Node& term = Term(module);
  const Node& mul = *term.operand(0);
  EXPECT_EQ(TypeOf(mul), "(f64 3)");
  // A literal operand takes the type its use in the definition needs.
  EXPECT_EQ(TypeOf(*mul.operand(0)), "f64");
  const Node& dot = *term.operand(1)->operand(0);
  EXPECT_EQ(TypeOf(dot), "f64");
  const Node& gemm = *term.operand(1)->operand(1);
  EXPECT_EQ(TypeOf(gemm), "(f64 3 3)");
  EXPECT_EQ(TypeOf(*gemm.operand(0)), "f64");  // alpha, an integer literal
  const Node& memset = *gemm.operand(4);
  EXPECT_EQ(TypeOf(memset), "(f64 3 3)");
  EXPECT_EQ(TypeOf(*memset.operand(0)), "index");
  EXPECT_EQ(TypeOf(*memset.operand(2)), "f64");
}

TEST(LibCallTest, EveryValueNodeIsTyped) {
  Module module = Verified(
      "(func @f ((x (i8 3)) (A (i8 2 3)) (X (i8 4 3)))\n"
      "  ((y (i8 2)) (z (i8 2 3)) (w (i8 4 2)))\n"
      "  (tuple (blas.gemv N 2 A x -1 (blas.memset 2 1))\n"
      "    (tuple (torch.mul 3 (torch.full (shape 2 3) 1))\n"
      "      (gemmini.systolicArray 3 2 (access X 1) (access (blas.transpose "
      "A) 0)))))");
  Walk(Term(module), [](Node& node) {
    // Literal lists and keywords are attributes of a kind, not values.
    bool value = !node.is(Op::kShape) && !node.is(Op::kList);
    EXPECT_EQ(node.type().is_none(), !value) << Text(node);
  });
}

TEST(LibCallTest, LiteralsTakeTheirTypeFromTheCallsContext) {
  Module module = Verified(
      "(func @f () ((y (i32 2 3)))\n"
      "  (torch.full (shape 2 3) 7))");
  const Node& full = Term(module);
  EXPECT_EQ(TypeOf(full), "(i32 2 3)");
  EXPECT_EQ(TypeOf(*full.operand(1)), "i32");
  EXPECT_EQ(TypeOf(*full.operand(0)->operand(1)), "index");
  EXPECT_TRUE(full.operand(0)->type().is_none());  // a literal list
}

TEST(LibCallTest, AccessPatternsInAndOut) {
  Module module = Verified(
      "(func @f ((X (f32 8 16)) (W (f32 4 16))) ((Y (f32 8 4)))\n"
      "  (gemmini.systolicArray 16 4 (access X 1)\n"
      "    (access (transpose (access W 1) (list 1 0)) 0)))");
  EXPECT_EQ(TypeOf(Term(module)), "(access f32 (8 4) ())");
}

TEST(LibCallTest, CallsInsideLamsSeeTheirVariables) {
  // The operands refer to the build's index and to an app's value; the
  // definitions bind their own variables around them.
  Module module = Verified(
      "(func @f ((A (f32 4 3)) (x (f32 3))) ((y (f32 4)))\n"
      "  (app (lam (build 4 (lam (torch.dot (index A %0) %1)))) x))");
  EXPECT_EQ(TypeOf(Term(module)), "(f32 4)");
}

TEST(LibCallTest, Diagnostics) {
  const std::string params =
      "(func @f ((A (f32 4 3)) (B (f32 5 6)) (C (f32 4 6)) (x (f32 3)) "
      "(d (f64 3)) (s f32))";
  EXPECT_EQ(FirstError(params + " ((y (f32 4 6)))\n"
                                "  (blas.gemm N N s A B s C))"),
            "2:22: error: operand 'B' of 'blas.gemm' must be (k n) with k = "
            "3 (from 'A'), found (f32 5 6)");
  EXPECT_EQ(FirstError(params + " ((y f32))\n  (blas.dot x d))"),
            "2:15: error: the operands of 'blas.dot' must have one element "
            "type: this one is (f64 3), an earlier one (f32 3)");
  EXPECT_EQ(FirstError(params + " ((y (f32 3)))\n  (blas.dot x x))"),
            "2:3: error: expected (f32 3), found f32");
  EXPECT_EQ(FirstError(params + " ((y (f32 3)))\n  (torch.add x (tuple x x)))"),
            "2:16: error: operand 2 of 'torch.add' must be a tensor or a "
            "scalar, found (tuple (f32 3) (f32 3))");
  EXPECT_EQ(FirstError(params + " ((y (f32 3)))\n"
                                "  (build 3 (lam (torch.mul %0 x))))"),
            "2:28: error: '%0' is an index, not a data value; use it in "
            "(index A I)");
  EXPECT_EQ(FirstError(params + " ((y (f32 4 6)))\n"
                                "  (gemmini.systolicArray 3 6 (access A 1)\n"
                                "    (access (transpose (access B 1) (list 1 "
                                "0)) 0)))"),
            "3:5: error: operand 'b' of 'gemmini.systolicArray' must be an "
            "access pattern (() (rows cols)) with rows = 3 (from 'rows'), "
            "found an access pattern (() (6 5)) of f32");
}

TEST(LibCallTest, BuiltIrIsCheckedToo) {
  // A transformation's output: operands a signature does not take.
  Module gemv = Verified(
      "(func @f ((A (f32 2 3)) (x (f32 3)) (y (f32 2))) ((z (f32 2)))\n"
      "  (blas.gemv N 1.0 A x 0.0 y))");
  Term(gemv).set_text("X");
  EXPECT_EQ(FirstLine(VerifyFuncs(gemv)),
            "2:14: error: expected N or T for operand 1 of 'blas.gemv', found "
            "'X'");
  Term(gemv).set_text("");
  EXPECT_EQ(FirstLine(VerifyFuncs(gemv)),
            "2:3: error: 'blas.gemv' takes 6 operands, found 5");
  Module module = Verified(
      "(func @f ((x (f32 3))) ((y (f32 2 3)))\n"
      "  (blas.memset 2 3 0.0))");
  Node& call = Term(module);
  call.set_text("N");
  EXPECT_EQ(FirstLine(VerifyFuncs(module)),
            "2:3: error: 'blas.memset' takes 2 or 3 operands, found 4");
  call.set_text("");
  call.operand(1)->set_int(0);
  EXPECT_EQ(FirstLine(VerifyFuncs(module)),
            "2:18: error: expected an integer literal > 0 for operand 2 of "
            "'blas.memset', found '0'");
}

TEST(LibCallTest, DefinitionsNestAtMost64Deep) {
  std::string ones = "(f32";
  for (int i = 0; i < 65; ++i) ones += " 1";
  ones += ")";
  EXPECT_EQ(FirstError("(func @f ((x " + ones + ")) ((y " + ones +
                       "))\n  (torch.add x x))"),
            "2:3: error: the definitions of 'torch.add' and the calls they "
            "make nest more than 64 deep: a definition may call itself only "
            "on a lower rank, of at most 64");
}

std::string Expanded(const std::string& text) {
  Module module = Verified(text);
  auto expanded = ExpandLibCalls(*module.forms()[0]);
  EXPECT_TRUE(expanded.ok()) << expanded.status();
  if (!expanded.ok()) return "";
  const Node& func = *(*expanded)->forms()[0];
  EXPECT_FALSE(HasLibCalls(func));
  return PrintFlat(WriteNode(*func.operand(func.num_operands() - 1)));
}

TEST(LibCallTest, ExpansionBindsEachOperandOnce) {
  // Names, variables and their elements or rows are substituted, under the
  // lams of the definition.
  EXPECT_EQ(Expanded("(func @f ((x (f32 3)) (y (f32 3))) ((r f32))\n"
                     "  (blas.dot x y))"),
            "(ifold 3 0 (lam (lam (+ %0 (* (index x %1) (index y %1))))))");
  EXPECT_EQ(Expanded("(func @f ((A (f32 2 3)) (x (f32 3))) ((r (f32 2)))\n"
                     "  (build 2 (lam (torch.dot (index A %0) x))))"),
            "(build 2 (lam (ifold 3 0 (lam (lam (+ %0 (* (index (index A %2) "
            "%1) (index x %1))))))))");
  // Definitions that use calls are expanded level by level.
  EXPECT_EQ(Expanded("(func @f ((x (f32 2 2))) ((r (f32 2 2)))\n"
                     "  (torch.add x x))"),
            "(build 2 (lam (build 2 (lam (+ (index (index x %1) %0) (index "
            "(index x %1) %0))))))");
  // Other operands are computed once, bound by app.
  EXPECT_EQ(Expanded("(func @f ((x (f32 3)) (y (f32 3))) ((r f32))\n"
                     "  (torch.sum (torch.add x y)))"),
            "(app (lam (ifold 3 0 (lam (lam (+ %0 (index %2 %1)))))) (build 3 "
            "(lam (+ (index x %0) (index y %0)))))");
  // Arithmetic on literals is copied: app would bind it as an index.
  EXPECT_EQ(Expanded("(func @f ((x (i32 3))) ((r (i32 3)))\n"
                     "  (torch.mul (+ 1 2) x))"),
            "(build 3 (lam (* (+ 1 2) (index x %0))))");
}

TEST(LibCallTest, ExpansionOfTheBlasAndTorchCallsVerifies) {
  Expanded(
      "(func @f ((A (f32 4 3)) (B (f32 3 5)) (C (f32 4 5)) (T (f32 5 3)))\n"
      "  ((y (f32 4 5)) (z (f32 4 5)) (w (f32 4 5)))\n"
      "  (tuple (blas.gemm T N 2.0 (blas.transpose A) B 0.5 C)\n"
      "    (tuple (blas.gemm N T 1.0 A T 1.0 C) (torch.mm A B))))");
}

}  // namespace
}  // namespace tessel::ir
