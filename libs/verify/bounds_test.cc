// Static bounds checks and calls: the polyhedral questions the verifier asks
// isl, with concrete and symbolic sizes.
#include "gtest/gtest.h"
#include "libs/verify/first_error.h"

namespace tessel::ir {
namespace {

TEST(BoundsTest, ConcreteOffByOne) {
  EXPECT_EQ(FirstError(R"((proc @p ((in x (f32 16)) (out y (f32 14)))
  (for w 0 14
    (assign (y w) 0.0)
    (for rw 0 4 (reduce (y w) (x (+ w rw)))))))"),
            "4:34: error: index 0 of 'x' can reach 16, outside its extent 16 "
            "(at w = 13, rw = 3)");
  EXPECT_EQ(FirstError(R"((proc @p ((in x (f32 16)) (out y (f32 13)))
  (for w 0 13
    (assign (y w) 0.0)
    (for rw 0 4 (reduce (y w) (x (+ w rw)))))))"),
            "ok");
}

TEST(BoundsTest, SecondIndex) {
  EXPECT_EQ(FirstError(R"((proc @p ((out y (f32 4 8)))
  (for i 0 4 (for j 0 8 (assign (y i (+ j 1)) 0.0)))))"),
            "2:38: error: index 1 of 'y' can reach 8, outside its extent 8 "
            "(at i = 0, j = 7)");
  EXPECT_EQ(FirstError(R"((proc @p ((out y (f32 4 8)))
  (for i 0 4 (for j 0 8 (assign (y (- i 1) j) 0.0)))))"),
            "2:36: error: index 0 of 'y' can be -1, below 0 (at i = 0, "
            "j = 0)");
}

// Indices affine in loops of literal bounds are settled on the loops' box
// (poly/box.h) before isl is asked; what the box does not settle is still
// isl's, with its counterexample.
TEST(BoundsTest, LiteralLoopBounds) {
  EXPECT_EQ(FirstError(R"((proc @p ((in x (f32 32)) (out y (f32 4 8)))
  (for i 1 5 (for j 0 8 (assign (y (- i 1) (- 7 j)) (x (+ (* 8 (- i 1)) j)))))))"),
            "ok");
  EXPECT_EQ(FirstError(R"((proc @p ((in x (f32 32)) (out y (f32 4 8)))
  (for i 1 5 (for j 0 8 (assign (y (- i 1) (- 7 j)) (x (+ (* 8 i) j)))))))"),
            "2:56: error: index 0 of 'x' can reach 32, outside its extent 32 "
            "(at i = 4, j = 0)");
  // An empty loop has no instance to check; a guard narrows the box.
  EXPECT_EQ(FirstError(R"((proc @p ((out y (f32 4)))
  (for i 4 2 (assign (y i) 0.0))
  (for i 0 8 (if (< i 4) (then (assign (y i) 0.0))))))"),
            "ok");
}

TEST(BoundsTest, SymbolicSizes) {
  EXPECT_EQ(FirstError(
                R"((proc @p ((size n) (size m) (in A (f32 n m)) (out y (f32 n)))
  (for i 0 n
    (assign (y i) 0.0)
    (for j 0 m (reduce (y i) (A i j))))))"),
            "ok");
  EXPECT_EQ(FirstError(
                R"((proc @p ((size n) (size m) (in A (f32 n m)) (out y (f32 n)))
  (for i 0 n
    (assign (y i) 0.0)
    (for j 0 n (reduce (y i) (A i j))))))"),
            "4:35: error: index 1 of 'A' can reach 1, outside its extent 1 "
            "(at n = 2, m = 1, i = 0, j = 1)");
  // Assertions are assumed.
  EXPECT_EQ(FirstError(
                R"((proc @p ((size n) (size m) (in A (f32 n m)) (out y (f32 n)))
  (assert (<= n m))
  (for i 0 n
    (assign (y i) 0.0)
    (for j 0 n (reduce (y i) (A i j))))))"),
            "ok");
}

TEST(BoundsTest, TiledLoopWithRemainder) {
  EXPECT_EQ(FirstError(R"((proc @p ((size n) (in x (f32 n)) (out y (f32 n)))
  (for io 0 (/ (+ n 15) 16)
    (for ii 0 (min 16 (- n (* 16 io)))
      (assign (y (+ (* 16 io) ii)) (x (+ (* 16 io) ii)))))))"),
            "ok");
  EXPECT_EQ(FirstError(R"((proc @p ((size n) (in x (f32 n)) (out y (f32 n)))
  (for io 0 (/ (+ n 15) 16)
    (for ii 0 16
      (assign (y (+ (* 16 io) ii)) (x (+ (* 16 io) ii)))))))"),
            "4:18: error: index 0 of 'y' can reach 1, outside its extent 1 "
            "(at n = 1, io = 0, ii = 1)");
}

