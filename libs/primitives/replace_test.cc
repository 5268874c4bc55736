#include "libs/primitives/replace.h"

#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "libs/ir/cursor.h"
#include "libs/verify/verifier.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives {
namespace {

using ir::Node;
using testing::Print;
using testing::ProcNamed;
using testing::ReadVerified;
using testing::SameValues;

// The library the tests replace blocks with: Exo's section 2 load, a row
// copy, a row copy under a mask, and a load into a memory only
// instructions may touch.
constexpr char kLibrary[] = R"((memory @SCRATCHPAD
  (alloc "static {type} {name}[{size}];")
  (free "")
  (addressable false))

(instr @ld ((size n) (size m) (in src (window f32 n m)) (out dst (window f32 n 16)))
  (c "ld({src_data}, {dst_data}, {n}, {m});")
  (assert (<= m 16))
  (for i 0 n (for j 0 m (assign (dst i j) (src i j)))))

(instr @row ((in src (window f32 16)) (out dst (window f32 16)))
  (c "row({src_data}, {dst_data});")
  (for j 0 16 (assign (dst j) (src j))))

(instr @masked_row ((size N) (in src (window f32 16)) (out dst (window f32 16)))
  (c "masked_row({src_data}, {dst_data}, {N});")
  (for j 0 16 (if (< j N) (then (assign (dst j) (src j))))))

(instr @ld_spad ((in src (window f32 4 16)) (out dst (window f32 4 16) @SCRATCHPAD))
  (c "mvin({src_data}, {dst_data});")
  (for i 0 4 (for j 0 16 (assign (dst i j) (src i j)))))

(config @Load (stride stride))

(instr @config_ld ((stride s))
  (c "config_ld({s});")
  (write-config @Load stride s))

(instr @ld_cfg ((in src (window f32 4 16)) (out dst (window f32 4 16)))
  (c "mvin({src_data}, {dst_data});")
  (assert (== (read-config @Load stride) (stride src 0)))
  (for i 0 4 (for j 0 16 (assign (dst i j) (src i j)))))

)";

class ReplaceTest : public ::testing::Test {
 protected:
  Node& Read(const std::string& proc) {
    text_ = std::string(kLibrary) + proc;
    module_ = ReadVerified(text_);
    return ProcNamed(module_, "@p");
  }
  ir::BlockCursor Block(Node& p, std::vector<size_t> path) {
    ir::Cursor at = ir::BlockCursor::BodyOf(module_, p)[path[0]];
    for (size_t i = 1; i < path.size(); ++i) at = at.body()[path[i]];
    return at.as_block();
  }
  // Replaces and, when accepted, verifies and compares values.
  absl::Status Run(const ir::BlockCursor& block, const std::string& callee,
                   bool memory_aware = false,
                   const std::map<std::string, int64_t>& defines = {}) {
    const Node& sub = ProcNamed(module_, callee);
    absl::Status status = memory_aware
                              ? CallSiteMemAwareReplace(module_, block, sub)
                              : Replace(module_, block, sub);
    if (!status.ok()) return status;
    EXPECT_TRUE(ir::VerifyProc(module_, ProcNamed(module_, "@p")).ok());
    absl::Status same = SameValues(text_, module_, defines);
    EXPECT_TRUE(same.ok()) << same << Print(module_);
    return status;
  }
  std::string Proc() {
    std::string text = Print(module_);
    return text.substr(text.find("(proc @p"));
  }

  std::string text_;
  ir::Module module_;
};

TEST_F(ReplaceTest, BindsSizesAndWindowOffsets) {
  Node& p = Read(R"((proc @p ((in A (f32 8 32)) (out B (f32 8 16)))
  (for io 0 2
    (for i 0 4
      (for j 0 16 (assign (B (+ (* 4 io) i) j) (A (+ (* 4 io) i) (+ j 4)))))))
)");
  absl::Status status = Run(Block(p, {0, 0}), "@ld");
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(Proc(), R"((proc @p ((in A (f32 8 32)) (out B (f32 8 16)))
  (for io 0 2
    (call @ld
      4
      16
      (window A (: (* 4 io) (+ (* 4 io) 4)) (: 4 20))
      (window B (: (* 4 io) (+ (* 4 io) 4)) (: 0 16)))))
)");
}

TEST_F(ReplaceTest, FixesTheDimensionsAWindowDoesNotKeep) {
  Node& p = Read(R"((proc @p ((in A (f32 3 16)) (out B (f32 3 16)))
  (for i 0 3 (for j 0 16 (assign (B i j) (A i j)))))
)");
  absl::Status status = Run(Block(p, {0, 0}), "@row");
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(Proc(), R"((proc @p ((in A (f32 3 16)) (out B (f32 3 16)))
  (for i 0 3 (call @row (window A i (: 0 16)) (window B i (: 0 16)))))
)");
}

