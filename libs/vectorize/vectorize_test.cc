#include "libs/vectorize/vectorize.h"

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "libs/interp/testing.h"
#include "libs/ir/syntax.h"

namespace tessel::vectorize {
namespace {

using ::testing::ContainsRegex;
using ::testing::HasSubstr;
using ::testing::Not;
using testing_util::F32;
using testing_util::Floats;
using testing_util::Runner;

// Deterministic values in [-1, 1) for `count` elements.
std::vector<float> Values(int count, int seed) {
  std::vector<float> values;
  uint32_t state = 12345u + seed;
  for (int i = 0; i < count; ++i) {
    state = state * 1103515245u + 12345u;
    values.push_back(static_cast<float>(state >> 8) / (1u << 23) - 1.0f);
  }
  return values;
}

// Runs `text`'s entry on `inputs`, vectorizes it with `strategy`, runs it
// again: the outputs before and after, by name.
struct BeforeAfter {
  TensorMap before;
  TensorMap after;
  std::string vectorized;
};
BeforeAfter RunBoth(const std::string& text, const TensorMap& inputs,
                    const Strategy& strategy) {
  BeforeAfter result;
  Runner runner(text);
  EXPECT_TRUE(runner.compile_status().ok()) << runner.compile_status();
  auto before = runner.Run({}, inputs);
  EXPECT_TRUE(before.ok()) << before.status();
  result.before = *before;
  runner.Edit([&](ir::Module& module, ir::Node& entry) {
    auto notes = VectorizeProc(module, entry, strategy);
    ASSERT_TRUE(notes.ok()) << notes.status();
    EXPECT_TRUE(notes->empty());
    result.vectorized = ir::PrintModule(module);
  });
  EXPECT_TRUE(runner.compile_status().ok()) << runner.compile_status();
  auto after = runner.Run({}, inputs);
  EXPECT_TRUE(after.ok()) << after.status();
  if (after.ok()) result.after = *after;
  return result;
}

// Each of `parts` is in `text`.
void ExpectParts(const std::string& text,
                 std::initializer_list<const char*> parts) {
  for (const char* part : parts) EXPECT_THAT(text, HasSubstr(part));
}

// A matmul, C[i, j] = the sum over k of A[i, k] * B[k, j] for C of m x n,
// and inputs for it; A or B stored transposed (A[k, i], B[j, k]) where
// `transposed` says so (BLAS's "TN" and "NT").
struct Transposed {
  bool a = false;
  bool b = false;
};
struct Matmul {
  std::string text;
  TensorMap inputs;
};
Matmul MatmulOf(int64_t m, int64_t n, int64_t k, Transposed transposed = {}) {
  auto shape = [](bool swap, int64_t rows, int64_t cols) {
    return swap ? std::vector<int64_t>{cols, rows}
                : std::vector<int64_t>{rows, cols};
  };
  const std::vector<int64_t> a = shape(transposed.a, m, k);
  const std::vector<int64_t> b = shape(transposed.b, k, n);
  Matmul matmul;
  matmul.text = absl::StrCat(
      "(proc @matmul ((in A (f32 ", a[0], " ", a[1], ")) (in B (f32 ", b[0],
      " ", b[1], ")) (out C (f32 ", m, " ", n, ")))\n  (for i 0 ", m,
      "\n    (for j 0 ", n, "\n      (assign (C i j) 0.0)\n      (for k 0 ", k,
      " (reduce (C i j) (* (A ", transposed.a ? "k i" : "i k", ") (B ",
      transposed.b ? "j k" : "k j", ")))))))\n");
  matmul.inputs = {{"A", F32(a, Values(static_cast<int>(m * k), 1))},
                   {"B", F32(b, Values(static_cast<int>(k * n), 2))}};
  return matmul;
}

BeforeAfter RunBoth(const Matmul& matmul, const Strategy& strategy) {
  return RunBoth(matmul.text, matmul.inputs, strategy);
}

TEST(VectorizeTest, MulAddComputesTheLoopsBits) {
  Strategy strategy{.width = 8, .vectors = 2, .rows = 3,
                    .contraction = Contraction::kMulAdd};
  BeforeAfter run = RunBoth(MatmulOf(7, 20, 5), strategy);
  EXPECT_EQ(Floats(run.before.at("C")), Floats(run.after.at("C")));
  EXPECT_THAT(run.vectorized, Not(HasSubstr("fma")));
  EXPECT_THAT(run.vectorized, HasSubstr("(vector f32 8)"));
}

TEST(VectorizeTest, CacheBlocksAndPackingKeepTheLoopsOrderOfSums) {
  // k in blocks of 2 (and a partial one), B packed (an L2 of 512 bytes,
  // which B's 400 do not fit half of): each element of C still sums k in
  // increasing order, so mul-add gives the loops' bits.
  Strategy strategy{.width = 8, .vectors = 1, .rows = 2, .depth = 2,
                    .contraction = Contraction::kMulAdd, .pack = Pack::kYes,
                    .l2 = 512};
  BeforeAfter run = RunBoth(MatmulOf(7, 20, 5), strategy);
  EXPECT_EQ(Floats(run.before.at("C")), Floats(run.after.at("C")));
  EXPECT_THAT(run.vectorized, HasSubstr("(alloc B_packed (f32 2 8))"));
  strategy.pack = Pack::kNo;
  run = RunBoth(MatmulOf(7, 20, 5), strategy);
  EXPECT_EQ(Floats(run.before.at("C")), Floats(run.after.at("C")));
  EXPECT_THAT(run.vectorized, Not(HasSubstr("packed")));
  // A B that fits half of the L2 is read in place, whatever `pack` says;
  // `pack yes` packs A by tiles of rows, per block of k and tile of rows.
  strategy.pack = Pack::kYes;
  strategy.l2 = 800;
  run = RunBoth(MatmulOf(7, 20, 5), strategy);
  EXPECT_EQ(Floats(run.before.at("C")), Floats(run.after.at("C")));
  EXPECT_THAT(run.vectorized, Not(HasSubstr("B_packed")));
  EXPECT_THAT(run.vectorized, HasSubstr("(alloc A_packed (f32 1 2 2))"));
}

TEST(VectorizeTest, MulAddMovesNoLoopAcrossTheOtherReductions) {
  // A 1-D convolution sums over kw, then c. A cache block of c (`depth`)
  // would go outside kw, and a window of kw inside c: fma makes both,
  // mul-add neither, and gives the loops' bits.
  constexpr char kConv[] = R"(
(proc @conv ((in x (f32 9 8)) (in w (f32 3 8 16)) (out y (f32 7 16)))
  (for ow 0 7
    (for f 0 16
      (assign (y ow f) 0.0)
      (for kw 0 3
        (for c 0 8 (reduce (y ow f) (* (x (+ ow kw) c) (w kw c f))))))))
)";
  TensorMap inputs = {{"x", F32({9, 8}, Values(72, 1))},
                      {"w", F32({3, 8, 16}, Values(384, 2))}};
  const auto kw_then_c = ContainsRegex("\\(for kw 0 3[[:space:]]+\\(for c 0 8");
  Strategy blocked{.width = 8, .vectors = 2, .rows = 7, .depth = 4};
  EXPECT_THAT(RunBoth(kConv, inputs, blocked).vectorized,
              HasSubstr("(for co 0 2"));
  Strategy window{.width = 8, .vectors = 2, .rows = 7, .window = 3};
  EXPECT_THAT(RunBoth(kConv, inputs, window).vectorized,
              Not(HasSubstr("(for kw")));
  for (Strategy strategy : {blocked, window}) {
    strategy.contraction = Contraction::kMulAdd;
    BeforeAfter run = RunBoth(kConv, inputs, strategy);
    EXPECT_EQ(Floats(run.before.at("y")), Floats(run.after.at("y")));
    EXPECT_THAT(run.vectorized, kw_then_c);
  }
}

TEST(VectorizeTest, AutomaticPackingWaitsForEnoughReadsOfThePanel) {
  // B (400 bytes) outgrows half of a 512-byte L2: a panel. Its 3 tiles of
  // 2 rows read it too few times for a copy to pay; the 65 tiles of 130
  // rows read it enough.
  Strategy strategy{.width = 8, .vectors = 1, .rows = 2,
                    .contraction = Contraction::kMulAdd, .l2 = 512};
  ASSERT_EQ(strategy.pack, Pack::kAuto);
  BeforeAfter run = RunBoth(MatmulOf(7, 20, 5), strategy);
  EXPECT_EQ(Floats(run.before.at("C")), Floats(run.after.at("C")));
  EXPECT_THAT(run.vectorized, Not(HasSubstr("packed")));
  run = RunBoth(MatmulOf(130, 20, 5), strategy);
  EXPECT_EQ(Floats(run.before.at("C")), Floats(run.after.at("C")));
  EXPECT_THAT(run.vectorized, HasSubstr("B_packed"));
  // With `pack-reads 3`, the 3 tiles of 2 rows read it enough.
  strategy.pack_reads = 3;
  run = RunBoth(MatmulOf(7, 20, 5), strategy);
  EXPECT_EQ(Floats(run.before.at("C")), Floats(run.after.at("C")));
  EXPECT_THAT(run.vectorized, HasSubstr("B_packed"));
  strategy.pack_reads = 4;
  run = RunBoth(MatmulOf(7, 20, 5), strategy);
  EXPECT_THAT(run.vectorized, Not(HasSubstr("B_packed")));
}

TEST(VectorizeTest, ATransposedWhoseLinesCrowdTheL1IsPackedFromPackReads) {
  // A's rows are 512 bytes apart: the 160 lines a tile of rows reads, one
  // per step of k, fall in 8 sets of the L1, whose 64 lines cannot keep
  // them until the next of the 3 tiles of j reads them. A (80 KiB) fits
  // the L2. Packed where the strategy packs for 3 reads, not for 4, nor
  // where the rows are 400 bytes apart and the lines spread over the L1.
  Strategy strategy{.width = 8,
                    .vectors = 1,
                    .rows = 4,
                    .contraction = Contraction::kMulAdd,
                    .pack_reads = 3};
  BeforeAfter run = RunBoth(MatmulOf(128, 24, 160, {.a = true}), strategy);
  EXPECT_EQ(Floats(run.before.at("C")), Floats(run.after.at("C")));
  EXPECT_THAT(run.vectorized, HasSubstr("A_packed"));
  strategy.pack_reads = 4;
  run = RunBoth(MatmulOf(128, 24, 160, {.a = true}), strategy);
  EXPECT_THAT(run.vectorized, Not(HasSubstr("A_packed")));
  strategy.pack_reads = 3;
  run = RunBoth(MatmulOf(100, 24, 160, {.a = true}), strategy);
  EXPECT_EQ(Floats(run.before.at("C")), Floats(run.after.at("C")));
  EXPECT_THAT(run.vectorized, Not(HasSubstr("A_packed")));
}

TEST(VectorizeTest, AStoredTransposedIsPackedByTilesOfRows) {
  // C[i, j] += A[k, i] * B[k, j]: each step of k reads a line of A per
  // tile of rows. A (140 bytes) outgrows a 128-byte L2 and both tiles of
  // j read it: it is packed per cache block of k (for B's panel), 3 rows
  // per tile, each tile's rows of every step of k contiguous. Not with
  // `pack no`, nor where one tile of j reads it.
  const Matmul matmul_tn = MatmulOf(7, 20, 5, {.a = true});
  Strategy strategy{.width = 8,
                    .vectors = 1,
                    .rows = 3,
                    .contraction = Contraction::kMulAdd,
                    .l2 = 128};
  BeforeAfter run = RunBoth(matmul_tn, strategy);
  EXPECT_EQ(Floats(run.before.at("C")), Floats(run.after.at("C")));
  EXPECT_THAT(run.vectorized, HasSubstr("(alloc A_packed (f32 2 2 3))"));
  EXPECT_THAT(run.vectorized, HasSubstr("(A_packed io_1 ki 2)"));
  strategy.pack = Pack::kNo;
  run = RunBoth(matmul_tn, strategy);
  EXPECT_EQ(Floats(run.before.at("C")), Floats(run.after.at("C")));
  EXPECT_THAT(run.vectorized, Not(HasSubstr("A_packed")));
  strategy.pack = Pack::kAuto;
  strategy.vectors = 2;
  run = RunBoth(matmul_tn, strategy);
  EXPECT_EQ(Floats(run.before.at("C")), Floats(run.after.at("C")));
  EXPECT_THAT(run.vectorized, Not(HasSubstr("A_packed")));
}

TEST(VectorizeTest, AWhoseRowsStreamIsPackedByTilesOfRowsFromPackReads) {
  // C[i, j] += A[i, k] * B[k, j]: each row of a tile reads a stream of A
  // of its own. A (240 bytes) outgrows a 200-byte L2 and `pack_reads`
  // tiles of j read it: it is packed, 3 rows per tile, each tile's rows
  // of every step of k contiguous. The strip of A that each tile of j
  // reads per block of k stays within half of `l3` (12 rows, 48 bytes a
  // step: blocks of 2 steps in an L3 of 200 bytes). Not where fewer tiles
  // of j read it than `pack_reads`.
  const Matmul matmul = MatmulOf(12, 20, 5);
  Strategy strategy{.width = 4,
                    .vectors = 1,
                    .rows = 3,
                    .contraction = Contraction::kMulAdd,
                    .pack_reads = 5,
                    .l2 = 200};
  BeforeAfter run = RunBoth(matmul, strategy);
  EXPECT_EQ(Floats(run.before.at("C")), Floats(run.after.at("C")));
  EXPECT_THAT(run.vectorized, HasSubstr("(alloc A_packed (f32 4 5 3))"));
  EXPECT_THAT(run.vectorized, HasSubstr("(A_packed io k 2)"));
  EXPECT_THAT(run.vectorized, Not(HasSubstr("(for ko")));
  strategy.l3 = 200;
  run = RunBoth(matmul, strategy);
  EXPECT_EQ(Floats(run.before.at("C")), Floats(run.after.at("C")));
  EXPECT_THAT(run.vectorized, HasSubstr("(alloc A_packed (f32 4 2 3))"));
  EXPECT_THAT(run.vectorized, HasSubstr("(for ko 0 2"));
  strategy.pack_reads = 6;
  run = RunBoth(matmul, strategy);
  EXPECT_EQ(Floats(run.before.at("C")), Floats(run.after.at("C")));
  EXPECT_THAT(run.vectorized, Not(HasSubstr("A_packed")));
}

TEST(VectorizeTest, BStoredTransposedIsCopiedForTheLanes) {
  // C[i, j] += A[i, k] * B[j, k]: B is copied with j last, then the
  // product is the usual register tile; mul-add keeps the loops' bits.
  Strategy strategy{.width = 8, .vectors = 2, .rows = 3,
                    .contraction = Contraction::kMulAdd};
  BeforeAfter run = RunBoth(MatmulOf(7, 20, 5, {.b = true}), strategy);
  EXPECT_EQ(Floats(run.before.at("C")), Floats(run.after.at("C")));
  EXPECT_THAT(run.vectorized, HasSubstr("(alloc B_lanes (f32 5 20))"));
  EXPECT_THAT(run.vectorized, Not(HasSubstr("(reduction")));
}

TEST(VectorizeTest, ACopyForTheLanesHoldsTheTensorsOtherReads) {
  // y[i, j] += t[j, 1] * t[b, 1]: t is copied for the lanes j, and
  // stage_mem redirects both reads to the copy, so it holds the rows b
  // reads too (it held only t[j, 1]'s, and vectorize rejected the nest).
  constexpr char kTwoReads[] = R"(
(proc @two_reads ((in t (f32 2 3)) (out y (f32 6 1)))
  (for i0 0 6 (for i1 0 1 (assign (y i0 i1) 0.0)))
  (for i 0 6
    (for b 0 2
      (for j 0 1 (reduce (y i j) (* (t j 1) (t b 1)))))))
)";
  Strategy strategy{.width = 8, .vectors = 1, .rows = 3,
                    .contraction = Contraction::kMulAdd};
  BeforeAfter run =
      RunBoth(kTwoReads, {{"t", F32({2, 3}, Values(6, 5))}}, strategy);
  EXPECT_EQ(Floats(run.before.at("y")), Floats(run.after.at("y")));
  EXPECT_THAT(run.vectorized, HasSubstr("(alloc t_lanes (f32 1 2))"));
}

