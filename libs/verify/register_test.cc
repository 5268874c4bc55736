// Memories of registers ((register "CTYPE" LANES)): read, written back, and
// their buffers checked to be whole registers.
#include "gtest/gtest.h"
#include "libs/ir/syntax.h"
#include "libs/verify/first_error.h"

namespace tessel::ir {
namespace {

const std::string kRegisters =
    "(memory @VREG (alloc \"{type} {name}{shape};\") (free \"\")\n"
    "  (addressable false) (register \"__m256\" 8)\n"
    "  (include \"<immintrin.h>\"))\n";

TEST(RegisterMemoryTest, BuffersAreArraysOfWholeRegisters) {
  EXPECT_EQ(FirstError(kRegisters +
                       "(instr @zero ((out dst (window f32 8) @VREG))\n"
                       "  (c \"{dst} = z();\") (for i 0 8 (assign (dst i) "
                       "0.0)))\n"
                       "(proc @p ()\n"
                       "  (alloc r (f32 2 3 8) @VREG)\n"
                       "  (call @zero (window r 1 2 (: 0 8))))"),
            "ok");
}

TEST(RegisterMemoryTest, ALastDimensionOtherThanTheLanesIsAnError) {
  EXPECT_EQ(FirstError(kRegisters + "(proc @p ()\n"
                                    "  (alloc r (f32 8 4) @VREG))"),
            "5:3: error: 'r' is in @VREG, whose registers have 8 lanes: its "
            "last dimension must be 8 (one register's lanes)");
  EXPECT_EQ(FirstError(kRegisters + "(proc @p ((size n) (in x (f32 n) @VREG))\n"
                                    "  (assert (<= n 8)))"),
            "4:20: error: 'x' is in @VREG, whose registers have 8 lanes: its "
            "last dimension must be 8 (one register's lanes)");
  EXPECT_EQ(FirstError(kRegisters + "(proc @p ((in x f32 @VREG)))"),
            "4:11: error: 'x' is in @VREG, whose registers have 8 lanes: its "
            "last dimension must be 8 (one register's lanes)");
}

TEST(RegisterMemoryTest, RegistersAreNotAddressable) {
  EXPECT_EQ(FirstError("(memory @VREG (alloc \"{type} {name}{shape};\")\n"
                       "  (register \"__m256\" 8))"),
            "1:1: error: a memory of registers must be (addressable false)");
  EXPECT_EQ(FirstError("(memory @VREG (alloc \"x\") (addressable false)\n"
                       "  (register \"__m256\" 0))"),
            "2:3: error: expected (alloc \"...\"), (free \"...\"), "
            "(addressable true|false), (register \"CTYPE\" LANES) or "
            "(include \"HEADER\")");
}

TEST(RegisterMemoryTest, ClausesAreWrittenBack) {
  auto module = ReadText(MakeSource("m.tir", kRegisters));
  ASSERT_TRUE(module.ok()) << module.status();
  EXPECT_EQ(PrintModule(*module),
            "(memory @VREG\n"
            "  (alloc \"{type} {name}{shape};\")\n"
            "  (free \"\")\n"
            "  (addressable false)\n"
            "  (register \"__m256\" 8)\n"
            "  (include \"<immintrin.h>\"))\n");
}

}  // namespace
}  // namespace tessel::ir
