#include "libs/primitives/set_memory.h"

#include <string>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "libs/ir/build.h"
#include "libs/verify/verifier.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives {
namespace {

using ir::Build;
using testing::DeclNamed;
using testing::Print;
using testing::ProcNamed;
using testing::ReadVerified;
using testing::SameValues;

constexpr char kText[] = R"((memory @SCRATCHPAD
  (alloc "static {type} {name}[{size}];")
  (free "")
  (addressable false))

(memory @REGS
  (alloc "static {type} {name}[{size}];")
  (free "")
  (addressable true))

(proc @p ((in x (f32 8)) (out y (f32 8)))
  (alloc t (f32 8))
  (for i 0 8 (assign (t i) (x i)))
  (for i 0 8 (assign (y i) (* 2.0 (t i)))))
)";

TEST(SetMemoryTest, MovesAnAlloc) {
  ir::Module module = ReadVerified(kText);
  ir::Node& p = ProcNamed(module, "@p");
  ASSERT_TRUE(
      SetMemory(module, DeclNamed(module, p, "t"), *module.Find("@REGS")).ok());
  ASSERT_TRUE(ir::VerifyProc(module, p).ok());
  std::string text = Print(module);
  EXPECT_EQ(text.substr(text.find("(proc")),
            R"((proc @p ((in x (f32 8)) (out y (f32 8)))
  (alloc t (f32 8) @REGS)
  (for i 0 8 (assign (t i) (x i)))
  (for i 0 8 (assign (y i) (* 2.0 (t i)))))
)");
  EXPECT_TRUE(SameValues(kText, module).ok());
  ASSERT_TRUE(
      SetMemory(module, DeclNamed(module, p, "t"), *module.dram()).ok());
  EXPECT_EQ(Print(module), Print(ReadVerified(kText)));
}

// Memories are checked at the end of a schedule (kEditChecks), as Exo
// checks them when it generates code: a buffer moves to a memory that
// only instructions may touch before its loops become instructions.
TEST(SetMemoryTest, LeavesTheMemoryCheckToTheEnd) {
  ir::Module module = ReadVerified(kText);
  ir::Node& p = ProcNamed(module, "@p");
  ASSERT_TRUE(
      SetMemory(module, DeclNamed(module, p, "t"), *module.Find("@SCRATCHPAD"))
          .ok());
  EXPECT_EQ(ir::VerifyProc(module, p).message(),
            "m.tir:13:23: error: 't' is in @SCRATCHPAD, which is not "
            "addressable: only an instr may access it directly\n"
            "  (for i 0 8 (assign (t i) (x i)))\n"
            "                      ^");
}

}  // namespace
}  // namespace tessel::primitives
