// Configuration state in the verifier: values persist between writes, and
// loops, branches and calls that may write a field make it unknown, but
// for what a call's callee writes of its parameters.
#include "gtest/gtest.h"
#include "libs/verify/first_error.h"

namespace tessel::ir {
namespace {

// An instruction whose precondition reads configuration state, as Exo's
// Gemmini loads do (the stride must have been configured first).
const std::string kTarget =
    "(config @Load (stride stride) (rows size))\n"
    "(instr @set_stride ((stride s)) (c \"cfg({s});\")\n"
    "  (write-config @Load stride s))\n"
    "(instr @load ((size n) (in src (window f32 n 8)) (out dst (f32 n 8)))\n"
    "  (c \"ld({src_data}, {dst}, {n});\")\n"
    "  (assert (== (read-config @Load stride) (stride src 0)))\n"
    "  (for i 0 n (for j 0 8 (assign (dst i j) (src i j)))))\n";

TEST(VerifierConfigTest, WriteEstablishesCalleeAssertion) {
  EXPECT_EQ(FirstError(kTarget +
                       "(proc @p ((in A (f32 16 8)) (out B (f32 4 8)))\n"
                       "  (write-config @Load stride (stride A 0))\n"
                       "  (for k 0 4\n"
                       "    (call @load 4 (window A (: (* 4 k) (+ (* 4 k) 4)) "
                       "(: 0 8)) B)))"),
            "ok");
}

TEST(VerifierConfigTest, ACallWritesWhatItsCalleeWritesOfItsParameters) {
  // A configuration instruction hoisted out of the loop it configures.
  EXPECT_EQ(FirstError(kTarget +
                       "(proc @p ((in A (f32 16 8)) (out B (f32 4 8)))\n"
                       "  (call @set_stride (stride A 0))\n"
                       "  (for k 0 4\n"
                       "    (call @load 4 (window A (: (* 4 k) (+ (* 4 k) 4)) "
                       "(: 0 8)) B)))"),
            "ok");
  // The argument is the value, whatever it is.
  EXPECT_EQ(
      FirstError(kTarget + "(proc @p ((in A (f32 16 8)) (out B (f32 4 8)))\n"
                           "  (call @set_stride 9)\n"
                           "  (call @load 4 (window A (: 0 4) (: 0 8)) B))"),
      "10:3: error: call to '@load' does not establish its assertion "
      "(== (read-config @Load stride) (stride src 0))");
}

TEST(VerifierConfigTest, ACallsOtherWritesLeaveTheFieldUnknown) {
  // Only a callee's last write of the field outside loops, branches and
  // calls, of a parameter or a literal, is followed.
  const std::string writes =
      "(instr @set_twice ((stride s)) (c \"cfg({s});\")\n"
      "  (write-config @Load stride s)\n"
      "  (for i 0 2 (write-config @Load stride 3)))\n"
      "(instr @set_next ((stride s)) (c \"cfg({s} + 1);\")\n"
      "  (write-config @Load stride (+ s 1)))\n";
  for (const std::string setter : {"@set_twice", "@set_next"}) {
    EXPECT_EQ(FirstError(kTarget + writes +
                         "(proc @p ((in A (f32 16 8)) (out B (f32 4 8)))\n"
                         "  (write-config @Load stride (stride A 0))\n"
                         "  (call " +
                         setter +
                         " (stride A 0))\n"
                         "  (call @load 4 (window A (: 0 4) (: 0 8)) B))"),
              "16:3: error: call to '@load' does not establish its assertion "
              "(== (read-config @Load stride) (stride src 0)) (at "
              "(read-config @Load stride) = 0)")
        << setter;
  }
}

TEST(VerifierConfigTest, WrongStrideIsReported) {
  EXPECT_NE(
      FirstError(kTarget + "(proc @p ((in A (f32 16 8)) (out B (f32 4 8)))\n"
                           "  (write-config @Load stride 16)\n"
                           "  (call @load 4 (window A (: 0 4) (: 0 8)) B))")
          .find("does not establish its assertion"),
      std::string::npos);
}

TEST(VerifierConfigTest, ReadsWithoutWritesSeeOneValue) {
  EXPECT_EQ(
      FirstError(kTarget + "(proc @p ((inout A (f32 16)))\n"
                           "  (assert (<= (read-config @Load rows) 16))\n"
                           "  (for i 0 (read-config @Load rows) (assign (A i) "
                           "0.0)))"),
      "ok");
}

TEST(VerifierConfigTest, WritesInALoopMakeTheFieldUnknown) {
  EXPECT_EQ(
      FirstError(kTarget + "(proc @p ((inout A (f32 16)))\n"
                           "  (write-config @Load rows 4)\n"
                           "  (for j 0 2 (write-config @Load rows 20))\n"
                           "  (for i 0 (read-config @Load rows) (assign (A i) "
                           "0.0)))"),
      "11:48: error: index 0 of 'A' can reach 16, outside its extent 16 "
      "(at (read-config @Load rows) = 17, i = 16)");
}

TEST(VerifierConfigTest, BranchesStartFromTheStateBeforeThem) {
  EXPECT_EQ(
      FirstError(kTarget + "(proc @p ((inout A (f32 16)) (bool b))\n"
                           "  (write-config @Load rows 4)\n"
                           "  (if b (then (write-config @Load rows 8)) (else "
                           "(for i 0 (read-config @Load rows) (assign (A i) "
                           "0.0)))))"),
      "ok");
}

// A proc that declares (clobbers ...) leaves the field's value to no one:
// its callers may not read the field after a call before they write it.
const std::string kClobbering =
    kTarget +
    "(proc @q ((in A (f32 16 8)) (out B (f32 4 8)))\n"
    "  (clobbers @Load stride)\n"
    "  (call @set_stride (stride A 0))\n"
    "  (call @load 4 (window A (: 0 4) (: 0 8)) B))\n";

TEST(VerifierConfigTest, AClobbersDeclarationNamesAFieldOnce) {
  EXPECT_EQ(FirstError(kClobbering), "ok");
  EXPECT_EQ(FirstError(kTarget + "(proc @p ((in A (f32 16 8)))\n"
                                 "  (clobbers @Load stride)\n"
                                 "  (clobbers @Load stride))"),
            "10:3: error: @Load.stride is declared twice");
  EXPECT_EQ(FirstError(kTarget + "(proc @p ((in A (f32 16 8)))\n"
                                 "  (clobbers @Load nope))"),
            "9:19: error: '@Load' has no field 'nope'");
}

TEST(VerifierConfigTest, AClobbersDeclarationComesFirstInAProc) {
  EXPECT_EQ(FirstError(kTarget + "(proc @p ((size n))\n"
                                 "  (assert (< n 4))\n"
                                 "  (clobbers @Load stride))"),
            "10:3: error: clobbers is a declaration: it must come before the "
            "assertions and statements");
  EXPECT_EQ(FirstError(kTarget + "(instr @i ((size n)) (c \"\")\n"
                                 "  (clobbers @Load stride))"),
            "9:3: error: only a proc declares what it clobbers");
  EXPECT_EQ(FirstError(kTarget + "(proc @p ((size n))\n"
                                 "  (for i 0 n (clobbers @Load stride)))"),
            "9:14: error: clobbers is a declaration of a proc: it must come "
            "before its assertions and statements");
}

TEST(VerifierConfigTest, NoOneReadsAFieldACallClobbers) {
  // A read-config, or a callee's assertion, after the call.
  EXPECT_EQ(FirstError(kClobbering +
                       "(proc @p ((in A (f32 16 8)) (out B (f32 4 8)))\n"
                       "  (clobbers @Load stride)\n"
                       "  (call @q A B)\n"
                       "  (call @load 4 (window A (: 0 4) (: 0 8)) B))"),
            "15:3: error: the call to '@load' reads @Load.stride, which the "
            "call to '@q' before it clobbers: write it first");
  // A write in between gives the field a value again.
  EXPECT_EQ(FirstError(kClobbering +
                       "(proc @p ((in A (f32 16 8)) (out B (f32 4 8)))\n"
                       "  (clobbers @Load stride)\n"
                       "  (call @q A B)\n"
                       "  (write-config @Load stride (stride A 0))\n"
                       "  (call @load 4 (window A (: 0 4) (: 0 8)) B))"),
            "ok");
  // A later iteration sees what an earlier one clobbered.
  EXPECT_EQ(FirstError(kClobbering +
                       "(proc @p ((in A (f32 16 8)) (out B (f32 4 8)))\n"
                       "  (clobbers @Load stride)\n"
                       "  (write-config @Load stride (stride A 0))\n"
                       "  (for i 0 2\n"
                       "    (call @load 4 (window A (: 0 4) (: 0 8)) B)\n"
                       "    (call @q A B)))"),
            "16:5: error: the call to '@load' reads @Load.stride, which the "
            "call to '@q' before it clobbers: write it first");
  // Either branch may have clobbered it.
  EXPECT_EQ(
      FirstError(kClobbering +
                 "(proc @p ((size n) (in A (f32 16 8)) (out B (f32 4 8)))\n"
                 "  (clobbers @Load stride)\n"
                 "  (if (< n 2) (then (call @q A B)))\n"
                 "  (if (> (read-config @Load stride) 0)\n"
                 "    (then (assign (B 0 0) 1.0))))"),
      "15:10: error: '(read-config @Load stride)' reads @Load.stride, "
      "which the call to '@q' before it clobbers: write it first");
}

TEST(VerifierConfigTest, ACalleeThatWritesAClobberedFieldFirstDoesNotReadIt) {
  // @q configures the stride before its load: a second call of it, in a
  // loop too, reads nothing the first left.
  EXPECT_EQ(FirstError(kClobbering +
                       "(proc @p ((in A (f32 16 8)) (out B (f32 4 8)))\n"
                       "  (clobbers @Load stride)\n"
                       "  (call @q A B)\n"
                       "  (for i 0 3 (call @q A B)))"),
            "ok");
}

TEST(VerifierConfigTest, AProcLeavesClobberedOnlyWhatItDeclares) {
  const std::string caller =
      "(proc @p ((in A (f32 16 8)) (out B (f32 4 8)))\n"
      "  (call @q A B))";
  EXPECT_EQ(FirstError(kClobbering + caller),
            "13:3: error: the call to '@q' clobbers @Load.stride, which '@p' "
            "leaves so to its callers: declare (clobbers @Load stride) or "
            "write it after the call");
  EXPECT_EQ(FirstError(kClobbering +
                       "(proc @p ((in A (f32 16 8)) (out B (f32 4 8)))\n"
                       "  (call @q A B)\n"
                       "  (write-config @Load stride 1))"),
            "ok");
}

}  // namespace
}  // namespace tessel::ir
