// Walking, renaming, substituting, cloning and comparing trees, in the
// symbolic dimensions of declared types too.
#include "libs/ir/edit.h"

#include <string>

#include "gtest/gtest.h"
#include "libs/ir/forms.h"
#include "libs/ir/syntax.h"
#include "libs/verify/read.h"
#include "libs/verify/verifier.h"
#include "libs/sexpr/printer.h"

namespace tessel::ir {
namespace {

Module ReadOk(const std::string& text) {
  auto module = ReadModule(MakeSource("m.tir", text));
  EXPECT_TRUE(module.ok()) << module.status();
  return module.ok() ? *std::move(module) : Module();
}

// Printing `module` gives text that reads back and verifies.
void ExpectReadsBack(const Module& module) {
  std::string text = PrintModule(module);
  auto again = ReadModule(MakeSource("printed.tir", text));
  EXPECT_TRUE(again.ok()) << again.status() << "\n" << text;
}

constexpr char kCopy[] =
    "(proc @copy ((size N) (size M) (in A (f32 N (+ M 1))) "
    "(out B (f32 N (+ M 1))))\n"
    "  (for i 0 N (for j 0 (+ M 1) (assign (B i j) (A i j)))))\n";

TEST(EditTest, RenamingASizeRenamesItInDeclaredTypes) {
  Module module = ReadOk(kCopy);
  Node* proc = module.Find("@copy");
  Node* n = ParamsOf(*proc)[0];
  Rename(*n, "rows", *proc);
  EXPECT_EQ(TypeText(ParamsOf(*proc)[2]->declared_type()),
            "(f32 rows (+ M 1))");
  EXPECT_EQ(PrintModule(module),
            "(proc @copy\n"
            "    ((size rows) (size M) (in A (f32 rows (+ M 1))) "
            "(out B (f32 rows (+ M 1))))\n"
            "  (for i 0 rows (for j 0 (+ M 1) (assign (B i j) (A i j)))))\n");
  ExpectReadsBack(module);
  EXPECT_TRUE(VerifyModule(module).ok());
}

TEST(EditTest, RenamingASizeToAnotherSizesNameIsSeen) {
  // Renaming M to N's name: the types now say N where they meant M, and
  // the text no longer reads back (N is bound twice); before the fix the
  // types kept M and the text said nothing was wrong.
  Module module = ReadOk(kCopy);
  Node* proc = module.Find("@copy");
  Rename(*ParamsOf(*proc)[1], "N", *proc);
  EXPECT_EQ(TypeText(ParamsOf(*proc)[2]->declared_type()),
            "(f32 N (+ N 1))");
  EXPECT_FALSE(ReadModule(MakeSource("m.tir", PrintModule(module))).ok());
}

TEST(EditTest, ACloneOwnsItsDimensions) {
  Module module = ReadOk(kCopy);
  Node* proc = module.Find("@copy");
  Node* copy = module.Clone(proc);
  copy->set_name("@copy2");
  module.AddForm(copy);
  const Node* a = ParamsOf(*proc)[2];
  const Node* a2 = ParamsOf(*copy)[2];
  const Dim& dim = a2->declared_type().dims()[0];
  ASSERT_FALSE(dim.is_constant());
  EXPECT_NE(dim.expr, a->declared_type().dims()[0].expr);
  EXPECT_EQ(dim.expr->def(), ParamsOf(*copy)[0]);
  // Renaming a size of the copy leaves the original alone, and both
  // verify (the copy used to fail with "unbound name 'N'", located in the
  // original).
  Rename(*ParamsOf(*copy)[0], "K", *copy);
  EXPECT_EQ(TypeText(a2->declared_type()), "(f32 K (+ M 1))");
  EXPECT_EQ(TypeText(a->declared_type()), "(f32 N (+ M 1))");
  absl::Status status = VerifyModule(module);
  EXPECT_TRUE(status.ok()) << status;
  ExpectReadsBack(module);
}

TEST(EditTest, SubstitutingASizeSpecialisesTypes) {
  Module module = ReadOk(kCopy);
  Node* proc = module.Find("@copy");
  Node* m = ParamsOf(*proc)[1];
  Node* n = ParamsOf(*proc)[0];
  Node* four = module.Create(Op::kConst);
  four->set_int(4);
  Node* sixty_four = module.Create(Op::kConst);
  sixty_four->set_int(64);
  for (Node* operand : std::vector<Node*>(proc->operands().begin(),
                                          proc->operands().end())) {
    Substitute(module, operand, m, *four);
    Substitute(module, operand, n, *sixty_four);
  }
  const Type& a = ParamsOf(*proc)[2]->declared_type();
  EXPECT_EQ(TypeText(a), "(f32 64 (+ 4 1))");
  EXPECT_TRUE(a.dims()[0].is_constant());
  module.Detach(m);
  module.Detach(n);
  ExpectReadsBack(module);
}

TEST(EditTest, WalkReachesDeclaredDimensions) {
  Module module = ReadOk(kCopy);
  int sizes = 0;
  Walk(*module.Find("@copy"), [&](Node& node) {
    if (node.is(Op::kRef) && node.name() == "M") ++sizes;
  });
  // One in the inner loop's bound, one in each declared type.
  EXPECT_EQ(sizes, 3);
}

TEST(EditTest, AlphaEquivalenceFollowsBindersIntoTypes) {
  Module module = ReadOk(
      "(proc @a ((size N) (size M) (in A (f32 N)) (out B (f32 N)))\n"
      "  (for i 0 N (assign (B i) (A i))))\n");
  Node* proc = module.Find("@a");
  Node* copy = module.Clone(proc);
  // `(f32 N)` and `(f32 rows)` of corresponding sizes are the same type.
  Rename(*ParamsOf(*copy)[0], "rows", *copy);
  EXPECT_TRUE(AlphaEquivalent(proc, copy));
  // `(f32 M)` is not.
  Node* dim = const_cast<Node*>(ParamsOf(*copy)[2]->declared_type().dims()[0].expr);
  dim->set_def(ParamsOf(*copy)[1]);
  dim->set_name("M");
  EXPECT_FALSE(AlphaEquivalent(proc, copy));
}

TEST(EditTest, AParallelLoopIsNotASequentialOne) {
  Module module = ReadOk(
      "(proc @a ((size N) (in A (f32 N)) (out B (f32 N)))\n"
      "  (for-par i 0 N (assign (B i) (A i))))\n");
  Node* proc = module.Find("@a");
  Node* copy = module.Clone(proc);
  EXPECT_TRUE(AlphaEquivalent(proc, copy));
  Node* loop = BodyOf(*copy)[0];
  loop->set_parallel(false);
  EXPECT_FALSE(AlphaEquivalent(proc, copy));
  EXPECT_FALSE(AlphaEquivalent(BodyOf(*proc), BodyOf(*copy), nullptr, nullptr));
}

constexpr char kPeProgram[] =
    "(proc @set ((out y (f32 1)) (in v f32)) (assign (y 0) v))\n"
    "(pe-program @p ((in x (f32 4)) (out y (f32 4)))\n"
    "  (grid (px 1) (py 4))\n"
    "  (local y_local (f32 1) (holds y py))\n"
    "  (task (recv x (i) v (== i py)) (call @set y_local v)))\n";

TEST(EditTest, AlphaEquivalenceCountsCs1Binders) {
  Module module = ReadOk(kPeProgram);
  Node* program = module.Find("@p");
  Node* copy = module.Clone(program);
  EXPECT_TRUE(AlphaEquivalent(program, copy));
  // Renaming the binders of the copy consistently keeps it equivalent.
  Node* grid = copy->operand(2);
  Node* local = copy->operand(3);
  Node* recv = copy->operand(4)->operand(0);
  Rename(*grid->operand(1), "qy", *copy);
  Rename(*local, "mine", *copy);
  Rename(*recv, "w", *copy);
  Rename(*recv->operand(1), "k", *copy);
  EXPECT_TRUE(AlphaEquivalent(program, copy));
  // Swapping what a reference refers to does not: the condition compares
  // the recv's index with the other grid coordinate.
  Node* condition = recv->operand(2);
  Node* py = condition->operand(1);
  py->set_def(grid->operand(0));
  py->set_name(grid->operand(0)->name());
  EXPECT_FALSE(AlphaEquivalent(program, copy));
}

}  // namespace
}  // namespace tessel::ir
