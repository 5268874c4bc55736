// Tensor-level checks and elaboration: build/ifold terms with De Bruijn
// indices and Glenside's access patterns. The diagnostics are those of the
// S-expression verifier (libs/ir/verifier_tensor_test.cc), byte for byte.
#include "libs/verify/func.h"

#include <string>

#include "gtest/gtest.h"
#include "libs/ir/edit.h"
#include "libs/ir/syntax.h"
#include "libs/verify/common.h"
#include "libs/verify/test_util.h"
#include "libs/poly/poly.h"

namespace tessel::ir {
namespace {

absl::Status VerifyFuncs(Module& module) {
  poly::Context ctx;
  for (Node* form : module.forms()) {
    if (!form->is(Op::kFunc)) continue;
    if (auto status = VerifyFunc(*form, ctx); !status.ok()) return status;
  }
  return absl::OkStatus();
}

std::string FirstError(const std::string& text) {
  return FirstLine(CheckText(text, VerifyFuncs));
}

// ---- Valid funcs, also elaborated below ---------------------------------

// Matrix-vector product with a tuple of results, app as let, select.
constexpr char kTuples[] = R"(
(func @f ((A (f32 8 4)) (x (f32 4)))
  ((y (f32 8)) (n f32) (z (i32 2)))
  (tuple
    (build 8 (lam (ifold 4 0 (lam (lam (+ %0 (* (index (index A %2) %1)
                                                 (index x %1))))))))
    (tuple
      (app (lam (select (< %0 0.0) (neg %0) %0)) (index x 3))
      (build 2 (lam (app (lam (cast i32 (index x %0))) (+ %0 1)))))))
)";
// Transpose by index arithmetic; fst/snd.
constexpr char kTranspose[] = R"(
(func @t ((A (f32 3 5)))
  ((B (f32 5 3)))
  (app (lam (fst %0))
       (tuple (build 5 (lam (build 3 (lam (index (index A %0) %1)))))
              1.0)))
)";
constexpr char kShift[] = R"(
(func @shift ((x (f32 8))) ((y (f32 6)))
  (build 6 (lam (index x (- (+ %0 3) 1)))))
)";
constexpr char kGemv[] = R"(
(func @gemv ((alpha f32) (A (f32 8 4)) (x (f32 4)))
  ((y (f32 8)))
  (build 8 (lam (* alpha (ifold 4 0.0 (lam (lam (+ %0 (* (index (index A %2) %1) (index x %1))))))))))
)";
constexpr char kAffineIndex[] =
    "(func @f ((x (f32 16))) ((y (f32 4 4)))\n  (build 4 "
    "(lam (build 4 (lam (index x (+ (* 4 %1) %0)))))))";
// Matrix multiplication (Glenside Figure 2b).
constexpr char kMatMul[] = R"(
(func @mm ((P (f32 8 16)) (Q (f32 16 4))) ((R (f32 8 4)))
  (compute dotProd
    (cartProd (access P 1) (transpose (access Q 1) (list 1 0)))))
)";
// 2D convolution (Figure 2a), N=1 C=3 H=W=8 O=2 K=3 S=1.
constexpr char kConv[] = R"(
(func @conv ((act (f32 1 3 8 8)) (w (f32 2 3 3 3))) ((out (f32 1 2 6 6)))
  (transpose
    (squeeze
      (compute dotProd
        (cartProd
          (windows (access act 1) (shape 3 3 3) (shape 1 1 1))
          (access w 1)))
      1)
    (list 0 3 1 2)))
)";
// Max pooling (Figure 2c).
constexpr char kPool[] = R"(
(func @pool ((act (f32 1 3 8 8))) ((out (f32 1 3 4 4)))
  (compute reduceMax (windows (access act 2) (shape 2 2) (shape 2 2))))
)";
constexpr char kTransformers[] = R"(
(func @f ((A (f32 4 6)) (B (f32 4 6)))
  ((C (f32 24)) (D (f32 4 2 6)) (E (f32 8 6)) (F (f32 4 2 2)) (G (f32 24)))
  (tuple (flatten (access A 0))
    (tuple (pair (access A 1) (access B 1))
      (tuple (concat (access A 1) (access B 1) 0)
        (tuple (slice (reshape (access A 1) (shape 4) (shape 2 3)) 2 1 3)
          (squeeze (compute elementwiseAdd
                     (pair (reshape (access A 0) (shape) (shape 1 24))
                           (reshape (access B 0) (shape) (shape 1 24))))
                   0))))))
)";
constexpr char kReduceAll[] =
    "(func @f ((x (f32 4))) ((y f32))\n  (+ (compute "
    "reduceSum (access x 0)) 1.0))";
