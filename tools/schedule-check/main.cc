// schedule-check: a loop-level procedure rewritten by a schedule of Exo's
// scheduling primitives, each rewrite checked safe before it is made.
#include <string>

#include "absl/strings/str_cat.h"
#include "libs/cli/command_line.h"
#include "libs/ir/op.h"
#include "libs/ir/syntax.h"
#include "libs/ir/verify/read.h"
#include "libs/primitives/primitive.h"
#include "libs/schedule/apply.h"
#include "libs/schedule/reader.h"
#include "libs/support/file.h"
#include "libs/support/source.h"

namespace {

absl::Status Run(const tessel::CommandLine& command_line) {
  // The module is named, not defaulted to stdin: a schedule alone is a
  // malformed command line.
  if (command_line.positional().empty()) {
    return tessel::UsageError("no FILE to schedule (use '-' for stdin)");
  }
  if (!command_line.Has("schedule")) {
    return tessel::UsageError("--schedule SCHED is required");
  }
  auto input = tessel::InputPath(command_line);
  if (!input.ok()) return input.status();
  if (*input == "-" && command_line.Get("schedule") == "-") {
    return tessel::UsageError("FILE and SCHED cannot both be stdin");
  }
  auto schedule_source = tessel::ReadSource(command_line.Get("schedule"));
  if (!schedule_source.ok()) return schedule_source.status();
  auto module = tessel::ir::ReadModuleFile(*input);
  if (!module.ok()) return module.status();
  auto schedule = tessel::schedule::ReadSchedule(*schedule_source);
  if (!schedule.ok()) return schedule.status();
  auto proc = tessel::ir::FindEntry(*module, command_line.Get("proc"));
  if (!proc.ok()) return proc.status();
  if (!(*proc)->is(tessel::ir::Op::kProc)) {
    return absl::InvalidArgumentError(tessel::FormatDiagnostic(
        (*proc)->loc(), absl::StrCat("schedule-check schedules a proc, not a ",
                                     tessel::ir::Spelling((*proc)->op()))));
  }
  if (absl::Status status = tessel::schedule::ApplySchedule(
          *module, **proc, *schedule, tessel::primitives::Registry::Builtin());
      !status.ok()) {
    return status;
  }
  return tessel::WriteOutput(command_line.Get("output", "-"),
                             [&](tessel::TextSink write) {
                               return tessel::ir::PrintModule(*module, write);
                             });
}

}  // namespace

int main(int argc, char** argv) {
  tessel::CommandLine command_line(
      "schedule-check", "FILE --schedule SCHED [--proc NAME] [-o OUT]",
      "Reads a loop-level TIR module (FILE, '-' for stdin), applies the\n"
      "schedule SCHED (formats/schedule/README.md: Exo's scheduling\n"
      "primitives, one directive per line) to one of its procs and writes\n"
      "the scheduled module. Every directive is checked safe before it\n"
      "rewrites; the first that is not rejects the schedule with the\n"
      "directive, the code it points at, the failed condition and a\n"
      "witness (docs/schedule-check.md).");
  command_line.AddFlag(
      {"schedule", 0, "SCHED", false, "the schedule to apply (required)"});
  command_line.AddFlag({"proc", 0, "NAME", false,
                        "the proc to schedule (default: the only proc that "
                        "no procedure calls)"});
  command_line.AddFlag(
      {"output", 'o', "OUT", false, "write to OUT instead of stdout"});
  command_line.set_epilogue(
      "example:\n"
      "  schedule-check matmul.tir --schedule tile.sched -o tiled.tir\n"
      "  run-sim tiled.tir --seed 1 --compare matmul.tir");
  return tessel::RunTool(command_line, argc, argv, Run);
}
