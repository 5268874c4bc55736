#include "libs/poly/poly.h"

#include "gtest/gtest.h"

namespace tessel::poly {
namespace {

TEST(FindOutOfBoundsTest, ConstantAccessInBounds) {
  Context ctx;
  auto found = FindOutOfBounds(ctx, "{ S[i, j] : 0 <= i < 64 and 0 <= j < 16 }",
                               "{ S[i, j] -> A[i, j] }",
                               "{ A[a, b] : 0 <= a < 64 and 0 <= b < 16 }");
  ASSERT_TRUE(found.ok()) << found.status();
  EXPECT_EQ(*found, std::nullopt);
}

TEST(FindOutOfBoundsTest, ReportsTheLeastOffendingPoint) {
  Context ctx;
  auto found = FindOutOfBounds(ctx, "{ S[i, j] : 0 <= i < 64 and 0 <= j < 16 }",
                               "{ S[i, j] -> A[i + 1, j] }",
                               "{ A[a, b] : 0 <= a < 64 and 0 <= b < 16 }");
  ASSERT_TRUE(found.ok()) << found.status();
  EXPECT_EQ(*found, "i = 63, j = 0");
}

TEST(FindOutOfBoundsTest, ParametricDomainNamesParametersFirst) {
  Context ctx;
  auto found = FindOutOfBounds(ctx, "[N] -> { S[i] : N > 0 and 0 <= i <= N }",
                               "[N] -> { S[i] -> A[i] }",
                               "[N] -> { A[a] : 0 <= a < N }");
  ASSERT_TRUE(found.ok()) << found.status();
  EXPECT_EQ(*found, "N = 1, i = 1");
}

TEST(FindOutOfBoundsTest, ParametricAccessWithinAssertedBounds) {
  Context ctx;
  // A window of width m <= 16 starting at 16 * io inside an array of n.
  auto found = FindOutOfBounds(
      ctx,
      "[n, io] -> { S[j] : n > 0 and 0 <= io and 16 * io < n and "
      "0 <= j < min(16, n - 16 * io) }",
      "[n, io] -> { S[j] -> A[16 * io + j] }", "[n] -> { A[a] : 0 <= a < n }");
  ASSERT_TRUE(found.ok()) << found.status();
  EXPECT_EQ(*found, std::nullopt);
}

TEST(FindOutOfBoundsTest, ImageGivesTheOffendingValues) {
  Context ctx;
  auto found = FindOutOfBoundsImage(
      ctx, "{ S[w, rw] : 0 <= w < 14 and 0 <= rw < 4 }",
      "{ S[w, rw] -> A[w + rw, 16] }", "{ A[x, d] : 0 <= x < d }");
  ASSERT_TRUE(found.ok()) << found.status();
  ASSERT_TRUE(found->has_value());
  EXPECT_EQ((*found)->point, "w = 13, rw = 3");
  EXPECT_EQ((*found)->image, (std::vector<std::string>{"16", "16"}));
}

TEST(FindOutOfBoundsTest, QuasiAffineAccess) {
  Context ctx;
  auto found = FindOutOfBounds(ctx, "{ S[i] : 0 <= i < 32 }",
                               "{ S[i] -> A[floor(i / 4), i mod 4] }",
                               "{ A[a, b] : 0 <= a < 8 and 0 <= b < 4 }");
  ASSERT_TRUE(found.ok()) << found.status();
  EXPECT_EQ(*found, std::nullopt);
  found = FindOutOfBounds(ctx, "{ S[i] : 0 <= i < 33 }",
                          "{ S[i] -> A[floor(i / 4), i mod 4] }",
                          "{ A[a, b] : 0 <= a < 8 and 0 <= b < 4 }");
  ASSERT_TRUE(found.ok()) << found.status();
  EXPECT_EQ(*found, "i = 32");
}

TEST(FindOutOfBoundsTest, UnboundedParameterStillGivesAPoint) {
  Context ctx;
  auto found =
      FindOutOfBounds(ctx, "[k] -> { S[i] : 0 <= i < 4 }",
                      "[k] -> { S[i] -> A[i + k] }", "{ A[a] : 0 <= a < 8 }");
  ASSERT_TRUE(found.ok()) << found.status();
  ASSERT_TRUE(found->has_value());
  EXPECT_NE(found->value().find("k = "), std::string::npos);
}

TEST(FindOutOfBoundsTest, MalformedTextIsAnInternalError) {
  Context ctx;
  auto found = FindOutOfBounds(ctx, "{ S[i] : 0 <= i < }", "{ S[i] -> A[i] }",
                               "{ A[a] }");
  EXPECT_EQ(found.status().code(), absl::StatusCode::kInternal);
  found = FindOutOfBounds(ctx, "{ S[i] }", "{ S[i] -> A[i] ", "{ A[a] }");
  EXPECT_EQ(found.status().code(), absl::StatusCode::kInternal);
  found =
      FindOutOfBounds(ctx, "{ S[i] : i < N }", "{ S[i] -> A[i] }", "{ A[a] }");
  EXPECT_EQ(found.status().code(), absl::StatusCode::kInternal);
  // The bounds are not in the access's range space.
  found = FindOutOfBounds(ctx, "{ S[i] }", "{ S[i] -> A[i] }", "{ B[a, b] }");
  EXPECT_EQ(found.status().code(), absl::StatusCode::kInternal);
  // The context still answers after an error.
  auto empty = IsEmpty(ctx, "{ S[i] : 0 <= i < 1 }");
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_FALSE(*empty);
}

TEST(FindCollisionTest, InjectiveAccess) {
  Context ctx;
  auto found =
      FindCollision(ctx, "[N] -> { S[i, j] : 0 <= i < N and 0 <= j < 4 }",
                    "{ S[i, j] -> A[4 * i + j] }");
  ASSERT_TRUE(found.ok()) << found.status();
  EXPECT_EQ(*found, std::nullopt);
}

TEST(FindCollisionTest, ReportsTwoPoints) {
  Context ctx;
  auto found = FindCollision(ctx, "{ S[i, j] : 0 <= i < 4 and 0 <= j < 4 }",
                             "{ S[i, j] -> A[i + j] }");
  ASSERT_TRUE(found.ok()) << found.status();
  EXPECT_EQ(*found, "i = 0, j = 1 and i = 1, j = 0");
}

TEST(FindCollisionTest, ParametricCollision) {
  Context ctx;
  auto found = FindCollision(ctx, "[N] -> { S[i] : N > 0 and 0 <= i < N }",
                             "{ S[i] -> A[floor(i / 2)] }");
  ASSERT_TRUE(found.ok()) << found.status();
  EXPECT_EQ(*found, "N = 2, i = 0 and i = 1");
}

TEST(FindCollisionTest, MalformedText) {
  Context ctx;
  EXPECT_EQ(FindCollision(ctx, "{ S[i] ", "{ S[i] -> A[i] }").status().code(),
            absl::StatusCode::kInternal);
}

TEST(CoversExactlyTest, ConstantAndParametric) {
  Context ctx;
  auto covers =
      CoversExactly(ctx, "{ S[i, j] : 0 <= i < 8 and 0 <= j < 4 }",
                    "{ S[i, j] -> A[4 * i + j] }", "{ A[a] : 0 <= a < 32 }");
  ASSERT_TRUE(covers.ok()) << covers.status();
  EXPECT_TRUE(*covers);
  covers = CoversExactly(ctx, "{ S[i] : 0 <= i < 16 }", "{ S[i] -> A[2 * i] }",
                         "{ A[a] : 0 <= a < 32 }");
  ASSERT_TRUE(covers.ok()) << covers.status();
  EXPECT_FALSE(*covers);
  covers = CoversExactly(ctx, "[N] -> { S[i] : 0 <= i < N }",
                         "{ S[i] -> A[i] }", "[N] -> { A[a] : 0 <= a < N }");
  ASSERT_TRUE(covers.ok()) << covers.status();
  EXPECT_TRUE(*covers);
  covers =
      CoversExactly(ctx, "[N] -> { S[i] : 0 <= i < N }", "{ S[i] -> A[i + 1] }",
                    "[N] -> { A[a] : 0 <= a < N }");
  ASSERT_TRUE(covers.ok()) << covers.status();
  EXPECT_FALSE(*covers);
  EXPECT_EQ(CoversExactly(ctx, "{ S[i] }", "{ S[i] -> A[i] }", "{ A[a")
                .status()
                .code(),
            absl::StatusCode::kInternal);
}

TEST(IsEmptyTest, ConstantAndParametric) {
  Context ctx;
  auto empty = IsEmpty(ctx, "{ S[i] : 0 <= i < 0 }");
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_TRUE(*empty);
  empty = IsEmpty(ctx, "[N] -> { S[i] : 0 <= i < N and N < 0 }");
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_TRUE(*empty);
  empty = IsEmpty(ctx, "[N] -> { S[i] : 0 <= i < N }");
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_FALSE(*empty);
  empty = IsEmpty(ctx, "{ S[i] : 2 * i = 1 }");
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_TRUE(*empty);
  EXPECT_EQ(IsEmpty(ctx, "not a set").status().code(),
            absl::StatusCode::kInternal);
}

}  // namespace
}  // namespace tessel::poly