constexpr char kReduceMax[] =
    "(func @f ((x (f32 4))) ((y f32))\n  (compute "
    "reduceMax (access x 0)))";
constexpr char kReduceRows[] = R"(
(func @f ((A (f32 3 4))) ((y (f32 3)) (z f32))
  (tuple
    (build 3 (lam (compute reduceSum (access (index A %0) 0))))
    (ifold 3 0.0 (lam (lam (max %0 (compute reduceMax
                                      (access (index A %1) 0))))))))
)";
constexpr char kPairOfScalars[] =
    "(func @f ((x (f32 4))) ((y (f32 2)))\n  (pair "
    "(compute reduceSum (access x 0)) (compute reduceMax "
    "(access x 0))))";
constexpr char kSqueezeAll[] =
    "(func @f ((x (f32 1))) ((y f32))\n  (squeeze "
    "(access x 0) 0))";

TEST(TensorLevelTest, ValidTerms) {
  EXPECT_EQ(FirstError(kTuples), "ok");
  EXPECT_EQ(FirstError(kTranspose), "ok");
  EXPECT_EQ(FirstError(kShift), "ok");
}

TEST(TensorLevelTest, SpecExampleVerifies) {
  EXPECT_EQ(FirstError(kGemv), "ok");
}

TEST(TensorLevelTest, ResultTypes) {
  EXPECT_EQ(FirstError("(func @f ((x (f32 4))) ((y (f32 5)))\n  (build 4 "
                       "(lam (index x %0))))"),
            "2:3: error: expected (f32 5), found (f32 4)");
  EXPECT_EQ(FirstError("(func @f ((x (f32 4))) ((y (i32 4)))\n  (build 4 "
                       "(lam (index x %0))))"),
            "2:17: error: expected i32, found f32");
  EXPECT_EQ(FirstError("(func @f ((x (f32 4))) ((y (i32 4)))\n  (build 4 "
                       "(lam 1.5)))"),
            "2:17: error: a float literal cannot be an i32");
  EXPECT_EQ(FirstError("(func @f ((x (f32 4))) ((y (f16 4)))\n  (build 4 "
                       "(lam 1e5)))"),
            "2:17: error: the literal 1e+05 does not fit in f16: it "
            "rounds to infinity");
  EXPECT_EQ(FirstError("(func @f ((x (f32 4))) ((y (f32 4)))\n  (build 4 "
                       "(lam (+ (index x %0) -1e39))))"),
            "2:33: error: the literal -1e+39 does not fit in f32: it rounds "
            "to infinity");
  EXPECT_EQ(FirstError("(func @f ((x f32)) ((y f32) (z f32))\n  x)"),
            "2:3: error: expected (tuple f32 f32), found f32");
  EXPECT_EQ(FirstError("(func @f ((x (f32 n))) ((y f32))\n  0.0)"),
            "1:19: error: a func is fully specialised: its dimensions are "
            "integer literals");
  EXPECT_EQ(FirstError("(func @f ((x f32)) ((x f32))\n  x)"),
            "1:22: error: 'x' is declared twice");
}

TEST(TensorLevelTest, DeBruijnVariables) {
  EXPECT_EQ(FirstError("(func @f ((x (f32 4))) ((y (f32 4)))\n  (build 4 "
                       "(lam (index x %1))))"),
            "2:26: error: '%1' is not bound: one lam encloses it");
  EXPECT_EQ(FirstError("(func @f ((x (f32 4))) ((y (f32 4)))\n  (build 4 "
                       "(lam %0)))"),
            "2:17: error: '%0' is an index, not a data value; use it in "
            "(index A I)");
  EXPECT_EQ(FirstError("(func @f ((x (f32 4))) ((y f32))\n  (ifold 4 0.0 "
                       "(lam (lam (+ %0 (index x %0))))))"),
            "2:41: error: '%0' is f32, not an index");
  EXPECT_EQ(FirstError("(func @f ((x (f32 4))) ((y f32))\n  z)"),
            "2:3: error: unbound name 'z'");
}

