#include "libs/emitc/npy_runtime.h"

#include "gtest/gtest.h"

namespace tessel::emitc {
namespace {

TEST(NpyRuntimeTest, EveryPartIsThereWithoutItsMarkers) {
  for (absl::string_view name :
       {"posix_feature", "stdio", "posix", "program", "error", "allocate",
        "arguments", "files", "reader", "writer"}) {
    absl::string_view part = RuntimePart(name);
    EXPECT_FALSE(part.empty()) << name;
    EXPECT_EQ(part.find("tsl:"), absl::string_view::npos) << name;
    EXPECT_EQ(part.back(), '\n') << name;
  }
  EXPECT_EQ(RuntimePart("posix_feature"), "#define _POSIX_C_SOURCE 200809L\n");
  EXPECT_NE(RuntimePart("error").find("static void tsl_error("),
            absl::string_view::npos);
  EXPECT_TRUE(RuntimePart("no_such_part").empty());
}

}  // namespace
}  // namespace tessel::emitc