TEST(VectorizeTest, ARowReadOnceIsNotCopied) {
  // y[i] += A[i, k] * x[k]: every loop indexes A, which a copy would read
  // once more for nothing; the lanes take k.
  constexpr char kGemv[] = R"(
(proc @gemv ((in A (f32 9 32)) (in x (f32 32)) (out y (f32 9)))
  (for i 0 9
    (assign (y i) 0.0)
    (for k 0 32 (reduce (y i) (* (A i k) (x k))))))
)";
  Strategy strategy{.width = 8, .vectors = 1, .rows = 3};
  BeforeAfter run = RunBoth(kGemv, {{"A", F32({9, 32}, Values(288, 3))},
                                    {"x", F32({32}, Values(32, 4))}},
                            strategy);
  EXPECT_THAT(run.vectorized, Not(HasSubstr("_lanes")));
}

TEST(VectorizeTest, FmaRoundsOncePerStep) {
  for (Tail tail : {Tail::kPad, Tail::kPeel}) {
    Strategy strategy{.width = 16, .vectors = 1, .rows = 4, .tail = tail};
    BeforeAfter run = RunBoth(MatmulOf(7, 20, 5), strategy);
    std::vector<float> before = Floats(run.before.at("C"));
    std::vector<float> after = Floats(run.after.at("C"));
    ASSERT_EQ(before.size(), after.size());
    for (size_t i = 0; i < before.size(); ++i) {
      EXPECT_NEAR(before[i], after[i], 1e-5) << i;
    }
    EXPECT_THAT(run.vectorized, HasSubstr("fma"));
    // The 4 columns past 16 are one whole vector of 4, peeled or padded.
    EXPECT_THAT(run.vectorized, Not(HasSubstr("(reduce (C")));
    EXPECT_THAT(run.vectorized, HasSubstr("(vector f32 4)"));
  }
}

