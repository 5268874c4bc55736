#include "libs/primitives/make_instr.h"

#include <string>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "libs/verify/verifier.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives {
namespace {

using testing::Print;
using testing::ProcNamed;
using testing::ReadVerified;

constexpr char kText[] = R"((proc @scale ((size n) (in x (f32 n)) (out y (f32 n)))
  (assert (>= n 1))
  (for i 0 n (assign (y i) (* 2.0 (x i)))))

(proc @main ((in a (f32 8)) (out b (f32 8)))
  (call @scale 8 a b))
)";

// Exo's make_instr: the proc is an instr of the same body; its caller
// calls the instr and computes the same.
TEST(MakeInstr, MakesTheProcAnInstr) {
  ir::Module module = ReadVerified(kText);
  auto instr = MakeInstr(module, ProcNamed(module, "@scale"),
                         "scale2({n}, {x_data}, {y_data});",
                         "#include <scale.h>\n#include \"more.h\"\n");
  ASSERT_TRUE(instr.ok()) << instr.status();
  EXPECT_EQ(Print(module),
            R"((instr @scale ((size n) (in x (f32 n)) (out y (f32 n)))
  (c "scale2({n}, {x_data}, {y_data});")
  (include "<scale.h>")
  (include "\"more.h\"")
  (assert (>= n 1))
  (for i 0 n (assign (y i) (* 2.0 (x i)))))

(proc @main ((in a (f32 8)) (out b (f32 8))) (call @scale 8 a b))
)");
  EXPECT_TRUE(ir::VerifyProc(module, ProcNamed(module, "@main")).ok());
  EXPECT_TRUE(testing::SameValues(kText, module).ok());
}

TEST(MakeInstr, RefusesGlobalCodeOtherThanHeaders) {
  ir::Module module = ReadVerified(kText);
  auto instr = MakeInstr(module, ProcNamed(module, "@scale"), "scale2();",
                         "static int calls;");
  EXPECT_EQ(instr.status().message(),
            "make_instr: c_global may only include headers (an instr has no "
            "other global C code), not 'static int calls;'");
  EXPECT_EQ(Print(module), Print(ReadVerified(kText)));
}

TEST(MakeInstr, RefusesAProcThatClobbers) {
  constexpr char kClobbers[] = R"((config @Cfg (s f32))

(proc @set ((in v f32))
  (clobbers @Cfg s)
  (write-config @Cfg s v))
)";
  ir::Module module = ReadVerified(kClobbers);
  auto instr = MakeInstr(module, ProcNamed(module, "@set"), "set({v});");
  EXPECT_EQ(instr.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(instr.status().message(),
            "make_instr: @set declares what it clobbers ((clobbers @Cfg s)); "
            "an instr's writes are its meaning");
  EXPECT_EQ(Print(module), Print(ReadVerified(kClobbers)));
}

TEST(MakeInstr, Spec) { EXPECT_EQ(MakeInstrSpec().name, "make_instr"); }

}  // namespace
}  // namespace tessel::primitives
