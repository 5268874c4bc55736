// polysimd: a loop-level kernel and a placement in, the CS-1-level module
// that runs it out (or, with --explain, the SIMD analysis of each task);
// docs/polysimd.md.
#include "libs/cli/command_line.h"
#include "libs/verify/read.h"
#include "libs/placement/placement.h"
#include "libs/poly/poly.h"
#include "libs/polysimd/analysis.h"
#include "libs/polysimd/generate.h"
#include "libs/support/file.h"

namespace {

absl::Status Run(const tessel::CommandLine& command_line) {
  auto input = tessel::InputPath(command_line);
  if (!input.ok()) return input.status();
  if (!command_line.Has("placement")) {
    return tessel::UsageError("--placement PLACEMENT is required");
  }
  auto module = tessel::ir::ReadModuleFile(*input);
  if (!module.ok()) return module.status();
  auto entry = tessel::ir::FindEntry(*module, "");
  if (!entry.ok()) return entry.status();
  tessel::poly::Context context;
  isl::ctx ctx(context.get());
  auto kernel = tessel::polysimd::ReadKernel(ctx, **entry);
  if (!kernel.ok()) return kernel.status();
  auto source = tessel::ReadSource(command_line.Get("placement"));
  if (!source.ok()) return source.status();
  auto placement = tessel::placement::ReadPlacement(ctx, *source);
  if (!placement.ok()) return placement.status();
  auto analysis = tessel::polysimd::Analyse(
      *kernel, *placement, command_line.Has("explain"),
      !command_line.Has("no-simd"));
  if (!analysis.ok()) return analysis.status();
  if (command_line.Has("explain")) {
    return tessel::WriteFile(command_line.Get("output", "-"),
                             analysis->explanation);
  }
  auto program = tessel::polysimd::Generate(*kernel, *placement, *analysis);
  if (!program.ok()) return program.status();
  return tessel::WriteFile(command_line.Get("output", "-"), *program);
}

}  // namespace

int main(int argc, char** argv) {
  tessel::CommandLine command_line(
      "polysimd", "FILE --placement PLACEMENT [--explain] [--no-simd] [-o OUT]",
      "Reads the loop-level TIR of a kernel (as parse writes it; labelled\n"
      "statements name their instances) and a placement (.place) that maps\n"
      "it onto a rectangle of CS-1 PEs, and writes the CS-1-level module\n"
      "that runs it (with the target library targets/cs1/cs1.tir, so that\n"
      "run-sim runs it as it is): local memory per PE, and tasks whose\n"
      "SIMD instructions are decided as in Verdoolaege et al. (IMPACT\n"
      "2020), section 5: variable compression, box hull approximation,\n"
      "base case, size enumeration, else explicit loops. --explain prints\n"
      "the isl objects of each decision in the paper's notation instead.");
  command_line.AddFlag({"placement", 0, "PLACEMENT", false,
                        "the placement file (formats/placement/README.md)"});
  command_line.AddFlag({"explain", 0, "", false,
                        "print each task's isl objects of the SIMD decision"});
  command_line.AddFlag(
      {"no-simd", 0, "", false, "explicit loops for every task"});
  command_line.AddFlag(
      {"output", 'o', "OUT", false, "write to OUT instead of stdout"});
  command_line.set_epilogue(
      "example:\n"
      "  parse testdata/polysimd/Inputs/conv1d.tk -o conv1d.tir\n"
      "  polysimd conv1d.tir --placement "
      "testdata/polysimd/Inputs/conv1d.place -o conv1d_cs1.tir\n"
      "  run-sim conv1d.tir --seed 1 --compare conv1d_cs1.tir");
  return tessel::RunTool(command_line, argc, argv, Run);
}