TEST(VectorizeTest, OuterProductLevelComputesTheFmaLevelsBits) {
  for (Contraction contraction : {Contraction::kFma, Contraction::kMulAdd}) {
    Strategy fma{.width = 8, .vectors = 2, .rows = 3,
                 .contraction = contraction};
    Strategy outer = fma;
    outer.lowering = Lowering::kOuterProduct;
    BeforeAfter lowered = RunBoth(MatmulOf(7, 20, 5), fma);
    BeforeAfter stopped = RunBoth(MatmulOf(7, 20, 5), outer);
    EXPECT_EQ(Floats(lowered.after.at("C")), Floats(stopped.after.at("C")));
    EXPECT_THAT(stopped.vectorized, HasSubstr("(alloc acc0 (vector f32 3 8))"));
    EXPECT_THAT(stopped.vectorized, HasSubstr("(permutation-map 0)"));
    EXPECT_THAT(stopped.vectorized, Not(HasSubstr("(fma")));
    EXPECT_THAT(lowered.vectorized, Not(HasSubstr("outer-product")));
  }
}

TEST(VectorizeTest, SquareRowTilesEndInAMultiReduction) {
  // Row sums over 8 x 8 tiles: one multi-reduction per tile into y.
  constexpr char kRowSums[] = R"(
(proc @rowsum ((in A (f32 19 21)) (inout y (f32 19)))
  (for i 0 19 (for j 0 21 (reduce (y i) (A i j)))))
)";
  TensorMap inputs = {{"A", F32({19, 21}, Values(399, 7))},
                      {"y", F32({19}, Values(19, 8))}};
  auto vectorized = [&](const Strategy& strategy) {
    BeforeAfter run = RunBoth(kRowSums, inputs, strategy);
    std::vector<float> before = Floats(run.before.at("y"));
    std::vector<float> after = Floats(run.after.at("y"));
    EXPECT_EQ(before.size(), after.size());
    for (size_t i = 0; i < before.size() && i < after.size(); ++i) {
      EXPECT_NEAR(before[i], after[i], 1e-5) << i;
    }
    return run.vectorized;
  };
  EXPECT_THAT(vectorized(Strategy{.width = 8, .vectors = 1, .rows = 8}),
              HasSubstr("(multi-reduction add sums"));
  // Fitted, a tile of rows takes that shape, 8 rows of one vector, where
  // A fits the L2; else the strategy's 3 x 2, a reduction per row.
  Strategy fitted{.width = 8, .vectors = 2, .rows = 3, .fit = true};
  EXPECT_THAT(vectorized(fitted), HasSubstr("(vector f32 8 8)"));
  fitted.l2 = 1024;
  const std::string rows_of_three = vectorized(fitted);
  EXPECT_THAT(rows_of_three, Not(HasSubstr("multi-reduction")));
  EXPECT_THAT(rows_of_three, HasSubstr("(reduce (y (+ (* 3 io) 2))"));
}