TEST(TensorLevelTest, LamPositions) {
  EXPECT_EQ(FirstError("(func @f ((x f32)) ((y f32))\n  (lam x))"),
            "2:3: error: a lam must be the function of build, ifold or app, "
            "where the type of its argument is known");
  EXPECT_EQ(FirstError("(func @f ((x f32)) ((y (f32 4)))\n  (build 4 x))"),
            "2:12: error: the function of build must be (lam BODY), with the "
            "index %0");
  EXPECT_EQ(FirstError("(func @f ((x f32)) ((y f32))\n  (ifold 4 x (lam "
                       "x)))"),
            "2:14: error: the function of ifold must be (lam (lam BODY)), "
            "with the index %1 and the accumulator %0");
  EXPECT_EQ(FirstError("(func @f ((x f32)) ((y f32))\n  (app x x))"),
            "2:8: error: the function of app must be (lam BODY)");
}

TEST(TensorLevelTest, Lengths) {
  EXPECT_EQ(FirstError("(func @f ((x f32)) ((y (f32 4)))\n  (build 0 (lam "
                       "x)))"),
            "2:10: error: the length of build must be an integer literal > "
            "0, found '0'");
  EXPECT_EQ(FirstError("(func @f ((x f32)) ((y f32))\n  (ifold n x (lam (lam "
                       "x))))"),
            "2:10: error: the length of ifold must be an integer literal > "
            "0, found 'n'");
}

TEST(TensorLevelTest, IndexBounds) {
  EXPECT_EQ(FirstError("(func @f ((x (f32 4))) ((y (f32 4)))\n  (build 4 "
                       "(lam (index x (+ %0 1)))))"),
            "2:26: error: the index of 'x' can reach 4, outside its extent 4 "
            "(at %0 = 3)");
  EXPECT_EQ(FirstError("(func @f ((A (f32 4 4))) ((y (f32 4 3)))\n  (build "
                       "4 (lam (build 3 (lam (index (index A %1) (- %0 "
                       "1)))))))"),
            "2:51: error: the index can be -1, below 0 (at %1 = 0, %0 = 0)");
  EXPECT_EQ(FirstError("(func @f ((x (f32 4))) ((y f32))\n  (index x 4))"),
            "2:12: error: the index of 'x' can reach 4, outside its extent 4");
  EXPECT_EQ(FirstError("(func @f ((x (f32 4))) ((y f32))\n  (index x 2.0))"),
            "2:12: error: expected an index (an integer literal, a build or "
            "ifold index, or +, - and * of them), found '2.0'");
  EXPECT_EQ(FirstError("(func @f ((x (f32 16))) ((y (f32 4 4)))\n  (build 4 "
                       "(lam (build 4 (lam (index x (* %0 %1)))))))"),
            "2:40: error: indices are affine: '*' needs an integer literal "
            "on one side");
  EXPECT_EQ(FirstError(kAffineIndex), "ok");
  EXPECT_EQ(FirstError("(func @f ((x f32)) ((y f32))\n  (index x 0))"),
            "2:10: error: index needs an array, found f32");
}

TEST(TensorLevelTest, ScalarOperations) {
  EXPECT_EQ(FirstError("(func @f ((x (f32 4)) (k (i32 4))) ((y (f32 4)))\n  "
                       "(build 4 (lam (+ (index x %0) (index k %0)))))"),
            "2:33: error: expected f32, found i32");
  EXPECT_EQ(FirstError("(func @f ((x (f32 4))) ((y f32))\n  (+ x 1.0))"),
            "2:6: error: expected f32, found (f32 4)");
  EXPECT_EQ(FirstError("(func @f ((x (f32 4))) ((y f32))\n  (cast f32 x))"),
            "2:13: error: scalar operations need scalars, found (f32 4)");
  EXPECT_EQ(FirstError("(func @f ((x f32)) ((y f32))\n  (< x 1.0))"),
            "2:3: error: a comparison is not a data value; use (select COND "
            "A B)");
  EXPECT_EQ(FirstError("(func @f ((x f32)) ((y f32))\n  (fst x))"),
            "2:8: error: 'fst' needs a tuple, found f32");
  EXPECT_EQ(FirstError("(func @f ((x f32)) ((y f32))\n  (frob x))"),
            "2:4: error: unknown operator 'frob'");
  EXPECT_EQ(FirstError("(func @f ((A (f32 4 4)) (B (f32 4 4))) ((C (f32 4 "
                       "4)))\n  (blas.gemm A B))"),
            "2:3: error: 'blas.gemm' takes 7 operands, found 2");
}

