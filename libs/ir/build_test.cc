// Builders make what the reader makes: a proc built in memory verifies,
// prints as its text and is alpha-equivalent to that text read back; views
// name the parts of what was built.
#include "libs/ir/build.h"

#include <initializer_list>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "libs/ir/syntax.h"
#include "libs/verify/read.h"
#include "libs/verify/verifier.h"
#include "libs/ir/views.h"
#include "libs/sexpr/printer.h"

namespace tessel::ir {
namespace {

// Verifies the module `build` fills, and checks that it prints as
// `expected`, which reads back into the same tree.
void ExpectBuilds(Module& module, const std::string& expected) {
  absl::Status status = VerifyModule(module);
  EXPECT_TRUE(status.ok()) << status << "\n" << PrintModule(module);
  EXPECT_EQ(PrintModule(module), expected);
  auto read = ReadModule(MakeSource("m.tir", expected));
  ASSERT_TRUE(read.ok()) << read.status();
  ASSERT_EQ(read->forms().size(), module.forms().size());
  for (size_t i = 0; i < module.forms().size(); ++i) {
    EXPECT_TRUE(AlphaEquivalent(module.forms()[i], read->forms()[i]))
        << PrintForm(module, i);
  }
}

TEST(BuildTest, ALoopNestVerifiesAndReadsBack) {
  Module module;
  Node* n = Build::ControlParam(module, ParamKind::kSize, "N");
  Node* a = Build::DataParam(module, ParamKind::kIn, "A",
                             Build::Tensor(ElemType::kF32,
                                           {Build::Ref(module, *n),
                                            Build::Int(module, 4)}));
  Node* b = Build::DataParam(module, ParamKind::kOut, "B",
                             Build::Tensor(ElemType::kF32,
                                           {Build::Ref(module, *n)}));
  Node* acc = Build::Alloc(module, "acc", Type::Elem(ElemType::kF32));
  Node* outer = Build::For(module, "i", Build::Int(module, 0),
                           Build::Ref(module, *n), {acc});
  module.Append(outer, Build::Assign(module, Build::Ref(module, *acc),
                                     Build::Float(module, 0.0)));
  Node* inner = Build::For(module, "j", Build::Int(module, 0),
                           Build::Int(module, 4), {});
  module.Append(
      inner,
      Build::Reduce(module, Build::Ref(module, *acc),
                    Build::Mul(module, Build::Float(module, 2.0),
                               Build::Load(module, *a,
                                           {Build::Ref(module, *outer),
                                            Build::Ref(module, *inner)}))));
  module.Append(outer, inner);
  Node* guard = Build::Lt(module, Build::Ref(module, *outer),
                          Build::Int(module, 1));
  module.Append(
      outer,
      Build::If(module, guard,
                {Build::Assign(module,
                               Build::Load(module, *b,
                                           {Build::Ref(module, *outer)}),
                               Build::Ref(module, *acc))},
                {Build::Assign(module,
                               Build::Load(module, *b,
                                           {Build::Ref(module, *outer)}),
                               Build::Unary(module, Op::kNeg,
                                            Build::Ref(module, *acc)))}));
  Node* proc = Build::Proc(
      module, "@rows", {n, a, b},
      {Build::Assert(module, Build::Binary(module, Op::kGe,
                                           Build::Ref(module, *n),
                                           Build::Int(module, 1)))},
      {outer});
  module.AddForm(proc);
  EXPECT_EQ(TypeText(Build::Ref(module, *a)->type()), "(f32 N 4)");
  EXPECT_EQ(TypeText(LoadView(*UpdateView<Op::kReduce>(
                                   *ForView(*inner).body()[0])
                                   .rhs()
                                   ->operand(1))
                         .node()
                         .type()),
            "f32");
  ExpectBuilds(module,
               "(proc @rows ((size N) (in A (f32 N 4)) (out B (f32 N)))\n"
               "  (assert (>= N 1))\n"
               "  (for i 0 N\n"
               "    (alloc acc f32)\n"
               "    (assign acc 0.0)\n"
               "    (for j 0 4 (reduce acc (* 2.0 (A i j))))\n"
               "    (if (< i 1) (then (assign (B i) acc)) "
               "(else (assign (B i) (neg acc))))))\n");
}

TEST(BuildTest, CallsWindowsAndConfigs) {
  auto library = ReadModule(MakeSource("lib.tir", R"(
(config @Cfg (scale f32) (rows index))
(proc @copy ((size n) (in src (window f32 n)) (out dst (window f32 n)))
  (for i 0 n (assign (dst i) (src i))))
)"));
  ASSERT_TRUE(library.ok()) << library.status();
  Module& module = *library;
  Node* copy = module.Find("@copy");
  Node* cfg = module.Find("@Cfg");
  Node* x = Build::DataParam(module, ParamKind::kIn, "x",
                             Build::Tensor(ElemType::kF32,
                                           {Build::Int(module, 8)}));
  Node* y = Build::DataParam(module, ParamKind::kOut, "y",
                             Build::Tensor(ElemType::kF32,
                                           {Build::Int(module, 8)}));
  Node* window =
      Build::Window(module, *x,
                    {Build::Interval(module, Build::Int(module, 0),
                                     Build::Int(module, 4))});
  Node* let = Build::Let(module, "w", window);
  Node* call = Build::Call(
      module, *copy,
      {Build::Int(module, 4), Build::Ref(module, *let),
       Build::Window(module, *y,
                     {Build::Interval(module, Build::Int(module, 4),
                                      Build::Int(module, 8))})});
  Node* proc = Build::Proc(
      module, "@halves", {x, y}, {},
      {Build::WriteConfig(module, *cfg, "rows", Build::Int(module, 4)), let,
       call,
       Build::Call(
           module, *copy,
           {Build::ReadConfig(module, *cfg, "rows"),
            Build::Window(module, *x,
                          {Build::Interval(module, Build::Int(module, 4),
                                           Build::Int(module, 8))}),
            Build::Window(module, *y,
                          {Build::Interval(module, Build::Int(module, 0),
                                           Build::Int(module, 4))})})});
  module.AddForm(proc);
  EXPECT_EQ(CallView(*call).callee(), copy);
  EXPECT_EQ(WindowView(*window).buffer(), x);
  EXPECT_EQ(LetView(*let).window(), window);
  ExpectBuilds(module,
               "(config @Cfg (scale f32) (rows index))\n\n"
               "(proc @copy ((size n) (in src (window f32 n)) "
               "(out dst (window f32 n)))\n"
               "  (for i 0 n (assign (dst i) (src i))))\n\n"
               "(proc @halves ((in x (f32 8)) (out y (f32 8)))\n"
               "  (write-config @Cfg rows 4)\n"
               "  (let w (window x (: 0 4)))\n"
               "  (call @copy 4 w (window y (: 4 8)))\n"
               "  (call @copy (read-config @Cfg rows) (window x (: 4 8)) "
               "(window y (: 0 4))))\n");
}

// The windows that are not boxes (formats/tir/README.md, "window"): a
// stepped interval, a split and a permutation.
TEST(BuildTest, SteppedSplitAndPermutedWindows) {
  Module module;
  auto tensor = [&](const char* name, ParamKind kind,
                    std::initializer_list<int64_t> dims) {
    std::vector<Node*> extents;
    for (int64_t dim : dims) extents.push_back(Build::Int(module, dim));
    return Build::DataParam(module, kind, name,
                            Build::Tensor(ElemType::kF32, extents));
  };
  Node* a = tensor("A", ParamKind::kIn, {6, 8});
  Node* v = tensor("v", ParamKind::kIn, {24});
  Node* y = tensor("y", ParamKind::kOut, {8, 6});
  auto interval = [&](int64_t lo, int64_t hi, int64_t step = 1) {
    return Build::Interval(module, Build::Int(module, lo),
                           Build::Int(module, hi), step);
  };
  Node* t = Build::Let(
      module, "t",
      Build::Window(module, *a, {interval(0, 6), interval(0, 8)}, {1, 0}));
  Node* r = Build::Let(module, "r",
                       Build::Window(module, *v, {Build::Split(module, 0, 24,
                                                               6)}));
  Node* s = Build::Let(
      module, "s",
      Build::Window(module, *a, {interval(0, 6, 2), Build::Int(module, 1)}));
  Node* j = Build::For(module, "j", Build::Int(module, 0),
                       Build::Int(module, 6), {});
  Node* i = Build::For(module, "i", Build::Int(module, 0),
                       Build::Int(module, 8), {j});
  auto at = [&](const Node& buffer, Node* x, Node* y) {
    return Build::Load(module, buffer, {x, y});
  };
  module.Append(
      j, Build::Assign(
             module, at(*y, Build::Ref(module, *i), Build::Ref(module, *j)),
             Build::Add(module,
                        at(*t, Build::Ref(module, *i), Build::Ref(module, *j)),
                        at(*r, Build::Int(module, 3), Build::Ref(module, *j)))));
  Node* sum = Build::Reduce(
      module, at(*y, Build::Int(module, 0), Build::Int(module, 0)),
      Build::Load(module, *s, {Build::Int(module, 2)}));
  module.AddForm(Build::Proc(module, "@views", {a, v, y}, {},
                             {t, r, s, i, sum}));
  const Node& split = *WindowView(*LetView(*r).window()).selectors()[0];
  EXPECT_EQ(SplitView(const_cast<Node&>(split)).inner(), 6);
  EXPECT_EQ(IntervalView(*WindowView(*LetView(*s).window()).selectors()[0])
                .step(),
            2);
  ExpectBuilds(module,
               "(proc @views ((in A (f32 6 8)) (in v (f32 24)) "
               "(out y (f32 8 6)))\n"
               "  (let t (window A (: 0 6) (: 0 8) (perm 1 0)))\n"
               "  (let r (window v (split 0 24 6)))\n"
               "  (let s (window A (: 0 6 2) 1))\n"
               "  (for i 0 8 (for j 0 6 (assign (y i j) (+ (t i j) (r 3 j)))))\n"
               "  (reduce (y 0 0) (s 2)))\n");
}

TEST(BuildTest, TheVectorLevel) {
  Module module;
  Node* x = Build::DataParam(module, ParamKind::kIn, "x",
                             Build::Tensor(ElemType::kF32,
                                           {Build::Int(module, 8)}));
  Node* y = Build::DataParam(module, ParamKind::kInOut, "y",
                             Build::Tensor(ElemType::kF32,
                                           {Build::Int(module, 8)}));
  Node* a = Build::DataParam(module, ParamKind::kIn, "a",
                             Type::Elem(ElemType::kF32));
  Type vector = Type::Vector(ElemType::kF32, {4});
  Node* loop = Build::For(module, "i", Build::Int(module, 0),
                          Build::Int(module, 2), {});
  auto at = [&] {
    return Build::Mul(module, Build::Int(module, 4),
                      Build::Ref(module, *loop));
  };
  // Two steps ahead: past x's end in the last step, which a hint allows.
  module.Append(loop, Build::Prefetch(module, *x,
                                      {Build::Add(module, at(),
                                                  Build::Int(module, 8))}));
  Node* v = Build::Alloc(module, "v", vector);
  module.Append(loop, v);
  module.Append(
      loop,
      Build::Assign(
          module, Build::Ref(module, *v),
          Build::Fma(module,
                     Build::Broadcast(module, vector, Build::Ref(module, *a)),
                     Build::TransferRead(module, vector, *x, {at()},
                                         Build::Float(module, 0.0)),
                     Build::TransferRead(module, vector, *y, {at()},
                                         Build::Float(module, 0.0)))));
  module.Append(loop, Build::TransferWrite(module, Build::Ref(module, *v), *y,
                                           {at()}));
  module.AddForm(Build::Proc(module, "@saxpy", {a, x, y}, {}, {loop}));
  ExpectBuilds(module,
               "(proc @saxpy ((in a f32) (in x (f32 8)) (inout y (f32 8)))\n"
               "  (for i 0 2\n"
               "    (prefetch x (+ (* 4 i) 8))\n"
               "    (alloc v (vector f32 4))\n"
               "    (assign v\n"
               "      (fma\n"
               "        (broadcast (vector f32 4) a)\n"
               "        (transfer-read (vector f32 4) x (* 4 i) 0.0)\n"
               "        (transfer-read (vector f32 4) y (* 4 i) 0.0)))\n"
               "    (transfer-write v y (* 4 i))))\n");
}

// A contract of two shape-casts, its maps as lists: the contract level
// vectorize writes.
TEST(BuildTest, ContractOfShapeCasts) {
  Module module;
  Node* x =
      Build::DataParam(module, ParamKind::kIn, "x",
                       Build::Tensor(ElemType::kF32, {Build::Int(module, 2)}));
  Node* y =
      Build::DataParam(module, ParamKind::kIn, "y",
                       Build::Tensor(ElemType::kF32, {Build::Int(module, 4)}));
  Node* c = Build::DataParam(
      module, ParamKind::kInOut, "c",
      Build::Tensor(ElemType::kF32,
                    {Build::Int(module, 2), Build::Int(module, 4)}));
  std::vector<Node*> body;
  // A vector `name` of `lanes` read from `tensor` at 0, 0, ...
  auto vector = [&](const char* name, const Node& tensor,
                    std::initializer_list<int64_t> lanes) {
    const Type type = Type::Vector(ElemType::kF32, lanes);
    std::vector<Node*> zeros;
    for (size_t d = 0; d < lanes.size(); ++d) {
      zeros.push_back(Build::Int(module, 0));
    }
    Node* alloc = Build::Alloc(module, name, type);
    body.push_back(alloc);
    body.push_back(
        Build::Assign(module, Build::Ref(module, *alloc),
                      Build::TransferRead(module, type, tensor, zeros,
                                          Build::Float(module, 0.0))));
    return alloc;
  };
  Node* a = vector("a", *x, {2});
  Node* b = vector("b", *y, {4});
  Node* t = vector("t", *c, {2, 4});
  body.push_back(Build::Assign(
      module, Build::Ref(module, *t),
      Build::Form(
          module, Op::kContract,
          {Build::ShapeCast(module, Type::Vector(ElemType::kF32, {2, 1}),
                            Build::Ref(module, *a)),
           Build::ShapeCast(module, Type::Vector(ElemType::kF32, {1, 4}),
                            Build::Ref(module, *b)),
           Build::Ref(module, *t), Build::List(module, {0, 2}),
           Build::List(module, {2, 1}), Build::List(module, {0, 1})})));
  body.push_back(
      Build::TransferWrite(module, Build::Ref(module, *t), *c,
                           {Build::Int(module, 0), Build::Int(module, 0)}));
  module.AddForm(Build::Proc(module, "@rank1", {x, y, c}, {}, body));
  ExpectBuilds(
      module,
      "(proc @rank1 ((in x (f32 2)) (in y (f32 4)) (inout c (f32 2 4)))\n"
      "  (alloc a (vector f32 2))\n"
      "  (assign a (transfer-read (vector f32 2) x 0 0.0))\n"
      "  (alloc b (vector f32 4))\n"
      "  (assign b (transfer-read (vector f32 4) y 0 0.0))\n"
      "  (alloc t (vector f32 2 4))\n"
      "  (assign t (transfer-read (vector f32 2 4) c 0 0 0.0))\n"
      "  (assign t\n"
      "    (contract (shape-cast (vector f32 2 1) a) (shape-cast (vector f32 1 "
      "4) b) t\n"
      "      (list 0 2)\n"
      "      (list 2 1)\n"
      "      (list 0 1)))\n"
      "  (transfer-write t c 0 0))\n");
}

TEST(BuildTest, TensorLevelTerms) {
  Module module;
  // (build 4 (lam (ifold 2 0.0 (lam (lam (+ %0 (index (index A %2) %1)))))))
  Node* sum = Build::Ifold(
      module, 2, Build::Float(module, 0.0),
      Build::Lam(module,
                 Build::Lam(module,
                            Build::Add(module, Build::Var(module, 0),
                                       Build::Index(module,
                                                    Build::Index(
                                                        module,
                                                        Build::Var(module, 2),
                                                        Build::Var(module, 1)),
                                                    Build::Var(module, 1))))));
  Node* term = Build::Tabulate(module, 4, Build::Lam(module, sum));
  EXPECT_EQ(PrintFlat(WriteNode(*term)),
            "(build 4 (lam (ifold 2 0.0 (lam (lam (+ %0 (index (index %2 %1) "
            "%1)))))))");
}

}  // namespace
}  // namespace tessel::ir
