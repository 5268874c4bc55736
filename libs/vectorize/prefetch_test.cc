#include "libs/vectorize/prefetch.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "libs/interp/testing.h"
#include "libs/ir/syntax.h"

namespace tessel::vectorize {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// A proc that copies the last `columns` of the 64 rows of w (f32 64 n),
// row by row, into a packed buffer and sums it into y.
std::string PackingProc(int n, int columns) {
  const std::string cols = std::to_string(columns);
  return "(proc @p ((in w (f32 64 " + std::to_string(n) +
         ")) (out y (f32 1)))\n"
         "  (alloc w_packed (f32 64 " +
         cols +
         "))\n"
         "  (for i 0 64 (for c 0 " +
         cols + " (assign (w_packed i c) (w i (+ c " +
         std::to_string(n - columns) +
         ")))))\n"
         "  (assign (y 0) 0.0)\n"
         "  (for i 0 64 (for c 0 " +
         cols + " (reduce (y 0) (w_packed i c)))))\n";
}

// `text`'s proc after PrefetchCopies with `rows_ahead`, printed; it still
// verifies and computes what it did (the prefetches past w's last row
// touch nothing).
std::string Prefetched(const std::string& text, int64_t rows_ahead,
                       int n = 512) {
  testing_util::Runner before(text);
  testing_util::Runner after(text);
  EXPECT_TRUE(after.compile_status().ok()) << after.compile_status();
  after.Edit([&](ir::Module& module, ir::Node& entry) {
    absl::Status status =
        PrefetchCopies(module, entry, Strategy{.prefetch_copies = rows_ahead});
    EXPECT_TRUE(status.ok()) << status;
  });
  EXPECT_TRUE(after.compile_status().ok()) << after.compile_status();
  std::vector<float> values(64 * n);
  for (size_t i = 0; i < values.size(); ++i) values[i] = (i % 7) * 0.5f;
  TensorMap inputs;
  inputs.emplace("w", testing_util::F32({64, n}, values));
  auto expected = before.Run({}, inputs);
  auto got = after.Run({}, inputs);
  EXPECT_TRUE(expected.ok()) << expected.status();
  EXPECT_TRUE(got.ok()) << got.status();
  if (expected.ok() && got.ok()) {
    EXPECT_EQ(testing_util::Floats(got->at("y")),
              testing_util::Floats(expected->at("y")));
  }
  return ir::PrintModule(after.module());
}

TEST(PrefetchCopiesTest, PrefetchesRowsThatLieApart) {
  // Rows of 64 bytes, 2 KiB apart: one line 8 rows ahead.
  EXPECT_THAT(Prefetched(PackingProc(512, 16), 8),
              HasSubstr("(for i 0 64\n    (prefetch w (+ i 8) 496)\n"));
  // Rows of two lines: one prefetch for each.
  EXPECT_THAT(Prefetched(PackingProc(512, 32), 4),
              HasSubstr("(prefetch w (+ i 4) 480)\n"
                        "    (prefetch w (+ i 4) 496)\n"));
}

TEST(PrefetchCopiesTest, LeavesOtherCopiesAlone) {
  // Rows in sequence: the hardware's prefetchers follow them.
  EXPECT_THAT(Prefetched(PackingProc(16, 16), 8, 16),
              Not(HasSubstr("prefetch")));
  // Rows of 5 lines: long enough for the hardware too.
  EXPECT_THAT(Prefetched(PackingProc(512, 80), 8), Not(HasSubstr("prefetch")));
  const std::string copy = PackingProc(512, 16);
  // No distance, or one the outer loop does not run past.
  EXPECT_THAT(Prefetched(copy, 0), Not(HasSubstr("prefetch")));
  EXPECT_THAT(Prefetched(copy, 64), Not(HasSubstr("prefetch")));
}

TEST(PrefetchCopiesTest, LeavesRowsReadOutOfSequence) {
  // The inner loop reads a column of w, or a row backwards.
  for (const char* read : {"(w i c)", "(w c (- 7 i))"}) {
    const std::string text =
        std::string(
            "(proc @p ((in w (f32 64 64)) (out y (f32 64 64)))\n"
            "  (for c 0 64 (for i 0 8 (assign (y c i) ") +
        read + "))))\n";
    testing_util::Runner runner(text);
    ASSERT_TRUE(runner.compile_status().ok()) << runner.compile_status();
    runner.Edit([&](ir::Module& module, ir::Node& entry) {
      EXPECT_TRUE(
          PrefetchCopies(module, entry, Strategy{.prefetch_copies = 8}).ok());
    });
    EXPECT_THAT(ir::PrintModule(runner.module()), Not(HasSubstr("prefetch")))
        << read;
  }
}

TEST(PrefetchCopiesTest, LeavesLoopsOfSymbolicBounds) {
  const std::string text =
      "(proc @p ((size n) (in w (f32 n 512)) (out y (f32 n 16)))\n"
      "  (for i 0 n (for c 0 16 (assign (y i c) (w i c)))))\n";
  testing_util::Runner runner(text);
  ASSERT_TRUE(runner.compile_status().ok()) << runner.compile_status();
  runner.Edit([&](ir::Module& module, ir::Node& entry) {
    EXPECT_TRUE(
        PrefetchCopies(module, entry, Strategy{.prefetch_copies = 8}).ok());
  });
  EXPECT_THAT(ir::PrintModule(runner.module()), Not(HasSubstr("prefetch")));
}

}  // namespace
}  // namespace tessel::vectorize