TEST(BoundsTest, ConditionsRestrictTheDomain) {
  EXPECT_EQ(FirstError(R"((proc @p ((in x (f32 8)) (out y (f32 8)))
  (for i 0 8
    (if (< i 7)
      (then (assign (y i) (x (+ i 1))))
      (else (assign (y i) (x 0)))))))"),
            "ok");
  EXPECT_EQ(FirstError(R"((proc @p ((in x (f32 8)) (out y (f32 8)))
  (for i 0 8
    (if (< i 7)
      (then (assign (y i) (x 0)))
      (else (assign (y i) (x (+ i 1))))))))"),
            "5:30: error: index 0 of 'x' can reach 8, outside its extent 8 "
            "(at i = 7)");
  EXPECT_EQ(FirstError(R"((proc @p ((in x (f32 8)) (out y (f32 8)))
  (for i 0 16
    (if (or (>= i 8) (== (% i 2) 1))
      (then)
      (else (assign (y i) (x i)))))))"),
            "ok");
}

TEST(BoundsTest, BoolParametersAreConditions) {
  EXPECT_EQ(FirstError(R"((proc @p ((bool b) (in x (f32 8)) (out y (f32 9)))
  (for i 0 9
    (if (and b (< i 8)) (then (assign (y i) (x i)))))))"),
            "ok");
  EXPECT_EQ(FirstError(R"((proc @p ((bool b) (in x (f32 8)) (out y (f32 9)))
  (for i 0 9
    (if (or b (< i 8)) (then (assign (y i) (x i)))))))"),
            "3:47: error: index 0 of 'x' can reach 8, outside its extent 8 "
            "(at b = 1, i = 8)");
}

TEST(BoundsTest, Windows) {
  EXPECT_EQ(FirstError(R"((proc @p ((size n) (in x (f32 n 16)) (out y (f32 n)))
  (for i 0 n
    (let row (window x i (: 4 12)))
    (assign (y i) 0.0)
    (for j 0 8 (reduce (y i) (row j))))))"),
            "ok");
  EXPECT_EQ(FirstError(R"((proc @p ((size n) (in x (f32 n 16)) (out y (f32 n)))
  (for i 0 n
    (let row (window x i (: 4 20)))
    (assign (y i) 0.0))))"),
            "3:26: error: interval 1 of the window on 'x' can end at 20, "
            "beyond its extent 16 (at n = 1, i = 0)");
  EXPECT_EQ(FirstError(R"((proc @p ((size n) (in x (f32 n 16)) (out y (f32 n)))
  (for i 0 n
    (let row (window x (+ i 1) (: 4 12)))
    (assign (y i) 0.0))))"),
            "3:24: error: index 0 of 'x' can reach 1, outside its extent 1 "
            "(at n = 1, i = 0)");
  EXPECT_EQ(FirstError(R"((proc @p ((in x (f32 16)) (out y f32))
  (for i 0 8
    (let w (window x (: i 4))))))"),
            "3:22: error: interval 0 of the window on 'x' can be empty "
            "(from 4 to 4) (at i = 4)");
  EXPECT_EQ(FirstError(R"((proc @p ((in x (f32 16)) (out y (f32 8)))
  (for i 0 8
    (let w (window x (: i (+ i 8))))
    (let v (window w (: 2 6)))
    (assign (y i) (v 4)))))"),
            "5:22: error: index 0 of 'v' can reach 4, outside its extent 4 "
            "(at i = 0)");
}

TEST(BoundsTest, AllocsAndScalars) {
  EXPECT_EQ(FirstError(R"((proc @p ((size n) (out y (f32 n)))
  (alloc t (f32 n 2))
  (for i 0 n (assign (t i 1) 0.0) (assign (y i) (t i 1)))))"),
            "ok");
  EXPECT_EQ(FirstError(R"((proc @p ((size n) (out y (f32 n)))
  (alloc t (f32 n 2))
  (for i 0 n (assign (t i 2) 0.0))))"),
            "3:27: error: index 1 of 't' can reach 2, outside its extent 2 "
            "(at n = 1, i = 0)");
}