TEST(AccessPatternTest, GlensideExamples) {
  EXPECT_EQ(FirstError(kMatMul), "ok");
  EXPECT_EQ(FirstError(kConv), "ok");
  EXPECT_EQ(FirstError(kPool), "ok");
}

TEST(AccessPatternTest, OtherTransformers) {
  EXPECT_EQ(FirstError(kTransformers), "ok");
  EXPECT_EQ(FirstError("(func @f ((A (f32 4 6))) ((C (f32 4 6)))\n  "
                       "(transpose (access A 1) (list 1 0)))"),
            "2:3: error: expected (f32 4 6), found an access pattern ((6) "
            "(4)) of f32");
}

TEST(AccessPatternTest, ShapeErrors) {
  EXPECT_EQ(FirstError("(func @f ((A (f32 4 6))) ((C (f32 6 4)))\n  "
                       "(transpose (access A 1) (list 0 0)))"),
            "2:27: error: transpose needs a permutation of the 2 dimensions "
            "of an access pattern ((4) (6)) of f32, found (list 0 0)");
  EXPECT_EQ(FirstError("(func @f ((A (f32 4 6)) (B (f32 4 5))) ((C (f32 4 4 "
                       "2 6)))\n  (cartProd (access A 1) (access B 1)))"),
            "2:3: error: cartProd needs equal compute shapes, found (6) and "
            "(5)");
  EXPECT_EQ(FirstError("(func @f ((A (f32 4 6))) ((C (f32 4 6)))\n  "
                       "(windows (access A 1) (shape 7) (shape 1)))"),
            "2:32: error: window dimension 0 is 7, larger than its extent 6 "
            "in an access pattern ((4) (6)) of f32");
  EXPECT_EQ(FirstError("(func @f ((A (f32 4 6))) ((C (f32 4 6)))\n  "
                       "(windows (access A 1) (shape 2 2) (shape 1 1)))"),
            "2:3: error: windows needs a window shape and strides for each of "
            "the 1 compute dimensions of an access pattern ((4) (6)) of f32");
  EXPECT_EQ(FirstError("(func @f ((A (f32 4 6))) ((C (f32 4 6)))\n  (slice "
                       "(access A 1) 1 4 7))"),
            "2:3: error: slice [4, 7) of dimension 1 must be non-empty and "
            "within its extent 6");
  EXPECT_EQ(FirstError("(func @f ((A (f32 4 6))) ((C (f32 6)))\n  (squeeze "
                       "(access A 1) 0))"),
            "2:25: error: squeeze needs a dimension of extent 1, but "
            "dimension 0 of an access pattern ((4) (6)) of f32 is 4");
  EXPECT_EQ(FirstError("(func @f ((A (f32 4 6))) ((C (f32 5 5)))\n  (reshape "
                       "(access A 1) (shape 5) (shape 5)))"),
            "2:25: error: reshape must keep the element count: the access "
            "dimensions (4) hold 4, but (shape 5) holds 5");
  EXPECT_EQ(FirstError("(func @f ((A (f32 4 6)) (B (f32 4 5))) ((C (f32 2 4 "
                       "6)))\n  (pair (access A 1) (access B 1)))"),
            "2:3: error: pair needs equal shapes, found an access pattern "
            "((4) (6)) of f32 and an access pattern ((4) (5)) of f32");
  EXPECT_EQ(FirstError("(func @f ((A (f32 4 6)) (B (f32 3 5))) ((C (f32 7 "
                       "6)))\n  (concat (access A 1) (access B 1) 0))"),
            "2:3: error: concat needs shapes that agree outside dimension 0, "
            "found an access pattern ((4) (6)) of f32 and an access pattern "
            "((3) (5)) of f32");
  EXPECT_EQ(FirstError("(func @f ((A (f32 4 6)) (B (i8 4 6))) ((C (f32 8 "
                       "6)))\n  (concat (access A 1) (access B 1) 0))"),
            "2:3: error: 'concat' needs operands of one element type, found "
            "f32 and i8");
  EXPECT_EQ(FirstError("(func @f ((A (f32 4 6))) ((C (f32 4)))\n  (compute "
                       "frob (access A 1)))"),
            "2:12: error: unknown access pattern operator 'frob'");
  EXPECT_EQ(FirstError("(func @f ((A (f32 4 6))) ((C (f32 4)))\n  (compute "
                       "dotProd (access A 2)))"),
            "2:3: error: 'dotProd' needs a tuple dimension first among the "
            "compute dimensions of an access pattern ((4 6) ()) of f32");
  EXPECT_EQ(FirstError("(func @f ((A (f32 4 6))) ((C (f32 4 6)))\n  "
                       "(transpose A (list 1 0)))"),
            "2:14: error: expected an access pattern, found (f32 4 6); make "
            "one with (access T N)");
  EXPECT_EQ(FirstError("(func @f ((A (f32 4 6))) ((C (f32 4 6)))\n  (access "
                       "A 3))"),
            "2:13: error: access splits (f32 4 6) after 0 to 2 dimensions, "
            "not 3");
  EXPECT_EQ(FirstError("(func @f ((A (f32 4 6))) ((C (f32 4 6)))\n  (access "
                       "A))"),
            "2:3: error: 'access' takes 2 operands, found 1");
}

