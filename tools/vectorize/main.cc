// vectorize: loop-level TIR in, the vector level out (docs/vectorize.md).
#include <iostream>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "libs/cli/command_line.h"
#include "libs/ir/op.h"
#include "libs/ir/syntax.h"
#include "libs/support/source.h"
#include "libs/vectorize/strategy.h"
#include "libs/vectorize/vectorize.h"
#include "libs/verify/read.h"

namespace {

// The width --help's lines keep to.
constexpr size_t kHelpColumns = 76;

// The target's default strategy, changed by --strategy FILE.
absl::StatusOr<tessel::vectorize::Strategy> StrategyOf(
    const tessel::CommandLine& command_line) {
  std::string target = command_line.Get("target", "avx512");
  auto strategy = tessel::vectorize::DefaultStrategy(target);
  if (!strategy.ok()) return tessel::UsageError(strategy.status().message());
  if (!command_line.Has("strategy")) return strategy;
  auto source = tessel::ReadSource(command_line.Get("strategy"));
  if (!source.ok()) return source.status();
  return tessel::vectorize::ParseStrategy((*source)->text(), (*source)->name(),
                                          *strategy);
}

// `target`'s default strategy for --help: its keys, wrapped.
std::string DefaultStrategyText(absl::string_view target) {
  std::string text = absl::StrCat("  ", target, ":");
  size_t line_start = 0;
  for (absl::string_view key :
       absl::StrSplit(tessel::vectorize::PrintStrategy(
                          *tessel::vectorize::DefaultStrategy(target)),
                      '\n', absl::SkipEmpty())) {
    if (text.size() - line_start + key.size() + 2 > kHelpColumns) {
      line_start = text.size() + 1;
      absl::StrAppend(&text, "\n   ");
    }
    absl::StrAppend(&text, " ", key, ",");
  }
  text.back() = '\n';
  return text;
}

absl::Status Run(const tessel::CommandLine& command_line) {
  auto strategy = StrategyOf(command_line);
  if (!strategy.ok()) return strategy.status();
  auto input = tessel::InputPath(command_line);
  if (!input.ok()) return input.status();
  if (*input == "-" && command_line.Get("strategy") == "-") {
    return tessel::UsageError("FILE and the strategy cannot both be stdin");
  }
  auto module = tessel::ir::ReadModuleFile(*input);
  if (!module.ok()) return module.status();
  if (absl::Status status =
          tessel::vectorize::CheckStrategyLoops(*module, *strategy);
      !status.ok()) {
    return status;
  }
  for (tessel::ir::Node* form : module->forms()) {
    if (form->is(tessel::ir::Op::kFunc)) {
      return absl::InvalidArgumentError(tessel::FormatDiagnostic(
          form->loc(),
          "vectorize takes loop-level procs; this func is at the tensor "
          "level (bufferize it first)"));
    }
    if (!form->is(tessel::ir::Op::kProc)) continue;
    auto notes = tessel::vectorize::VectorizeProc(*module, *form, *strategy);
    if (!notes.ok()) return notes.status();
    for (const std::string& note : *notes) std::cerr << note << "\n";
  }
  return tessel::ir::WriteModule(command_line.Get("output", "-"), *module);
}

}  // namespace

int main(int argc, char** argv) {
  tessel::CommandLine command_line(
      "vectorize", "[FILE|-] [--target avx2|avx512] [--strategy FILE] [-o OUT]",
      "Reads a loop-level TIR module (stdin without FILE or with '-') and\n"
      "writes it at the vector level: every loop nest of every proc tiled\n"
      "into a register tile of vectors of the target's width under its\n"
      "reduction loops (libs/primitives' divide_loop and reorder_loops),\n"
      "partial tiles padded, masked or peeled, reads shared, accumulators\n"
      "kept across the reduction loops, contractions lowered to FMAs, and\n"
      "transposing nests as 2-D tiles with vector transposes\n"
      "(docs/vectorize.md). Each step is proven legal on the polyhedral\n"
      "model; what cannot be is an error. A nest of a shape it does not\n"
      "handle stays scalar, with a note on stderr.");
  command_line.AddFlag({"target", 0, "TARGET", false,
                        "avx512 (16 f32 lanes, the default) or avx2 (8)"});
  command_line.AddFlag({"strategy", 0, "FILE", false,
                        "change the target's default strategy "
                        "(formats/strategy/README.md)"});
  command_line.AddFlag(
      {"output", 'o', "OUT", false, "write to OUT instead of stdout"});
  command_line.set_epilogue(absl::StrCat(
      "default strategies (formats/strategy/README.md):\n",
      DefaultStrategyText("avx512"), DefaultStrategyText("avx2"),
      "example:\n"
      "  parse matmul.tk -D M=64 -D N=64 -D K=64 | vectorize -o v.tir\n"
      "  run-sim v.tir --seed 1 --compare matmul.tir --rtol 1e-5"));
  return tessel::RunTool(command_line, argc, argv, Run);
}
