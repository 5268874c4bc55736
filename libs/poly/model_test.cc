#include "libs/poly/model.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gtest/gtest.h"
#include "libs/ir/edit.h"
#include "libs/ir/syntax.h"
#include "libs/ir/verify/read.h"

namespace tessel::poly {
namespace {

using ir::Node;
using ir::Op;

class ModelTest : public ::testing::Test {
 protected:
  ModelTest() : ctx_(isl_ctx_alloc()) {}
  ~ModelTest() override { isl_ctx_free(ctx_.release()); }

  // A verified (so elaborated: typed) procedure, or one only read, for
  // what the verifier would reject.
  Node& Read(const std::string& text, bool verify = true) {
    SourceRef source = MakeSource("m.tir", text);
    auto module = verify ? ir::ReadModule(source) : ir::ReadText(source);
    EXPECT_TRUE(module.ok()) << module.status();
    module_ = *std::move(module);
    return *module_.forms().back();
  }

  // The first node under `root` with op `op`, in preorder.
  Node& First(Node& root, Op op, int skip = 0) {
    Node* found = nullptr;
    ir::Walk(root, [&](Node& node) {
      if (found == nullptr && node.is(op) && skip-- == 0) found = &node;
    });
    EXPECT_NE(found, nullptr);
    return *found;
  }

  // isl text with `S` replaced by the tuple name of `stmt`.
  template <typename T>
  T Parse(const std::string& text, const Node& stmt) {
    return T(ctx_, absl::StrReplaceAll(
                       text, {{"S[", absl::StrCat("S", stmt.id(), "[")}}));
  }