TEST(AccessPatternTest, RankZeroIsItsElementType) {
  // Reducing every dimension leaves an access pattern (() ()): a scalar.
  EXPECT_EQ(FirstError(kReduceAll), "ok");
  EXPECT_EQ(FirstError(kReduceMax), "ok");
  EXPECT_EQ(FirstError(kReduceRows), "ok");
  // It stays an access pattern for the transformers.
  EXPECT_EQ(FirstError(kPairOfScalars), "ok");
  EXPECT_EQ(FirstError(kSqueezeAll), "ok");
  // It has no dimension to index.
  EXPECT_EQ(FirstError("(func @f ((x (f32 4))) ((y f32))\n  (index (compute "
                       "reduceSum (access x 0)) 7))"),
            "2:10: error: index needs an array, found an access pattern (() "
            "()) of f32");
  EXPECT_EQ(FirstError("(func @f ((x (f32 1))) ((y f32))\n  (index (squeeze "
                       "(access x 0) 0) 0))"),
            "2:10: error: index needs an array, found an access pattern (() "
            "()) of f32");
  EXPECT_EQ(FirstError("(func @f ((x (f32 4))) ((y (f32 4)))\n  (compute "
                       "reduceSum (access x 0)))"),
            "2:3: error: expected (f32 4), found an access pattern (() ()) "
            "of f32");
}

// ---- Elaboration ----------------------------------------------------------

// Reads and verifies `text`, which must be valid.
Module Elaborate(const std::string& text) {
  auto module = ReadText(MakeSource("m.tir", text));
  EXPECT_TRUE(module.ok()) << module.status();
  if (!module.ok()) return Module();
  EXPECT_TRUE(VerifyFuncs(*module).ok()) << VerifyFuncs(*module);
  return *std::move(module);
}

// The term of the first func of `module`.
Node& Term(const Module& module) {
  Node* func = module.forms()[0];
  return *func->operand(func->num_operands() - 1);
}

std::string TypeOf(const Node& node) { return TypeText(node.type()); }

bool IsValueNode(const Node& node) {
  switch (node.info().op_class) {
    case OpClass::kExpr:
    case OpClass::kTerm:
    case OpClass::kAccess:
      return true;
    case OpClass::kLeaf:
      return !node.is(Op::kList) && !node.is(Op::kShape);
    default:
      return false;
  }
}

TEST(ElaborationTest, EveryValueNodeIsTyped) {
  for (const char* text :
       {kTuples, kTranspose, kShift, kGemv, kAffineIndex, kMatMul, kConv, kPool,
        kTransformers, kReduceAll, kReduceMax, kReduceRows, kPairOfScalars,
        kSqueezeAll}) {
    Module module = Elaborate(text);
    for (Node* form : module.forms()) {
      Walk(*form, [&](Node& node) {
        if (IsValueNode(node)) {
          EXPECT_FALSE(node.type().is_none()) << Text(node) << " in " << text;
        } else {
          EXPECT_TRUE(node.type().is_none()) << Text(node) << " in " << text;
        }
      });
    }
  }
}