TEST(VectorizeTest, StrategyLoopChoicesUseThePrimitives) {
  Strategy strategy{.width = 8, .vectors = 1, .rows = 2,
                    .contraction = Contraction::kMulAdd};
  strategy.tiles = {{"j", 8}};
  strategy.interchange = {"k", "j"};
  BeforeAfter run = RunBoth(MatmulOf(7, 20, 5), strategy);
  EXPECT_EQ(Floats(run.before.at("C")), Floats(run.after.at("C")));
  EXPECT_THAT(run.vectorized, HasSubstr("(for jo 0 2"));
  // An interchange reorder_loops cannot prove is an error at the nest.
  constexpr char kSkewed[] = R"(
(proc @skewed ((inout A (f32 8 8)))
  (for i 1 8 (for j 0 7 (assign (A i j) (+ (A (- i 1) (+ j 1)) 1.0)))))
)";
  Runner runner(kSkewed);
  ASSERT_TRUE(runner.compile_status().ok()) << runner.compile_status();
  runner.Edit([&](ir::Module& module, ir::Node& entry) {
    Strategy swap{.width = 8};
    swap.interchange = {"j", "i"};
    EXPECT_TRUE(CheckStrategyLoops(module, swap).ok());
    auto notes = VectorizeProc(module, entry, swap);
    EXPECT_EQ(notes.status().code(), absl::StatusCode::kFailedPrecondition);
    EXPECT_THAT(notes.status().message(),
                HasSubstr("interchanging loops 'i' and 'j': reorder_loops"));
    swap.tiles = {{"q", 2}};
    EXPECT_EQ(CheckStrategyLoops(module, swap).message(),
              "the strategy's 'tile' names loop 'q', which no proc has "
              "(loops: i, j)");
  });
}

