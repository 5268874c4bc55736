// emit-c: loop-level TIR in, one readable C99 translation unit out.
#include "libs/cli/command_line.h"
#include "libs/emitc/emit_c.h"
#include "libs/verify/read.h"
#include "libs/support/file.h"

namespace {

absl::Status Run(const tessel::CommandLine& command_line) {
  auto input = tessel::InputPath(command_line);
  if (!input.ok()) return input.status();
  auto sizes = tessel::ParseDefinitions(command_line.GetAll("define"));
  if (!sizes.ok()) return sizes.status();
  const bool harness = command_line.Has("harness");
  if (!harness && (command_line.Has("entry") || !sizes->empty())) {
    return tessel::UsageError(
        "--entry and -D choose what the harness runs; add --harness");
  }
  // Like every tool, emit-c works on what the static checks accept.
  auto module = tessel::ir::ReadModuleFile(*input);
  if (!module.ok()) return module.status();
  if (auto status = tessel::emitc::CheckLevel(*module); !status.ok()) {
    return status;
  }
  const tessel::ir::Node* entry = nullptr;
  if (harness) {
    auto found = tessel::ir::FindEntry(*module, command_line.Get("entry"));
    if (!found.ok()) return found.status();
    entry = *found;
  }
  return tessel::WriteOutput(
      command_line.Get("output", "-"), [&](tessel::TextSink write) {
        return tessel::emitc::EmitC(*module, entry, *sizes, write);
      });
}

}  // namespace

int main(int argc, char** argv) {
  tessel::CommandLine command_line(
      "emit-c", "[FILE] [--harness] [--entry NAME] [-D NAME=VALUE]... [-o OUT]",
      "Reads a loop-level TIR module (stdin without FILE or with '-'),\n"
      "verifies it and writes one C99 translation unit: a function per proc,\n"
      "instr calls expanded from their C templates, vectors on GCC/Clang\n"
      "vector extensions (compile with -std=c99; vector fma may need -lm).\n"
      "With --harness the unit\n"
      "also gets a main that reads the entry's inputs from DIR/NAME.npy and\n"
      "writes its outputs there: ./k --inputs DIR --outputs DIR.");
  command_line.AddFlag({"harness", 0, "", false,
                        "add a main that runs the entry on .npy files"});
  command_line.AddFlag({"entry", 0, "NAME", false,
                        "the proc the harness runs (default: the only one "
                        "no proc calls)"});
  command_line.AddFlag({"define", 'D', "NAME=VALUE", true,
                        "bind a size parameter of the entry (harness)"});
  command_line.AddFlag(
      {"output", 'o', "OUT", false, "write to OUT instead of stdout"});
  command_line.set_epilogue(
      "example:\n"
      "  emit-c matmul.tir -o matmul.c\n"
      "  emit-c --harness gemv.tir -D n=64 -o k.c && cc -O2 k.c -o k\n"
      "  ./k --inputs in --outputs out");
  return tessel::RunTool(command_line, argc, argv, Run);
}
