// Distinct data parameters never alias: a call may not pass overlapping
// data to two parameters of which one is written (formats/tir/README.md,
// "Parameters"). Overlap is decided with isl, for windows too.
#include "gtest/gtest.h"
#include "libs/verify/first_error.h"

namespace tessel::ir {
namespace {

// A callee with an `in` and an `out` window, and one with two `in`s.
constexpr char kCallees[] = R"(
(proc @copy ((size n) (in src (window f32 n)) (out dst (window f32 n)))
  (for i 0 n (assign (dst i) (src i))))

(proc @sum ((size n) (in a (window f32 n)) (in b (window f32 n)) (out s f32))
  (assign s 0.0)
  (for i 0 n (reduce s (+ (a i) (b i)))))
)";

std::string WithCallees(const std::string& text) { return kCallees + text; }

TEST(AliasTest, SameTensorTwiceIsAnErrorWhenWritten) {
  EXPECT_EQ(FirstError(WithCallees(R"(
(proc @p ((inout x (f32 8)))
  (call @copy 8 x x))
)")),
            "10:19: error: arguments 'src' and 'dst' of '@copy' overlap: x and "
            "x share elements, and '@copy' writes 'dst'; distinct data "
            "parameters must not alias");
}

TEST(AliasTest, ReadingOneTensorTwiceIsFine) {
  EXPECT_EQ(FirstError(WithCallees(R"(
(proc @p ((in x (f32 8)) (out s f32))
  (call @sum 8 x x s))
)")),
            "ok");
}

TEST(AliasTest, DisjointWindowsOfOneTensor) {
  EXPECT_EQ(FirstError(WithCallees(R"(
(proc @p ((inout x (f32 8)))
  (call @copy 4 (window x (: 0 4)) (window x (: 4 8))))
)")),
            "ok");
  // Rows of a matrix, by points.
  EXPECT_EQ(FirstError(WithCallees(R"(
(proc @p ((inout x (f32 4 8)))
  (for i 0 3 (call @copy 8 (window x i (: 0 8)) (window x (+ i 1) (: 0 8)))))
)")),
            "ok");
}

TEST(AliasTest, OverlappingWindowsNameBothArgumentsAndThePoint) {
  EXPECT_EQ(FirstError(WithCallees(R"(
(proc @p ((inout x (f32 8)))
  (call @copy 4 (window x (: 0 4)) (window x (: 3 7))))
)")),
            "10:36: error: arguments 'src' and 'dst' of '@copy' overlap: "
            "(window x (: 0 4)) and (window x (: 3 7)) share elements, and "
            "'@copy' writes 'dst'; distinct data parameters must not alias");
  // Overlap at some iterations only: the smallest point where it happens.
  EXPECT_EQ(FirstError(WithCallees(R"(
(proc @p ((size n) (inout x (f32 n 8)))
  (for i 0 n
    (call @copy 4 (window x i (: 0 4)) (window x (- (- n 1) i) (: 2 6)))))
)")),
            "11:40: error: arguments 'src' and 'dst' of '@copy' overlap: "
            "(window x i (: 0 4)) and (window x (- (- n 1) i) (: 2 6)) share "
            "elements, and '@copy' writes 'dst'; distinct data parameters "
            "must not alias (at n = 1, i = 0)");
  // Rows i and n - 1 - i differ when n is even, which the assertion lets
  // the check assume.
  EXPECT_EQ(FirstError(WithCallees(R"(
(proc @p ((size n) (inout x (f32 n 8)))
  (assert (== (% n 2) 0))
  (for i 0 n
    (call @copy 4 (window x i (: 0 4)) (window x (- (- n 1) i) (: 2 6)))))
)")),
            "ok");
}

TEST(AliasTest, SymbolicWindowsAreDecidedForAllSizes) {
  // [0, n) and [n, 2n) never meet.
  EXPECT_EQ(FirstError(WithCallees(R"(
(proc @p ((size n) (inout x (f32 (* 2 n))))
  (call @copy n (window x (: 0 n)) (window x (: n (* 2 n)))))
)")),
            "ok");
  // [0, n) and [1, n + 1) do for every n.
  EXPECT_EQ(FirstError(WithCallees(R"(
(proc @p ((size n) (inout x (f32 (+ n 1))))
  (call @copy n (window x (: 0 n)) (window x (: 1 (+ n 1)))))
)")),
            "10:36: error: arguments 'src' and 'dst' of '@copy' overlap: "
            "(window x (: 0 n)) and (window x (: 1 (+ n 1))) share elements, "
            "and '@copy' writes 'dst'; distinct data parameters must not "
            "alias (at n = 2)");
}

TEST(AliasTest, LetWindowsAreFollowedToTheirRoot) {
  EXPECT_EQ(FirstError(WithCallees(R"(
(proc @p ((inout x (f32 4 8)))
  (for i 0 4
    (let row (window x i (: 0 8)))
    (let left (window row (: 0 4)))
    (call @copy 4 left (window row (: 4 8)))
    (call @copy 2 (window left (: 1 3)) (window row (: 2 4)))))
)")),
            "14:41: error: arguments 'src' and 'dst' of '@copy' overlap: "
            "(window left (: 1 3)) and (window row (: 2 4)) share elements, "
            "and '@copy' writes 'dst'; distinct data parameters must not "
            "alias (at i = 0)");
}

// A window covers what its selectors denoted when it was taken, reads of
// configuration included.
TEST(AliasTest, WindowsReadingConfigurationKeepTheirValue) {
  const std::string config = "(config @C (rows size) (start index))\n";
  EXPECT_EQ(FirstError(config + WithCallees(R"(
(proc @p ((inout x (f32 8)))
  (write-config @C rows 4)
  (let w (window x (: 0 (read-config @C rows))))
  (write-config @C rows 8)
  (call @copy 4 w (window x (: 4 (read-config @C rows)))))
)")),
            "ok");
  // An unknown start: the windows overlap for some of its values.
  EXPECT_EQ(FirstError(config + WithCallees(R"(
(proc @p ((inout x (f32 8)))
  (assert (and (<= 0 (read-config @C start)) (<= (read-config @C start) 4)))
  (call @copy 4 (window x (: 0 4))
                (window x (: (read-config @C start)
                             (+ (read-config @C start) 4)))))
)")),
            "13:17: error: arguments 'src' and 'dst' of '@copy' overlap: "
            "(window x (: 0 4)) and (window x (: (read-config @C start) (+ "
            "(read-config @C start) 4))) share elements, and '@copy' writes "
            "'dst'; distinct data parameters must not alias (at (read-config "
            "@C start) = 0)");
}

TEST(AliasTest, ScalarsAndAllocs) {
  EXPECT_EQ(FirstError(R"(
(proc @add ((in a f32) (inout b f32))
  (reduce b a))

(proc @p ((out y f32))
  (alloc t f32)
  (assign t 1.0)
  (call @add t t)
  (assign y t))
)"),
            "8:16: error: arguments 'a' and 'b' of '@add' overlap: t and t "
            "share elements, and '@add' writes 'b'; distinct data parameters "
            "must not alias");
  EXPECT_EQ(FirstError(WithCallees(R"(
(proc @p ((out y (f32 4)))
  (alloc t (f32 8))
  (for i 0 8 (assign (t i) 1.0))
  (call @copy 4 (window t (: 0 4)) (window t (: 4 8)))
  (call @copy 4 (window t (: 4 8)) y))
)")),
            "ok");
}

// Distinct roots never alias: distinct parameters of the caller are
// distinct data, whatever their types.
TEST(AliasTest, DistinctRootsAreFine) {
  EXPECT_EQ(FirstError(WithCallees(R"(
(proc @p ((size n) (in s (window f32 n)) (out d (window f32 n)))
  (call @copy n s d)
  (call @copy n (window s (: 0 n)) (window d (: 0 n))))
)")),
            "ok");
}

TEST(AliasTest, InstructionsToo) {
  EXPECT_EQ(FirstError(R"(
(instr @acc ((in a (window f32 4)) (inout c (window f32 4)))
  (c "acc({a_data}, {c_data});")
  (for i 0 4 (reduce (c i) (a i))))

(proc @p ((inout x (f32 6)))
  (call @acc (window x (: 0 4)) (window x (: 2 6))))
)"),
            "7:33: error: arguments 'a' and 'c' of '@acc' overlap: (window x "
            "(: 0 4)) and (window x (: 2 6)) share elements, and '@acc' "
            "writes 'c'; distinct data parameters must not alias");
}

}  // namespace
}  // namespace tessel::ir
