// schedule-check: a loop-level procedure rewritten by a schedule of Exo's
// scheduling primitives, each rewrite checked safe before it is made.
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/cli/command_line.h"
#include "libs/ir/op.h"
#include "libs/ir/syntax.h"
#include "libs/verify/read.h"
#include "libs/primitives/primitive.h"
#include "libs/schedule/apply.h"
#include "libs/schedule/equiv.h"
#include "libs/schedule/reader.h"
#include "libs/support/source.h"

namespace {

// The proc to schedule or compare: --proc, or the module's entry.
absl::StatusOr<tessel::ir::Node*> ProcOf(
    tessel::ir::Module& module, const tessel::CommandLine& command_line) {
  auto proc = tessel::ir::FindEntry(module, command_line.Get("proc"));
  if (!proc.ok()) return proc.status();
  if (!(*proc)->is(tessel::ir::Op::kProc)) {
    return absl::InvalidArgumentError(tessel::FormatDiagnostic(
        (*proc)->loc(), absl::StrCat("schedule-check schedules a proc, not a ",
                                     tessel::ir::Spelling((*proc)->op()))));
  }
  return *proc;
}

// --equiv A B: whether the two procs are proven equivalent.
absl::Status Equiv(const tessel::CommandLine& command_line) {
  const std::vector<std::string>& files = command_line.positional();
  if (files.size() != 2) {
    return tessel::UsageError("--equiv takes two files, A and B");
  }
  if (command_line.Has("schedule") || command_line.Has("output")) {
    return tessel::UsageError("--equiv takes no --schedule and no -o");
  }
  if (files[0] == "-" && files[1] == "-") {
    return tessel::UsageError("A and B cannot both be stdin");
  }
  auto module_a = tessel::ir::ReadModuleFile(files[0]);
  if (!module_a.ok()) return module_a.status();
  auto module_b = tessel::ir::ReadModuleFile(files[1]);
  if (!module_b.ok()) return module_b.status();
  auto proc_a = ProcOf(*module_a, command_line);
  if (!proc_a.ok()) return proc_a.status();
  auto proc_b = ProcOf(*module_b, command_line);
  if (!proc_b.ok()) return proc_b.status();
  if (absl::Status status = tessel::schedule::CheckEquivalent(
          *module_a, **proc_a, *module_b, **proc_b);
      !status.ok()) {
    return absl::Status(status.code(),
                        absl::StrCat(files[0], ": error: ", (*proc_a)->name(),
                                     " and ", (*proc_b)->name(), " of ",
                                     files[1], ": ", status.message()));
  }
  std::printf("%s of %s and %s of %s are equivalent\n",
              (*proc_a)->name().c_str(), files[0].c_str(),
              (*proc_b)->name().c_str(), files[1].c_str());
  return absl::OkStatus();
}

absl::Status Run(const tessel::CommandLine& command_line) {
  if (command_line.Has("equiv")) return Equiv(command_line);
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
  auto proc = ProcOf(*module, command_line);
  if (!proc.ok()) return proc.status();
  if (absl::Status status = tessel::schedule::ApplySchedule(
          *module, **proc, *schedule, tessel::primitives::Registry::Builtin(),
          {.verify_each = command_line.Has("verify-each")});
      !status.ok()) {
    return status;
  }
  return tessel::ir::WriteModule(command_line.Get("output", "-"), *module);
}

}  // namespace

int main(int argc, char** argv) {
  tessel::CommandLine command_line(
      "schedule-check",
      "FILE --schedule SCHED [--proc NAME] [-o OUT]\n"
      "       schedule-check --equiv A B [--proc NAME]",
      "Reads a loop-level TIR module (FILE, '-' for stdin), applies the\n"
      "schedule SCHED (formats/schedule/README.md: Exo's scheduling\n"
      "primitives, one directive per line) to one of its procs and writes\n"
      "the scheduled module. Every directive is checked safe before it\n"
      "rewrites; the first that is not rejects the schedule with the\n"
      "directive, the code it points at, the failed condition and a\n"
      "witness (docs/schedule-check.md). With --equiv, checks that the\n"
      "procs of the modules A and B are equivalent under the same\n"
      "analyses (exit 0), or says where they are not proven so (exit 1).");
  command_line.AddFlag(
      {"schedule", 0, "SCHED", false, "the schedule to apply (required)"});
  command_line.AddFlag({"proc", 0, "NAME", false,
                        "the proc to schedule (default: the only proc that "
                        "no procedure calls)"});
  command_line.AddFlag(
      {"output", 'o', "OUT", false, "write to OUT instead of stdout"});
  command_line.AddFlag({"verify-each", 0, "", false,
                        "check every access's bounds and every call's "
                        "contract after each directive, not only on the "
                        "result, to name a directive whose primitive "
                        "breaks them (a bug)"});
  command_line.AddFlag({"equiv", 0, "", false,
                        "compare the procs of two modules A and B instead"});
  command_line.set_epilogue(
      "example:\n"
      "  schedule-check matmul.tir --schedule tile.sched -o tiled.tir\n"
      "  run-sim tiled.tir --seed 1 --compare matmul.tir\n"
      "  schedule-check --equiv tiled.tir retiled.tir");
  return tessel::RunTool(command_line, argc, argv, Run);
}
