#include "libs/primitives/insert_noop_call.h"

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "libs/ir/build.h"
#include "libs/ir/forms.h"
#include "libs/verify/verifier.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives {
namespace {

using ir::Build;
using ir::Node;
using testing::Print;
using testing::ProcNamed;
using testing::ReadVerified;
using testing::SameValues;
using testing::StmtAt;

// Exo's test_insert_noop_call: x86's prefetch (a window of one element and
// a locality hint from 0 to 7) and a fence, whose bodies are empty.
constexpr char kInstrs[] = R"((instr @prefetch ((in A (window i8 1)) (size locality_hint))
  (c "_mm_prefetch(&{A_data}, {locality_hint});")
  (assert (>= locality_hint 0))
  (assert (< locality_hint 8)))

(instr @fence () (c "fence();"))

(config @Cfg (n index))

(instr @spin ()
  (c "spin();")
  (for i 0 (read-config @Cfg n)))

(instr @store ((out A (window i8 1))) (c "store({A_data});") (assign (A 0) 0))
)";

// Where the prefetch of x[1:2] is in bounds and its hint in range.
const std::string kText = std::string(kInstrs) + R"(
(proc @foo ((size n) (in x (i8 n)) (size locality_hint) (out y (i8 n)))
  (assert (>= n 2))
  (assert (>= locality_hint 0))
  (assert (< locality_hint 8))
  (for i 0 n (assign (y i) (x i))))
)";

class InsertNoopCallTest : public ::testing::Test {
 protected:
  void SetUp() override { before_ = Print(module_); }

  Node& foo() { return ProcNamed(module_, "@foo"); }
  const Node& Param(const char* name) {
    return *ir::FindParam(*module_.forms().back(), name);
  }
  // x[lo:lo + 1] of the proc.
  Node* XWindow(int64_t lo) {
    return Build::Window(module_, Param("x"),
                         {Build::Interval(module_, Build::Int(module_, lo),
                                          Build::Int(module_, lo + 1))});
  }
  absl::Status Insert(const ir::GapCursor& gap, const char* callee,
                      const std::vector<const Node*>& args) {
    return InsertNoopCall(module_, gap, ProcNamed(module_, callee), args);
  }
  // The rejection left the module as it was.
  void ExpectUnchanged() { EXPECT_EQ(Print(module_), before_); }

  ir::Module module_ = ReadVerified(kText);
  std::string before_;
};

TEST_F(InsertNoopCallTest, InsertsAPrefetchWhoseAssertionsHold) {
  ASSERT_TRUE(Insert(StmtAt(module_, foo(), {0}).before(), "@prefetch",
                     {XWindow(1), Build::Ref(module_, Param("locality_hint"))})
                  .ok());
  ASSERT_TRUE(ir::VerifyProc(module_, foo()).ok());
  std::string text = Print(module_);
  EXPECT_EQ(text.substr(text.find("(proc @foo")),
            R"((proc @foo ((size n) (in x (i8 n)) (size locality_hint) (out y (i8 n)))
  (assert (>= n 2))
  (assert (>= locality_hint 0))
  (assert (< locality_hint 8))
  (call @prefetch (window x (: 1 2)) locality_hint)
  (for i 0 n (assign (y i) (x i))))
)");
  absl::Status same =
      SameValues(kText, module_, {{"n", 4}, {"locality_hint", 3}});
  EXPECT_TRUE(same.ok()) << same;
}

TEST_F(InsertNoopCallTest, InsertsAFenceInALoop) {
  ir::Cursor assign = StmtAt(module_, foo(), {0, 0});
  ASSERT_TRUE(Insert(assign.after(), "@fence", {}).ok());
  std::string text = Print(module_);
  EXPECT_NE(text.find("(for i 0 n (assign (y i) (x i)) (call @fence))"),
            std::string::npos)
      << text;
  absl::Status same =
      SameValues(kText, module_, {{"n", 4}, {"locality_hint", 3}});
  EXPECT_TRUE(same.ok()) << same;
}

TEST_F(InsertNoopCallTest, RejectsArgumentsThatDoNotFit) {
  absl::Status count =
      Insert(StmtAt(module_, foo(), {0}).before(), "@prefetch", {});
  EXPECT_EQ(count.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(count.message(),
            "insert_noop_call: @prefetch takes 2 arguments, not 0");
  // Exo's test_insert_noop_call_bad_args: a size where a window goes.
  absl::Status type = Insert(StmtAt(module_, foo(), {0}).before(), "@prefetch",
                             {Build::Ref(module_, Param("n")),
                              Build::Ref(module_, Param("locality_hint"))});
  EXPECT_EQ(type.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(type.message().find(
                "cannot insert '(call @prefetch n locality_hint)'"),
            std::string::npos)
      << type;
  ExpectUnchanged();
}

// Exo checks neither the bounds of the window nor the callee's assertions.
TEST_F(InsertNoopCallTest, RejectsAWindowOutOfBoundsOrAnAssertionThatFails) {
  module_ = ReadVerified(std::string(kInstrs) + R"(
(proc @bar ((size n) (in x (i8 n)) (size locality_hint) (out y (i8 n)))
  (for i 0 n (assign (y i) (x i))))
)");
  before_ = Print(module_);
  Node& bar = ProcNamed(module_, "@bar");
  absl::Status bounds =
      Insert(StmtAt(module_, bar, {0}).before(), "@prefetch",
             {XWindow(1), Build::Int(module_, 3)});
  EXPECT_EQ(bounds.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(bounds.message().find("n = 1"), std::string::npos) << bounds;
  absl::Status hint =
      Insert(StmtAt(module_, bar, {0}).before(), "@prefetch",
             {XWindow(0), Build::Ref(module_, Param("locality_hint"))});
  EXPECT_EQ(hint.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(hint.message().find("locality_hint = 8"), std::string::npos)
      << hint;
  ExpectUnchanged();
}

TEST_F(InsertNoopCallTest, RejectsACalleeThatDoesSomething) {
  absl::Status store = Insert(StmtAt(module_, foo(), {0}).before(), "@store",
                              {XWindow(0)});
  EXPECT_EQ(store.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(store.message(),
            "the body of @store may do something: '(assign (A 0) 0)' (a "
            "no-op's body holds loops, ifs, allocations and calls of no-ops "
            "only)");
  // Its loop reads a configuration field, which may not be set.
  absl::Status spin = Insert(StmtAt(module_, foo(), {0}).before(), "@spin", {});
  EXPECT_EQ(spin.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(spin.message(),
            "cannot insert '(call @spin)': '(call @spin)' is not a no-op: it "
            "reads @Cfg.n (a read may see an element or a field not set yet)");
  ExpectUnchanged();
}

}  // namespace
}  // namespace tessel::primitives
