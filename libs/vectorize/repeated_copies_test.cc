#include "libs/vectorize/repeated_copies.h"

#include <string>

#include "gtest/gtest.h"
#include "libs/interp/testing.h"
#include "libs/ir/syntax.h"

namespace tessel::vectorize {
namespace {

// A proc that copies w into a, reads it, then `between`, then copies w
// into b with `repeat` and reads b.
std::string Proc(const std::string& between, const std::string& repeat) {
  return "(proc @p ((inout w (f32 8)) (out y (f32 8)) (out z (f32 8)))\n"
         "  (alloc a (f32 8))\n"
         "  (for i 0 8 (assign (a i) (w i)))\n"
         "  (for i 0 8 (assign (y i) (a i)))\n" +
         between +
         "  (alloc b (f32 8))\n"
         "  (for j 0 8 (assign (b j) " +
         repeat +
         "))\n"
         "  (for j 0 8 (assign (z j) (* (b j) 2.0))))\n";
}

// `text`'s proc after ShareRepeatedCopies, printed; its outputs equal
// the input's on the same inputs.
std::string Shared(const std::string& text) {
  testing_util::Runner before(text);
  testing_util::Runner after(text);
  EXPECT_TRUE(after.compile_status().ok()) << after.compile_status();
  after.Edit([](ir::Module& module, ir::Node& entry) {
    absl::Status status = ShareRepeatedCopies(module, entry);
    EXPECT_TRUE(status.ok()) << status;
  });
  TensorMap inputs;
  inputs.emplace("w", testing_util::F32({8}, {1, 2, 3, 4, 5, 6, 7, 8}));
  auto expected = before.Run({}, inputs);
  auto got = after.Run({}, inputs);
  EXPECT_TRUE(expected.ok() && got.ok());
  if (expected.ok() && got.ok()) {
    EXPECT_EQ(got->size(), expected->size());
    for (const auto& [name, tensor] : *expected) {
      if (!got->contains(name)) continue;
      EXPECT_EQ(testing_util::Floats(got->at(name)),
                testing_util::Floats(tensor))
          << name;
    }
  }
  return ir::PrintModule(after.module());
}

TEST(RepeatedCopiesTest, TheRepeatReadsTheFirstCopy) {
  std::string shared = Shared(Proc("", "(w j)"));
  EXPECT_EQ(shared.find("(alloc b"), std::string::npos) << shared;
  EXPECT_NE(shared.find("(assign (z j) (* (a j) 2.0))"), std::string::npos)
      << shared;
}

TEST(RepeatedCopiesTest, InsideALoop) {
  std::string shared = Shared(
      "(proc @p ((in w (f32 8)) (out y (f32 4 8)) (out z (f32 4 8)))\n"
      "  (for k 0 4\n"
      "    (alloc a (f32 8))\n"
      "    (for i 0 8 (assign (a i) (+ (w i) 1.0)))\n"
      "    (for i 0 8 (assign (y k i) (a i)))\n"
      "    (alloc b (f32 8))\n"
      "    (for j 0 8 (assign (b j) (+ (w j) 1.0)))\n"
      "    (for j 0 8 (assign (z k j) (b j)))))\n");
  EXPECT_EQ(shared.find("(alloc b"), std::string::npos) << shared;
}

TEST(RepeatedCopiesTest, KeptWhereTheSourceChangesBetween) {
  std::string kept = Shared(Proc("  (assign (w 3) 0.5)\n", "(w j)"));
  EXPECT_NE(kept.find("(alloc b"), std::string::npos) << kept;
}

// A proc that copies w into a with `copy`, into b with `copy` (a for b),
// then runs `after` and sums a and b into z.
std::string TwoCopies(const std::string& copy, const std::string& after) {
  std::string repeat = copy;
  for (size_t at = repeat.find("(a i)"); at != std::string::npos;
       at = repeat.find("(a i)")) {
    repeat.replace(at, 5, "(b i)");
  }
  return "(proc @p ((in w (f32 8)) (out z (f32 8)))\n"
         "  (alloc a (f32 8))\n"
         "  (for i 0 8 " +
         copy +
         ")\n"
         "  (alloc b (f32 8))\n"
         "  (for i 0 8 " +
         repeat + ")\n" + after +
         "  (for j 0 8 (assign (z j) (+ (a j) (b j)))))\n";
}

TEST(RepeatedCopiesTest, KeptWhereTheFirstCopyChangesAfter) {
  std::string written =
      Shared(TwoCopies("(assign (a i) (w i))", "  (reduce (a 2) 1.0)\n"));
  EXPECT_NE(written.find("(alloc b"), std::string::npos) << written;
}

TEST(RepeatedCopiesTest, KeptWhereTheCopiesDiffer) {
  std::string kept = Shared(Proc("", "(* (w j) 3.0)"));
  EXPECT_NE(kept.find("(alloc b"), std::string::npos) << kept;
}

TEST(RepeatedCopiesTest, KeptWhereTheCopyReadsItsBuffer) {
  std::string kept =
      Shared(TwoCopies("(assign (a i) (w i)) (reduce (a i) (a i))", ""));
  EXPECT_NE(kept.find("(alloc b"), std::string::npos) << kept;
}

}  // namespace
}  // namespace tessel::vectorize
