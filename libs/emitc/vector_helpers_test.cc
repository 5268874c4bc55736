#include "libs/emitc/vector_helpers.h"

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "gtest/gtest.h"

namespace tessel::emitc {
namespace {

// How often `part` occurs in `text`.
int CountOf(const std::string& text, const std::string& part) {
  int count = 0;
  for (size_t at = text.find(part); at != std::string::npos;
       at = text.find(part, at + 1)) {
    ++count;
  }
  return count;
}

// Expects `part` in `helper`'s definition, which a failure prints.
void ExpectPart(const VectorHelper& helper, const std::string& part) {
  EXPECT_TRUE(absl::StrContains(helper.definition, part)) << helper.definition;
}

// Expects the transfer-write helper of each of `shapes` not to hold
// `part`.
void ExpectNoWriteHolds(std::initializer_list<VectorShape> shapes,
                        const std::string& part) {
  for (const VectorShape& shape : shapes) {
    EXPECT_FALSE(absl::StrContains(TransferWrite(shape).definition, part))
        << shape.Name();
  }
}

// Expects `takes` (which shapes a lowering handles) to hold for each of
// `taken` and for none of `left`.
void ExpectTakes(bool (*takes)(const VectorShape&),
                 std::initializer_list<VectorShape> taken,
                 std::initializer_list<VectorShape> left) {
  for (const VectorShape& shape : taken) {
    EXPECT_TRUE(takes(shape)) << shape.Name();
  }
  for (const VectorShape& shape : left) {
    EXPECT_FALSE(takes(shape)) << shape.Name();
  }
}

TEST(VectorHelpersTest, ContractSumsEachReductionPointInOrder) {
  // A 2x3 by 3x2 matmul: three steps, k = 0, 1, 2; lane (i, j) of ACC
  // meets lane (i, k) of A and (k, j) of B.
  VectorShape a{ElemType::kF32, {2, 3}}, b{ElemType::kF32, {3, 2}},
      acc{ElemType::kF32, {2, 2}};
  VectorHelper helper = Contract(a, b, acc, {{0, 2}, {2, 1}, {0, 1}});
  EXPECT_EQ(helper.name, "tsl_vcontract_f32_2x3_3x2_2x2_0x2_2x1_0x1");
  const std::string& text = helper.definition;
  EXPECT_EQ(CountOf(text, "  s = s + p;\n"), 3) << text;
  size_t k0 = text.find(
      "p = __builtin_shufflevector(x, x, 0, 0, 3, 3) * "
      "__builtin_shufflevector(y, y, 0, 1, 0, 1);");
  size_t k1 = text.find(
      "p = __builtin_shufflevector(x, x, 1, 1, 4, 4) * "
      "__builtin_shufflevector(y, y, 2, 3, 2, 3);");
  size_t k2 = text.find(
      "p = __builtin_shufflevector(x, x, 2, 2, 5, 5) * "
      "__builtin_shufflevector(y, y, 4, 5, 4, 5);");
  ASSERT_NE(k0, std::string::npos) << text;
  EXPECT_LT(k0, k1);
  EXPECT_LT(k1, k2);
  ASSERT_NE(k2, std::string::npos) << text;
  EXPECT_TRUE(helper.needs.vector_types.contains(DataType(a)));
  EXPECT_TRUE(helper.needs.vector_types.contains(DataType(acc)));
}

TEST(VectorHelpersTest, ContractPaddingLanesTakeLaneZero) {
  // ACC has 3 lanes in a 4-lane C vector: its padding lane reads lane 0.
  VectorShape a{ElemType::kI32, {3, 2}}, b{ElemType::kI32, {2}},
      acc{ElemType::kI32, {3}};
  VectorHelper helper = Contract(a, b, acc, {{0, 1}, {1}, {0}});
  ExpectPart(helper, "__builtin_shufflevector(x, x, 0, 2, 4, 0)");
  // Integers wrap: unsigned lanes, one statement per step.
  EXPECT_EQ(CountOf(helper.definition, "  s = (tsl_i32x4)((tsl_u32x4)s + "), 2)
      << helper.definition;
  EXPECT_TRUE(helper.needs.vector_types.contains(UnsignedType(32, 4)));
}

TEST(VectorHelpersTest, OneDimensionalTransferCopiesTheRowWhole) {
  VectorHelper read = TransferRead(VectorShape{ElemType::kF64, {5}});
  EXPECT_EQ(read.name, "tsl_vread_f64_5");
  EXPECT_TRUE(
      absl::StrContains(read.definition,
                        "  if (i0 >= 0 && i0 <= n0 - 5 && s0 == 1) {\n"
                        "    memcpy((double *)&v, &p[i0], 5 * "
                        "sizeof(double));\n"
                        "  } else {\n"))
      << read.definition;
  EXPECT_TRUE(read.needs.memcpy);
  VectorHelper write = TransferWrite(VectorShape{ElemType::kI8, {3}});
  ExpectPart(write, "if (j0 >= 0 && j0 < n0) p[j0 * s0] = lanes[k0];");
}

TEST(VectorHelpersTest, RowsPastTheTensorsEndMoveMasked) {
  // A register's row of f32 or f64 lanes whose last lanes lie past the
  // end: one masked load or store, with AVX-512 or AVX2.
  VectorHelper read = TransferRead(VectorShape{ElemType::kF32, {16}});
  ExpectPart(read, "_mm512_mask_loadu_ps(");
  VectorHelper write = TransferWrite(VectorShape{ElemType::kF32, {16}});
  ExpectPart(
      write,
      "_mm512_mask_storeu_ps(&p[i0], (__mmask16)((1u << (n0 - i0)) - 1u), "
      "(__m512)*v);");
  VectorHelper pd = TransferWrite(VectorShape{ElemType::kF64, {4}});
  ExpectPart(pd, "_mm256_maskstore_pd(&p[i0], m, (__m256d)*v);");
  // Rows of 128 bits, and vectors wider than a register, keep the lanes.
  ExpectNoWriteHolds(
      {VectorShape{ElemType::kF32, {4}}, VectorShape{ElemType::kF32, {4, 16}}},
      "_mm");
}

TEST(VectorHelpersTest, ColumnsMoveWithOneGatherOrScatter) {
  // A register's column of f32 or f64 (16 x 1, 8 x 1) inside the tensor:
  // one AVX-512 gather or scatter at the rows' stride.
  VectorHelper read = TransferRead(VectorShape{ElemType::kF32, {16, 1}});
  ExpectPart(
      read,
      "  if (i0 >= 0 && i0 <= n0 - 16 && i1 >= 0 && i1 <= n1 - 1 && s1 == 1 "
      "&& s0 <= 143165576) {\n"
      "    __m512i at = _mm512_mullo_epi32(_mm512_set1_epi32((int)s0), "
      "_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, "
      "15));\n"
      "    *r = (tsl_f32x16)_mm512_i32gather_ps(at, &p[i0 * s0 + i1], 4);\n"
      "    return;\n");
  VectorHelper write = TransferWrite(VectorShape{ElemType::kF64, {8, 1}});
  ExpectPart(write,
             "_mm512_i32scatter_pd(&p[i0 * s0 + i1], at, (__m512d)*v, 8);");
  ExpectPart(write, "__m256i at = ");
  // Columns of another width, and rows, keep their other moves.
  ExpectNoWriteHolds({VectorShape{ElemType::kF32, {8, 1}},
                      VectorShape{ElemType::kF32, {1, 16}}},
                     "scatter");
}

TEST(VectorHelpersTest, WideTransfersCopyRowsInPlace) {
  // 16 rows of 16 f32 (1 KiB) live in memory: each row copied into r
  // through a register of its 16 lanes.
  VectorHelper read = TransferRead(VectorShape{ElemType::kF32, {16, 16}});
  ExpectPart(read,
             "      tsl_f32x16 w;\n"
             "      memcpy(&w, &p[(i0 + k0) * s0 + i1], sizeof w);\n"
             "      memcpy((float *)r + k0 * 16, &w, sizeof w);\n"
             "    }\n    return;\n  }\n");
  EXPECT_FALSE(absl::StrContains(read.definition, "__builtin_shufflevector"));
  VectorHelper write = TransferWrite(VectorShape{ElemType::kF32, {16, 16}});
  ExpectPart(write,
             "      memcpy(&w, (const float *)v + k0 * 16, sizeof w);\n"
             "      memcpy(&p[(i0 + k0) * s0 + i1], &w, sizeof w);\n");
  // Rows wider than a register (32 f64) are copied by memcpy alone.
  ExpectPart(TransferWrite(VectorShape{ElemType::kF64, {2, 32}}),
             "memcpy(&p[(i0 + k0) * s0 + i1], (const double *)v + k0 * 32, "
             "32 * sizeof(double));");
  // 4 rows of 4 f32 fill one register: rows concatenated by shuffles.
  VectorHelper small = TransferRead(VectorShape{ElemType::kF32, {4, 4}});
  EXPECT_TRUE(absl::StrContains(small.definition, "__builtin_shufflevector"));
}

TEST(VectorHelpersTest, BroadcastsUseTheInstructionWhereTheTargetHasIt) {
  VectorHelper zmm = Broadcast(VectorCType{LaneKind::kFloat, 32, 16});
  ExpectPart(zmm,
             "#if defined(__AVX512F__)\n"
             "  *r = (tsl_f32x16)_mm512_broadcastss_ps(_mm_set_ss(x));\n"
             "#else\n"
             "  tsl_f32x16 v = {0};\n"
             "  for (int l = 0; l < 16; l++) v[l] = x;\n");
  EXPECT_TRUE(absl::StrContains(
      Broadcast(VectorCType{LaneKind::kFloat, 64, 4}).definition,
      "#if defined(__AVX2__)\n"
      "  *r = (tsl_f64x4)_mm256_broadcastsd_pd(_mm_set_sd(x));\n"));
  // 128 bits, f16 and integers: the loop alone.
  for (const VectorCType& type : {VectorCType{LaneKind::kFloat, 32, 4},
                                  VectorCType{LaneKind::kFloat, 16, 16},
                                  VectorCType{LaneKind::kSigned, 32, 16}}) {
    EXPECT_FALSE(absl::StrContains(Broadcast(type).definition, "#if"))
        << Broadcast(type).definition;
  }
}

// What the transpose helper's text computes: its shuffles of two
// registers run on lane numbers (row * d + lane of V), then its row stores
// into R read back; -1 where R is not stored.
std::vector<int64_t> RunTransposeText(const std::string& text, int64_t d) {
  std::map<std::string, std::vector<int64_t>> registers;
  for (int64_t p = 0; p < d; ++p) {
    std::vector<int64_t>& row = registers[absl::StrCat("a0[", p, "]")];
    for (int64_t l = 0; l < d; ++l) row.push_back(p * d + l);
  }
  std::vector<int64_t> r(d * d, -1);
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    line = absl::StripAsciiWhitespace(line);
    std::vector<absl::string_view> shuffle =
        absl::StrSplit(line, " = __builtin_shufflevector(");
    if (shuffle.size() == 2 && absl::ConsumeSuffix(&shuffle[1], ");")) {
      std::vector<absl::string_view> args = absl::StrSplit(shuffle[1], ", ");
      std::vector<int64_t> to;
      for (size_t i = 2; i < args.size(); ++i) {
        int64_t index = 0;
        EXPECT_TRUE(absl::SimpleAtoi(args[i], &index)) << line;
        to.push_back(index < d ? registers.at(std::string(args[0]))[index]
                               : registers.at(std::string(args[1]))[index - d]);
      }
      registers[std::string(shuffle[0])] = to;
      continue;
    }
    // memcpy((T *)r + OFFSET, &REGISTER, sizeof REGISTER);
    if (absl::ConsumePrefix(&line, "memcpy((") &&
        line.find(" *)r + ") != absl::string_view::npos) {
      std::vector<absl::string_view> parts = absl::StrSplit(line, ", ");
      int64_t offset = 0;
      EXPECT_TRUE(
          absl::SimpleAtoi(parts[0].substr(parts[0].find(" + ") + 3), &offset))
          << line;
      absl::string_view name = parts[1];
      EXPECT_TRUE(absl::ConsumePrefix(&name, "&")) << line;
      const std::vector<int64_t>& row = registers.at(std::string(name));
      std::copy(row.begin(), row.end(), r.begin() + offset);
    }
  }
  return r;
}

TEST(VectorHelpersTest, WideSquareTransposeShufflesPairsOfRows) {
  // Not one register (4 x 4 f32), not square, not a power of two.
  ExpectTakes(TransposesByRows,
              {{ElemType::kF32, {16, 16}}, {ElemType::kF64, {4, 4}}},
              {{ElemType::kF32, {4, 4}},
               {ElemType::kF32, {8, 16}},
               {ElemType::kF32, {12, 12}}});
  // Every element type and size: R holds V transposed.
  for (const VectorShape& shape :
       std::vector<VectorShape>{{ElemType::kF32, {8, 8}},
                                {ElemType::kF32, {16, 16}},
                                {ElemType::kF32, {32, 32}},
                                {ElemType::kF64, {4, 4}},
                                {ElemType::kF64, {16, 16}},
                                {ElemType::kF16, {8, 8}},
                                {ElemType::kF16, {32, 32}},
                                {ElemType::kI8, {16, 16}},
                                {ElemType::kI8, {32, 32}}}) {
    const int64_t d = shape.dims[0];
    std::vector<int64_t> transposed;
    for (int64_t j = 0; j < d; ++j) {
      for (int64_t i = 0; i < d; ++i) transposed.push_back(i * d + j);
    }
    EXPECT_EQ(RunTransposeText(Transpose(shape).definition, d), transposed)
        << shape.Name();
  }
  // An 8 x 8 f32 in the shuffles x86 has one instruction for: unpacks of
  // lanes (unpcklps, unpckhps), of pairs (shufps), of 16-byte halves
  // (vperm2f128).
  VectorHelper helper = Transpose(VectorShape{ElemType::kF32, {8, 8}});
  EXPECT_EQ(helper.name, "tsl_vtranspose_f32_8x8");
  EXPECT_EQ(CountOf(helper.definition, "__builtin_shufflevector"), 24);
  ExpectPart(helper,
             "  a1[0] = __builtin_shufflevector(a0[0], a0[1], 0, 8, 1, 9, 4, "
             "12, 5, 13);\n"
             "  a1[1] = __builtin_shufflevector(a0[0], a0[1], 2, 10, 3, 11, 6, "
             "14, 7, 15);\n");
  ExpectPart(helper,
             "  a2[0] = __builtin_shufflevector(a1[0], a1[2], 0, 1, 8, 9, 4, "
             "5, 12, 13);\n"
             "  a2[2] = __builtin_shufflevector(a1[0], a1[2], 2, 3, 10, 11, 6, "
             "7, 14, 15);\n");
  ExpectPart(helper,
             "  a3[0] = __builtin_shufflevector(a2[0], a2[4], 0, 1, 2, 3, 8, "
             "9, 10, 11);\n"
             "  a3[4] = __builtin_shufflevector(a2[0], a2[4], 4, 5, 6, 7, 12, "
             "13, 14, 15);\n");
  // The result's rows stored one by one, never the array at once; the
  // unpacks leave columns 1 and 2 of each block in each other's place.
  ExpectPart(helper,
             "  memcpy((float *)r + 0, &a3[0], sizeof a3[0]);\n"
             "  memcpy((float *)r + 8, &a3[2], sizeof a3[2]);\n"
             "  memcpy((float *)r + 16, &a3[1], sizeof a3[1]);\n");
}

TEST(VectorHelpersTest, FmaOfARegisterIsTheInstruction) {
  // Whatever the compiler's tuning prefers: GCC 12 tuned for Intel's
  // AVX-512 cores made the 16-lane loop scalar.
  VectorHelper wide = Fma(VectorCType{LaneKind::kFloat, 32, 16});
  EXPECT_EQ(wide.name, "tsl_vfma_f32x16");
  ExpectPart(wide,
             "#if defined(__AVX512F__)\n  *r = (tsl_f32x16)_mm512_fmadd_ps(("
             "__m512)*a, (__m512)*b, (__m512)*c);\n#else\n");
  ExpectPart(wide,
             "x[l] = __builtin_fmaf(x[l], y[l], z[l]);\n  *r = x;\n#endif");
  ExpectPart(
      Fma(VectorCType{LaneKind::kFloat, 64, 4}),
      "#if defined(__FMA__)\n  *r = (tsl_f64x4)_mm256_fmadd_pd((__m256d)*a, "
      "(__m256d)*b, (__m256d)*c);\n");
  // A 128-bit vector's loop, and one of no register's width: the loop
  // alone.
  VectorHelper narrow = Fma(VectorCType{LaneKind::kFloat, 32, 4});
  EXPECT_FALSE(absl::StrContains(narrow.definition, "#if"))
      << narrow.definition;
  VectorHelper odd = Fma(VectorCType{LaneKind::kFloat, 32, 32});
  EXPECT_FALSE(absl::StrContains(odd.definition, "#if")) << odd.definition;
  ExpectPart(odd, "for (int l = 0; l < 32; l++) x[l] = __builtin_fmaf(");
}

TEST(VectorHelpersTest, WideOuterProductsGoARowAtATime) {
  // One register (4 x 4 f32), rows not a power of two, f16: shuffles.
  ExpectTakes(OuterProductByRows,
              {{ElemType::kF32, {6, 8}}, {ElemType::kF64, {4, 8}}},
              {{ElemType::kF32, {4, 4}},
               {ElemType::kF32, {6, 12}},
               {ElemType::kF16, {8, 32}}});
  VectorHelper fused =
      OuterProductRows(VectorShape{ElemType::kF32, {6, 8}}, RowStep::kFma);
  EXPECT_EQ(fused.name, "tsl_vouter_f32_6x8");
  ExpectPart(fused,
             "(tsl_f32x64 *r, const tsl_f32x8 *a, const tsl_f32x8 *b, const "
             "tsl_f32x64 *c) {\n"
             "  tsl_f32x8 x = *a;\n"
             "  tsl_f32x8 y = *b;\n"
             "  for (int i = 0; i < 6; i++) {\n"
             "    tsl_f32x8 s;\n"
             "    memcpy(&s, (const float *)c + i * 8, sizeof s);\n"
             "#if defined(__FMA__)\n");
  // A fused row of a whole register is the instruction where the target
  // has it, the lanes' fmaf otherwise.
  ExpectPart(fused,
             "#if defined(__FMA__)\n    s = (tsl_f32x8)_mm256_fmadd_ps("
             "_mm256_set1_ps(x[i]), (__m256)y, (__m256)s);\n#else\n"
             "    for (int l = 0; l < 8; l++) s[l] = __builtin_fmaf(x[i], "
             "y[l], s[l]);\n#endif\n"
             "    memcpy((float *)r + i * 8, &s, sizeof s);\n");
  VectorHelper product =
      OuterProductRows(VectorShape{ElemType::kF64, {4, 8}}, RowStep::kProduct);
  EXPECT_EQ(product.name, "tsl_vouterp_f64_4x8");
  ExpectPart(product,
             "    tsl_f64x8 s = {0};\n"
             "    for (int l = 0; l < 8; l++) s[l] = x[i] * y[l];\n");
  // A contract's step: the product rounded, then the sum.
  ExpectPart(
      OuterProductRows(VectorShape{ElemType::kF32, {6, 8}}, RowStep::kMulAdd),
      "    for (int l = 0; l < 8; l++) s[l] = s[l] + x[i] * y[l];\n");
}

TEST(VectorHelpersTest, RowReductionTransposesThenAddsWholeRows) {
  VectorHelper helper =
      RowReduction(ir::ReductionKind::kMax, VectorShape{ElemType::kF64, {4, 4}});
  EXPECT_EQ(helper.name, "tsl_vrowreduce_max_f64_4x4");
  const std::string& text = helper.definition;
  // Transpose's network, then the 4 columns combined into ACC in order.
  EXPECT_EQ(CountOf(text, "__builtin_shufflevector"), 8) << text;
  EXPECT_EQ(CountOf(text, "  s = "), 4) << text;
  size_t first = text.find("a2[0]) | (~");
  size_t last = text.find("a2[3]) | (~");
  ASSERT_NE(first, std::string::npos) << text;
  ASSERT_NE(last, std::string::npos) << text;
  EXPECT_LT(first, last);
  EXPECT_TRUE(absl::StrContains(text, "  tsl_f64x4 s = *acc;\n")) << text;
  EXPECT_TRUE(absl::StrContains(text, "  *r = s;\n}\n")) << text;
  EXPECT_TRUE(helper.needs.vector_types.contains(SignedType(64, 4)));
}

TEST(VectorHelpersTest, DivisionAndCastsCheckOnlyTheRealLanes) {
  VectorHelper divide = Divide(VectorShape{ElemType::kI32, {6}});
  ExpectPart(divide,
             "for (int l = 0; l < 6; l++) q[l] = tsl_div_i32(x[l], y[l]);");
  EXPECT_TRUE(divide.needs.helpers.contains(
      Helper::On(HelperOp::kDiv, ElemType::kI32)));
  VectorHelper cast = CheckedCast(ElemType::kI8, {ElemType::kF32, {3}});
  ExpectPart(cast, "for (int l = 0; l < 3; l++) y[l] = tsl_cast_i8_f32(x[l]);");
}

TEST(VectorHelpersTest, F32WidenedToF64LaneByLane) {
  // A loop, not __builtin_convertvector, which GCC 12 fails on
  // (docs/emit-c.md).
  VectorHelper cast = WideningCast(ElemType::kF64, {ElemType::kF32, {4}});
  EXPECT_EQ(cast.name, "tsl_vcast_f64_f32_4");
  ExpectPart(cast, "for (int l = 0; l < 4; l++) y[l] = (double)x[l];");
  EXPECT_FALSE(absl::StrContains(cast.definition, "convertvector(x"))
      << cast.definition;
}

TEST(VectorHelpersTest, ArithmeticWrapsIntegersAndRoundsF16Once) {
  CExpr a = Primary("a"), b = Primary("b");
  EXPECT_EQ(VectorArithmetic(ir::Op::kAdd, a, b, ElemType::kF32, 8).text,
            "a + b");
  EXPECT_EQ(VectorArithmetic(ir::Op::kMul, a, b, ElemType::kI8, 16).text,
            "(tsl_i8x16)((tsl_u8x16)a * (tsl_u8x16)b)");
  EXPECT_EQ(VectorArithmetic(ir::Op::kSub, a, b, ElemType::kF16, 4).text,
            "__builtin_convertvector(__builtin_convertvector(a, tsl_f32x4) - "
            "__builtin_convertvector(b, tsl_f32x4), tsl_f16x4)");
}

}  // namespace
}  // namespace tessel::emitc
