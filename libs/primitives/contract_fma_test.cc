#include "libs/primitives/contract_fma.h"

#include <string>

#include "gtest/gtest.h"
#include "libs/ir/node.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives {
namespace {

// Contracts the statement at `path` in the proc of `text`.
std::string Contracted(const std::string& text, std::vector<size_t> path) {
  return testing::OutcomeAt(text, path, ContractFma);
}

TEST(ContractFma, FusesTheMultiplyAddOfAnElement) {
  EXPECT_EQ(
      Contracted(
          R"((proc @mm ((in A (f32 4 3)) (in B (f32 3 5)) (inout C (f32 4 5)))
  (for i 0 4
    (for j 0 5
      (for k 0 3 (reduce (C i j) (* (A i k) (B k j)))))))
)",
          {0, 0, 0, 0}),
      R"((proc @mm ((in A (f32 4 3)) (in B (f32 3 5)) (inout C (f32 4 5)))
  (for i 0 4
    (for j 0 5 (for k 0 3 (assign (C i j) (fma (A i k) (B k j) (C i j)))))))
)");
}

TEST(ContractFma, FusesTheMultiplyAddOfAScalar) {
  EXPECT_EQ(Contracted(R"((proc @dot ((in x (f32 8)) (in y (f32 8)) (out r f32))
  (assign r 0.0)
  (for i 0 8 (reduce r (* (x i) (y i)))))
)",
                       {1, 0}),
            R"((proc @dot ((in x (f32 8)) (in y (f32 8)) (out r f32))
  (assign r 0.0)
  (for i 0 8 (assign r (fma (x i) (y i) r))))
)");
}

// Integers wrap: their fma is the product and the sum, exactly.
TEST(ContractFma, KeepsIntegersExact) {
  EXPECT_EQ(
      Contracted(R"((proc @acc ((in a (i32 6)) (in b (i32 6)) (inout c (i32 6)))
  (for i 0 6 (reduce (c i) (* (a i) (b i)))))
)",
                 {0, 0}),
      R"((proc @acc ((in a (i32 6)) (in b (i32 6)) (inout c (i32 6)))
  (for i 0 6 (assign (c i) (fma (a i) (b i) (c i)))))
)");
}

TEST(ContractFma, RejectsAReductionOfAnythingButAProduct) {
  EXPECT_EQ(Contracted(R"((proc @sum ((in x (f32 8)) (inout r f32))
  (for i 0 8 (reduce r (+ (x i) 1.0))))
)",
                       {0, 0}),
            "contract_fma expects a reduction of a product (x += a * b), not "
            "'(reduce r (+ (x i) 1.0))'");
  EXPECT_EQ(Contracted(R"((proc @copy ((in x (f32 8)) (out y (f32 8)))
  (for i 0 8 (assign (y i) (* (x i) 2.0))))
)",
                       {0, 0}),
            "contract_fma expects a reduction of a product (x += a * b), not "
            "'(assign (y i) (* (x i) 2.0))'");
}

}  // namespace
}  // namespace tessel::primitives
