// run-sim: the reference interpreter. Runs a TIR module's entry on .npy or
// seeded inputs, writes and summarises its outputs, and compares them with
// another module's or with expected files (docs/run-sim.md).
#include <iostream>

#include "libs/cli/command_line.h"
#include "libs/runsim/run_sim_command.h"

namespace {

absl::Status Run(const tessel::CommandLine& command_line) {
  auto input = tessel::InputPath(command_line);
  if (!input.ok()) return input.status();
  tessel::runsim::RunSimOptions options;
  options.file = *input;
  options.entry = command_line.Get("entry");
  options.inputs_dir = command_line.Get("inputs");
  options.outputs_dir = command_line.Get("outputs");
  options.compare_file = command_line.Get("compare");
  options.expect_dir = command_line.Get("expect");
  options.batching = !command_line.Has("no-batching");
  options.cycles = command_line.Has("cycles");
  options.trace_file = command_line.Get("trace");
  if (command_line.Has("seed")) {
    auto seed = command_line.GetUint64("seed", 0);
    if (!seed.ok()) return seed.status();
    options.seed = *seed;
  }
  // Unset tolerances are the compared element type's defaults.
  for (auto [flag, tolerance] : {std::pair{"rtol", &options.tolerance.rtol},
                                 std::pair{"atol", &options.tolerance.atol}}) {
    if (!command_line.Has(flag)) continue;
    auto value = command_line.GetNonNegativeDouble(flag, 0);
    if (!value.ok()) return value.status();
    *tolerance = *value;
  }
  auto defines = tessel::ParseDefinitions(command_line.GetAll("define"));
  if (!defines.ok()) return defines.status();
  options.defines = *std::move(defines);
  // The report goes straight to stdout, line by line; RunTool checks that it
  // arrived.
  return tessel::runsim::RunSim(options, std::cout);
}

}  // namespace

int main(int argc, char** argv) {
  tessel::CommandLine command_line(
      "run-sim",
      "[FILE] [--entry NAME] (--inputs DIR | --seed N) [--outputs DIR]\n"
      "       [--compare OTHER | --expect DIR] [--rtol R] [--atol A] "
      "[-D NAME=VALUE]...\n"
      "       [--no-batching] [--cycles] [--trace FILE]",
      "Runs the entry of a TIR module (a proc or a func; without FILE, or\n"
      "with '-', it reads stdin) with the reference interpreter. Inputs are\n"
      "read from DIR/NAME.npy or generated from a seed; outputs are\n"
      "summarised, written as NAME.npy, or compared with those of another\n"
      "module or of a folder.\n"
      "Reading unwritten data, out-of-bounds indices, integer division by\n"
      "zero and violated assertions are errors.");
  command_line.AddFlag({"entry", 0, "NAME", false,
                        "the proc or func to run (default: the only entry)"});
  command_line.AddFlag(
      {"inputs", 0, "DIR", false, "read every input from DIR/NAME.npy"});
  command_line.AddFlag(
      {"seed", 0, "N", false, "generate the inputs deterministically from N"});
  command_line.AddFlag({"outputs", 0, "DIR", false,
                        "write every output (and generated input) to DIR"});
  command_line.AddFlag({"compare", 0, "OTHER", false,
                        "also run OTHER's entry on the same inputs and "
                        "compare"});
  command_line.AddFlag(
      {"expect", 0, "DIR", false, "compare the outputs with DIR/NAME.npy"});
  command_line.AddFlag({"rtol", 0, "R", false,
                        "relative tolerance of comparisons (1e-5; f16 1e-3; "
                        "by default, values outside it pass within the "
                        "rounding bound of any summation order)"});
  command_line.AddFlag({"atol", 0, "A", false,
                        "absolute tolerance of comparisons (1e-6; f16 1e-3; "
                        "given, either one turns the rounding bound off)"});
  command_line.AddFlag({"define", 'D', "NAME=VALUE", true,
                        "bind a size (or index, bool, stride) parameter"});
  command_line.AddFlag({"no-batching", 0, "", false,
                        "run every loop iteration by iteration (slower; "
                        "batches compute the same bits)"});
  command_line.AddFlag({"cycles", 0, "", false,
                        "a pe-program's cycles under the CS-1 cost model "
                        "(targets/cs1/cycles.model)"});
  command_line.AddFlag({"trace", 0, "FILE", false,
                        "write the tasks of every PE as a Chrome/Perfetto "
                        "trace (JSON)"});
  command_line.set_epilogue(
      "examples:\n"
      "  run-sim loops.tir --seed 1 -D n=64 --outputs ref\n"
      "  run-sim loops.tir --inputs ref --compare terms.tir\n"
      "  run-sim loops.tir --inputs ref --expect c_out --rtol 1e-4\n"
      "  cat targets/cs1/cs1.tir conv1d_cs1.tir | run-sim - --seed 1 "
      "--cycles");
  return tessel::RunTool(command_line, argc, argv, Run);
}
