// Large procedures verify within the verifier's isl operation budget (a
// deterministic bound: a budget overrun is a ResourceExhausted error, not
// "ok"). Every loop nest starts at a different bound, so that no two nests
// share their polyhedral domain. The time taken is printed for people;
// tests never assert on time.
#include <chrono>
#include <iostream>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "libs/verify/first_error.h"

namespace tessel::ir {
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
  std::cout << 4 * kNests << " statements in " << SecondsToVerify(text)
            << " s\n";
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
  std::cout << 3 * kNests << " statements in " << SecondsToVerify(text)
            << " s\n";
}

}  // namespace
}  // namespace tessel::ir
