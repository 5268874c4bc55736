#include "libs/cli/command_line.h"

#include "gtest/gtest.h"

namespace tessel {
namespace {

CommandLine MakeParseLike() {
  CommandLine cl("parse", "FILE [-D NAME=VALUE]... [-o OUT]", "Parses.");
  cl.AddFlag({"define", 'D', "NAME=VALUE", true, "binds a size"});
  cl.AddFlag({"emit", 0, "loops|terms", false, "what to write"});
  cl.AddFlag({"output", 'o', "OUT", false, "output file"});
  cl.AddFlag({"verbose", 'v', "", false, "talk"});
  return cl;
}

absl::Status ParseArgs(CommandLine& cl, std::vector<std::string> args) {
  std::vector<char*> argv;
  static std::string tool = "parse";
  argv.push_back(tool.data());
  for (std::string& arg : args) argv.push_back(arg.data());
  return cl.Parse(static_cast<int>(argv.size()), argv.data());
}

TEST(CommandLineTest, ParsesAllFlagForms) {
  CommandLine cl = MakeParseLike();
  ASSERT_TRUE(ParseArgs(cl, {"k.tk", "-D", "M=4", "-DN=8", "--emit=terms", "-o",
                             "out.tir", "-v"})
                  .ok());
  EXPECT_EQ(cl.positional(), std::vector<std::string>{"k.tk"});
  EXPECT_EQ(cl.GetAll("define"), (std::vector<std::string>{"M=4", "N=8"}));
  EXPECT_EQ(cl.Get("emit"), "terms");
  EXPECT_EQ(cl.Get("output"), "out.tir");
  EXPECT_TRUE(cl.Has("verbose"));
}

TEST(CommandLineTest, RejectsBadFlags) {
  CommandLine a = MakeParseLike();
  EXPECT_EQ(ParseArgs(a, {"--frobnicate"}).message(),
            "unknown flag '--frobnicate'");
  CommandLine b = MakeParseLike();
  EXPECT_EQ(ParseArgs(b, {"-x"}).message(), "unknown flag '-x'");
  CommandLine c = MakeParseLike();
  EXPECT_FALSE(ParseArgs(c, {"-o"}).ok());
  CommandLine d = MakeParseLike();
  EXPECT_FALSE(ParseArgs(d, {"--emit=a", "--emit=b"}).ok());
  CommandLine e = MakeParseLike();
  EXPECT_FALSE(ParseArgs(e, {"--verbose=yes"}).ok());
}

TEST(CommandLineTest, InputDefaultsToStdin) {
  CommandLine none = MakeParseLike();
  ASSERT_TRUE(ParseArgs(none, {"-o", "x"}).ok());
  EXPECT_EQ(*InputPath(none), "-");
  CommandLine one = MakeParseLike();
  ASSERT_TRUE(ParseArgs(one, {"k.tk"}).ok());
  EXPECT_EQ(*InputPath(one), "k.tk");
  CommandLine two = MakeParseLike();
  ASSERT_TRUE(ParseArgs(two, {"a.tk", "b.tk"}).ok());
  EXPECT_FALSE(InputPath(two).ok());
}

TEST(CommandLineTest, DefinitionsAreIntegers) {
  auto ok = ParseDefinitions({"M=64", "N=-1"});
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->at("M"), 64);
  EXPECT_FALSE(ParseDefinitions({"M"}).ok());
  EXPECT_FALSE(ParseDefinitions({"M=x"}).ok());
  EXPECT_FALSE(ParseDefinitions({"M=1", "M=2"}).ok());
}

TEST(CommandLineTest, HelpListsFlags) {
  CommandLine cl = MakeParseLike();
  std::string help = cl.HelpText();
  EXPECT_NE(help.find("usage: parse FILE"), std::string::npos);
  EXPECT_NE(help.find("-D, --define NAME=VALUE"), std::string::npos);
}

}  // namespace
}  // namespace tessel
