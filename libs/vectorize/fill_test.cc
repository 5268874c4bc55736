#include "libs/vectorize/fill.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "libs/interp/testing.h"
#include "libs/ir/forms.h"
#include "libs/ir/op.h"
#include "libs/ir/views.h"
#include "libs/vectorize/nest.h"

namespace tessel::vectorize {
namespace {

// A proc that fills y[i, j] with `fill`, then reduces into `reduced` over
// the loop k.
std::string Proc(const std::string& fill, const std::string& reduced) {
  return "(proc @p ((in x (f32 4 8)) (in b (f32 16)) (inout y (f32 4 8)))\n"
         "  (for i 0 4\n"
         "    (for j 0 8\n"
         "      (assign (y i j) " +
         fill +
         ")\n"
         "      (for k 0 3\n"
         "        (reduce " +
         reduced + " (* (x i j) 2.0))))))\n";
}

// What the analysis says of `text`'s nests: the number of nests after
// SplitIntoNests, whether the last one's statement has a fill, and whether
// that fill's value has a vector along the loop `j`.
struct Seen {
  size_t nests = 0;
  bool fill = false;
  bool along_j = false;
};

Seen See(const std::string& text) {
  testing_util::Runner runner(text);
  EXPECT_TRUE(runner.compile_status().ok()) << runner.compile_status();
  Seen seen;
  runner.Edit([&](ir::Module& module, ir::Node& entry) {
    EXPECT_TRUE(SplitIntoNests(module, entry).ok());
    std::vector<ir::Node*> stmts = NestStatements(entry);
    seen.nests = stmts.size();
    ir::Node* fill = FillOf(*stmts.back());
    seen.fill = fill != nullptr;
    if (fill == nullptr) return;
    EXPECT_TRUE(fill->is(ir::Op::kAssign));
    for (ir::Node* loop : LoopsOf(*fill)) {
      if (loop->name() == "j") seen.along_j = FillVectorizes(*fill, *loop);
    }
  });
  return seen;
}

TEST(FillTest, ConstantFillStaysWithItsReduction) {
  Seen seen = See(Proc("0.0", "(y i j)"));
  EXPECT_EQ(seen.nests, 1u);
  EXPECT_TRUE(seen.fill);
  EXPECT_TRUE(seen.along_j);
}

TEST(FillTest, ValuesOfOtherTensors) {
  // A bias read along the lanes is a vector; read at stride 2, a fill all
  // the same (kept in the nest until the lanes are known), without one.
  Seen bias = See(Proc("(b j)", "(y i j)"));
  EXPECT_TRUE(bias.fill);
  EXPECT_TRUE(bias.along_j);
  Seen strided = See(Proc("(b (* 2 j))", "(y i j)"));
  EXPECT_TRUE(strided.fill);
  EXPECT_FALSE(strided.along_j);
}

TEST(FillTest, NotAFillIsSplitOff) {
  // A value that reads the filled tensor, and a reduction into another
  // element than the one filled: two nests, no fill.
  Seen reads = See(Proc("(* (y i j) 2.0)", "(y i j)"));
  EXPECT_EQ(reads.nests, 2u);
  EXPECT_FALSE(reads.fill);
  Seen other = See(Proc("0.0", "(y i 0)"));
  EXPECT_EQ(other.nests, 2u);
  EXPECT_FALSE(other.fill);
}

TEST(FillTest, EveryLoopAroundTheFillIndexesItsElement) {
  // y[i] is filled again in every iteration of k: the sum starts from
  // the last fill, not from the first (and no fission splits it off).
  constexpr char kRefilled[] = R"(
(proc @p ((in x (f32 4 8)) (inout y (f32 4)))
  (for i 0 4
    (for k 0 2
      (assign (y i) 0.0)
      (for j 0 8
        (reduce (y i) (x i j))))))
)";
  testing_util::Runner runner(kRefilled);
  ASSERT_TRUE(runner.compile_status().ok()) << runner.compile_status();
  runner.Edit([&](ir::Module&, ir::Node& entry) {
    ir::Node& k = *ir::ForView(*ir::BodyOf(entry)[0]).body()[0];
    ir::Node& j = *ir::ForView(k).body()[1];
    EXPECT_FALSE(HoldsFill(k));
    EXPECT_EQ(FillOf(*ir::ForView(j).body()[0]), nullptr);
  });
}

}  // namespace
}  // namespace tessel::vectorize
