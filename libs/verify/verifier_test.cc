// Module-level order of the checks, and the spec's examples.
#include "libs/verify/verifier.h"

#include "gtest/gtest.h"
#include "libs/verify/first_error.h"

namespace tessel::ir {
namespace {

TEST(VerifierTest, SpecExamplesVerify) {
  EXPECT_EQ(FirstError(R"(
(func @gemv ((alpha f32) (A (f32 8 4)) (x (f32 4)))
  ((y (f32 8)))
  (build 8 (lam (* alpha (ifold 4 0.0 (lam (lam (+ %0 (* (index (index A %2) %1) (index x %1))))))))))
)"),
            "ok");
  EXPECT_EQ(FirstError(R"(
(proc @matmul ((in A (f32 64 32)) (in B (f32 32 16)) (out C (f32 64 16)))
  (for i 0 64
    (for j 0 16
      (assign (C i j) 0.0)
      (for k 0 32 (reduce (C i j) (* (A i k) (B k j)))))))
)"),
            "ok");
  EXPECT_EQ(FirstError(R"(
(memory @SCRATCHPAD
  (alloc "static {type} {name}[{size}];")
  (free "")
  (addressable false))

(config @ConfigLoad (src_stride stride))

(instr @ld_data ((size n) (size m) (in src (window f32 n m) @DRAM)
                 (out dst (window f32 n 16) @SCRATCHPAD))
  (c "mvin({src_data}, {dst_data}, {m}, {n});")
  (assert (<= m 16))
  (for i 0 n (for j 0 m (assign (dst i j) (src i j)))))
)"),
            "ok");
}

TEST(VerifierTest, FormsMayReferToLaterForms) {
  EXPECT_EQ(FirstError(R"(
(proc @main ((out y (f32 4) @DRAM))
  (call @fill 4 y))
(proc @fill ((size n) (out x (f32 n)))
  (for i 0 n (assign (x i) 0.0)))
)"),
            "ok");
}

TEST(VerifierTest, SignaturesAreCheckedBeforeBodies) {
  // The caller comes first, but the callee's malformed dimension is the
  // error: calls are checked against valid signatures only.
  EXPECT_EQ(FirstError(R"((proc @main ((out y (f32 4)))
  (call @fill 4 y))
(proc @fill ((size n) (out x (f32 (frob n))))
  (for i 0 n (assign (x i) 0.0))))"),
            "3:35: error: a dimension may only use sizes, literals and "
            "arithmetic, not '(frob n)'");
}

TEST(VerifierTest, ReportsTheFirstErrorInFileOrder) {
  EXPECT_EQ(FirstError(R"((func @f ((x f32)) ((y f32)) z)
(proc @p ((out y f32)) (assign y w)))"),
            "1:30: error: unbound name 'z'");
  EXPECT_EQ(FirstError(R"((proc @p ((out y f32)) (assign y w))
(func @f ((x f32)) ((y f32)) z))"),
            "1:34: error: unbound name 'w'");
}

TEST(VerifierTest, EmptyModuleParts) {
  EXPECT_EQ(FirstError("(proc @p ())"), "ok");
  EXPECT_EQ(FirstError("(memory @M (alloc \"\"))\n(config @C (x f32))"), "ok");
}

}  // namespace
}  // namespace tessel::ir
