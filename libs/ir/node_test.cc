// The IR's identity and editing API: clones, alpha-equivalence,
// fresh names, substitution and De Bruijn shifting.
#include "libs/ir/node.h"

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "libs/ir/de_bruijn.h"
#include "libs/ir/edit.h"
#include "libs/ir/syntax.h"
#include "libs/ir/testing.h"
#include "libs/sexpr/printer.h"
#include "libs/sexpr/reader.h"

namespace tessel::ir {
namespace {

std::string Flat(const Node& node) { return PrintFlat(WriteNode(node)); }

constexpr char kLoops[] =
    "(proc @p ((size N) (in A (f32 N)) (out B (f32 N)))\n"
    "  (for i 0 N (assign (B i) (A i)))\n"
    "  (for j 0 N (assign (B j) (A j))))";

// Checks that `a` (read from text) and `b` (the same text read as
// S-expressions) have the same locations: their own, their names' and
// their items'.
void ExpectSameLocations(const Node& a, const Node& b) {
  auto text = [](const Location& loc) {
    return absl::StrCat(loc.source == nullptr ? "" : loc.source->name(), ":",
                        loc.line, ":", loc.col);
  };
  EXPECT_EQ(text(a.loc()), text(b.loc())) << Flat(a);
  EXPECT_EQ(text(a.name_loc()), text(b.name_loc())) << Flat(a);
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(text(a.item_loc(i)), text(b.item_loc(i))) << i << " " << Flat(a);
  }
  ASSERT_EQ(a.num_operands(), b.num_operands());
  for (size_t i = 0; i < a.num_operands(); ++i) {
    ExpectSameLocations(*a.operand(i), *b.operand(i));
  }
}

TEST(NodeTest, FormsReadFromTextFindTheirLocationsThere) {
  // The module's nodes find their items' locations again in the text
  // (Module::CreateForText); nodes read from S-expressions keep them.
  SourceRef source = MakeSource("m.tir", absl::StrCat(kLoops, R"(
(func @f ((a f32)
          (b (f32 4))) ((c (f32 4)))
  ; a comment (
  (build 4 (lam (+ a (index b %0)))))
)"));
  auto from_text = ReadText(source);
  ASSERT_TRUE(from_text.ok()) << from_text.status();
  auto sexprs = ReadSexprs(source);
  ASSERT_TRUE(sexprs.ok()) << sexprs.status();
  auto from_sexprs = ReadForms(*sexprs, source);
  ASSERT_TRUE(from_sexprs.ok()) << from_sexprs.status();
  ASSERT_EQ(from_text->forms().size(), 2u);
  for (size_t i = 0; i < from_text->forms().size(); ++i) {
    ExpectSameLocations(*from_text->forms()[i], *from_sexprs->forms()[i]);
  }
}

TEST(NodeTest, AlphaEquivalenceIgnoresBinderNames) {
  Module module = ReadOk(kLoops);
  Node* proc = module.Find("@p");
  Node* first = proc->operand(3);
  Node* second = proc->operand(4);
  EXPECT_TRUE(AlphaEquivalent(first, second));
  // A different bound makes them differ.
  second->operand(0)->set_int(1);
  EXPECT_FALSE(AlphaEquivalent(first, second));
}

TEST(NodeTest, AlphaEquivalentBodiesTakeTwoBindersAsOne) {
  Module module = ReadOk(
      "(proc @p ((size N) (in A (f32 N)) (out B (f32 N)))\n"
      "  (for i 0 N (alloc t f32) (assign t (A i)) (assign (B i) t))\n"
      "  (for j 0 N (alloc u f32) (assign u (A j)) (assign (B j) u))\n"
      "  (for k 0 N (alloc v f32) (assign v (A k)) (assign (B 0) v)))");
  Node* proc = module.Find("@p");
  Node* i = proc->operand(3);
  Node* j = proc->operand(4);
  Node* k = proc->operand(5);
  auto body = [](Node* loop) { return loop->operands().subspan(2); };
  // The alloc of the first statement binds the names of the third.
  EXPECT_TRUE(AlphaEquivalent(body(i), body(j), i, j));
  // Without the loops taken as one, `(A i)` and `(A j)` differ.
  EXPECT_FALSE(AlphaEquivalent(body(i), body(j), nullptr, nullptr));
  EXPECT_FALSE(AlphaEquivalent(body(i), body(k), i, k));
  EXPECT_FALSE(AlphaEquivalent(body(i), body(i).subspan(1), i, i));
}

TEST(NodeTest, CloneRebindsInnerReferences) {
  Module module = ReadOk(kLoops);
  Node* loop = module.Find("@p")->operand(3);
  Node* copy = module.Clone(loop);
  EXPECT_EQ(copy->parent(), nullptr);
  EXPECT_NE(copy->id(), loop->id());
  EXPECT_TRUE(AlphaEquivalent(loop, copy));
  Node* index = copy->operand(2)->operand(0)->operand(1);
  EXPECT_EQ(index->def(), copy);  // the copied loop, not the original
  // References to binders outside the copy are kept.
  EXPECT_EQ(copy->operand(1)->def(), module.Find("@p")->operand(0));
}

TEST(NodeTest, ManyNodesKeepTheirIdsOperandsAndParents) {
  // More nodes than the growing blocks hold and more operand arrays than
  // the growing chunks do, some of them moved as they grow and reused.
  Module module;
  std::vector<Node*> parents;
  constexpr int kParents = 300000;
  for (int i = 0; i < kParents; ++i) {
    Node* parent = module.Create(Op::kAdd);
    for (int j = 0; j < 1 + i % 3; ++j) {
      Node* child = module.Create(Op::kConst);
      child->set_int(i * 4 + j);
      module.Append(parent, child);
    }
    if (i % 3 == 2) module.Detach(parent->operand(1));
    parents.push_back(parent);
  }
  for (int i = 0; i < kParents; ++i) {
    Node* parent = parents[i];
    ASSERT_EQ(module.Get(parent->id()), parent);
    ASSERT_EQ(parent->num_operands(), i % 3 == 2 ? 2u : 1u + i % 3);
    ASSERT_EQ(parent->operand(0)->int_value(), i * 4);
    ASSERT_EQ(parent->operand(0)->parent(), parent);
    ASSERT_EQ(parent->operands().back()->int_value(), i * 4 + i % 3);
  }
}

TEST(NodeTest, ReferencesAcrossModulesAreKept) {
  Module library = ReadOk(kLoops);
  Module module;
  Node* ref = module.Create(Op::kRef);
  Node* binder = library.Find("@p")->operand(0);
  ref->set_def(binder);
  EXPECT_EQ(ref->def(), binder);
  ref->set_def(nullptr);
  EXPECT_EQ(ref->def(), nullptr);
}

TEST(NodeTest, FreshNamesAvoidEveryNameInTheForm) {
  Module module = ReadOk(kLoops);
  Node* proc = module.Find("@p");
  EXPECT_EQ(FreshName(module, *proc, "k"), "k");
  EXPECT_EQ(FreshName(module, *proc, "i"), "i_1");
  EXPECT_EQ(FreshName(module, *proc, "@p"), "@p_1");
}

TEST(NodeTest, SubstituteAndRename) {
  Module module = ReadOk(kLoops);
  Node* proc = module.Find("@p");
  Node* loop = proc->operand(3);
  Node* zero = module.Create(Op::kConst);
  zero->set_int(0);
  Node* body = loop->operand(2);
  Substitute(module, body, loop, *zero);
  EXPECT_EQ(Flat(*body), "(assign (B 0) (A 0))");
  Rename(*proc->operand(0), "M", *proc);
  EXPECT_EQ(Flat(*proc->operand(4)), "(for j 0 M (assign (B j) (A j)))");
}

TEST(DeBruijnTest, FreeVariablesAreFoundCountedAndShifted) {
  Module module = ReadOk(
      "(func @f ((x (f32 4))) ((y (f32 4)))\n"
      "  (build 4 (lam (ifold 4 (index x %0) (lam (lam (+ %0 (index x "
      "%2))))))))");
  Node* ifold = module.Find("@f")->operand(2)->operand(1)->operand(0);
  EXPECT_TRUE(HasFreeVars(*ifold));
  Node* inner = ifold->operand(2);
  EXPECT_TRUE(HasFreeVars(*inner));  // %2 is the build's index
  EXPECT_FALSE(HasFreeVars(*inner, 1));
  // The build's index: %0 in the init, %2 under the ifold's two lams; not
  // the accumulator's %0 there.
  EXPECT_EQ(Uses(*ifold), 2);
  EXPECT_EQ(Uses(*ifold, 1), 0);
  EXPECT_EQ(Uses(*inner), 1);
  // Only free variables move.
  Shift(*ifold, 2);
  EXPECT_EQ(Flat(*ifold),
            "(ifold 4 (index x %2) (lam (lam (+ %0 (index x %4)))))");
}

TEST(DeBruijnTest, InstantiateIsBetaReduction) {
  Module module = ReadOk(
      "(func @f ((x (f32 4))) ((y (f32 4)))\n"
      "  (build 4 (lam (app (lam (build 4 (lam (+ (index x %1) (index x "
      "%2))))) (+ %0 0)))))");
  Node* app = module.Find("@f")->operand(2)->operand(1)->operand(0);
  Node* lam = app->operand(0);
  Node* body = lam->operand(0);
  module.Detach(body);
  Node* result = Instantiate(module, body, *app->operand(1));
  // %1 was the app's argument, %2 the outer build's index, now %1.
  EXPECT_EQ(Flat(*result),
            "(build 4 (lam (+ (index x (+ %1 0)) (index x %1))))");
  Node* whole = module.Create(Op::kVar);
  whole->set_int(0);
  Node* copy = module.Create(Op::kConst);
  copy->set_float(2.5);
  EXPECT_EQ(Flat(*Instantiate(module, whole, *copy)), "2.5");
}

}  // namespace
}  // namespace tessel::ir