TEST_F(ReplaceTest, ChecksTheCalleesAssertions) {
  Node& p = Read(R"((proc @p ((size K) (in A (f32 2 K)) (out B (f32 2 32)))
  (assert (<= K 20))
  (for i 0 2 (for j 0 K (assign (B i j) (A i j)))))
)");
  std::string before = Print(module_);
  absl::Status status = Run(Block(p, {0}), "@ld");
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(status.message(),
            "the call of @ld that replaces the block is wrong: error: call "
            "to '@ld' does not establish its assertion (<= m 16) (at K = 17)");
  EXPECT_EQ(Print(module_), before);
}

TEST_F(ReplaceTest, AcceptsWhenTheAssertionsHold) {
  Node& p = Read(R"((proc @p ((size K) (in A (f32 2 K)) (out B (f32 2 16)))
  (assert (<= K 16))
  (for i 0 2 (for j 0 16 (assign (B i j) 0.0)))
  (for i 0 2 (for j 0 K (assign (B i j) (A i j)))))
)");
  absl::Status status = Run(Block(p, {1}), "@ld", false, {{"K", 13}});
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(Proc().substr(Proc().find("  (call")),
            "  (call @ld 2 K (window A (: 0 2) (: 0 K)) (window B (: 0 2) (: 0 "
            "16))))\n");
}

// A guard from divide_loop's tail="guard" against a mask's condition:
// comparisons match when their sides differ by equal forms.
TEST_F(ReplaceTest, SolvesAComparisonForItsBound) {
  Node& p = Read(R"((proc @p ((in x (f32 32)) (inout y (f32 32)))
  (for o 0 2
    (for j 0 16
      (if (< (+ (* 16 o) j) 20)
        (then (assign (y (+ (* 16 o) j)) (x (+ (* 16 o) j))))))))
)");
  absl::Status status = Run(Block(p, {0, 0}), "@masked_row");
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(Proc(), R"((proc @p ((in x (f32 32)) (inout y (f32 32)))
  (for o 0 2
    (call @masked_row
      (- 20 (* 16 o))
      (window x (: (* 16 o) (+ (* 16 o) 16)))
      (window y (: (* 16 o) (+ (* 16 o) 16))))))
)");
}

TEST_F(ReplaceTest, RejectsAnotherComparison) {
  Node& p = Read(R"((proc @p ((in x (f32 16)) (out y (f32 16)))
  (for j 0 16 (if (<= j 9) (then (assign (y j) (x j))))))
)");
  absl::Status status = Run(Block(p, {0}), "@masked_row");
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(status.message(),
            "the block does not match the body of @masked_row: '(<= j 9)' "
            "against '(< j N)'");
}

TEST_F(ReplaceTest, RejectsADifferentComputation) {
  Node& p = Read(R"((proc @p ((in A (f32 3 16)) (out B (f32 3 16)))
  (for i 0 3 (for j 0 16 (assign (B i j) (* 2.0 (A i j))))))
)");
  absl::Status status = Run(Block(p, {0, 0}), "@row");
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(status.message(),
            "the block does not match the body of @row: '(* 2.0 (A i j))' "
            "against '(src j)'");
}

// The callee's loop runs in order; a for-par of the block does not match it.
TEST_F(ReplaceTest, RejectsAParallelLoopForASequentialOne) {
  Node& p = Read(R"((proc @p ((in A (f32 16)) (out B (f32 16)))
  (for-par j 0 16 (assign (B j) (A j))))
)");
  absl::Status status = Run(Block(p, {0}), "@row");
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(status.message(),
            "the block does not match the body of @row: '(for-par j 0 16 "
            "(assign (B j) (A j)))' against '(for j 0 16 (assign (dst j) "
            "(src j)))'");
}

TEST_F(ReplaceTest, RejectsIndicesNoWindowGives) {
  Node& p = Read(R"((proc @p ((in A (f32 16 16)) (out B (f32 16 16)))
  (for j 0 16 (assign (B j j) (A j j))))
)");
  absl::Status status = Run(Block(p, {0}), "@row");
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(status.message(),
            "the block does not match the body of @row: an argument would "
            "depend on 'j', which the block binds");
}

