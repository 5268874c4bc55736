#include "libs/ir/syntax.h"

#include <filesystem>
#include <map>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "gtest/gtest.h"
#include "libs/ir/de_bruijn.h"
#include "libs/ir/testing.h"
#include "libs/kernel/compile.h"
#include "libs/sexpr/printer.h"
#include "libs/sexpr/reader.h"

namespace tessel::ir {
namespace {

std::string ErrorOf(const std::string& text) {
  auto module = ReadText(MakeSource("m.tir", text));
  if (module.ok()) return "ok";
  std::string message(module.status().message());
  message = message.substr(0, message.find('\n'));
  return message.substr(std::string("m.tir:").size());
}

// The canonical text of the S-expressions in `source`, when they read.
std::optional<std::string> SexprCanonical(const SourceRef& source) {
  auto forms = ReadSexprs(source);
  if (!forms.ok()) return std::nullopt;
  return PrintForms(*forms, HeaderOperands);
}

// Reading into the IR and writing back gives the canonical text of every
// module the tests use.
TEST(SyntaxTest, RoundTripsTheTestModules) {
  int compared = 0;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator("testdata")) {
    if (entry.path().extension() != ".tir") continue;
    auto source = ReadSource(entry.path().string());
    ASSERT_TRUE(source.ok()) << source.status();
    std::optional<std::string> expected = SexprCanonical(*source);
    auto module = ReadText(*source);
    if (!expected || !module.ok()) continue;
    EXPECT_EQ(PrintModule(*module), *expected) << entry.path();
    ++compared;
  }
  EXPECT_GE(compared, 30);
}

// The CS-1 level's modules are written without the target library they
// use (targets/cs1/cs1.tir); with it, they round-trip too.
// Stepped, split and permuted windows print as they read.
TEST(SyntaxTest, RoundTripsSteppedSplitAndPermutedWindows) {
  const std::string text =
      "(proc @p ((in x (f32 4 24)) (out y f32))\n"
      "  (let a (window x (: 0 4 3) (split 0 24 6) (perm 2 0 1)))\n"
      "  (assign y (a 0 0 0)))\n";
  auto module = ReadText(MakeSource("m.tir", text));
  ASSERT_TRUE(module.ok()) << module.status();
  EXPECT_EQ(PrintModule(*module), text);
}

TEST(SyntaxTest, RoundTripsTheCs1Modules) {
  auto library = ReadSource("targets/cs1/cs1.tir");
  ASSERT_TRUE(library.ok()) << library.status();
  int compared = 0;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator("testdata")) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".tir" || name.rfind("cs1_", 0) != 0) {
      continue;
    }
    auto file = ReadSource(entry.path().string());
    ASSERT_TRUE(file.ok()) << file.status();
    SourceRef source =
        MakeSource(name, (*file)->text() + "\n" + (*library)->text());
    std::optional<std::string> expected = SexprCanonical(source);
    auto module = ReadText(source);
    if (!expected || !module.ok()) continue;
    EXPECT_EQ(PrintModule(*module), *expected) << entry.path();
    ++compared;
  }
  EXPECT_GE(compared, 5);
}

// The sizes a kernel's `# sizes: -D NAME=VALUE...` line gives, or M, N, K.
std::map<std::string, int64_t> SizesOf(absl::string_view text) {
  std::map<std::string, int64_t> sizes;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    if (!absl::ConsumePrefix(&line, "# sizes:")) continue;
    for (absl::string_view word :
         absl::StrSplit(line, ' ', absl::SkipEmpty())) {
      std::pair<std::string, std::string> binding = absl::StrSplit(word, '=');
      int64_t value = 0;
      if (absl::SimpleAtoi(binding.second, &value))
        sizes[binding.first] = value;
    }
  }
  if (sizes.empty()) sizes = {{"M", 6}, {"N", 5}, {"K", 3}};
  return sizes;
}

