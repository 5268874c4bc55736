#include "libs/primitives/replace_all.h"

#include <string>

#include "gtest/gtest.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives {
namespace {

using testing::Outcome;
using testing::ProcNamed;

constexpr char kText[] = R"((instr @row ((in src (window f32 16)) (out dst (window f32 16)))
  (c "row({src_data}, {dst_data});")
  (for j 0 16 (assign (dst j) (src j))))

(proc @f ((in x (f32 4 16)) (out y (f32 4 16)) (out z (f32 8)))
  (for i 0 4 (for j 0 16 (assign (y i j) (x i j))))
  (for j 0 8 (assign (z j) (x 0 j)))
  (for j 0 16 (assign (y 0 j) (x 1 j))))
)";

// replace_all of @row in @f: the outcome, and how many were replaced.
std::string ReplacedAll(int* count) {
  return Outcome(testing::Rewrite(kText, [&](ir::Module& module,
                                             ir::Node& proc) {
    auto replaced = ReplaceAll(module, proc, ProcNamed(module, "@row"));
    if (!replaced.ok()) return replaced.status();
    *count = *replaced;
    return absl::OkStatus();
  }));
}

// Exo's test_replace_all: every row copy, not the shorter one.
TEST(ReplaceAll, ReplacesEveryBlockThatUnifies) {
  int count = 0;
  std::string text = ReplacedAll(&count);
  EXPECT_EQ(count, 2);
  EXPECT_NE(text.find("(for i 0 4 (call @row (window x i (: 0 16)) (window y "
                      "i (: 0 16))))"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("(for j 0 8 (assign (z j) (x 0 j)))"), std::string::npos)
      << text;
}

TEST(ReplaceAll, Spec) {
  PrimitiveSpec spec = ReplaceAllSpec();
  EXPECT_EQ(spec.name, "replace_all");
  ASSERT_EQ(spec.params.size(), 2u);
  EXPECT_EQ(spec.params[1].default_text, "True");
}

}  // namespace
}  // namespace tessel::primitives
