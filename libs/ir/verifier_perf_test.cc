// Verification time of large procedures stays well under a second. Every
// loop nest starts at a different bound, so that no two nests share their
// polyhedral domain. Processor time is measured, not wall time, so that a
// busy machine does not make the test flaky.
#include <ctime>
#include <iostream>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "libs/ir/verifier_test_util.h"

namespace tessel {
namespace {

constexpr int kNests = 100;

double SecondsToVerify(const std::string& text) {
  auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(FirstError(text), "ok");
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

TEST(VerifierPerfTest, TiledNestsWithWindows) {
  std::string text =
      "(proc @big ((size n) (size m) (in A (f32 n m)) (in B (f32 n m))\n"
      "            (inout C (f32 n m)))\n"
      "  (assert (<= m 64))\n";
  for (int k = 0; k < kNests; ++k) {
    absl::StrAppend(
        &text, "  (for i ", k, " n (for jo 0 (/ (+ m 7) 8)\n",
        "    (for ji 0 (min 8 (- m (* 8 jo)))\n",
        "      (let w (window C i (: (* 8 jo) (min m (+ (* 8 jo) 8)))))\n",
        "      (reduce (w ji) (* (A i (+ (* 8 jo) ji)) (B i (+ (* 8 jo) "
        "ji)))))))\n");
  }
  text += ")\n";
  double seconds = SecondsToVerify(text);
  std::cout << 4 * kNests << " statements in " << seconds << " s\n";
  EXPECT_LT(seconds, 1.0);
}

TEST(VerifierPerfTest, PlainNests) {
  std::string text =
      "(proc @big ((size n) (size m) (in A (f32 n m)) (in B (f32 n m))\n"
      "            (inout C (f32 n m)))\n";
  for (int k = 0; k < kNests; ++k) {
    absl::StrAppend(&text, "  (for i ", k,
                    " n (for j 0 m (reduce (C i j) (* (A i j) (B i j)))))\n");
  }
  text += ")\n";
  double seconds = SecondsToVerify(text);
  std::cout << 3 * kNests << " statements in " << seconds << " s\n";
  EXPECT_LT(seconds, 1.0);
}

}  // namespace
}  // namespace tessel