TEST(SyntaxTest, RoundTripsTheExampleKernelsAtBothLevels) {
  int compared = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator("testdata/kernels")) {
    if (entry.path().extension() != ".tk") continue;
    auto source = ReadSource(entry.path().string());
    ASSERT_TRUE(source.ok()) << source.status();
    for (auto level : {kernel::EmitLevel::kLoops, kernel::EmitLevel::kTerms}) {
      auto forms =
          kernel::CompileKernels(*source, SizesOf((*source)->text()), level);
      ASSERT_TRUE(forms.ok()) << forms.status();
      std::string expected = PrintForms(*forms, HeaderOperands);
      auto module = ReadForms(*forms, *source);
      ASSERT_TRUE(module.ok()) << entry.path() << ": " << module.status();
      EXPECT_EQ(PrintModule(*module), expected) << entry.path();
      ++compared;
    }
  }
  EXPECT_GE(compared, 20);
}

TEST(SyntaxTest, ResolvesNamesToTheirBinders) {
  Module module = ReadOk(
      "(proc @p ((size N) (in A (f32 N)) (out B (f32 N)))\n"
      "  (for i 0 N (let w (window A (: i N))) (assign (B i) (w 0))))");
  Node* proc = module.Find("@p");
  ASSERT_NE(proc, nullptr);
  Node* size = proc->operand(0);
  Node* loop = proc->operand(3);
  ASSERT_TRUE(loop->is(Op::kFor));
  EXPECT_EQ(loop->name(), "i");
  EXPECT_EQ(loop->operand(1)->def(), size);  // the bound N
  Node* let = loop->operand(2);
  Node* assign = loop->operand(3);
  Node* lhs = assign->operand(0);
  ASSERT_TRUE(lhs->is(Op::kLoad));
  EXPECT_EQ(lhs->operand(0)->def(), proc->operand(2));    // B
  EXPECT_EQ(lhs->operand(1)->def(), loop);                // i
  EXPECT_EQ(assign->operand(1)->operand(0)->def(), let);  // w
  // The type of A refers to N.
  const Type& type = proc->operand(1)->declared_type();
  ASSERT_EQ(type.rank(), 1);
  EXPECT_EQ(type.dims()[0].expr->def(), size);
}

TEST(SyntaxTest, ResolvesDeBruijnVariablesToTheirLams) {
  Module module = ReadOk(
      "(func @f ((x (f32 4))) ((y f32))\n"
      "  (ifold 4 0.0 (lam (lam (+ %0 (index x %1))))))");
  Node* func = module.Find("@f");
  Node* ifold = func->operand(2);
  Node* outer = ifold->operand(2);
  Node* inner = outer->operand(0);
  Node* add = inner->operand(0);
  EXPECT_EQ(LamOf(*add->operand(0)), inner);
  EXPECT_EQ(LamOf(*add->operand(1)->operand(1)), outer);
}

TEST(SyntaxTest, ResolvesGlobalsInAnyOrder) {
  Module module = ReadOk(
      "(proc @main ((inout x f32)) (call @inc x))\n"
      "(proc @inc ((inout y f32)) (assign y (+ y 1.0)))");
  Node* call = module.Find("@main")->operand(1);
  EXPECT_EQ(call->def(), module.Find("@inc"));
}

TEST(SyntaxTest, ReportsStructuralErrors) {
  EXPECT_EQ(ErrorOf("(proc @p ((in x f32)) (assign x y))"),
            "1:33: error: unbound name 'y'");
  EXPECT_EQ(ErrorOf("(proc @p () (for i 0))"),
            "1:13: error: expected (for V LO HI STMT...)");
  EXPECT_EQ(ErrorOf("(proc @p ((in x f32)) (assign x (for i 0 1)))"),
            "1:33: error: 'for' is not a value here");
  EXPECT_EQ(ErrorOf("(proc @p ((in x f32)) (if x (else)))"),
            "1:29: error: expected (then STMT...)");
  EXPECT_EQ(ErrorOf("(func @f () ((y f32)) (build 4 (lam %1)))"),
            "1:37: error: '%1' is not bound: one lam encloses it");
  EXPECT_EQ(ErrorOf("(proc @p () (call @q))"),
            "1:19: error: unknown procedure '@q'");
  EXPECT_EQ(ErrorOf("(proc @p () (bogus 1))"),
            "1:14: error: unknown statement 'bogus'");
  EXPECT_EQ(ErrorOf("(proc @p () (assign (frob 1) 2))"),
            "1:22: error: unbound name 'frob'");
  EXPECT_EQ(ErrorOf("(proc @p ()) (proc @p ())"),
            "1:20: error: '@p' is defined twice");
}

}  // namespace
}  // namespace tessel::ir
