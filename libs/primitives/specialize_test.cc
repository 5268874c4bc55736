#include "libs/primitives/specialize.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "libs/ir/build.h"
#include "libs/ir/cursor.h"
#include "libs/ir/node.h"
#include "libs/primitives/primitive.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives {
namespace {

using ir::Build;
using testing::Outcome;
using testing::Rewrite;

constexpr char kSized[] = R"((proc @f ((size n) (in x (f32 n)) (out y (f32 n)))
  (for i 0 n (assign (y i) (x i)))))";

// Specializes @f's loop on n == v for each of `values`: the result's text
// (verified, computing what the original does for n = 3, 8), or the error.
std::string Specialized(const std::vector<int64_t>& values) {
  return Outcome(Rewrite(kSized,
                         [&](ir::Module& module, ir::Node& proc) {
                           std::vector<const ir::Node*> conds;
                           for (int64_t v : values) {
                             conds.push_back(Build::Eq(
                                 module, Build::Ref(module, *proc.operand(0)),
                                 Build::Int(module, v)));
                           }
                           ir::Cursor loop(module, ir::Body(proc)[0]);
                           absl::Status status =
                               Specialize(module, loop.as_block(), conds);
                           // The original moved into the last else.
                           if (status.ok()) {
          EXPECT_TRUE(loop.is_valid());
        }
                           return status;
                         },
                         {{{"n", 3}}, {{"n", 8}}}));
}

TEST(Specialize, OneCondition) {
  EXPECT_EQ(Specialized({8}),
            "(proc @f ((size n) (in x (f32 n)) (out y (f32 n)))\n"
            "  (if (== n 8)\n"
            "    (then (for i 0 n (assign (y i) (x i))))\n"
            "    (else (for i 0 n (assign (y i) (x i))))))\n");
}

TEST(Specialize, AChainOfConditions) {
  EXPECT_EQ(Specialized({8, 3}),
            "(proc @f ((size n) (in x (f32 n)) (out y (f32 n)))\n"
            "  (if (== n 8)\n"
            "    (then (for i 0 n (assign (y i) (x i))))\n"
            "    (else\n"
            "      (if (== n 3)\n"
            "        (then (for i 0 n (assign (y i) (x i))))\n"
            "        (else (for i 0 n (assign (y i) (x i))))))))\n");
}

TEST(Specialize, RejectsNoCondition) {
  EXPECT_EQ(Specialized({}), "specialize: expected a condition");
}

TEST(Specialize, Spec) {
  PrimitiveSpec spec = SpecializeSpec();
  EXPECT_EQ(spec.name, "specialize");
  ASSERT_EQ(spec.params.size(), 2u);
  EXPECT_EQ(spec.params[0].name, "block");
  EXPECT_EQ(spec.params[1].name, "conds");
}

}  // namespace
}  // namespace tessel::primitives
