#include "libs/saturate/tir_encoding.h"

#include <string>

#include "gtest/gtest.h"
#include "libs/egraph/cost.h"
#include "libs/egraph/extract.h"
#include "libs/ir/syntax.h"
#include "libs/verify/read.h"
#include "libs/saturate/testing.h"
#include "libs/support/source.h"

namespace tessel::saturate {
namespace {

using testing::FuncGraph;

// The func's term into the e-graph and back: the module printed with the
// extracted term is byte for byte the module printed with the input's, and
// it verifies again.
void ExpectRoundTrip(const std::string& text) {
  SCOPED_TRACE(text);
  FuncGraph f(text);
  std::string before = ir::PrintModule(f.module());
  auto extractor = egraph::GreedyExtractor::Create(f.g(), egraph::AstSize());
  ASSERT_TRUE(extractor.ok()) << extractor.status();
  auto best = extractor->Extract(f.root());
  ASSERT_TRUE(best.ok()) << best.status();
  EXPECT_EQ(best->term, f.input());
  auto node = f.encoding().ToNode(best->term, f.func(), f.module());
  ASSERT_TRUE(node.ok()) << node.status();
  f.module().Replace(&f.body(), *node);
  std::string after = ir::PrintModule(f.module());
  EXPECT_EQ(after, before);
  auto again = ir::ReadModule(MakeSource("again.tir", after));
  EXPECT_TRUE(again.ok()) << again.status();
}

TEST(TirEncodingTest, LiteralsOfEveryElementType) {
  ExpectRoundTrip("(func @f ((x f16)) ((y f16)) (+ x 1.5))");
  ExpectRoundTrip("(func @f ((x f32)) ((y f32)) (* x 2.5))");
  ExpectRoundTrip("(func @f ((x f32)) ((y f32)) (+ x 0.0))");
  ExpectRoundTrip("(func @f ((x f64)) ((y f64)) (- x 0.125))");
  ExpectRoundTrip("(func @f ((x i8)) ((y i8)) (+ x -3))");
  ExpectRoundTrip("(func @f ((x i32)) ((y i32)) (* x 70000))");
}

TEST(TirEncodingTest, RefsVarsAndLams) {
  ExpectRoundTrip(
      "(func @mv ((A (f32 4 3)) (v (f32 3))) ((y (f32 4)))"
      "  (build 4 (lam (ifold 3 0.0"
      "    (lam (lam (+ %0 (* (index (index A %2) %1) (index v %1)))))))))");
  ExpectRoundTrip(
      "(func @app ((x (f32 5))) ((y (f32 5)))"
      "  (app (lam (build 5 (lam (+ (index %1 %0) 1.0)))) x))");
  ExpectRoundTrip(
      "(func @t ((x f32) (n i32)) ((a f32) (b i32))"
      "  (tuple (select (< x 0.0) (neg x) x) (cast i32 x)))");
}

TEST(TirEncodingTest, CallsWithKeywords) {
  ExpectRoundTrip(
      "(func @gemv ((alpha f32) (beta f32) (A (f32 8 4)) (x (f32 4))"
      "             (y0 (f32 8))) ((y (f32 8)))"
      "  (blas.gemv N alpha A x beta y0))");
  ExpectRoundTrip(
      "(func @gemm ((alpha f32) (beta f32) (A (f32 3 4)) (B (f32 5 4))"
      "             (C (f32 3 5))) ((D (f32 3 5)))"
      "  (blas.gemm N T alpha A B beta C))");
  ExpectRoundTrip(
      "(func @dot ((x (f32 6)) (y (f32 6))) ((z f32)) (blas.dot x y))");
}

TEST(TirEncodingTest, AccessPatterns) {
  ExpectRoundTrip(
      "(func @matmul ((A (f32 4 3)) (B (f32 3 5))) ((C (f32 4 5)))"
      "  (compute dotProd"
      "    (cartProd (access A 1) (transpose (access B 1) (list 1 0)))))");
  ExpectRoundTrip(
      "(func @conv2d ((x (f32 6 7)) (w (f32 3 3))) ((y (f32 4 5)))"
      "  (compute dotProd (cartProd"
      "    (windows (access x 0) (shape 3 3) (shape 1 1)) (access w 0))))");
  ExpectRoundTrip(
      "(func @slice ((x (f32 3 4))) ((y (f32 3 2))) (slice (access x 1) 1 1 "
      "3))");
}

// Hash-consing never merges literals of different element types, and a
// float literal is one value however it was written.
TEST(TirEncodingTest, LiteralsAreTyped) {
  FuncGraph f(
      "(func @f ((a f32) (b f64) (c f32)) ((x f32) (y f64) (z f32))"
      "  (tuple (+ a 2.5) (tuple (+ b 2.5) (+ c 2.50))))");
  TirEncoding& e = f.encoding();
  ir::Type f32 = ir::Type::Elem(ElemType::kF32);
  ir::Type f64 = ir::Type::Elem(ElemType::kF64);
  EXPECT_NE(e.LiteralOp(f32), e.LiteralOp(f64));
  EXPECT_EQ(e.Meaning(e.LiteralOp(f64)).literal_type, f64);
  // (+ a 2.5) and (+ c 2.50) share their literal's class; (+ b 2.5) not.
  egraph::Term f32_literal;
  ir::Module scratch;
  ir::Node* literal = scratch.Create(ir::Op::kConst);
  literal->set_float(2.5);
  f32_literal.Add(e.LiteralOp(f32), e.LiteralPayload(*literal, f32));
  egraph::Term f64_literal;
  f64_literal.Add(e.LiteralOp(f64), e.LiteralPayload(*literal, f64));
  auto c32 = f.g().LookupTerm(f32_literal);
  auto c64 = f.g().LookupTerm(f64_literal);
  ASSERT_TRUE(c32 && c64);
  EXPECT_NE(f.g().Find(*c32), f.g().Find(*c64));
  // An integer written where a float is meant is that float.
  ir::Node* zero = scratch.Create(ir::Op::kConst);
  zero->set_int(0);
  ir::Node* zero_float = scratch.Create(ir::Op::kConst);
  zero_float->set_float(0.0);
  EXPECT_EQ(e.LiteralPayload(*zero, f32), e.LiteralPayload(*zero_float, f32));
}

TEST(TirEncodingTest, OpsByName) {
  TirEncoding e;
  auto build = e.OpNamed("build");
  ASSERT_TRUE(build.has_value());
  EXPECT_EQ(e.Meaning(*build).op, ir::Op::kBuild);
  auto gemv = e.OpNamed("blas.gemv");
  ASSERT_TRUE(gemv.has_value());
  EXPECT_TRUE(e.Meaning(*gemv).is_call);
  EXPECT_EQ(e.OpNamed("blas.gemv"), gemv);
  EXPECT_FALSE(e.OpNamed("frobnicate").has_value());
}

// A reference to a name that is no parameter of the func is an error, not a
// dangling node.
TEST(TirEncodingTest, UnknownReferenceIsAnError) {
  FuncGraph f("(func @f ((x f32)) ((y f32)) (+ x 1.0))");
  egraph::Term term;
  term.Add(f.encoding().ref_op(), f.encoding().payloads().Symbol("nope"));
  ir::Module scratch;
  auto node = f.encoding().ToNode(term, f.func(), scratch);
  EXPECT_FALSE(node.ok());
}

}  // namespace
}  // namespace tessel::saturate
