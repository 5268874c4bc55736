#include "libs/ir/library.h"

#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "libs/ir/syntax.h"
#include "libs/sexpr/printer.h"

namespace tessel::ir {
namespace {

// The first line of a diagnostic without the file name, or "ok".
std::string FirstLine(const absl::Status& status, absl::string_view file) {
  if (status.ok()) return "ok";
  std::string message(status.message());
  message = message.substr(0, message.find('\n'));
  if (absl::StartsWith(message, file))
    message = message.substr(file.size() + 1);
  return message;
}

std::string ReadError(const std::string& text) {
  return FirstLine(ReadText(MakeSource("m.tir", text)).status(), "m.tir");
}

std::string LibraryError(const std::string& text) {
  return FirstLine(Libraries::Read({MakeSource("l.tir", text)}).status(),
                   "l.tir");
}

TEST(LibraryTest, ReadsEveryBuiltinLibrary) {
  const Libraries& libraries = Libraries::Builtin();
  for (const char* callee :
       {"blas.dot", "blas.axpy", "blas.gemv", "blas.gemm", "blas.transpose",
        "blas.memset", "torch.add", "torch.mul", "torch.sum", "torch.dot",
        "torch.mv", "torch.mm", "torch.transpose", "torch.full",
        "gemmini.systolicArray"}) {
    auto def = libraries.Find(callee, {});
    ASSERT_TRUE(def.ok()) << def.status();
    EXPECT_EQ((*def)->name(), callee);
    for (const LibClause& clause : (*def)->clauses()) {
      EXPECT_NE(clause.body, nullptr) << callee;
    }
  }
}

TEST(LibraryTest, CallsReadAsTheirSignaturesSayAndPrintBack) {
  const std::string text =
      "(func @f ((A (f32 4 3)) (B (f32 5 3)) (C (f32 4 5))) ((D (f32 4 5)))\n"
      "  (blas.gemm N T 1.5 A B 0.0 (blas.memset 4 5 0.0)))\n";
  auto module = ReadText(MakeSource("m.tir", text));
  ASSERT_TRUE(module.ok()) << module.status();
  Node* func = module->forms()[0];
  const Node& call = *func->operand(func->num_operands() - 1);
  ASSERT_TRUE(call.is(Op::kLibCall));
  EXPECT_EQ(call.name(), "blas.gemm");
  EXPECT_EQ(call.text(), "N T");
  EXPECT_EQ(Keywords(call), (std::vector<std::string>{"N", "T"}));
  ASSERT_EQ(call.num_operands(), 5u);
  EXPECT_TRUE(call.operand(1)->is(Op::kRef));
  const Node& memset = *call.operand(4);
  ASSERT_TRUE(memset.is(Op::kLibCall));
  EXPECT_EQ(memset.text(), "");
  EXPECT_TRUE(memset.operand(0)->is(Op::kConst));
  EXPECT_EQ(PrintModule(*module), text);
}

TEST(LibraryTest, KeywordsAreWordsEvenWhereAParameterHasTheirName) {
  auto module = ReadText(
      MakeSource("m.tir",
                 "(func @f ((N f32) (A (f32 2 2)) (x (f32 2))) ((y (f32 2)))\n"
                 "  (blas.gemv N N A x 0.0 x))"));
  ASSERT_TRUE(module.ok()) << module.status();
  Node* func = module->forms()[0];
  const Node& call = *func->operand(func->num_operands() - 1);
  EXPECT_EQ(call.text(), "N");
  EXPECT_TRUE(call.operand(0)->is(Op::kRef));
  EXPECT_EQ(call.operand(0)->name(), "N");
}

TEST(LibraryTest, ReaderDiagnostics) {
  const std::string head = "(func @f ((x (f32 4)) (s f32)) ((y (f32 4)))\n  ";
  EXPECT_EQ(ReadError(head + "(lapack.dot x x))"),
            "2:4: error: unknown library 'lapack' in 'lapack.dot'; the "
            "libraries are blas, gemmini and torch");
  EXPECT_EQ(ReadError(head + "(blas.dott x x))"),
            "2:4: error: library 'blas' has no call 'dott'; it has axpy, dot, "
            "gemm, gemv, ger, memset, scal and transpose");
  EXPECT_EQ(ReadError(head + "(blas.dot x))"),
            "2:3: error: 'blas.dot' takes 2 operands, found 1");
  EXPECT_EQ(ReadError(head + "(blas.memset 4))"),
            "2:3: error: 'blas.memset' takes 2 or 3 operands, found 1");
  EXPECT_EQ(ReadError(head + "(blas.gemv X s x x s x))"),
            "2:14: error: expected N or T for operand 1 of 'blas.gemv', found "
            "'X'");
  EXPECT_EQ(ReadError(head + "(blas.memset s 0.0))"),
            "2:16: error: expected an integer literal > 0 for operand 1 of "
            "'blas.memset', found 's'");
  EXPECT_EQ(ReadError(head + "(torch.full 4 s))"),
            "2:15: error: expected (shape N...) for operand 1 of "
            "'torch.full', found '4'");
  EXPECT_EQ(ReadError(head + "(torch.add x z))"),
            "2:16: error: unbound name 'z'");
}

TEST(LibraryTest, LibraryFileDiagnostics) {
  EXPECT_EQ(LibraryError("(define f ((value x)) x)"),
            "1:1: error: a library file starts with (library NAME)");
  EXPECT_EQ(LibraryError("(library a.b)"),
            "1:1: error: a library file starts with (library NAME)");
  EXPECT_EQ(LibraryError("(library l) (define f (value x) x)"),
            "1:13: error: expected (define NAME (PARAM...) TERM)");
  EXPECT_EQ(LibraryError("(library l) (define f ((vector x)) x)"),
            "1:24: error: expected a parameter: (key WORD), (int SIZE), "
            "(shape DIM...), (value NAME DIM...) or (value NAME (access "
            "(DIM...) (DIM...)))");
  EXPECT_EQ(LibraryError("(library l) (define f ((value x) (key N)) x)"),
            "1:34: error: keyword parameters come first");
  EXPECT_EQ(LibraryError("(library l) (define f ((value x n) (value x n)) x)"),
            "1:43: error: 'x' is bound twice");
  EXPECT_EQ(LibraryError("(library l) (define f ((value x rest... n)) x)"),
            "1:33: error: 'rest...' stands for the rest of the dimensions: "
            "it may only end the shape of a value or of (shape ...)");
  EXPECT_EQ(LibraryError("(library l) (define f ((value x 0)) x)"),
            "1:33: error: an extent must be > 0");
  EXPECT_EQ(LibraryError("(library l) (define f ((value x (+ n 1))) x)"),
            "1:33: error: expected a size name or an integer literal > 0, "
            "found '(+ n 1)'");
  EXPECT_EQ(LibraryError("(library l) (define f ((int 4)) 1.0)"),
            "1:29: error: expected the name of a size");
  EXPECT_EQ(LibraryError("(library l) (define f ((value x (access (a...) "
                         "(b)))) x)"),
            "1:42: error: 'a...' stands for the rest of the dimensions: it "
            "may only end the shape of a value or of (shape ...)");
  EXPECT_EQ(LibraryError("(library l) (define f ((int n)) 1.0)\n"
                         "(define f ((value x)) x)"),
            "2:12: error: operand 1 of this definition of 'l.f' is a value, "
            "but an integer in an earlier one with as many operands");
  EXPECT_EQ(LibraryError("(library l) (define f ((value x n)) n)"),
            "1:37: error: 'n' is a size: it may stand where an integer "
            "literal may, not for a value");
  EXPECT_EQ(LibraryError("(library l) (define f ((value x n...)) (build n... "
                         "(lam 1.0)))"),
            "1:47: error: 'n...' stands for several extents: it may only be "
            "an item of a literal list such as (shape ...)");
  EXPECT_EQ(LibraryError("(library l) (define f ((value x)) (l.g x))"),
            "1:36: error: library 'l' has no call 'g'; it has f");
  EXPECT_EQ(LibraryError("(library l)\n(library l)"),
            "2:1: error: expected (define NAME (PARAM...) TERM)");
}

TEST(LibraryTest, TwoFilesCannotDefineOneLibrary) {
  auto libraries = Libraries::Read(
      {MakeSource("a.tir", "(library l)"), MakeSource("b.tir", "(library l)")});
  EXPECT_EQ(FirstLine(libraries.status(), "b.tir"),
            "1:10: error: library 'l' is defined twice");
}

TEST(LibraryTest, BodiesMayUseCallsOfLaterDefinitionsAndOtherLibraries) {
  auto libraries = Libraries::Read(
      {MakeSource("a.tir",
                  "(library a)\n"
                  "(define twice ((value x n)) (a.plus x x))\n"
                  "(define plus ((value x n) (value y n)) (b.add x y))\n"),
       MakeSource("b.tir",
                  "(library b)\n"
                  "(define add ((value x n) (value y n))\n"
                  "  (build n (lam (+ (index x %0) (index y %0)))))\n")});
  EXPECT_TRUE(libraries.ok()) << libraries.status();
}

// The operands of the first call in the term of `text`'s func, described
// as the verifier would: values by `shapes` (dims, split) in order.
struct Described {
  Module module;
  const Node* call;
  std::vector<LibOperand> operands;
};

Described Describe(
    const std::string& text,
    const std::vector<std::pair<std::vector<int64_t>, int>>& shapes) {
  auto module = ReadText(MakeSource("m.tir", text));
  EXPECT_TRUE(module.ok()) << module.status();
  Described described{*std::move(module), nullptr, {}};
  Node* func = described.module.forms()[0];
  described.call = func->operand(func->num_operands() - 1);
  auto def = Libraries::Builtin().Find(described.call->name(), {});
  EXPECT_TRUE(def.ok());
  auto operands = CallOperands(**def, *described.call);
  EXPECT_TRUE(operands.ok()) << operands.status();
  described.operands = *std::move(operands);
  size_t next = 0;
  for (LibOperand& operand : described.operands) {
    if (operand.kind != LibOperandKind::kValue) continue;
    operand.dims = shapes[next].first;
    operand.split = shapes[next].second;
    operand.text =
        operand.dims.empty()
            ? "f32"
            : absl::StrCat("(f32 ", absl::StrJoin(operand.dims, " "), ")");
    ++next;
  }
  return described;
}

absl::StatusOr<std::string> Instance(const Described& described) {
  auto def = Libraries::Builtin().Find(described.call->name(), {});
  auto instance = SelectDefinition(**def, *described.call, described.operands);
  if (!instance.ok()) return instance.status();
  Module module;
  return PrintFlat(WriteNode(*InstantiateBody(module, *instance, {})));
}

TEST(LibraryTest, InstantiatesTheDefinitionThatFits) {
  const std::string head =
      "(func @f ((A (f32 4 3)) (B (f32 3 5)) (C (f32 4 5)) (s f32)) "
      "((D (f32 4 5)))\n  ";
  // Sizes become literals, the values variables bound outside the body.
  auto gemm = Instance(
      Describe(head + "(blas.gemm N N s A B s C))",
               {{{}, -1}, {{4, 3}, -1}, {{3, 5}, -1}, {{}, -1}, {{4, 5}, -1}}));
  ASSERT_TRUE(gemm.ok()) << gemm.status();
  EXPECT_EQ(*gemm,
            "(build 4 (lam (blas.gemv T %5 %3 (index %4 %0) %2 (index %1 "
            "%0))))");
  // A rest splices its extents into a literal list.
  auto full =
      Instance(Describe(head + "(torch.full (shape 4 5 6) s))", {{{}, -1}}));
  ASSERT_TRUE(full.ok()) << full.status();
  EXPECT_EQ(*full, "(build 4 (lam (torch.full (shape 5 6) %1)))");
  // Clauses are chosen by rank: a scalar times a tensor.
  auto mul =
      Instance(Describe(head + "(torch.mul s A))", {{{}, -1}, {{4, 3}, -1}}));
  ASSERT_TRUE(mul.ok()) << mul.status();
  EXPECT_EQ(*mul, "(build 4 (lam (torch.mul %2 (index %1 %0))))");
}

std::string SelectionError(const Described& described) {
  return FirstLine(Instance(described).status(), "m.tir");
}

TEST(LibraryTest, SelectionDiagnostics) {
  const std::string head =
      "(func @f ((A (f32 4 3)) (B (f32 3 5)) (C (f32 4 5)) (s f32)) "
      "((D (f32 4 5)))\n  ";
  EXPECT_EQ(
      SelectionError(Describe(
          head + "(blas.gemm N N s A B s C))",
          {{{}, -1}, {{4, 3}, -1}, {{5, 6}, -1}, {{}, -1}, {{4, 5}, -1}})),
      "2:22: error: operand 'B' of 'blas.gemm' must be (k n) with k = 3 "
      "(from 'A'), found (f32 5 6)");
  EXPECT_EQ(SelectionError(Describe(
                head + "(blas.gemm N N s A B s C))",
                {{{}, -1}, {{4}, -1}, {{3, 5}, -1}, {{}, -1}, {{4, 5}, -1}})),
            "2:20: error: operand 'A' of 'blas.gemm' must be (m k), found "
            "(f32 4)");
  EXPECT_EQ(SelectionError(
                Describe(head + "(torch.mul A s))", {{{4, 3}, -1}, {{}, -1}})),
            "2:3: error: 'torch.mul' does not apply to (f32 4 3) and f32: "
            "it is defined as (torch.mul a b), (torch.mul a (b n dims...)) "
            "and (torch.mul (a n dims...) (b n dims...))");
  EXPECT_EQ(SelectionError(Describe(head + "(torch.add A C))",
                                    {{{4, 3}, -1}, {{4, 5}, -1}})),
            "2:16: error: operand 'b' of 'torch.add' must be (n dims...) with "
            "dims... = (3) (from 'a'), found (f32 4 5)");
  EXPECT_EQ(
      SelectionError(Describe(head + "(gemmini.systolicArray 4 2 A B))",
                              {{{4, 3}, -1}, {{3, 5}, 0}})),
      "2:30: error: operand 'a' of 'gemmini.systolicArray' must be an access "
      "pattern ((batch) (rows)), found (f32 4 3)");
  EXPECT_EQ(
      SelectionError(Describe(head + "(gemmini.systolicArray 4 2 A B))",
                              {{{4, 3}, 1}, {{3, 5}, 0}})),
      "2:30: error: operand 'a' of 'gemmini.systolicArray' must be an access "
      "pattern ((batch) (rows)) with rows = 4 (from 'rows'), found (f32 4 "
      "3)");
}

}  // namespace
}  // namespace tessel::ir
