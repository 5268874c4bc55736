// bufferize: tensor-level TIR in, loop-level TIR over buffers out.
#include <iostream>

#include "absl/strings/str_split.h"

#include "libs/bufferize/bufferize.h"
#include "libs/cli/command_line.h"
#include "libs/ir/syntax.h"
#include "libs/verify/read.h"

namespace {

absl::Status Run(const tessel::CommandLine& command_line) {
  auto input = tessel::InputPath(command_line);
  if (!input.ok()) return input.status();
  auto module = tessel::ir::ReadModuleFile(*input);
  if (!module.ok()) return module.status();
  tessel::bufferize::Options options;
  if (command_line.Has("writable-args")) {
    options.writable_args = absl::StrSplit(
        command_line.Get("writable-args"), ',', absl::SkipEmpty());
  }
  auto bufferized = tessel::bufferize::Bufferize(*module, options);
  if (!bufferized.ok()) return bufferized.status();
  for (const auto& report : bufferized->reports) {
    if (command_line.Has("print-conflicts")) {
      std::cerr << tessel::bufferize::FormatConflicts(report);
    }
    if (command_line.Has("stats")) {
      std::cerr << tessel::bufferize::FormatStats(
          report.stats, bufferized->reports.size() > 1 ? report.name : "");
    }
  }
  return tessel::ir::WriteModule(command_line.Get("output", "-"),
                                 bufferized->module);
}

}  // namespace

int main(int argc, char** argv) {
  tessel::CommandLine command_line(
      "bufferize",
      "[FILE|-] [--print-conflicts] [--stats] [--writable-args NAMES] "
      "[-o OUT]",
      "Reads a tensor-level TIR module (funcs; stdin without FILE or with\n"
      "'-'), verifies it and writes the loop level over buffers: one proc\n"
      "per func, in destination-passing style, writing values in place\n"
      "where no read would see the write (docs/bufferize.md). Named calls\n"
      "with a loop-level instr (targets/blas/cblas.tir: CBLAS) stay calls;\n"
      "the others are expanded into their definitions first.");
  command_line.AddFlag({"print-conflicts", 0, "", false,
                        "explain each out-of-place decision on stderr"});
  command_line.AddFlag({"stats", 0, "", false,
                        "print allocations, copies and bytes allocated on "
                        "stderr"});
  command_line.AddFlag(
      {"writable-args", 0, "NAMES", false,
       "the func arguments (comma-separated, or 'all') that may be written "
       "in place, in order of preference; a written one becomes an inout "
       "parameter"});
  command_line.AddFlag(
      {"output", 'o', "OUT", false, "write to OUT instead of stdout"});
  command_line.set_epilogue(
      "example:\n"
      "  parse gemv.tk -D M=32 -D N=24 --emit=terms | bufferize --stats\n"
      "  saturate k.tir --target blas | bufferize -o k_loops.tir");
  return tessel::RunTool(command_line, argc, argv, Run);
}