TEST(VectorizeTest, InterchangesTheReductionOutward) {
  // Column sums: the lanes are j, the reduction i is outside them after
  // reorder_loops, with y's accumulator read before it and written after.
  constexpr char kColumnSums[] = R"(
(proc @colsum ((in A (f32 6 24)) (inout y (f32 24)))
  (for j 0 24 (for i 0 6 (reduce (y j) (A i j)))))
)";
  TensorMap inputs = {{"A", F32({6, 24}, Values(144, 3))},
                              {"y", F32({24}, Values(24, 4))}};
  Strategy strategy{.width = 8, .vectors = 3, .rows = 1,
                    .contraction = Contraction::kMulAdd};
  BeforeAfter run = RunBoth(kColumnSums, inputs, strategy);
  EXPECT_EQ(Floats(run.before.at("y")), Floats(run.after.at("y")));
  EXPECT_THAT(run.vectorized, HasSubstr("(for i 0 6"));
  EXPECT_LT(run.vectorized.find("(transfer-read (vector f32 8) y 0"),
            run.vectorized.find("(for i 0 6"));
}

TEST(VectorizeTest, TransposesTilesWithVectorTransposes) {
  // B[j, i] = A[i, j] + C[j, i]: 2-D tiles, A's read transposed, C's read
  // as it is, no scalar loop left. Each dimension of a tile is a power of
  // two: A's 11 rows are cut into 8, 2 and 1, its 10 columns into 8 and 2.
  constexpr char kTranspose[] = R"(
(proc @t ((in A (f32 11 10)) (in C (f32 10 11)) (out B (f32 10 11)))
  (for i 0 11 (for j 0 10 (assign (B j i) (+ (A i j) (C j i))))))
)";
  TensorMap inputs = {{"A", F32({11, 10}, Values(110, 5))},
                      {"C", F32({10, 11}, Values(110, 6))}};
  BeforeAfter run = RunBoth(kTranspose, inputs, Strategy{.width = 8});
  EXPECT_EQ(Floats(run.before.at("B")), Floats(run.after.at("B")));
  ExpectParts(run.vectorized,
              {"(transfer-read (vector f32 8 8) A 0 0 0.0)", "(list 1 0)",
               "(transfer-read (vector f32 8 8) C",
               "(transfer-read (vector f32 2 8) A 8 0 0.0)",
               "(transfer-read (vector f32 1 2) A 10 8 0.0)",
               "(transfer-read (vector f32 2 1) C 8 10 0.0)"});
  EXPECT_THAT(run.vectorized, Not(HasSubstr("(assign (B")));
}

