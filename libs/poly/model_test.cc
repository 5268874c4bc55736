#include "libs/poly/model.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gtest/gtest.h"
#include "libs/ir/edit.h"
#include "libs/ir/syntax.h"
#include "libs/verify/read.h"

namespace tessel::poly {
namespace {

using ir::Node;
using ir::Op;

// Do two functions have the same pieces?
bool Same(const isl::pw_aff& a, const isl::pw_aff& b) {
  return a.as_map().is_equal(b.as_map());
}

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

TEST_F(ModelTest, AccessesGoThroughSteppedSplitAndPermutedWindows) {
  Node& proc = Read(
      "(proc @p ((in A (f32 8 24)) (out B (f32 4 6)))\n"
      "  (let w (window A (: 1 8 2) (split 0 24 6) (perm 2 0 1)))\n"
      "  (for i 0 4 (for j 0 6 (assign (B i j) (w j i 1)))))");
  ProcModel model(ctx_, proc);
  auto access = model.Access(First(proc, Op::kLoad, 1));  // (w j i 1)
  ASSERT_TRUE(access.ok()) << access.status();
  // Row 1 + 2 * i of A, element 6 * 1 + j of it.
  EXPECT_TRUE(access->is_equal(
      Parse<isl::map>("{ S[i, j] -> A[1 + 2i, 6 + j] : 0 <= i < 4 and "
                      "0 <= j < 6 }",
                      First(proc, Op::kAssign))))
      << *access;
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

TEST_F(ModelTest, PermutedAndMaskedTransfersTouchTheirLanes) {
  // A 4 x 2 block of A read transposed (lane (k0, k1) is A[j + k1, k0]),
  // and a write to B masked to its first 3 lanes of 4.
  Node& proc = Read(
      "(proc @p ((in A (f32 6 4)) (out B (f32 8)))\n"
      "  (alloc v (vector f32 4 2))\n"
      "  (for j 0 3\n"
      "    (assign v (transfer-read (vector f32 4 2) A (* 2 j) 0 0.0\n"
      "                             (permutation-map 1 0))))\n"
      "  (transfer-write (broadcast (vector f32 4) 1.0) B 2\n"
      "                  (mask (create-mask (shape 4) 3))))");
  ProcModel model(ctx_, proc);
  Node& assign = First(proc, Op::kAssign);
  Node& write = First(proc, Op::kTransferWrite);
  auto reads = model.Reads(assign);
  ASSERT_TRUE(reads.ok()) << reads.status();
  EXPECT_TRUE(reads->is_equal(Parse<isl::union_map>(
      "{ S[j] -> A[r, c] : 0 <= j < 3 and 2j <= r < 2j + 2 and r < 6 and "
      "0 <= c < 4 }",
      assign)))
      << *reads;
  auto writes = model.Writes(write);
  ASSERT_TRUE(writes.ok()) << writes.status();
  EXPECT_TRUE(writes->is_equal(
      Parse<isl::union_map>("{ S[] -> B[a] : 2 <= a < 5 }", write)))
      << *writes;
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

TEST_F(ModelTest, StridesOfDenseTensorsAreKnownOthersAreParameters) {
  Node& proc = Read(
      "(proc @p ((size N) (in A (f32 4 N 8)) (in W (window f32 4 4))\n"
      "          (out y f32))\n"
      "  (assign y (A (stride A 0) (stride A 1) (stride W 0))))",
      /*verify=*/false);
  ProcModel model(ctx_, proc);
  Node& load = First(proc, Op::kLoad);
  auto row = model.Affine(*load.operand(1));
  ASSERT_TRUE(row.ok()) << row.status();
  Node& assign = First(proc, Op::kAssign);
  EXPECT_TRUE(
      Same(*row, Parse<isl::pw_aff>("[N] -> { S[] -> [(8N)] }", assign)))
      << *row;
  auto column = model.Affine(*load.operand(2));
  ASSERT_TRUE(column.ok());
  EXPECT_TRUE(
      Same(*column, Parse<isl::pw_aff>("[N] -> { S[] -> [8] }", assign)));
  // A window's strides are unknown: a parameter named as TIR writes it.
  auto window = model.Affine(*load.operand(3));
  ASSERT_TRUE(window.ok());
  EXPECT_EQ(isl_pw_aff_dim(window->get(), isl_dim_param), 2);
  EXPECT_STREQ(isl_pw_aff_get_dim_name(window->get(), isl_dim_param, 1),
               "(stride W 0)");
}

TEST_F(ModelTest, BoolsAreConditions) {
  Node& proc = Read(
      "(proc @p ((bool b) (out A (f32 4)))\n"
      "  (for i 0 4 (if b (then (assign (A i) 0.0))\n"
      "                 (else (assign (A i) 1.0)))))");
  ProcModel model(ctx_, proc);
  Node& other = First(proc, Op::kAssign, 1);
  auto domain = model.Domain(other);
  ASSERT_TRUE(domain.ok()) << domain.status();
  EXPECT_TRUE(domain->is_equal(
      Parse<isl::set>("[b] -> { S[i] : b = 0 and 0 <= i < 4 }", other)))
      << *domain;
}

TEST_F(ModelTest, ConfigurationReadsSeeWhatTheyAreBoundTo) {
  Node& proc = Read(
      "(config @C (rows size))\n"
      "(proc @p ((size N) (out A (f32 N)))\n"
      "  (write-config @C rows N)\n"
      "  (for i 0 (read-config @C rows) (assign (A i) 0.0))\n"
      "  (for j 0 (read-config @C rows) (assign (A j) 1.0)))");
  ProcModel model(ctx_, proc);
  Node& write = First(proc, Op::kWriteConfig);
  Node& first = First(proc, Op::kReadConfig);
  Node& second = First(proc, Op::kReadConfig, 1);
  // Bound to the value written, the read is that value.
  model.BindConfigRead(first, {.written = write.operand(0)});
  auto rows = model.Affine(first);
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_TRUE(Same(*rows, Parse<isl::pw_aff>("[N] -> { S[] -> [N] }",
                                             model.StatementOf(first))));
  // Unknown, it is a parameter shared by the reads bound to it, and
  // positive as the field is a size.
  model.BindConfigRead(first, {.unknown = &first});
  model.BindConfigRead(second, {.unknown = &first});
  Node& assign = First(proc, Op::kAssign, 1);
  auto domain = model.Domain(assign);
  ASSERT_TRUE(domain.ok()) << domain.status();
  EXPECT_EQ(isl_set_dim(domain->get(), isl_dim_param), 2);
  EXPECT_STREQ(isl_set_get_dim_name(domain->get(), isl_dim_param, 1),
               "(read-config @C rows)");
}

TEST_F(ModelTest, CalleeExpressionsAtACall) {
  Node& proc = Read(
      "(proc @ld ((size n) (in src (window f32 n)) (out dst (window f32 n)))\n"
      "  (assert (and (<= n 8) (== (stride src 0) 1)))\n"
      "  (for i 0 n (assign (dst i) (src i))))\n"
      "(proc @p ((size M) (in A (f32 M 16)) (out B (f32 16)))\n"
      "  (assert (<= M 4))\n"
      "  (for r 0 M (call @ld 4 (window A r (: (* 4 r) (+ (* 4 r) 4)))\n"
      "                     (window B (: 0 4)))))");
  ProcModel model(ctx_, proc);
  Node& call = First(proc, Op::kCall);
  const Node& callee = *call.def();
  const Node& src = *callee.operand(1);
  auto extent = model.AffineAtCall(*src.declared_type().dims()[0].expr, call);
  ASSERT_TRUE(extent.ok()) << extent.status();
  EXPECT_TRUE(
      Same(*extent, Parse<isl::pw_aff>("[M] -> { S[r] -> [4] }", call)));
  // The stride of a row of A, dense, is 1; n is 4.
  auto holds = model.ConditionAtCall(*callee.operand(3)->operand(0), call);
  ASSERT_TRUE(holds.ok()) << holds.status();
  EXPECT_TRUE(holds->is_equal(Parse<isl::set>("[M] -> { S[r] }", call)))
      << *holds;
  // What the window covers, within the domain of the call.
  auto region = model.Region(*call.operand(1), call);
  ASSERT_TRUE(region.ok()) << region.status();
  EXPECT_TRUE(region->is_equal(Parse<isl::map>(
      "[M] -> { S[r] -> A[r, c] : 0 <= r < M <= 4 and 4r <= c < 4r + 4 }",
      call)))
      << *region;
  auto extents = model.Extents(*call.operand(1), call);
  ASSERT_TRUE(extents.ok());
  ASSERT_EQ(extents->size(), 1u);
  EXPECT_TRUE(
      Same((*extents)[0], Parse<isl::pw_aff>("[M] -> { S[r] -> [4] }", call)));
}

TEST_F(ModelTest, ViolationsAreTheLeastPointInTirNames) {
  Node& proc = Read(
      "(proc @p ((size N) (size M) (index k) (out A (f32 N)))\n"
      "  (for i 0 N (assign (A (+ i k)) 0.0)))",
      /*verify=*/false);
  ProcModel model(ctx_, proc);
  Node& assign = First(proc, Op::kAssign);
  Node& index = *First(proc, Op::kLoad).operand(1);
  auto value = model.Affine(index);
  ASSERT_TRUE(value.ok());
  auto extents = model.Extents(*First(proc, Op::kLoad).operand(0), assign);
  ASSERT_TRUE(extents.ok());
  auto above = [](const std::vector<isl::pw_aff>& values) {
    return values[0].ge_set(values[1]);
  };
  // k is unbounded below: the point nearest 0. M plays no part.
  auto violation = model.FindViolation(assign, {*value, (*extents)[0]}, above);
  ASSERT_TRUE(violation.ok()) << violation.status();
  ASSERT_TRUE(violation->has_value());
  EXPECT_EQ((*violation)->at, "N = 1, k = 1, i = 0");
  EXPECT_EQ((*violation)->values, (std::vector<std::string>{"1", "1"}));
  auto below = [](const std::vector<isl::pw_aff>& values) {
    return values[0].lt_set(ConstantOn(values[0], 0));
  };
  violation = model.FindViolation(assign, {*value}, below);
  ASSERT_TRUE(violation.ok());
  ASSERT_TRUE(violation->has_value());
  EXPECT_EQ((*violation)->at, "N = 1, k = -1, i = 0");
  auto never = [](const std::vector<isl::pw_aff>& values) {
    return values[0].lt_set(values[0]);
  };
  violation = model.FindViolation(assign, {*value}, never);
  ASSERT_TRUE(violation.ok());
  EXPECT_FALSE(violation->has_value());
}

TEST_F(ModelTest, PeProgramsRunOnTheirGridAndDescriptorsReachTheirTensor) {
  Node& program = Read(
      "(memory @PE (alloc \"static {type} {name}[{size}];\") (free \"\")\n"
      "  (addressable true))\n"
      "(instr @fsets ((size n0) (size n1) (size n2) (size n3)\n"
      "               (out dst (window f32 n0 n1 n2 n3) @PE) (in s f32))\n"
      "  (c \"@fmovs({dst}, {s});\")\n"
      "  (for i0 0 n0 (for i1 0 n1 (for i2 0 n2 (for i3 0 n3\n"
      "    (assign (dst i0 i1 i2 i3) s))))))\n"
      "(pe-program @p ((in x (f32 16)) (out y (f32 2 16)))\n"
      "  (grid (px 1) (py 2))\n"
      "  (local y_local (f32 1 18) @PE (holds y py -2))\n"
      "  (task (recv x (i) v (< i 11))\n"
      "    (call @fsets 3 2 1 1 (dsd y_local (+ i 2) (3 -1) (2 5)) v)))");
  ProcModel model(ctx_, program);
  Node& call = First(program, Op::kCall);
  Node& dsd = First(program, Op::kDescriptor);
  // The grid's coordinates, then the index of the element received.
  auto domain = model.Domain(call);
  ASSERT_TRUE(domain.ok()) << domain.status();
  const char* instances = "px = 0 and 0 <= py < 2 and 0 <= i < 11";
  EXPECT_TRUE(domain->is_equal(Parse<isl::set>(
      absl::StrCat("{ S[px, py, i] : ", instances, " }"), call)));
  // Elements i + 2 - a + 5 b of the flat tensor.
  auto reach = model.Reach(dsd);
  ASSERT_TRUE(reach.ok()) << reach.status();
  EXPECT_TRUE(
      Same((*reach)[0], Parse<isl::pw_aff>("{ S[px, py, i] -> [i] }", call)));
  EXPECT_TRUE(Same((*reach)[1],
                   Parse<isl::pw_aff>("{ S[px, py, i] -> [i + 7] }", call)));
  auto access = model.Access(dsd);
  ASSERT_TRUE(access.ok()) << access.status();
  EXPECT_TRUE(access->is_equal(Parse<isl::map>(
      absl::StrCat("{ S[px, py, i] -> y_local[0, c] : ", instances,
                   " and exists (a, b : 0 <= a < 3 and 0 <= b < 2 and ",
                   "c = i + 2 - a + 5 b) }"),
      call)));
  auto rows = model.Rows(dsd, call);
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_TRUE(rows->is_equal(Parse<isl::map>(
      absl::StrCat("{ S[px, py, i] -> y_local[0] : ", instances, " }"), call)));
  // A whole local array: its rows, of which it has one.
  auto local_rows = model.Rows(First(program, Op::kLocal), call);
  ASSERT_TRUE(local_rows.ok()) << local_rows.status();
  EXPECT_TRUE(local_rows->is_equal(rows.value()));
  // PE (0, py) holds row py of y.
  auto held = model.Held(First(program, Op::kLocal));
  ASSERT_TRUE(held.ok()) << held.status();
  EXPECT_TRUE(held->is_equal(Parse<isl::map>(
      "{ S[px, py] -> y[py, e] : px = 0 and 0 <= py < 2 and 0 <= e < 16 }",
      program)));
  auto first = FirstPoint(ctx_, [&]() { return held->wrap(); });
  ASSERT_TRUE(first.ok()) << first.status();
  ASSERT_TRUE(first->has_value());
  EXPECT_EQ(**first, (std::vector<std::string>{"0", "0", "0", "0"}));
}

TEST_F(ModelTest, CalleeAccessesAreTheBodysAtTheCall) {
  Node& proc = Read(
      "(proc @acc ((size n) (in x (window f32 n)) (inout y (window f32 n)))\n"
      "  (alloc t f32)\n"
      "  (for k 0 n (if (< k 3) (then (assign t (x k)) (reduce (y k) t)))))\n"
      "(proc @p ((size N) (in A (f32 N 8)) (inout C (f32 8)))\n"
      "  (for i 0 N (call @acc 6 (window A i (: 2 8)) (window C (: 0 6)))))\n");
  const Node& call = First(proc, Op::kCall);
  ProcModel model(ctx_, proc);
  auto accesses = model.CalleeAccesses(call);
  ASSERT_TRUE(accesses.ok()) << accesses.status();
  ASSERT_TRUE(accesses->has_value());
  // k < min(n, 3) elements, at the window's offset; t is the callee's own.
  EXPECT_TRUE((*accesses)->reads.is_equal(Parse<isl::union_map>(
      "[N] -> { S[i] -> A[i, j] : 0 <= i < N and 2 <= j < 5 }", call)));
  EXPECT_TRUE((*accesses)->reduces.is_equal(Parse<isl::union_map>(
      "[N] -> { S[i] -> C[j] : 0 <= i < N and 0 <= j < 3 }", call)));
  EXPECT_TRUE((*accesses)->writes.is_empty());
}

TEST_F(ModelTest, CalleeAccessesStopAtWhatTheyDoNotFollow) {
  Node& proc = Read(
      "(proc @zero ((size n) (out x (window f32 n)))\n"
      "  (for k 0 n (assign (x k) 0.0)))\n"
      "(proc @twice ((size n) (out x (window f32 n)))\n"
      "  (call @zero n x))\n"
      "(proc @p ((size N) (out C (f32 N)))\n"
      "  (call @twice N (window C (: 0 N))))\n");
  ProcModel model(ctx_, proc);
  auto accesses = model.CalleeAccesses(First(proc, Op::kCall));
  ASSERT_TRUE(accesses.ok()) << accesses.status();
  EXPECT_FALSE(accesses->has_value());
}

TEST_F(ModelTest, QuestionsHaveAnOperationBudget) {
  Node& proc = Read(
      "(proc @p ((size N) (out A (f32 N)))\n"
      "  (for i 0 N (assign (A i) 0.0)))");
  ProcModel model(ctx_, proc);
  isl_ctx_set_max_operations(ctx_.get(), 1);
  auto domain = model.Domain(First(proc, Op::kAssign));
  isl_ctx_set_max_operations(ctx_.get(), 0);
  ASSERT_FALSE(domain.ok());
  EXPECT_EQ(domain.status().code(), absl::StatusCode::kResourceExhausted);
}

}  // namespace
}  // namespace tessel::poly