TEST(ElaborationTest, LiteralsTakeTheirContextsType) {
  Module module =
      Elaborate("(func @f ((x (f32 4))) ((y (f32 4)))\n  (build 4 (lam 2.5)))");
  Node& build = Term(module);
  EXPECT_EQ(TypeOf(build), "(f32 4)");
  EXPECT_EQ(TypeOf(*build.operand(0)), "index");
  EXPECT_EQ(TypeOf(*build.operand(1)), "(-> index f32)");
  EXPECT_EQ(TypeOf(*build.operand(1)->operand(0)), "f32");
}

TEST(ElaborationTest, LiteralOnlyComparisons) {
  // Integer literals compare as indices; with a float literal, as data of
  // the default type.
  Module indices = Elaborate(
      "(func @f ((x f32)) ((y f32))\n"
      "  (select (< 1 2) x 0))");
  Node& select = Term(indices);
  EXPECT_EQ(TypeOf(select), "f32");
  EXPECT_EQ(TypeOf(*select.operand(0)), "bool");
  EXPECT_EQ(TypeOf(*select.operand(0)->operand(0)), "index");
  EXPECT_EQ(TypeOf(*select.operand(0)->operand(1)), "index");
  EXPECT_EQ(TypeOf(*select.operand(2)), "f32");
  Module data = Elaborate(
      "(func @f ((x f32)) ((y f32))\n"
      "  (select (< 1 2.5) x 0))");
  Node& cond = *Term(data).operand(0);
  EXPECT_EQ(TypeOf(cond), "bool");
  EXPECT_EQ(TypeOf(*cond.operand(0)), "f64");
  EXPECT_EQ(TypeOf(*cond.operand(1)), "f64");
  Module cast = Elaborate(
      "(func @f ((x f32)) ((y f32))\n"
      "  (cast f32 (+ 1 (* 2 3))))");
  Node& sum = *Term(cast).operand(0);
  EXPECT_EQ(TypeOf(sum), "i32");
  EXPECT_EQ(TypeOf(*sum.operand(1)->operand(1)), "i32");
}

TEST(ElaborationTest, BindersAndTheirVariables) {
  // The accumulator is fixed by its use, and its initial value with it.
  Module module = Elaborate(
      "(func @f ((x (f32 4))) ((y f32))\n"
      "  (cast f32 (ifold 4 0 (lam (lam (+ %0 (index x %1)))))))");
  Node& ifold = *Term(module).operand(0);
  EXPECT_EQ(TypeOf(ifold), "f32");
  EXPECT_EQ(TypeOf(*ifold.operand(1)), "f32");
  Node& outer = *ifold.operand(2);
  EXPECT_EQ(TypeOf(outer), "(-> index (-> f32 f32))");
  Node& add = *outer.operand(0)->operand(0);
  EXPECT_EQ(TypeOf(*add.operand(0)), "f32");
  EXPECT_EQ(TypeOf(*add.operand(1)->operand(1)), "index");
  // An app argument used only as an index is one; an unused float literal
  // takes the default type.
  Module app = Elaborate(
      "(func @f ((x (f32 4))) ((y f32) (z f32))\n"
      "  (tuple (app (lam (index x %0)) 3) (app (lam (index x 0)) 2.5)))");
  Node& first = *Term(app).operand(0);
  EXPECT_EQ(TypeOf(*first.operand(0)), "(-> index f32)");
  EXPECT_EQ(TypeOf(*first.operand(1)), "index");
  Node& second = *Term(app).operand(1);
  EXPECT_EQ(TypeOf(*second.operand(1)), "f64");
}

TEST(ElaborationTest, AccessPatterns) {
  Module module = Elaborate(kReduceAll);
  Node& add = Term(module);
  Node& reduce = *add.operand(0);
  EXPECT_EQ(TypeOf(add), "f32");
  EXPECT_EQ(TypeOf(reduce), "(access f32 () ())");
  EXPECT_EQ(reduce.type().Normalized(), Type::Elem(ElemType::kF32));
  EXPECT_EQ(TypeOf(*reduce.operand(0)->operand(1)), "index");
  Module mm = Elaborate(kMatMul);
  Node& compute = Term(mm);
  EXPECT_EQ(TypeOf(compute), "(access f32 (8 4) ())");
  Node& transpose = *compute.operand(0)->operand(1);
  EXPECT_EQ(TypeOf(transpose), "(access f32 (4) (16))");
  EXPECT_TRUE(transpose.operand(1)->type().is_none());
  EXPECT_EQ(TypeOf(*transpose.operand(1)->operand(0)), "index");
}

}  // namespace
}  // namespace tessel::ir
