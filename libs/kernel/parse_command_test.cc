#include "libs/kernel/parse_command.h"

#include <cstdlib>
#include <fstream>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "libs/cli/command_line.h"

namespace tessel::kernel {
namespace {

// Writes `text` to a file named `name` in the test's scratch directory.
std::string WriteFile(const std::string& name, const std::string& text) {
  const char* dir = std::getenv("TEST_TMPDIR");
  std::string path = std::string(dir != nullptr ? dir : "/tmp") + "/" + name;
  std::ofstream(path) << text;
  return path;
}

constexpr char kCopy[] =
    "# copy\n"
    "kernel copy(x: f32[N]) -> (y: f32[N]) { all (i) in (N) y[i] = x[i]; }\n";

TEST(ParseCommandTest, SniffsTir) {
  EXPECT_TRUE(LooksLikeTir("; comment\n\n  (proc @p ())"));
  EXPECT_TRUE(LooksLikeTir("# also a comment\n(func"));
  EXPECT_FALSE(LooksLikeTir("# kernel\nkernel k() -> (y: f32) {}"));
  EXPECT_FALSE(LooksLikeTir("  ; only a comment"));
  EXPECT_FALSE(LooksLikeTir(""));
}

TEST(ParseCommandTest, LowersKernelsToEitherLevel) {
  ParseOptions options;
  options.input = WriteFile("copy.tk", kCopy);
  options.sizes = {{"N", 3}};
  auto loops = RunParse(options);
  ASSERT_TRUE(loops.ok()) << loops.status();
  EXPECT_EQ(*loops,
            "(proc @copy ((in x (f32 3)) (out y (f32 3))) (for i 0 3 (assign "
            "(y i) (x i))))\n");
  options.emit = EmitLevel::kTerms;
  auto terms = RunParse(options);
  ASSERT_TRUE(terms.ok()) << terms.status();
  EXPECT_EQ(*terms,
            "(func @copy ((x (f32 3))) ((y (f32 3))) (build 3 (lam (index x "
            "%0))))\n");
}

TEST(ParseCommandTest, LowersEachKernelOfAFileInOrder) {
  ParseOptions options;
  options.input = WriteFile(
      "two.tk", std::string(kCopy) +
                    "kernel twice(x: f32[N]) -> (y: f32[N]) {\n"
                    "  all (i) in (N) y[i] = 2.0 * x[i];\n}\n");
  options.sizes = {{"N", 2}};
  auto loops = RunParse(options);
  ASSERT_TRUE(loops.ok()) << loops.status();
  EXPECT_EQ(*loops,
            "(proc @copy ((in x (f32 2)) (out y (f32 2))) (for i 0 2 (assign "
            "(y i) (x i))))\n\n"
            "(proc @twice ((in x (f32 2)) (out y (f32 2)))\n"
            "  (for i 0 2 (assign (y i) (* 2.0 (x i)))))\n");
}

// Kernels are read and lowered one at a time, but a file's errors are
// reported as when it is lexed whole, then parsed, then checked: the first
// lexical error anywhere, else the first syntax error, else the first
// kernel that does not check.
TEST(ParseCommandTest, ReportsErrorsAsIfTheWholeFileWereReadFirst) {
  const std::string unknown_name =
      "kernel a(x: f32[2]) -> (y: f32[2]) { all (i) in (2) y[i] = z[i]; }\n";
  const std::string duplicate =
      "kernel a(x: f32[2]) -> (y: f32[2]) { all (i) in (2) y[i] = x[i]; }\n";
  const std::string missing_semicolon =
      "kernel b(x: f32[2]) -> (y: f32[2]) { all (i) in (2) y[i] = x[i] }\n";
  const std::string bad_character =
      "kernel c(x: f32[2]) -> (y: f32[2]) { all (i) in (2) y[i] = $x[i]; }\n";
  auto error = [](const std::string& name, const std::string& text) {
    ParseOptions options;
    options.input = WriteFile(name, text);
    absl::Status status = RunParse(options).status();
    EXPECT_FALSE(status.ok());
    return std::string(status.message());
  };
  EXPECT_TRUE(absl::StrContains(
      error("lex.tk", unknown_name + missing_semicolon + bad_character),
      "/lex.tk:3:60: error: unexpected character '$'"));
  EXPECT_TRUE(absl::StrContains(
      error("syntax.tk", unknown_name + missing_semicolon + duplicate),
      "/syntax.tk:2:64: error: expected ';'"));
  EXPECT_TRUE(absl::StrContains(error("sema.tk", unknown_name + duplicate),
                                "/sema.tk:1:60: error: unknown tensor 'z'"));
  EXPECT_TRUE(absl::StrContains(
      error("twice.tk", duplicate + duplicate),
      "/twice.tk:2:8: error: kernel 'a' is already defined at 1:8"));
}

TEST(ParseCommandTest, VerifiesAndReprintsTir) {
  ParseOptions options;
  options.input =
      WriteFile("p.tir",
                "; a comment\n(proc @p ((in x (f32 2)) (out y (f32 2)))\n"
                "  (for i 0 2 (assign (y i) (x i))))");
  auto text = RunParse(options);
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_EQ(*text,
            "(proc @p ((in x (f32 2)) (out y (f32 2))) (for i 0 2 (assign (y "
            "i) (x i))))\n");
  options.input = WriteFile("bad.tir",
                            "(proc @p ((in x (f32 2)) (out y (f32 2)))\n"
                            "  (for i 0 3 (assign (y i) (x i))))");
  auto bad = RunParse(options);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("bad.tir:2:"), std::string::npos)
      << bad.status();
}

TEST(ParseCommandTest, RejectsKernelFlagsOnTir) {
  ParseOptions options;
  options.input = WriteFile("q.tir", "(proc @p ())");
  options.emit = EmitLevel::kLoops;
  absl::Status emit = RunParse(options).status();
  EXPECT_EQ(emit.message(), "--emit applies to kernel input, not to TIR");
  EXPECT_TRUE(IsUsageError(emit));
  options.emit.reset();
  options.sizes = {{"N", 1}};
  absl::Status sizes = RunParse(options).status();
  EXPECT_TRUE(absl::StartsWith(sizes.message(),
                               "-D applies to kernel input, not to TIR"))
      << sizes;
  EXPECT_TRUE(IsUsageError(sizes));
}

TEST(ParseCommandTest, RejectsSizesNoKernelUses) {
  ParseOptions options;
  options.input = WriteFile("copy.tk", kCopy);
  options.sizes = {{"N", 3}, {"M", 4}};
  absl::Status status = RunParse(options).status();
  EXPECT_EQ(status.message(), "-D M: no kernel in " + options.input +
                                  " has a size 'M' (sizes: N)");
  EXPECT_FALSE(IsUsageError(status));
}

TEST(ParseCommandTest, ReportsMissingFilesAndEmptyInput) {
  ParseOptions options;
  options.input = "/nonexistent/k.tk";
  EXPECT_FALSE(RunParse(options).ok());
  options.input = WriteFile("empty.tk", "# nothing here\n");
  auto empty = RunParse(options);
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.status().message().find("empty.tk: error: no kernel in the "
                                          "input"),
            std::string::npos)
      << empty.status();
}

}  // namespace
}  // namespace tessel::kernel
