// Naming repeated values of the tensor level (share.h): what is named, the
// De Bruijn indices of the uses, and that the result verifies.
#include "libs/ir/share.h"

#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "libs/ir/de_bruijn.h"
#include "libs/ir/syntax.h"
#include "libs/verify/read.h"
#include "libs/sexpr/printer.h"

namespace tessel::ir {
namespace {

// Reads `body` as the body of @f (parameters a: f32[4], s: f32), shares its
// repeated values, checks that the result verifies and returns it printed
// flat.
std::string Shared(const std::string& body) {
  auto module = ReadModule(MakeSource(
      "f.tir",
      "(func @f ((a (f32 4)) (s f32)) ((r (f32 4)))\n  " + body + ")"));
  EXPECT_TRUE(module.ok()) << module.status();
  if (!module.ok()) return "";
  Node* func = module->Find("@f");
  Node* root = ShareRepeatedValues(*module, func->operands().back());
  EXPECT_EQ(root, func->operands().back());
  std::string printed = PrintModule(*module);
  auto reread = ReadModule(MakeSource("shared.tir", printed));
  EXPECT_TRUE(reread.ok()) << reread.status() << "\n" << printed;
  return PrintFlat(WriteNode(*root));
}

constexpr char kScaled[] = "(build 4 (lam (* s (index a %0))))";

TEST(ShareTest, NothingRepeatedIsUnchanged) {
  EXPECT_EQ(Shared(kScaled), std::string(kScaled));
}

TEST(ShareTest, ARepeatedLoopIsComputedOnce) {
  // Used at the top and under a lam (so as %1 there: one lam in between,
  // plus the new one).
  EXPECT_EQ(Shared(std::string("(build 4 (lam (+ (index ") + kScaled +
                   " %0) (index " + kScaled + " %0))))"),
            std::string("(app (lam (build 4 (lam (+ (index %1 %0) (index %1 "
                        "%0))))) ") +
                kScaled + ")");
}

TEST(ShareTest, ValuesWithFreeVariablesStayWhereTheyAre) {
  // (build 4 (lam (index a %1))) reads the outer lam's argument: it cannot
  // move out of it, repeated or not.
  const std::string inner = "(ifold 4 0.0 (lam (lam (+ %0 (index a %2)))))";
  const std::string body = "(build 4 (lam (+ " + inner + " " + inner + ")))";
  EXPECT_EQ(Shared(body), body);
}

TEST(ShareTest, ARepeatedValueInsideANamedOneIsNamedToo) {
  // `scaled` is repeated on its own and inside `twice`, which is repeated:
  // `twice` is named first, then `scaled`, in the bodies of both.
  const std::string scaled = kScaled;
  const std::string twice =
      "(build 4 (lam (+ (index " + scaled + " %0) (index a %0))))";
  const std::string body = "(build 4 (lam (+ (+ (index " + twice +
                           " %0) (index " + twice + " %0)) (index " + scaled +
                           " %0))))";
  EXPECT_EQ(Shared(body),
            "(app (lam (app (lam (build 4 (lam (+ (+ (index %1 %0) (index %1 "
            "%0)) (index %2 %0))))) (build 4 (lam (+ (index %1 %0) (index a "
            "%0)))))) " +
                scaled + ")");
}

// Undoes the lets around `root` by beta reduction (de_bruijn.h).
Node* Unshare(Module& module, Node* root) {
  while (root->is(Op::kApp)) {
    Node* body = root->operand(0)->operand(0);
    Node* value = root->operand(1);
    module.Detach(body);
    Node* result = Instantiate(module, body, *value);
    module.Replace(root, result);
    root = result;
  }
  return root;
}

// Random vectors over `a`, drawn partly from the ones made before, so that
// subterms repeat, at several depths under lams.
std::string RandomVector(std::mt19937& rng, int depth,
                         std::vector<std::string>& made) {
  if (depth == 0) return "a";
  if (!made.empty() && rng() % 3 == 0) return made[rng() % made.size()];
  std::string v;
  switch (rng() % 3) {
    case 0:
      v = "(build 4 (lam (* s (index " + RandomVector(rng, depth - 1, made) +
          " %0))))";
      break;
    case 1:
      v = "(build 4 (lam (+ (index " + RandomVector(rng, depth - 1, made) +
          " %0) (index " + RandomVector(rng, depth - 1, made) + " %0))))";
      break;
    default:
      // A sum whose terms read both lams' arguments: a value with free
      // variables, which must stay in place.
      v = "(build 4 (lam (ifold 4 0.0 (lam (lam (+ %0 (* (index " +
          RandomVector(rng, depth - 1, made) + " %1) (index a %2))))))))";
      break;
  }
  made.push_back(v);
  return v;
}

TEST(ShareTest, BetaReducingTheLetsGivesBackTheTerm) {
  std::mt19937 rng(7);
  int named = 0;
  for (int round = 0; round < 200; ++round) {
    std::vector<std::string> made;
    std::string body = RandomVector(rng, 4, made);
    auto module = ReadModule(MakeSource(
        "f.tir",
        "(func @f ((a (f32 4)) (s f32)) ((r (f32 4)))\n  " + body + ")"));
    ASSERT_TRUE(module.ok()) << module.status() << "\n" << body;
    Node* func = module->Find("@f");
    const Node* original = module->Clone(func->operands().back());
    Node* root = ShareRepeatedValues(*module, func->operands().back());
    for (Node* at = root; at->is(Op::kApp); at = at->operand(0)->operand(0)) {
      ++named;
    }
    auto reread = ReadModule(MakeSource("shared.tir", PrintModule(*module)));
    ASSERT_TRUE(reread.ok()) << reread.status() << "\n" << body;
    EXPECT_TRUE(AlphaEquivalent(original, Unshare(*module, root))) << body;
  }
  // The generator repeats values often enough to test something.
  EXPECT_GT(named, 100);
}

}  // namespace
}  // namespace tessel::ir