TEST(BoundsTest, IndexParametersAreUnconstrained) {
  auto error = FirstError(R"((proc @p ((index k) (in x (f32 8)) (out y f32))
  (assign y (x k))))");
  EXPECT_EQ(error.substr(0, 50),
            "2:16: error: index 0 of 'x' can be -1, below 0 (at");
  EXPECT_EQ(FirstError(R"((proc @p ((index k) (in x (f32 8)) (out y f32))
  (assert (and (<= 0 k) (< k 8)))
  (assign y (x k))))"),
            "ok");
}

const char kCallee[] = R"(
(instr @ld ((size n) (size m) (in src (window f32 n m))
            (out dst (window f32 n 16)))
  (c "ld({src_data}, {dst_data}, {n}, {m});")
  (assert (<= m 16))
  (for i 0 n (for j 0 m (assign (dst i j) (src i j)))))
)";

TEST(CallTest, ValidCalls) {
  EXPECT_EQ(FirstError(std::string(kCallee) + R"(
(proc @p ((size n) (in A (f32 n 64)) (out B (f32 n 16)))
  (for jo 0 4
    (call @ld n 16 (window A (: 0 n) (: (* 16 jo) (+ (* 16 jo) 16))) B)))
)"),
            "ok");
  // A tensor is passed to a window parameter; the sizes are symbolic.
  EXPECT_EQ(FirstError(std::string(kCallee) + R"(
(proc @p ((size n) (size m) (in A (f32 n m)) (out B (f32 n 16)))
  (assert (<= m 16))
  (call @ld n m A B))
)"),
            "ok");
}

TEST(CallTest, CalleeAndArguments) {
  EXPECT_EQ(FirstError("(proc @p ()\n  (call @q))"),
            "2:9: error: unknown procedure '@q'");
  EXPECT_EQ(FirstError("(func @f ((x f32)) ((y f32)) x)\n(proc @p ()\n  "
                       "(call @f))"),
            "3:9: error: '@f' is a func; only procs and instrs can be called");
  EXPECT_EQ(FirstError(std::string(kCallee) +
                       "(proc @p ((in A (f32 4 4)))\n  (call @ld 4 4 A))"),
            "8:3: error: '@ld' takes 4 arguments, found 3");
  EXPECT_EQ(FirstError(std::string(kCallee) +
                       "(proc @p ((in A (f32 4 4)) (out B (f32 4 16)))\n  "
                       "(call @ld 4 (< 1 2) A B))"),
            "8:15: error: argument 'm' of '@ld' is a size: expected an "
            "integer expression");
  EXPECT_EQ(FirstError(std::string(kCallee) +
                       "(proc @p ((in A (f32 4 4)) (out B (f32 4 16)))\n  "
                       "(call @ld 4 4 (A 0 0) B))"),
            "8:17: error: a data argument is a name or a (window ...) "
            "expression, found '(A 0 0)'");
}

TEST(CallTest, Recursion) {
  EXPECT_EQ(FirstError("(proc @p ()\n  (call @p))"),
            "2:9: error: recursive call: @p -> @p");
  EXPECT_EQ(FirstError("(proc @a ()\n  (call @b))\n(proc @b ()\n  (call "
                       "@c))\n(proc @c ()\n  (call @a))"),
            "2:9: error: recursive call: @a -> @b -> @c -> @a");
}

TEST(CallTest, SizeArgumentsArePositive) {
  EXPECT_EQ(FirstError(std::string(kCallee) + R"(
(proc @p ((in A (f32 4 16)) (out B (f32 4 16)))
  (for i 0 4 (call @ld i 16 (window A (: 0 i) (: 0 16)) B)))
)"),
            "9:24: error: argument 'n' of '@ld' is a size but can be 0 "
            "(at i = 0)");
}

