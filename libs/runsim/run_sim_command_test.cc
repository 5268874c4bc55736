#include "libs/runsim/run_sim_command.h"

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "gtest/gtest.h"
#include "libs/cli/command_line.h"
#include "libs/npy/npy.h"
#include "libs/support/file.h"

namespace tessel::runsim {
namespace {

std::string TempDir(const std::string& name) {
  return std::string(getenv("TEST_TMPDIR")) + "/" + name;
}

constexpr char kScale[] =
    "(proc @scale ((size n) (size k) (in A (f32 n k)) (in s f32)\n"
    "              (out B (f32 n k)))\n"
    "  (for i 0 n (for j 0 k (assign (B i j) (* s (A i j))))))\n";

TEST(RunSimTest, ReportsAndWritesOutputs) {
  const std::string dir = TempDir("run_sim");
  std::filesystem::create_directories(dir);
  const std::string file = dir + "/scale.tir";
  ASSERT_TRUE(WriteFile(file, kScale).ok());
  RunSimOptions options;
  options.file = file;
  options.seed = 1;
  options.defines = {{"n", 2}, {"k", 2}};
  options.outputs_dir = dir + "/out";
  std::ostringstream out;
  ASSERT_TRUE(RunSim(options, out).ok());
  EXPECT_EQ(out.str().rfind("B: f32 2x2, sum ", 0), 0u) << out.str();
  for (const char* name : {"A", "s", "B"}) {
    EXPECT_TRUE(ReadNpy(options.outputs_dir + "/" + name + ".npy").ok());
  }

  RunSimOptions expect = options;
  expect.seed.reset();
  expect.defines.clear();
  expect.inputs_dir = options.outputs_dir;
  expect.outputs_dir.clear();
  expect.expect_dir = options.outputs_dir;
  std::ostringstream report;
  ASSERT_TRUE(RunSim(expect, report).ok());
  EXPECT_EQ(report.str(), "B: max abs diff 0, max rel diff 0 (2x2, f32): ok\n");

  expect.inputs_dir.clear();  // neither --inputs nor --seed
  EXPECT_TRUE(IsUsageError(RunSim(expect, report)));

  // Tolerances without a comparison would be ignored.
  RunSimOptions tolerance = options;
  tolerance.outputs_dir.clear();
  tolerance.tolerance.atol = 0;
  absl::Status unused = RunSim(tolerance, report);
  EXPECT_TRUE(IsUsageError(unused)) << unused;
  EXPECT_EQ(unused.message(),
            "--rtol and --atol are tolerances of comparisons; add --compare "
            "OTHER or --expect DIR");
}

TEST(RunSimTest, FailedOutputWriteIsAnError) {
  const std::string dir = TempDir("full");
  std::filesystem::create_directories(dir + "/out");
  std::filesystem::create_symlink("/dev/full", dir + "/out/B.npy");
  const std::string file = dir + "/scale.tir";
  ASSERT_TRUE(WriteFile(file, kScale).ok());
  RunSimOptions options;
  options.file = file;
  options.seed = 1;
  options.defines = {{"n", 2}, {"k", 2}};
  options.outputs_dir = dir + "/out";
  std::ostringstream out;
  EXPECT_EQ(RunSim(options, out).message(),
            dir +
                "/out/B.npy: error: cannot write file (No space left on "
                "device)");
}

// @sum: y starts at `init` and adds x[`index`] for every i.
std::string SumProgram(absl::string_view init, absl::string_view index) {
  return absl::StrCat("(proc @sum ((size n) (in x (f32 n)) (out y f32))\n",
                      "  (assign y ", init, ")\n", "  (for i 0 n (reduce y (x ",
                      index, "))))\n");
}

TEST(RunSimTest, SumsInAnotherOrderPassWithinTheRoundingBound) {
  const std::string dir = TempDir("rounding");
  std::filesystem::create_directories(dir + "/in");
  // Forwards 1024 absorbs both 2^-14 (0); backwards they add up (2^-13):
  // outside allclose's tolerance, inside 2 gamma_4 * 2048.
  auto x = MakeHostTensor(ElemType::kF32, {4});
  ASSERT_TRUE(x.ok());
  const float values[] = {1024.0f, 0x1p-14f, 0x1p-14f, -1024.0f};
  for (int i = 0; i < 4; ++i) x->Set<float>(i, values[i]);
  ASSERT_TRUE(WriteNpy(dir + "/in/x.npy", *x).ok());
  // Sums of x forwards, backwards, and wrongly (x[0] twice).
  for (const auto& [name, text] :
       {std::pair{"forward", SumProgram("0.0", "i")},
        std::pair{"backward", SumProgram("0.0", "(- (- n 1) i)")},
        std::pair{"wrong", SumProgram("(x 0)", "i")}}) {
    ASSERT_TRUE(WriteFile(dir + "/" + name + ".tir", text).ok());
  }
  RunSimOptions options;
  options.file = dir + "/backward.tir";
  options.inputs_dir = dir + "/in";
  options.compare_file = dir + "/forward.tir";
  std::ostringstream out;
  absl::Status status = RunSim(options, out);
  EXPECT_TRUE(status.ok()) << status;
  EXPECT_EQ(out.str(),
            "y: max abs diff 0.00012207, max rel diff inf (scalar, f32): "
            "ok, 1 element within the rounding bound\n");

  // Tolerances given are what was asked for.
  options.tolerance.atol = 1e-6;
  std::ostringstream strict;
  EXPECT_FALSE(RunSim(options, strict).ok());
  EXPECT_NE(strict.str().find("mismatch in 1 of 1 elements"), std::string::npos)
      << strict.str();

  // 1024 off is no rounding.
  options.tolerance = {};
  options.file = dir + "/wrong.tir";
  std::ostringstream wrong;
  EXPECT_FALSE(RunSim(options, wrong).ok());
  EXPECT_NE(wrong.str().find("mismatch in 1 of 1 elements, first y: 1024 vs "
                             "0"),
            std::string::npos)
      << wrong.str();
}

}  // namespace
}  // namespace tessel::runsim
