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

// argv for `parse ARGS...`; the strings live as long as `args`.
std::vector<char*> Argv(std::vector<std::string>& args) {
  static std::string tool = "parse";
  std::vector<char*> argv = {tool.data()};
  for (std::string& arg : args) argv.push_back(arg.data());
  return argv;
}

absl::Status ParseArgs(CommandLine& cl, std::vector<std::string> args) {
  std::vector<char*> argv = Argv(args);
  return cl.Parse(static_cast<int>(argv.size()), argv.data());
}

int RunArgs(std::vector<std::string> args, absl::Status result) {
  CommandLine cl = MakeParseLike();
  std::vector<char*> argv = Argv(args);
  return RunTool(cl, static_cast<int>(argv.size()), argv.data(),
                 [&](const CommandLine&) { return result; });
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

TEST(CommandLineTest, RejectsBadFlagsAsUsageErrors) {
  CommandLine a = MakeParseLike();
  absl::Status unknown = ParseArgs(a, {"--frobnicate"});
  EXPECT_EQ(unknown.message(), "unknown flag '--frobnicate'");
  EXPECT_TRUE(IsUsageError(unknown));
  CommandLine b = MakeParseLike();
  EXPECT_EQ(ParseArgs(b, {"-x"}).message(), "unknown flag '-x'");
  CommandLine c = MakeParseLike();
  EXPECT_TRUE(IsUsageError(ParseArgs(c, {"-o"})));
  CommandLine d = MakeParseLike();
  EXPECT_TRUE(IsUsageError(ParseArgs(d, {"--emit=a", "--emit=b"})));
  CommandLine help = MakeParseLike();
  absl::Status help_value = ParseArgs(help, {"--help=yes"});
  EXPECT_EQ(help_value.message(), "flag --help takes no value");
  EXPECT_TRUE(IsUsageError(help_value));
  CommandLine version = MakeParseLike();
  EXPECT_EQ(ParseArgs(version, {"--version=2"}).message(),
            "flag --version takes no value");
  CommandLine e = MakeParseLike();
  EXPECT_TRUE(IsUsageError(ParseArgs(e, {"--verbose=yes"})));
  EXPECT_FALSE(IsUsageError(absl::InvalidArgumentError("k.tk: error: x")));
}

TEST(CommandLineTest, TypedValuesAreChecked) {
  CommandLine cl = MakeParseLike();
  ASSERT_TRUE(ParseArgs(cl, {"--emit=c", "-o", "-3"}).ok());
  absl::StatusOr<std::string> emit =
      cl.GetChoice("emit", {"loops", "terms", "c99"}, "loops");
  EXPECT_TRUE(IsUsageError(emit.status()));
  EXPECT_EQ(emit.status().message(),
            "--emit must be 'loops', 'terms' or 'c99', not 'c'");
  EXPECT_EQ(*cl.GetChoice("emit", {"c"}, "x"), "c");
  EXPECT_EQ(*cl.GetChoice("verbose", {"c"}, "x"), "x");  // not given

  absl::StatusOr<uint64_t> count = cl.GetUint64("output", 0);
  EXPECT_TRUE(IsUsageError(count.status()));
  EXPECT_EQ(count.status().message(),
            "--output must be a non-negative integer, not '-3'");
  EXPECT_EQ(*cl.GetUint64("verbose", 7), 7u);

  EXPECT_EQ(cl.GetNonNegativeDouble("output", 0).status().message(),
            "--output must be a non-negative number, not '-3'");
  CommandLine numbers = MakeParseLike();
  ASSERT_TRUE(ParseArgs(numbers, {"--emit=1e-4", "-o", "inf"}).ok());
  EXPECT_EQ(*numbers.GetNonNegativeDouble("emit", 0), 1e-4);
  EXPECT_EQ(*numbers.GetUint64("verbose", 7), 7u);
  EXPECT_TRUE(IsUsageError(numbers.GetNonNegativeDouble("output", 0).status()));
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
  EXPECT_TRUE(IsUsageError(InputPath(two).status()));
}

TEST(CommandLineTest, DefinitionsAreIntegers) {
  auto ok = ParseDefinitions({"M=64", "N=-1"});
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->at("M"), 64);
  EXPECT_TRUE(IsUsageError(ParseDefinitions({"M"}).status()));
  EXPECT_TRUE(IsUsageError(ParseDefinitions({"M=x"}).status()));
  EXPECT_TRUE(IsUsageError(ParseDefinitions({"M=1", "M=2"}).status()));
}

TEST(CommandLineTest, HelpListsFlags) {
  CommandLine cl = MakeParseLike();
  std::string help = cl.HelpText();
  EXPECT_NE(help.find("usage: parse FILE"), std::string::npos);
  EXPECT_NE(help.find("-D, --define NAME=VALUE"), std::string::npos);
  EXPECT_NE(help.find("\n  --version                print the version\n"),
            std::string::npos);
}

TEST(CommandLineTest, VersionNamesTheTool) {
  CommandLine cl = MakeParseLike();
  ASSERT_TRUE(ParseArgs(cl, {"--version"}).ok());
  EXPECT_TRUE(cl.version_requested());
  EXPECT_EQ(cl.VersionText(), "parse (Tessel) 0.1.0\n");
}

TEST(CommandLineTest, ExitStatusSaysWhatFailed) {
  EXPECT_EQ(RunArgs({"k.tk"}, absl::OkStatus()), 0);
  EXPECT_EQ(RunArgs({"--version"}, absl::InternalError("not run")), 0);
  EXPECT_EQ(RunArgs({"k.tk"}, absl::InvalidArgumentError("k.tk: error: x")), 1);
  EXPECT_EQ(RunArgs({"k.tk"}, UsageError("two files")), 2);
  EXPECT_EQ(RunArgs({"--frobnicate"}, absl::OkStatus()), 2);
}

}  // namespace
}  // namespace tessel
