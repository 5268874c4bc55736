#include "libs/primitives/simplify_expr.h"

#include <cstdint>
#include <map>
#include <string>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "libs/ir/node.h"
#include "libs/primitives/primitive.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives {
namespace {

using testing::Print;
using testing::ProcNamed;
using testing::ReadVerified;
using testing::Rewrite;
using testing::Sizes;

// Simplifies @f of `text`, checks that it verifies and computes what it
// computed (with `defines` for its sizes), and returns its text.
std::string Simplified(const std::string& text, const Sizes& defines = {}) {
  absl::StatusOr<std::string> printed = Rewrite(
      text,
      [](ir::Module& module, ir::Node& proc) { return Simplify(module, proc); },
      {defines});
  if (!printed.ok()) return std::string(printed.status().message());
  // Idempotent: simplifying the result again changes nothing.
  ir::Module again = ReadVerified(*printed);
  EXPECT_TRUE(Simplify(again, ProcNamed(again, "@f")).ok());
  EXPECT_EQ(Print(again), *printed);
  return *printed;
}

TEST(Simplify, CollectsLikeTermsAndFoldsLiterals) {
  EXPECT_EQ(Simplified(R"((proc @f ((in x (f32 64)) (out y (f32 64)))
  (for io 0 4
    (for ii 0 16
      (assign (y (+ ii (* io 16))) (x (- (+ (* 16 io) (+ ii 3)) (* 3 1))))))))"),
            "(proc @f ((in x (f32 64)) (out y (f32 64)))\n"
            "  (for io 0 4 (for ii 0 16 (assign (y (+ ii (* 16 io))) (x (+ (* "
            "16 io) ii))))))\n");
}

TEST(Simplify, DividesSumsByProvenRanges) {
  EXPECT_EQ(Simplified(R"((proc @f ((in x (f32 64)) (out y (f32 64)))
  (for io 0 4
    (for ii 0 16
      (assign (y (+ (* 16 (/ (+ (* 16 io) ii) 16)) (% (+ (* 16 io) ii) 16)))
        (x (+ (* 16 io) (% (+ ii 32) 16))))))))"),
            "(proc @f ((in x (f32 64)) (out y (f32 64)))\n"
            "  (for io 0 4 (for ii 0 16 (assign (y (+ (* 16 io) ii)) (x (+ (* "
            "16 io) ii))))))\n");
}

TEST(Simplify, KeepsWhatRangesDoNotProve) {
  EXPECT_EQ(Simplified(R"((proc @f ((size n) (in x (f32 n)) (out y (f32 n)))
  (for i 0 (- (+ n 2) 2)
    (assign (y (+ (- i 1) 1)) (x (- (+ (* 2 (/ (+ i 4) 2)) (% i 2)) (+ i (- 4 i))))))))",
                       {{"n", 7}}),
            "(proc @f ((size n) (in x (f32 n)) (out y (f32 n)))\n"
            "  (for i 0 n (assign (y i) (x (+ (* 2 (/ i 2)) (% i 2))))))\n");
}

TEST(SimplifyExpr, CancelsToAConstant) {
  ir::Module module = ReadVerified(R"((proc @f ((size n) (out y (f32 4)))
  (assign (y (+ (- n n) (* 2 (neg (- 1 2))))) 0.0)))");
  ir::Node& proc = ProcNamed(module, "@f");
  ASSERT_TRUE(Simplify(module, proc).ok());
  EXPECT_EQ(Print(module),
            "(proc @f ((size n) (out y (f32 4))) (assign (y 2) 0.0))\n");
}

// Data arithmetic is not control: (+ (x i) 0.0) stays as written.
TEST(Simplify, LeavesDataAlone) {
  const std::string text = R"((proc @f ((in x (f32 4)) (out y (f32 4)))
  (for i 0 4 (assign (y (- (+ i 1) 1)) (- (+ (x i) 0.0) (* 1.0 (x i)))))))";
  EXPECT_EQ(Simplified(text),
            "(proc @f ((in x (f32 4)) (out y (f32 4)))\n"
            "  (for i 0 4 (assign (y i) (- (+ (x i) 0.0) (* 1.0 (x i))))))\n");
}

TEST(Simplify, SpecHasExoName) {
  PrimitiveSpec spec = SimplifySpec();
  EXPECT_EQ(spec.name, "simplify");
  EXPECT_TRUE(spec.params.empty());
}

}  // namespace
}  // namespace tessel::primitives
