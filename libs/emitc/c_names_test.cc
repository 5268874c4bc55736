#include "libs/emitc/c_names.h"

#include "gtest/gtest.h"

namespace tessel::emitc {
namespace {

bool Never(absl::string_view) { return false; }

TEST(CNamesTest, Sanitizes) {
  EXPECT_EQ(SanitizeIdentifier("@matmul"), "matmul");
  EXPECT_EQ(SanitizeIdentifier("only-written"), "only_written");
  EXPECT_EQ(SanitizeIdentifier("x'"), "x_");
  EXPECT_EQ(SanitizeIdentifier("2d"), "v2d");
  EXPECT_EQ(SanitizeIdentifier("_tmp"), "v_tmp");
  EXPECT_EQ(SanitizeIdentifier("tsl_win"), "vtsl_win");
}

TEST(CNamesTest, AvoidsReservedAndTakenNames) {
  EXPECT_EQ(UniqueIdentifier("for", Never), "for_1");
  EXPECT_EQ(UniqueIdentifier("int64_t", Never), "int64_t_1");
  EXPECT_EQ(UniqueIdentifier("EOF", Never), "EOF_1");
  EXPECT_EQ(UniqueIdentifier("INT8_MAX", Never), "vINT8_MAX");
  EXPECT_EQ(UniqueIdentifier("size_t", Never), "size_t_1");
  EXPECT_EQ(UniqueIdentifier("@sinf", Never), "sinf_1");
  EXPECT_EQ(UniqueIdentifier("main", Never), "main_1");
  EXPECT_EQ(UniqueIdentifier("i",
                             [](absl::string_view name) {
                               return name == "i" || name == "i_1";
                             }),
            "i_2");
  EXPECT_EQ(UniqueIdentifier("A", Never), "A");
  EXPECT_FALSE(IsReservedIdentifier("N"));
  EXPECT_FALSE(IsReservedIdentifier("acc"));
}

TEST(CNamesTest, CollectsIdentifiers) {
  absl::flat_hash_set<std::string> names;
  CollectIdentifiers("mvin(a, 0x10, b2); hw_free", names);
  EXPECT_TRUE(names.contains("mvin"));
  EXPECT_TRUE(names.contains("hw_free"));
  EXPECT_TRUE(names.contains("b2"));
  EXPECT_FALSE(names.contains("0x10"));
  EXPECT_FALSE(names.contains("x10"));
}

TEST(CNamesTest, StringLiterals) {
  EXPECT_EQ(CStringLiteral("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(CStringLiteral("?\?="), "\"?\\?=\"");
  EXPECT_EQ(CStringLiteral("%d\n"), "\"%d\\n\"");
}

}  // namespace
}  // namespace tessel::emitc