TEST(CallTest, ShapesTypesAndMemories) {
  EXPECT_EQ(FirstError(std::string(kCallee) + R"(
(proc @p ((in A (f32 8 16)) (out B (f32 4 16)))
  (call @ld 4 16 A B))
)"),
            "9:18: error: dimension 0 of argument 'src' of '@ld' is 8, but "
            "'@ld' expects n = 4");
  EXPECT_EQ(FirstError(std::string(kCallee) + R"(
(proc @p ((size k) (in A (f32 8 16)) (out B (f32 8 16)))
  (assert (<= k 8))
  (call @ld 8 k (window A (: 0 8) (: 0 8)) B))
)"),
            "10:17: error: dimension 1 of argument 'src' of '@ld' is 8, but "
            "'@ld' expects m = 1 (at k = 1)");
  EXPECT_EQ(FirstError(std::string(kCallee) + R"(
(proc @p ((in A (i8 4 16)) (out B (f32 4 16)))
  (call @ld 4 16 A B))
)"),
            "9:18: error: argument 'src' of '@ld' is (i8 4 16), expected "
            "(window f32 n m)");
  EXPECT_EQ(FirstError(std::string(kCallee) + R"(
(proc @p ((in A (f32 4 16)) (out B (f32 4 16)))
  (call @ld 4 16 B A))
)"),
            "9:20: error: argument 'dst' of '@ld' is written by '@ld', but "
            "it comes from the in parameter 'A'");
  EXPECT_EQ(FirstError(R"(
(memory @SP (alloc "") (addressable false))
(instr @zero ((size n) (out dst (window f32 n) @SP)) (c "")
  (for i 0 n (assign (dst i) 0.0)))
(proc @p ((out B (f32 4)))
  (call @zero 4 B)
  (alloc t (f32 4) @SP)
  (call @zero 4 t))
)"),
            "6:17: error: argument 'dst' of '@zero' is in @DRAM, expected "
            "@SP");
  EXPECT_EQ(FirstError(R"(
(proc @dense ((out x (f32 4))) (for i 0 4 (assign (x i) 0.0)))
(proc @p ((out B (f32 4 4)))
  (call @dense (window B 0 (: 0 4))))
)"),
            "4:16: error: argument 'x' of '@dense' is (window f32 4), "
            "expected (f32 4); a window can only be passed to a window "
            "parameter");
}

TEST(CallTest, Assertions) {
  EXPECT_EQ(FirstError(std::string(kCallee) + R"(
(proc @p ((size n) (in A (f32 4 n)) (out B (f32 4 16)))
  (call @ld 4 n A B))
)"),
            "9:3: error: call to '@ld' does not establish its assertion "
            "(<= m 16) (at n = 17)");
  EXPECT_EQ(FirstError(std::string(kCallee) + R"(
(proc @p ((size n) (in A (f32 4 n)) (out B (f32 4 16)))
  (for jo 0 (/ (+ n 15) 16)
    (call @ld 4 (min 16 (- n (* 16 jo)))
          (window A (: 0 4) (: (* 16 jo) (min n (+ (* 16 jo) 16))))
          B)))
)"),
            "ok");
  // Stride assertions are established by dense tensors.
  EXPECT_EQ(FirstError(R"(
(instr @vld ((size n) (in src (window f32 n)) (out dst (window f32 n)))
  (c "")
  (assert (== (stride src 0) 1))
  (for i 0 n (assign (dst i) (src i))))
(proc @p ((in A (f32 4 8)) (out B (f32 8)))
  (call @vld 8 (window A 2 (: 0 8)) B))
)"),
            "ok");
  EXPECT_EQ(FirstError(R"(
(instr @vld ((size n) (in src (window f32 n)) (out dst (window f32 n)))
  (c "")
  (assert (== (stride src 0) 1))
  (for i 0 n (assign (dst i) (src i))))
(proc @p ((in A (f32 8 4)) (out B (f32 8)))
  (call @vld 8 (window A (: 0 8) 2) B))
)"),
            "7:3: error: call to '@vld' does not establish its assertion "
            "(== (stride src 0) 1)");
  // A window parameter's strides are unknown unless asserted.
  EXPECT_EQ(FirstError(R"(
(instr @vld ((size n) (in src (window f32 n)) (out dst (window f32 n)))
  (c "")
  (assert (== (stride src 0) 1))
  (for i 0 n (assign (dst i) (src i))))
(proc @p ((in A (window f32 8)) (out B (f32 8)))
  (call @vld 8 A B))
)"),
            "7:3: error: call to '@vld' does not establish its assertion "
            "(== (stride src 0) 1) (at (stride A 0) = 0)");
  EXPECT_EQ(FirstError(R"(
(instr @vld ((size n) (in src (window f32 n)) (out dst (window f32 n)))
  (c "")
  (assert (== (stride src 0) 1))
  (for i 0 n (assign (dst i) (src i))))
(proc @p ((in A (window f32 8)) (out B (f32 8)))
  (assert (== (stride A 0) 1))
  (call @vld 8 A B))
)"),
            "ok");
}

}  // namespace
}  // namespace tessel::ir
