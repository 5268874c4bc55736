// Verifying one edited proc against a verified module (VerifyProc).
#include <string>

#include "gtest/gtest.h"
#include "libs/ir/build.h"
#include "libs/ir/edit.h"
#include "libs/ir/forms.h"
#include "libs/verify/read.h"
#include "libs/verify/verifier.h"
#include "libs/ir/views.h"

namespace tessel::ir {
namespace {

constexpr char kModule[] =
    "(proc @add ((size n) (in x (f32 n)) (out y (f32 n)))\n"
    "  (for i 0 n (assign (y i) (x i))))\n"
    "(proc @p ((in A (f32 8)) (out B (f32 8)))\n"
    "  (call @add 8 A B))\n"
    "(proc @q ((in A (f32 8)) (out B (f32 8)))\n"
    "  (for i 0 8 (assign (B i) (A i))))\n";

class VerifyProcTest : public ::testing::Test {
 protected:
  VerifyProcTest() {
    auto module = ReadModule(MakeSource("m.tir", kModule));
    EXPECT_TRUE(module.ok()) << module.status();
    if (module.ok()) module_ = *std::move(module);
  }
  Node& Proc(const char* name) { return *module_.Find(name); }

  Module module_;
};

TEST_F(VerifyProcTest, ChecksTheEditedProcAlone) {
  // Break @q: what VerifyModule finds, VerifyProc of @p does not look at.
  Node& loop = *BodyOf(Proc("@q"))[0];
  ForView(loop).hi()->set_int(9);
  EXPECT_FALSE(VerifyModule(module_).ok());
  EXPECT_TRUE(VerifyProc(module_, Proc("@p")).ok());
  absl::Status status = VerifyProc(module_, Proc("@q"));
  EXPECT_NE(status.message().find("m.tir:6:"), std::string::npos) << status;
}

TEST_F(VerifyProcTest, BoundsCanWaitForTheFinishedProc) {
  // @q reads A[8] once its loop runs to 9: only the bounds check sees it,
  // and it still types the proc when told to leave bounds out.
  Node& loop = *BodyOf(Proc("@q"))[0];
  ForView(loop).hi()->set_int(9);
  EXPECT_TRUE(VerifyProc(module_, Proc("@q"), {.bounds = false}).ok());
  absl::Status status = VerifyProc(module_, Proc("@q"));
  EXPECT_NE(status.message().find("m.tir:6:"), std::string::npos) << status;
}

TEST_F(VerifyProcTest, ContractsCanWaitForTheFinishedProc) {
  // @p's call passes @add a size of 9 with arguments of 8 elements: only
  // the contracts' check sees it, and it still types the call without.
  Node& call = *BodyOf(Proc("@p"))[0];
  call.operand(0)->set_int(9);
  EXPECT_TRUE(VerifyProc(module_, Proc("@p"), {.contracts = false}).ok());
  absl::Status status = VerifyProc(module_, Proc("@p"));
  EXPECT_NE(status.message().find("dimension 0 of argument 'x'"),
            std::string::npos)
      << status;
  // A non-size argument is still an error.
  call.operand(0)->set_int(0);
  Module& module = module_;
  module.Replace(call.operand(1), Build::Float(module, 1.0));
  EXPECT_FALSE(VerifyProc(module_, Proc("@p"), {.contracts = false}).ok());
}

TEST_F(VerifyProcTest, TypesWhatTheEditBuilt) {
  // Replace @p's call by a loop built in memory, untyped: verifying @p
  // types it.
  Node& p = Proc("@p");
  std::vector<Node*> params = ParamsOf(p);
  Node* loop = Build::For(module_, "k", Build::Int(module_, 0),
                          Build::Int(module_, 8), {});
  Node* value = Build::Float(module_, 1.5);
  module_.Append(loop, Build::Assign(module_,
                                     Build::Load(module_, *params[1],
                                                 {Build::Ref(module_, *loop)}),
                                     value));
  module_.Replace(BodyOf(p)[0], loop);
  EXPECT_TRUE(value->type().is_none());
  absl::Status status = VerifyProc(module_, p);
  EXPECT_TRUE(status.ok()) << status;
  EXPECT_EQ(TypeText(value->type()), "f32");
}

TEST_F(VerifyProcTest, SeesACallThatTheEditMadeRecursive) {
  Node& add = Proc("@add");
  Node* call = Build::Call(module_, Proc("@p"),
                           {Build::Ref(module_, *ParamsOf(add)[1]),
                            Build::Ref(module_, *ParamsOf(add)[2])});
  module_.Append(&add, call);
  absl::Status status = VerifyProc(module_, add);
  EXPECT_NE(status.message().find("recursive call: @add -> @p -> @add"),
            std::string::npos)
      << status;
}

TEST_F(VerifyProcTest, AClonedProcWithARenamedSizeVerifies) {
  Node* copy = module_.Clone(&Proc("@add"));
  copy->set_name("@add2");
  module_.AddForm(copy);
  Rename(*ParamsOf(*copy)[0], "m", *copy);
  absl::Status status = VerifyProc(module_, *copy);
  EXPECT_TRUE(status.ok()) << status;
}

}  // namespace
}  // namespace tessel::ir
