// parse: kernel language or TIR in, checked canonical TIR out.
#include "libs/cli/command_line.h"
#include "libs/kernel/parse_command.h"
#include "libs/support/file.h"

namespace {

absl::Status Run(const tessel::CommandLine& command_line) {
  auto input = tessel::InputPath(command_line);
  if (!input.ok()) return input.status();
  tessel::kernel::ParseOptions options;
  options.input = *input;
  auto sizes = tessel::ParseDefinitions(command_line.GetAll("define"));
  if (!sizes.ok()) return sizes.status();
  options.sizes = *std::move(sizes);
  if (command_line.Has("emit")) {
    auto emit = command_line.GetChoice("emit", {"loops", "terms"}, "");
    if (!emit.ok()) return emit.status();
    options.emit = *emit == "loops" ? tessel::kernel::EmitLevel::kLoops
                                    : tessel::kernel::EmitLevel::kTerms;
  }
  return tessel::WriteOutput(command_line.Get("output", "-"),
                             [&](tessel::TextSink write) {
                               return tessel::kernel::RunParse(options, write);
                             });
}

}  // namespace

int main(int argc, char** argv) {
  tessel::CommandLine command_line(
      "parse", "[FILE] [-D NAME=VALUE]... [--emit=loops|terms] [-o OUT]",
      "Reads a kernel (.tk, or any file not ending in .tir) or TIR (.tir),\n"
      "checks it and writes canonical TIR. Kernels are lowered to loop-level\n"
      "procedures (--emit=loops, the default) or tensor-level functions\n"
      "(--emit=terms). Without FILE (or with '-') it reads stdin, where\n"
      "input whose first character outside comments is '(' is TIR.");
  command_line.AddFlag(
      {"define", 'D', "NAME=VALUE", true, "bind a size used by the kernel"});
  command_line.AddFlag({"emit", 0, "LEVEL", false,
                        "loops (default) or terms; kernel input only"});
  command_line.AddFlag(
      {"output", 'o', "OUT", false, "write to OUT instead of stdout"});
  command_line.set_epilogue(
      "examples:\n"
      "  parse testdata/kernels/matmul.tk -D M=32 -D N=24 -D K=16\n"
      "  parse testdata/kernels/conv2d.tk --emit=terms -o conv2d.tir\n"
      "  parse conv2d.tir    # verify and print canonically");
  return tessel::RunTool(command_line, argc, argv, Run);
}
