#include "libs/runsim/run_sim_command.h"

#include <cstdlib>
#include <filesystem>
#include <sstream>

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

}  // namespace
}  // namespace tessel::runsim
