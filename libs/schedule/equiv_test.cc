#include "libs/schedule/equiv.h"

#include <string>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "libs/ir/node.h"
#include "libs/primitives/testing.h"

namespace tessel::schedule {
namespace {

using primitives::testing::ProcNamed;
using primitives::testing::ReadVerified;
using ::testing::HasSubstr;

absl::Status Equivalent(const std::string& a, const std::string& b) {
  ir::Module module_a = ReadVerified(a);
  ir::Module module_b = ReadVerified(b);
  return CheckEquivalent(module_a, ProcNamed(module_a, "@p"), module_b,
                         ProcNamed(module_b, "@p"));
}

constexpr char kTwoLoops[] =
    R"((proc @p ((in x (f32 8)) (out y (f32 8)) (out z (f32 8)))
  (for i 0 8 (assign (y i) (x i)))
  (for j 0 8 (assign (z j) (* (x j) 2.0)))))";

TEST(EquivTest, IndependentStatementsInEitherOrder) {
  EXPECT_TRUE(
      Equivalent(kTwoLoops,
                 R"((proc @p ((in x (f32 8)) (out y (f32 8)) (out z (f32 8)))
  (for k 0 8 (assign (z k) (* (x k) 2.0)))
  (for i 0 8 (assign (y i) (x i)))))")
          .ok());
}

TEST(EquivTest, IndicesUpToSimplification) {
  EXPECT_TRUE(
      Equivalent(kTwoLoops,
                 R"((proc @p ((in x (f32 8)) (out y (f32 8)) (out z (f32 8)))
  (for i 0 8 (assign (y (+ i 0)) (x (- (+ i 1) 1))))
  (for j 0 8 (assign (z j) (* (x j) 2.0)))))")
          .ok());
}

TEST(EquivTest, DependentStatementsKeepTheirOrder) {
  constexpr char kA[] =
      R"((proc @p ((in x (f32 8)) (out y (f32 8)) (out z (f32 8)))
  (for i 0 8 (assign (y i) (x i)))
  (for i 0 8 (assign (z i) (y i)))))";
  constexpr char kB[] =
      R"((proc @p ((in x (f32 8)) (out y (f32 8)) (out z (f32 8)))
  (for i 0 8 (assign (y i) (x i)))
  (for i 0 8 (assign (z i) (y (- 7 i))))))";
  absl::Status status = Equivalent(kA, kB);
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(status.message(), HasSubstr("not proven equivalent"));
  EXPECT_THAT(status.message(), HasSubstr("(assign (z i) (y i))"));
}

TEST(EquivTest, AConstantDiffers) {
  constexpr char kB[] =
      R"((proc @p ((in x (f32 8)) (out y (f32 8)) (out z (f32 8)))
  (for i 0 8 (assign (y i) (x i)))
  (for j 0 8 (assign (z j) (* (x j) 3.0)))))";
  EXPECT_EQ(Equivalent(kTwoLoops, kB).code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST(EquivTest, ParametersMustAgree) {
  constexpr char kB[] =
      R"((proc @p ((in x (f32 8)) (out z (f32 8)) (out y (f32 8)))
  (for i 0 8 (assign (y i) (x i)))
  (for j 0 8 (assign (z j) (* (x j) 2.0)))))";
  EXPECT_THAT(Equivalent(kTwoLoops, kB).message(),
              HasSubstr("parameter 2 is 'y' in A and 'z' in B"));
}

// Writing one location twice: the two writes do not commute, so the order
// that decides the value is kept and the swapped program is not accepted.
TEST(EquivTest, TwoWritesOfOneLocationDoNotCommute) {
  constexpr char kA[] = R"((proc @p ((in x (f32 8)) (out y (f32 8)))
  (for i 0 8 (assign (y i) (x i)) (assign (y i) 1.0))))";
  constexpr char kB[] = R"((proc @p ((in x (f32 8)) (out y (f32 8)))
  (for i 0 8 (assign (y i) 1.0) (assign (y i) (x i)))))";
  EXPECT_EQ(Equivalent(kA, kB).code(), absl::StatusCode::kFailedPrecondition);
}

// Two reductions into one location commute.
TEST(EquivTest, ReductionsInEitherOrder) {
  constexpr char kA[] = R"((proc @p ((in x (f32 8)) (inout s f32))
  (for i 0 8 (reduce s (x i)) (reduce s (* (x i) 2.0)))))";
  constexpr char kB[] = R"((proc @p ((in x (f32 8)) (inout s f32))
  (for i 0 8 (reduce s (* (x i) 2.0)) (reduce s (x i)))))";
  EXPECT_TRUE(Equivalent(kA, kB).ok());
}

}  // namespace
}  // namespace tessel::schedule