TEST(VectorizeTest, MasksTheLastVectorWhereItCannotPad) {
  // y[0..9] of 12: padding would write y[10] and y[11]; a mask does not.
  // The last 2 lanes are a vector of 4, masked.
  constexpr char kPartial[] = R"(
(proc @p ((in x (f32 12)) (inout y (f32 12)))
  (for i 0 10 (assign (y i) (+ (x i) (y i)))))
)";
  TensorMap inputs = {{"x", F32({12}, Values(12, 7))},
                      {"y", F32({12}, Values(12, 8))}};
  BeforeAfter run =
      RunBoth(kPartial, inputs, Strategy{.width = 8, .vectors = 1,
                                         .tail = Tail::kMask});
  EXPECT_EQ(Floats(run.before.at("y")), Floats(run.after.at("y")));
  EXPECT_THAT(run.vectorized, HasSubstr("(mask (create-mask (shape 4) 2))"));
  EXPECT_THAT(run.vectorized, Not(HasSubstr("(assign (y")));
}

// y = x + 1 over `lanes` lanes, vectorized with `strategy`; y the same
// bits before and after.
BeforeAfter RunAddOne(int lanes, const Strategy& strategy) {
  const std::string text = absl::StrCat(
      "(proc @p ((in x (f32 ", lanes, ")) (out y (f32 ", lanes, ")))\n",
      "  (for i 0 ", lanes, " (assign (y i) (+ (x i) 1.0))))\n");
  BeforeAfter run =
      RunBoth(text, {{"x", F32({lanes}, Values(lanes, 9))}}, strategy);
  EXPECT_EQ(Floats(run.before.at("y")), Floats(run.after.at("y")));
  return run;
}

TEST(VectorizeTest, LanesPastTheLastVectorTakeNarrowerVectors) {
  // 10 lanes with vectors of 16: a vector of 8, then 2 lanes of a padded
  // vector of 4.
  BeforeAfter run = RunAddOne(10, Strategy{.width = 16, .vectors = 1});
  EXPECT_THAT(run.vectorized,
              HasSubstr("(transfer-read (vector f32 8) x 0 0.0)"));
  EXPECT_THAT(run.vectorized,
              HasSubstr("(transfer-read (vector f32 4) x 8 0.0)"));
  EXPECT_THAT(run.vectorized, Not(HasSubstr("(vector f32 16)")));
}

TEST(VectorizeTest, LanesPastTheLastVectorFillingMostOfOneArePadded) {
  // 30 lanes: a vector of 16, then 14 lanes of a padded one (more than
  // 5/8 of it), not vectors of 8, 4 and 2 lanes of a third.
  BeforeAfter run = RunAddOne(30, Strategy{.width = 16, .vectors = 2});
  EXPECT_THAT(run.vectorized,
              HasSubstr("(transfer-read (vector f32 16) x 16 0.0)"));
  EXPECT_THAT(run.vectorized, Not(HasSubstr("(vector f32 8)")));
  // With `tail peel`, whose lanes past the loop may not run, narrower
  // vectors.
  BeforeAfter peeled =
      RunAddOne(30, Strategy{.width = 16, .vectors = 2, .tail = Tail::kPeel});
  EXPECT_THAT(peeled.vectorized, HasSubstr("(vector f32 8)"));
}

