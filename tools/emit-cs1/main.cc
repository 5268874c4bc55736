// emit-cs1: a CS-1-level TIR module in, per-PE C against cs1_api.h out.
#include "libs/cli/command_line.h"
#include "libs/emitcs1/emit_cs1.h"
#include "libs/verify/read.h"
#include "libs/support/file.h"

namespace {

absl::Status Run(const tessel::CommandLine& command_line) {
  auto input = tessel::InputPath(command_line);
  if (!input.ok()) return input.status();
  // Like every tool, emit-cs1 works on what the static checks accept.
  auto module = tessel::ir::ReadModuleFile(*input);
  if (!module.ok()) return module.status();
  auto program =
      tessel::emitcs1::FindPeProgram(*module, command_line.Get("entry"));
  if (!program.ok()) return program.status();
  return tessel::WriteOutput(
      command_line.Get("output", "-"), [&](tessel::TextSink write) {
        return tessel::emitcs1::EmitCs1(*module, **program,
                                        command_line.Has("harness"), write);
      });
}

}  // namespace

int main(int argc, char** argv) {
  tessel::CommandLine command_line(
      "emit-cs1", "[FILE] [--entry NAME] [--harness] [-o OUT]",
      "Reads a CS-1-level TIR module (a pe-program with the target library,\n"
      "as polysimd writes it; stdin without FILE or with '-'), verifies it\n"
      "and writes the C every PE runs, against targets/cs1/cs1_api.h: the\n"
      "local arrays, a setup that configures the SIMD engine once per\n"
      "descriptor shape and registers the tasks, and a function per task.\n"
      "With --harness the output is one program that runs the grid on the\n"
      "host (targets/cs1/cs1_host.c): ./k --inputs DIR --outputs DIR.");
  command_line.AddFlag(
      {"harness", 0, "", false, "add the host implementation and its main"});
  command_line.AddFlag({"entry", 0, "NAME", false,
                        "the pe-program to translate (default: the only one)"});
  command_line.AddFlag(
      {"output", 'o', "OUT", false, "write to OUT instead of stdout"});
  command_line.set_epilogue(
      "example:\n"
      "  emit-cs1 --harness conv1d_cs1.tir -o k.c && cc -std=c99 k.c -o k\n"
      "  ./k --inputs in --outputs out");
  return tessel::RunTool(command_line, argc, argv, Run);
}
