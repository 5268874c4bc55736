#include "libs/primitives/inline_window.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives {
namespace {

// inline_window of the statement at `path` of the proc of `text`.
std::string Inlined(const std::string& text, const std::vector<size_t>& path) {
  return testing::OutcomeAt(text, path, InlineWindow);
}

// Exo's test_inline_window.
TEST(InlineWindow, MakesEachAccessOneOfTheBuffer) {
  EXPECT_EQ(Inlined("(proc @f ((in x (f32 8 8)) (out y (f32 4)))\n"
                    "  (let w (window x (: 2 6) 3))\n"
                    "  (for i 0 4 (assign (y i) (w i))))\n",
                    {0}),
            "(proc @f ((in x (f32 8 8)) (out y (f32 4)))\n"
            "  (for i 0 4 (assign (y i) (x (+ i 2) 3))))\n");
}

TEST(InlineWindow, RefusesAWindowUsedWhole) {
  EXPECT_EQ(Inlined("(proc @g ((size n) (in a (window f32 n)) (out b f32))\n"
                    "  (assign b (a 0)))\n"
                    "(proc @f ((in x (f32 8 8)) (out y f32))\n"
                    "  (let w (window x (: 2 6) 3))\n"
                    "  (call @g 4 w y))\n",
                    {0}),
            "inline_window: 'w' is used whole in '(call @g 4 w y)'; only its "
            "elements and windows can be rewritten");
}

TEST(InlineWindow, Spec) { EXPECT_EQ(InlineWindowSpec().name, "inline_window"); }

}  // namespace
}  // namespace tessel::primitives
