// saturate: equality saturation of tensor-level TIR with rule sets, then
// extraction of the cheapest equal program under a target's cost model.
#include <iostream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/cli/command_line.h"
#include "libs/egraph/runner.h"
#include "libs/ir/syntax.h"
#include "libs/verify/read.h"
#include "libs/saturate/saturate.h"
#include "libs/support/file.h"

namespace {

absl::Status Run(const tessel::CommandLine& command_line) {
  namespace sat = tessel::saturate;
  sat::SaturateOptions options;
  options.targets = command_line.GetAll("target");
  options.rule_files = command_line.GetAll("rules");
  tessel::egraph::RunnerLimits defaults = sat::DefaultLimits();
  auto iterations = command_line.GetUint64("iter-limit", defaults.iterations);
  if (!iterations.ok()) return iterations.status();
  auto nodes = command_line.GetUint64("node-limit", defaults.nodes);
  if (!nodes.ok()) return nodes.status();
  auto seconds =
      command_line.GetNonNegativeDouble("time-limit", defaults.seconds);
  if (!seconds.ok()) return seconds.status();
  options.limits = {*iterations, *nodes, *seconds};
  auto scheduler =
      command_line.GetChoice("scheduler", {"simple", "backoff"}, "backoff");
  if (!scheduler.ok()) return scheduler.status();
  options.backoff = *scheduler == "backoff";
  options.cost_model = command_line.Get("cost");
  options.explain = command_line.Has("explain");
  options.dot = command_line.Has("dot");
  options.progress = [](const std::string& line) { std::cerr << line << "\n"; };
  auto input = tessel::InputPath(command_line);
  if (!input.ok()) return input.status();
  if (auto status = sat::CheckOptions(options); !status.ok()) return status;
  auto module = tessel::ir::ReadModuleFile(*input);
  if (!module.ok()) return module.status();
  // The output is written a form at a time as the funcs are saturated; the
  // reports are kept only for what needs them all (explanations, --stats,
  // --dot), the messages each must give as they come.
  std::vector<std::string> messages;
  std::vector<sat::FuncReport> funcs;
  bool keep = options.explain || options.dot || command_line.Has("stats");
  tessel::OutputFile output(command_line.Get("output", "-"));
  auto status = sat::Saturate(
      *module, options,
      [&](absl::string_view text) { return output.Write(text); },
      [&](sat::FuncReport func) {
        if (std::string limit = sat::LimitMessage(func, options.limits);
            !limit.empty()) {
          messages.push_back(std::move(limit));
        }
        if (std::string idle = sat::IdleTargetNote(func, options.targets);
            !idle.empty()) {
          messages.push_back(std::move(idle));
        }
        if (keep) funcs.push_back(std::move(func));
      });
  if (!status.ok()) return status;
  for (const std::string& note : sat::LevelNotes(*module)) {
    std::cerr << note << "\n";
  }
  for (const std::string& message : messages) std::cerr << message << "\n";

  if (options.explain) {
    for (const sat::FuncReport& func : funcs) {
      std::cerr << "explanation for " << func.name << ":\n";
      for (const std::string& step : func.explanation) {
        std::cerr << "  " << step << "\n";
      }
    }
  }
  if (command_line.Has("stats")) {
    if (auto status = tessel::WriteFile(command_line.Get("stats"),
                                        sat::StatsJson(funcs));
        !status.ok()) {
      return status;
    }
  }
  if (options.dot) {
    std::string dot;
    for (const sat::FuncReport& func : funcs) {
      absl::StrAppend(&dot, "// ", func.name, "\n", func.dot);
    }
    if (auto status = tessel::WriteFile(command_line.Get("dot"), dot);
        !status.ok()) {
      return status;
    }
  }
  return output.Close();
}

}  // namespace

int main(int argc, char** argv) {
  tessel::CommandLine command_line(
      "saturate",
      "[FILE|-] [--target NAME]... [--rules FILE]... [--iter-limit N] "
      "[--node-limit N] [--time-limit S] [--scheduler simple|backoff] "
      "[--cost MODEL] [--explain] [--stats FILE.json] [--dot FILE.dot] "
      "[-o OUT]",
      "Rewrites each tensor-level function of a TIR module by equality\n"
      "saturation with the rules of its level (LIAR's core and scalar rules,\n"
      "Glenside's access-pattern rules) and of the targets named, then\n"
      "writes the cheapest equal program under the last target's cost model,\n"
      "with library and accelerator calls (blas.NAME, torch.NAME,\n"
      "gemmini.systolicArray). The output is verified TIR.");
  command_line.AddFlag(
      {"target", 0, "NAME", true,
       "load a target's idioms and cost model (" +
           absl::StrJoin(tessel::saturate::BuiltinTargets(), ", ") + ")"});
  command_line.AddFlag(
      {"rules", 0, "FILE", true, "also use every rule set of FILE"});
  command_line.AddFlag(
      {"iter-limit", 0, "N", false, "stop after N iterations (default 30)"});
  command_line.AddFlag(
      {"node-limit", 0, "N", false, "stop beyond N e-nodes (default 100000)"});
  command_line.AddFlag(
      {"time-limit", 0, "S", false, "stop after S seconds (default 10)"});
  command_line.AddFlag(
      {"scheduler", 0, "KIND", false, "simple or backoff (default: backoff)"});
  command_line.AddFlag({"cost", 0, "MODEL", false,
                        "extract under cost model MODEL (default: the last "
                        "target's)"});
  command_line.AddFlag(
      {"explain", 0, "", false, "print the chain of rewrites to stderr"});
  command_line.AddFlag({"stats", 0, "FILE.json", false,
                        "write per-iteration statistics as JSON"});
  command_line.AddFlag(
      {"dot", 0, "FILE.dot", false, "write the e-graph for Graphviz"});
  command_line.AddFlag(
      {"output", 'o', "OUT", false, "write to OUT instead of stdout"});
  command_line.set_epilogue(
      "examples:\n"
      "  parse testdata/kernels/gemv.tk -D M=8 -D N=4 --emit=terms |\n"
      "    saturate --target blas\n"
      "  saturate conv2d.tir --target gemmini --stats stats.json");
  return tessel::RunTool(command_line, argc, argv, Run);
}