  isl::ctx ctx_;
  ir::Module module_;
};

TEST_F(ModelTest, DomainsFollowLoopsConditionsAndAssertions) {
  Node& proc = Read(
      "(proc @p ((size N) (inout A (f32 N N))) (assert (<= N 100))\n"
      "  (for i 0 N (for j 0 i\n"
      "    (if (< j 3) (then (assign (A i j) 0.0))\n"
      "                (else (assign (A i j) 1.0))))))");
  ProcModel model(ctx_, proc);
  Node& then = First(proc, Op::kAssign);
  Node& other = First(proc, Op::kAssign, 1);
  auto domain = model.Domain(then);
  ASSERT_TRUE(domain.ok()) << domain.status();
  EXPECT_TRUE(domain->is_equal(Parse<isl::set>(
      "[N] -> { S[i, j] : 0 < N <= 100 and 0 <= j < i < N and j < 3 }", then)));
  auto else_domain = model.Domain(other);
  ASSERT_TRUE(else_domain.ok());
  EXPECT_TRUE(else_domain->is_equal(Parse<isl::set>(
      "[N] -> { S[i, j] : 0 < N <= 100 and 3 <= j < i < N }", other)));
}

TEST_F(ModelTest, AccessesGoThroughWindowsToTheirTensor) {
  Node& proc = Read(
      "(proc @p ((size N) (in A (f32 N N)) (out B (f32 N)))\n"
      "  (for i 0 N\n"
      "    (let w (window A (: 0 N) (max 0 (- i 1))))\n"
      "    (assign (B i) (w (/ i 2)))))");
  ProcModel model(ctx_, proc);
  Node& load = First(proc, Op::kLoad, 1);  // (w (/ i 2))
  auto access = model.Access(load);
  ASSERT_TRUE(access.ok()) << access.status();
  Node& assign = First(proc, Op::kAssign);
  EXPECT_TRUE(access->is_equal(
      Parse<isl::map>("[N] -> { S[i] -> A[floor(i / 2), j] : 0 <= i < N and "
                      "j = max(0, i - 1) }",
                      assign)))
      << *access;
}

TEST_F(ModelTest, ReadsAndWritesAreLocationSets) {
  Node& proc = Read(
      "(proc @mm ((size N) (in A (f32 N N)) (in B (f32 N N))\n"
      "           (inout C (f32 N N)))\n"
      "  (for i 0 N (for j 0 N (for k 0 N\n"
      "    (reduce (C i j) (* (A i k) (B k j)))))))");
  ProcModel model(ctx_, proc);
  Node& reduce = First(proc, Op::kReduce);
  auto reads = model.Reads(proc);
  ASSERT_TRUE(reads.ok()) << reads.status();
  auto writes = model.Writes(proc);
  ASSERT_TRUE(writes.ok()) << writes.status();
  std::string domain = "0 <= i < N and 0 <= j < N and 0 <= k < N";
  EXPECT_TRUE(reads->is_equal(Parse<isl::union_map>(
      absl::StrCat("[N] -> { S[i, j, k] -> A[i, k] : ", domain,
                   "; S[i, j, k] -> B[k, j] : ", domain,
                   "; S[i, j, k] -> C[i, j] : ", domain, " }"),
      reduce)))
      << *reads;
  EXPECT_TRUE(writes->is_equal(Parse<isl::union_map>(
      absl::StrCat("[N] -> { S[i, j, k] -> C[i, j] : ", domain, " }"),
      reduce)));
}

TEST_F(ModelTest, CallsTouchTheWindowsTheyPass) {
  Node& proc = Read(
      "(proc @fill ((size n) (out x (window f32 n)))\n"
      "  (for i 0 n (assign (x i) 0.0)))\n"
      "(proc @p ((out A (f32 8 16)))\n"
      "  (for r 0 8 (call @fill 4 (window A r (: 2 6)))))");
  ProcModel model(ctx_, proc);
  Node& call = First(proc, Op::kCall);
  auto writes = model.Writes(proc);
  ASSERT_TRUE(writes.ok()) << writes.status();
  EXPECT_TRUE(writes->is_equal(Parse<isl::union_map>(
      "{ S[r] -> A[r, c] : 0 <= r < 8 and 2 <= c < 6 }", call)));
  auto reads = model.Reads(proc);
  ASSERT_TRUE(reads.ok());
  EXPECT_TRUE(reads->is_empty());
}

TEST_F(ModelTest, VectorTransfersTouchTheLanesInsideTheirTensor) {
  Node& proc = Read(
      "(proc @p ((in A (f32 10)) (out B (f32 10)))\n"
      "  (alloc v (vector f32 4))\n"
      "  (for i 0 3\n"
      "    (assign v (transfer-read (vector f32 4) A (* 4 i) 0.0))\n"
      "    (transfer-write v B (* 4 i))))");
  ProcModel model(ctx_, proc);
  Node& assign = First(proc, Op::kAssign);
  Node& write = First(proc, Op::kTransferWrite);
  auto reads = model.Reads(proc);
  ASSERT_TRUE(reads.ok()) << reads.status();
  std::string lanes = "0 <= i < 3 and 4i <= a < 4i + 4 and a < 10";
  isl::union_map expected_reads =
      Parse<isl::union_map>(absl::StrCat("{ S[i] -> A[a] : ", lanes, " }"),
                            assign)
          .unite(Parse<isl::union_map>("{ S[i] -> v[] : 0 <= i < 3 }", write));
  EXPECT_TRUE(reads->is_equal(expected_reads)) << *reads;
  auto writes = model.Writes(proc);
  ASSERT_TRUE(writes.ok()) << writes.status();
  isl::union_map expected_writes =
      Parse<isl::union_map>(absl::StrCat("{ S[i] -> B[a] : ", lanes, " }"),
                            write)
          .unite(Parse<isl::union_map>("{ S[i] -> v[] : 0 <= i < 3 }", assign));
  EXPECT_TRUE(writes->is_equal(expected_writes)) << *writes;
}

TEST_F(ModelTest, RejectsWhatIsNotQuasiAffine) {
  Node& proc = Read(
      "(proc @p ((size N) (out A (f32 N)))\n"
      "  (for i 0 N (assign (A (* i i)) 0.0)))",
      /*verify=*/false);
  ProcModel model(ctx_, proc);
  auto access = model.Access(First(proc, Op::kLoad));
  ASSERT_FALSE(access.ok());
  EXPECT_NE(access.status().message().find("'(* i i)' is not quasi-affine"),
            std::string::npos)
      << access.status();
}

}  // namespace
}  // namespace tessel::poly
