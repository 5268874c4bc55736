#include "libs/primitives/insert_prefetch.h"

#include <string>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "libs/ir/build.h"
#include "libs/ir/forms.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives {
namespace {

using ir::Build;
using ir::Node;
using testing::OutcomeAt;

constexpr char kScale[] = R"((proc @scale ((in x (f32 20)) (in s f32) (out y (f32 20)))
  (for i 0 20 (assign (y i) (* s (x i)))))
)";

const Node& Param(ir::Module& module, const char* name) {
  return *ir::FindParam(*module.forms().back(), name);
}

// A prefetch of `x[i + ahead]` (or of what `element` builds) before the
// loop's assignment.
std::string Prefetch(
    absl::FunctionRef<Node*(ir::Module&, const ir::Cursor&)> element) {
  return OutcomeAt(kScale, {0, 0},
                   [&](ir::Module& module, const ir::Cursor& assign) {
                     return InsertPrefetch(module, assign.before(),
                                           *element(module, assign));
                   });
}

Node* Ahead(ir::Module& module, const ir::Cursor& assign, int64_t ahead) {
  const Node& loop = *assign.node()->parent();
  return Build::Load(module, Param(module, "x"),
                     {Build::Add(module, Build::Ref(module, loop),
                                 Build::Int(module, ahead))});
}

TEST(InsertPrefetchTest, PrefetchesPastTheEnd) {
  // The last 16 iterations prefetch past x: a hint may.
  EXPECT_EQ(Prefetch([](ir::Module& module, const ir::Cursor& assign) {
              return Ahead(module, assign, 16);
            }),
            R"((proc @scale ((in x (f32 20)) (in s f32) (out y (f32 20)))
  (for i 0 20 (prefetch x (+ i 16)) (assign (y i) (* s (x i)))))
)");
}

TEST(InsertPrefetchTest, RejectsWhatIsNoElementOfATensor) {
  EXPECT_EQ(Prefetch([](ir::Module& module, const ir::Cursor&) {
              return Build::Window(
                  module, Param(module, "x"),
                  {Build::Interval(module, Build::Int(module, 0),
                                   Build::Int(module, 4))});
            }),
            "insert_prefetch needs one element of a tensor ('A[i, j]'), not "
            "'(window x (: 0 4))'");
  EXPECT_EQ(Prefetch([](ir::Module& module, const ir::Cursor&) {
              return Build::Ref(module, Param(module, "s"));
            }),
            "insert_prefetch needs one element of a tensor ('A[i, j]'), not "
            "'s'");
  // An index that is no integer.
  const std::string float_index =
      Prefetch([](ir::Module& module, const ir::Cursor&) {
        return Build::Load(module, Param(module, "x"),
                           {Build::Ref(module, Param(module, "s"))});
      });
  EXPECT_NE(float_index.find("cannot insert '(prefetch x s)'"),
            std::string::npos)
      << float_index;
}

}  // namespace
}  // namespace tessel::primitives
