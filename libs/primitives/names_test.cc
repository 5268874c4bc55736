#include "libs/primitives/names.h"

#include "gtest/gtest.h"

namespace tessel::primitives {
namespace {

TEST(NamesTest, IdentifiersAreLettersDigitsAndUnderscores) {
  for (const char* name : {"i", "io", "_t", "A_tile2", "x0"}) {
    EXPECT_TRUE(IsIdentifier(name)) << name;
  }
  for (const char* name : {"", "0i", "@p", "a-b", "a b", "i.j", "é"}) {
    EXPECT_FALSE(IsIdentifier(name)) << name;
  }
}

}  // namespace
}  // namespace tessel::primitives