TEST_F(ReplaceTest, MemoryAwareReplaceNamesTheMemories) {
  Node& p = Read(R"((proc @p ((in A (f32 4 16)) (out B (f32 4 16)))
  (for i 0 4 (for j 0 16 (assign (B i j) (A i j)))))
)");
  std::string before = Print(module_);
  absl::Status status = Run(Block(p, {0}), "@ld_spad", true);
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(status.message(),
            "'B' is in @DRAM but 'dst' of @ld_spad is in @SCRATCHPAD");
  EXPECT_EQ(Print(module_), before);
}

// Plain replace leaves memories to the end of the schedule, as Exo's
// does (kEditChecks): the call is made, and the whole check then finds
// the buffer in the wrong memory.
TEST_F(ReplaceTest, ReplaceLeavesMemoriesToTheEnd) {
  Node& p = Read(R"((proc @p ((in A (f32 4 16)) (out B (f32 4 16)))
  (for i 0 4 (for j 0 16 (assign (B i j) (A i j)))))
)");
  ASSERT_TRUE(
      Replace(module_, Block(p, {0}), ProcNamed(module_, "@ld_spad")).ok());
  absl::Status status = ir::VerifyProc(module_, ProcNamed(module_, "@p"));
  EXPECT_THAT(status.message(),
              ::testing::HasSubstr("argument 'dst' of '@ld_spad' is in @DRAM, "
                                   "expected @SCRATCHPAD"));
}

TEST_F(ReplaceTest, PassesAWindowOfAnAlloc) {
  Node& p = Read(R"((proc @p ((in A (f32 3 16)) (out B (f32 3 16)))
  (for i 0 3
    (alloc t (f32 16))
    (for j 0 16 (assign (t j) (A i j)))
    (for j 0 16 (assign (B i j) (t j)))))
)");
  absl::Status status = Run(Block(p, {0, 1}), "@row");
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(Proc(), R"((proc @p ((in A (f32 3 16)) (out B (f32 3 16)))
  (for i 0 3
    (alloc t (f32 16))
    (call @row (window A i (: 0 16)) (window t (: 0 16)))
    (for j 0 16 (assign (B i j) (t j)))))
)");
}

TEST_F(ReplaceTest, PassesAStrideToAConfigurationInstruction) {
  Node& p = Read(R"((proc @p ((in A (f32 4 16)) (out B (f32 4 16)))
  (write-config @Load stride (stride A 0))
  (for i 0 4 (for j 0 16 (assign (B i j) (A i j)))))
)");
  absl::Status status = Run(Block(p, {0}), "@config_ld");
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(Proc(), R"((proc @p ((in A (f32 4 16)) (out B (f32 4 16)))
  (call @config_ld (stride A 0))
  (for i 0 4 (for j 0 16 (assign (B i j) (A i j)))))
)");
}

TEST_F(ReplaceTest, ProvesAnAssertionOnTheConfigurationAtTheCall) {
  // Configured with A's row stride: the loads of A's rows are proven.
  Node& p = Read(R"((proc @p ((in A (f32 4 16)) (out B (f32 4 16)))
  (write-config @Load stride (stride A 0))
  (for i 0 4 (for j 0 16 (assign (B i j) (A i j)))))
)");
  absl::Status status = Run(Block(p, {1}), "@ld_cfg");
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(Proc(), R"((proc @p ((in A (f32 4 16)) (out B (f32 4 16)))
  (write-config @Load stride (stride A 0))
  (call @ld_cfg (window A (: 0 4) (: 0 16)) (window B (: 0 4) (: 0 16))))
)");
  // Configured with another stride, or not at all: the witness is the
  // configuration's value.
  for (const char* config : {"  (write-config @Load stride 3)\n", ""}) {
    Node& q = Read(absl::StrCat(
        "(proc @p ((in A (f32 4 16)) (out B (f32 4 16)))\n", config,
        "  (for i 0 4 (for j 0 16 (assign (B i j) (A i "
        "j)))))\n"));
    std::string before = Print(module_);
    status = Run(Block(q, {*config == '\0' ? 0u : 1u}), "@ld_cfg");
    EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
    EXPECT_NE(status.message().find(
                  "does not establish its assertion (== (read-config @Load "
                  "stride) (stride src 0))"),
              std::string::npos)
        << status;
    EXPECT_EQ(Print(module_), before);
  }
}

TEST_F(ReplaceTest, PassesAStrideOfAnAllocBeforeTheBlock) {
  Node& p = Read(R"((proc @p ((in A (f32 4 16)))
  (alloc t (f32 16))
  (write-config @Load stride (stride t 0)))
)");
  absl::Status status = Run(Block(p, {1}), "@config_ld");
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(
      Proc(),
      R"((proc @p ((in A (f32 4 16))) (alloc t (f32 16)) (call @config_ld (stride t 0)))
)");
}

}  // namespace
}  // namespace tessel::primitives