// `before` and `after` within `tolerance` of each other, element by element.
void ExpectNear(const TensorMap& before, const TensorMap& after,
                const std::string& name, float tolerance) {
  const std::vector<float> want = Floats(before.at(name));
  const std::vector<float> got = Floats(after.at(name));
  ASSERT_EQ(want.size(), got.size());
  for (size_t e = 0; e < want.size(); ++e) {
    EXPECT_NEAR(want[e], got[e], tolerance) << name << "[" << e << "]";
  }
}

// C (8 x columns) = A (8 x 37) B (37 x columns), vectorized with 16-lane
// vectors and dot tiles of at most `dot` columns; C before and after
// within rounding.
BeforeAfter RunDotMatmul(int columns, int64_t dot = 4) {
  const Strategy strategy{.width = 16, .vectors = 4, .rows = 7, .dot = dot};
  BeforeAfter run = RunBoth(MatmulOf(8, columns, 37), strategy);
  ExpectNear(run.before, run.after, "C", 1e-5f);
  return run;
}

TEST(VectorizeTest, NarrowColumnsBecomeDotTilesAlongK) {
  // 20 columns: 16 in a vector, 4 in dot tiles of 4 rows whose lanes run
  // along k (B's 4 columns copied with k last), summed by one halving
  // multi-reduction per tile.
  ExpectParts(RunDotMatmul(20).vectorized,
              {"(alloc B_dot (f32 4 37))", "(reduction-order halving)",
               "(vector f32 4 4)"});
}

TEST(VectorizeTest, DotTilesTakeAPowerOfTwoOfColumnsUpToTheStrategys) {
  // 19 columns leave 3: tiles of a 4 x 4 block, the last column masked.
  ExpectParts(RunDotMatmul(19).vectorized,
              {"(alloc B_dot (f32 3 37))", "(vector f32 4 4)",
               "(create-mask (shape 4 4) 4 3)"});
  // With `dot 2`, the 4 columns past 16 are two tiles of 2.
  const std::string two = RunDotMatmul(20, 2).vectorized;
  ExpectParts(two, {"(alloc B_dot (f32 4 37))", "(vector f32 8 2)"});
  // (B's copy moves a 4 x 4 block of its 37 rows.)
  EXPECT_THAT(
      two, Not(ContainsRegex(R"(shape-cast[[:space:]]+\(vector f32 4 4\))")));
}

TEST(VectorizeTest, DotTilesOfFewerRowsMaskTheirBlock) {
  // 17 columns leave 1, whose block of 16 rows the 8 rows fill half of: a
  // tile of 8 rows, its C read and write masked to them.
  ExpectParts(RunDotMatmul(17).vectorized,
              {"(alloc B_dot (f32 1 37))", "(create-mask (shape 16 1) 8 1)"});
}

TEST(VectorizeTest, ColumnsOfATransposedAComputeAlongTheRows) {
  // C (37 x 18) = A^T B, A stored 20 x 37: the 2 columns past 16 take no
  // dot tile (A is not read along k), so C is staged over their nest with
  // the rows last, and the rows give vectors of 16 lanes from A's rows.
  const Strategy strategy{.width = 16, .vectors = 4, .rows = 7};
  BeforeAfter run = RunBoth(MatmulOf(37, 18, 20, {.a = true}), strategy);
  ExpectNear(run.before, run.after, "C", 1e-5f);
  ExpectParts(run.vectorized, {"(alloc C_rows (f32 2 37))",
                               "(transfer-read (vector f32 16) A k 0 0.0)",
                               "(broadcast (vector f32 16) (B k 16))"});
  EXPECT_THAT(run.vectorized, Not(HasSubstr("(vector f32 4) B")));
}

TEST(VectorizeTest, LeavesNestsItDoesNotHandleScalarWithANote) {
  // The strided nest stays as it is; the next one is vectorized.
  constexpr char kMixed[] = R"(
(proc @mixed ((in x (f32 64)) (out y (f32 32)) (out z (f32 32)))
  (for i 0 32 (assign (y i) (x (* 2 i))))
  (for i 0 32 (assign (z i) (x i))))
)";
  Runner runner(kMixed);
  ASSERT_TRUE(runner.compile_status().ok());
  runner.Edit([&](ir::Module& module, ir::Node& entry) {
    auto notes = VectorizeProc(module, entry, Strategy());
    ASSERT_TRUE(notes.ok()) << notes.status();
    ASSERT_EQ(notes->size(), 1u);
    EXPECT_EQ((*notes)[0].rfind("m.tir:3:15: note: this nest stays scalar: "
                                "no loop indexes",
                                0),
              0u)
        << (*notes)[0];
    std::string text = ir::PrintModule(module);
    EXPECT_THAT(text, HasSubstr("(for i 0 32 (assign (y i) (x (* 2 i))))"));
    EXPECT_THAT(text, HasSubstr("(transfer-write"));
  });
}

