#include "libs/primitives/set_window.h"

#include <string>

#include "gtest/gtest.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives {
namespace {

using testing::DeclNamed;
using testing::Outcome;

// set_window of the parameter `name` of the last proc of `text`.
std::string Windowed(const std::string& text, const std::string& name,
                     bool is_window) {
  return Outcome(testing::Rewrite(
      text,
      [&](ir::Module& module, ir::Node& proc) {
        return SetWindow(module, DeclNamed(module, proc, name), is_window);
      },
      {{{"n", 4}}}));
}

// Exo's test_set_window.
TEST(SetWindow, MakesAParameterAWindow) {
  EXPECT_EQ(Windowed("(proc @f ((size n) (inout x (f32 n)))\n"
                     "  (for i 0 n (assign (x i) 0.0)))\n",
                     "x", true),
            "(proc @f ((size n) (inout x (window f32 n))) (for i 0 n (assign "
            "(x i) 0.0)))\n");
}

TEST(SetWindow, MakesAWindowATensor) {
  EXPECT_EQ(Windowed("(proc @f ((size n) (inout x (window f32 n)))\n"
                     "  (for i 0 n (assign (x i) 0.0)))\n",
                     "x", false),
            "(proc @f ((size n) (inout x (f32 n))) (for i 0 n (assign (x i) "
            "0.0)))\n");
}

TEST(SetWindow, RejectsASize) {
  EXPECT_EQ(Windowed("(proc @f ((size n) (inout x (f32 n)))\n"
                     "  (for i 0 n (assign (x i) 0.0)))\n",
                     "n", true),
            "set_window expects a data parameter, not '(size n)'");
}

// A caller passes a window: the parameter must stay one.
TEST(SetWindow, RejectsATensorACallerPassesAWindowTo) {
  std::string outcome = Outcome(testing::Rewrite(
      "(proc @f ((size n) (inout x (window f32 n)))\n"
      "  (for i 0 n (assign (x i) 0.0)))\n"
      "(proc @g ((inout y (f32 8))) (call @f 4 (window y (: 2 6))))\n",
      [&](ir::Module& module, ir::Node&) {
        ir::Node& f = testing::ProcNamed(module, "@f");
        return SetWindow(module, DeclNamed(module, f, "x"), false);
      }));
  EXPECT_NE(outcome.find("a window can only be passed to a window parameter"),
            std::string::npos)
      << outcome;
}

TEST(SetWindow, Spec) { EXPECT_EQ(SetWindowSpec().name, "set_window"); }

}  // namespace
}  // namespace tessel::primitives
