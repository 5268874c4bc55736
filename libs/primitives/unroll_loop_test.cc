#include "libs/primitives/unroll_loop.h"

#include <cstdint>
#include <map>
#include <string>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "libs/ir/cursor.h"
#include "libs/ir/node.h"
#include "libs/primitives/primitive.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives {
namespace {

using testing::Outcome;
using testing::Rewrite;
using testing::Sizes;

// Unrolls the first loop of @f in `text` (at `depth` in its first nest):
// the result's text (checked to verify and to compute what the original
// does, with `defines`), or the error.
std::string Unrolled(const std::string& text, int depth = 0,
                     const Sizes& defines = {}) {
  return Outcome(Rewrite(text,
                         [&](ir::Module& module, ir::Node& proc) {
                           ir::Node* loop = ir::Body(proc)[0];
                           for (int d = 0; d < depth; ++d)
                             loop = ir::Body(*loop)[0];
                           return UnrollLoop(module, ir::Cursor(module, loop));
                         },
                         {defines}));
}

// Exo's test_unroll: a loop of 3 whose body uses the variable.
TEST(UnrollLoop, CopiesTheBodyPerIteration) {
  EXPECT_EQ(Unrolled(R"((proc @f ((size n) (in x (f32 n 4)) (out y (f32 n 4)))
  (for j 0 n
    (for i 1 5 (assign (y j (- i 1)) (* (x j (- i 1)) 2.0))))))",
                     1, {{"n", 5}}),
            "(proc @f ((size n) (in x (f32 n 4)) (out y (f32 n 4)))\n"
            "  (for j 0 n\n"
            "    (assign (y j 0) (* (x j 0) 2.0))\n"
            "    (assign (y j 1) (* (x j 1) 2.0))\n"
            "    (assign (y j 2) (* (x j 2) 2.0))\n"
            "    (assign (y j 3) (* (x j 3) 2.0))))\n");
}

TEST(UnrollLoop, FoldsTheIndices) {
  EXPECT_EQ(Unrolled(R"((proc @f ((in x (f32 3)) (out y (f32 3)))
  (for i 0 3 (assign (y i) (x (- 2 i))))))"),
            "(proc @f ((in x (f32 3)) (out y (f32 3)))\n"
            "  (assign (y 0) (x 2))\n"
            "  (assign (y 1) (x 1))\n"
            "  (assign (y 2) (x 0)))\n");
}

TEST(UnrollLoop, RejectsASymbolicCount) {
  EXPECT_EQ(Unrolled(R"((proc @f ((size n) (in x (f32 n)) (out y (f32 n)))
  (for i 0 n (assign (y i) (x i)))))"),
            "unroll_loop: the trip count of loop 'i' is not a literal");
}

TEST(UnrollLoop, Spec) {
  PrimitiveSpec spec = UnrollLoopSpec();
  EXPECT_EQ(spec.name, "unroll_loop");
  ASSERT_EQ(spec.params.size(), 1u);
  EXPECT_EQ(spec.params[0].name, "loop_cursor");
}

}  // namespace
}  // namespace tessel::primitives