TEST(VectorizeTest, LeavesANestThatNeverRunsScalar) {
  // A loop of no iterations (found by scripts/fuzz-inputs.sh): a
  // transpose's tile of -8 lanes, a reduce's tile of no steps. The fill
  // of the second is vectorized.
  for (const char* text : {
           R"((proc @t ((in A (f32 32 32)) (inout B (f32 32 32)))
  (for i 0 32 (for j 40 32 (assign (B j i) (A i j))))))",
           R"((proc @r ((in A (f32 17 21)) (out y (f32 17)))
  (for i 0 17 (assign (y i) 0.0) (for j 0 0 (reduce (y i) (A i j))))))",
       }) {
    Runner runner(text);
    ASSERT_TRUE(runner.compile_status().ok()) << runner.compile_status();
    runner.Edit([&](ir::Module& module, ir::Node& entry) {
      auto notes = VectorizeProc(module, entry, Strategy());
      ASSERT_TRUE(notes.ok()) << notes.status();
      ASSERT_EQ(notes->size(), 1u);
      EXPECT_THAT((*notes)[0],
                  HasSubstr("this nest stays scalar: its loop 'j' runs no "
                            "iteration"));
    });
    EXPECT_TRUE(runner.compile_status().ok()) << runner.compile_status();
  }
}

TEST(VectorizeTest, PrefetchesAPanelFewTilesRead) {
  // B (2 KiB) outgrows half of a 1 KiB L2 and its 2 tiles of 7 rows read
  // it in place; each step of k reads 8 of its 16 columns, rows 64 bytes
  // apart: its line 1 step (7 over 7 multiply-adds) ahead.
  const Matmul panel = MatmulOf(14, 16, 32);
  Strategy strategy{.width = 8, .vectors = 1, .rows = 7,
                    .contraction = Contraction::kMulAdd, .l2 = 1024,
                    .prefetch = 7};
  BeforeAfter run = RunBoth(panel, strategy);
  EXPECT_EQ(Floats(run.before.at("C")), Floats(run.after.at("C")));
  EXPECT_THAT(run.vectorized, HasSubstr("(prefetch B (+ (+ (* 16 ko) ki) 1) "
                                        "(* 8 jo_1))"));
  strategy.prefetch = 0;
  EXPECT_THAT(RunBoth(panel, strategy).vectorized, Not(HasSubstr("prefetch")));
}

TEST(VectorizeTest, PacksAPanelWholeWhereTheRowsReadOutgrowsTheL2) {
  // The filter (6 KiB) outgrows half of a 7000-byte L2 and the input (10
  // KiB) all of it: the filter is packed once, by tiles of 16 lanes, and
  // the lanes' tile loop `fo` goes inside `n`, outside the tiles of rows.
  const std::string conv =
      "(proc @conv1d ((in x (f32 4 40 16)) (in w (f32 3 16 32))\n"
      "               (out y (f32 4 38 32)))\n"
      "  (for n 0 4 (for ow 0 38 (for f 0 32\n"
      "    (assign (y n ow f) 0.0)\n"
      "    (for kw 0 3 (for c 0 16\n"
      "      (reduce (y n ow f) (* (x n (+ ow kw) c) (w kw c f)))))))))\n";
  TensorMap inputs;
  inputs.emplace("x", F32({4, 40, 16}, Values(4 * 40 * 16, 1)));
  inputs.emplace("w", F32({3, 16, 32}, Values(3 * 16 * 32, 2)));
  Strategy strategy = *DefaultStrategy("avx2");
  strategy.l2 = 7000;
  strategy.contraction = Contraction::kMulAdd;
  BeforeAfter run = RunBoth(conv, inputs, strategy);
  EXPECT_EQ(Floats(run.before.at("y")), Floats(run.after.at("y")));
  ExpectParts(run.vectorized, {"(alloc w_packed (f32 2 3 16 16))",
                               "(for n 0 4\n    (for fo 0 2\n"
                               "      (for owio 0 4\n",
                               "w_packed fo kw c 0 0.0"});
  // Tile by tile, `fo` outermost, without.
  strategy.pack_whole = 0;
  run = RunBoth(conv, inputs, strategy);
  EXPECT_EQ(Floats(run.before.at("y")), Floats(run.after.at("y")));
  ExpectParts(run.vectorized,
              {"(for fo 0 2\n    (alloc w_packed (f32 3 16 16))"});
}

TEST(VectorizeTest, RejectsWhatItCannotProve) {
  constexpr char kPrefix[] = R"(
(proc @prefix ((in y (f32 32)) (inout x (f32 32)))
  (for i 1 32 (assign (x i) (+ (x (- i 1)) (y i)))))
)";
  Runner runner(kPrefix);
  ASSERT_TRUE(runner.compile_status().ok());
  runner.Edit([&](ir::Module& module, ir::Node& entry) {
    absl::Status status = VectorizeProc(module, entry, Strategy()).status();
    EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
    EXPECT_THAT(status.message(),
                HasSubstr("m.tir:3:15: error: cannot vectorize: its instances "
                          "do not commute"));
  });
}

}  // namespace
}  // namespace tessel::vectorize
