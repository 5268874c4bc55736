#include "libs/schedule/apply.h"

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "libs/ir/forms.h"
#include "libs/ir/op.h"
#include "libs/ir/syntax.h"
#include "libs/verify/parallel.h"
#include "libs/verify/verifier.h"
#include "libs/primitives/checkpoint.h"
#include "libs/schedule/bind.h"
#include "libs/schedule/expand.h"
#include "libs/sexpr/printer.h"

namespace tessel::schedule {
namespace {

// Enough of the code to recognise it.
constexpr size_t kMaxNoteLines = 6;

// A note showing `stmt` as TIR, where it was written when known.
std::string CodeNote(const ir::Node& stmt) {
  Location loc = stmt.loc();
  std::string where = loc.known() ? absl::StrCat(loc.source->name(), ":",
                                                 loc.line, ":", loc.col, ": ")
                                  : "";
  std::vector<std::string> lines = absl::StrSplit(
      PrintSexpr(ir::WriteNode(stmt), 0, ir::HeaderOperands), '\n');
  std::string text = absl::StrCat(where, "note: the code it points at:");
  for (size_t i = 0; i < lines.size() && i < kMaxNoteLines; ++i) {
    absl::StrAppend(&text, "\n  ", lines[i]);
  }
  if (lines.size() > kMaxNoteLines) absl::StrAppend(&text, "\n  ...");
  return text;
}

bool HasParallelLoop(const ir::Node& proc) {
  return ir::AnyNode(proc, [](const ir::Node& node) {
    return node.is(ir::Op::kFor) && node.is_parallel();
  });
}

}  // namespace

absl::Status ApplySchedule(ir::Module& module, ir::Node& proc,
                           const Schedule& schedule,
                           const primitives::Registry& registry,
                           const ApplyOptions& options) {
  absl::StatusOr<std::vector<Directive>> directives =
      Expand(schedule, registry);
  if (!directives.ok()) return directives.status();
  // What each directive's result is checked for: all but memories and,
  // unless asked, bounds and calls' contracts, which are checked once, at
  // the end.
  const ir::ProcChecks step_checks{.memories = false,
                                   .bounds = options.verify_each,
                                   .contracts = options.verify_each};
  const ir::Node* scheduled = &proc;
  for (const Directive& directive : *directives) {
    ir::Node* current = module.Current(scheduled);
    absl::StatusOr<primitives::Args> args =
        BindArgs(module, *current, schedule, directive);
    if (!args.ok()) return args.status();
    std::string text = CallText(directive.call);
    ir::Node* pointed = FirstStatement(*directive.spec, *args);
    // Whether the parallel loops' iterations stay independent is proven
    // after each rewrite (a buffer lifted out of one, a loop fused into
    // one): a rewrite that breaks it is rejected and undone.
    std::optional<primitives::Checkpoint> checkpoint;
    if (HasParallelLoop(*current)) checkpoint.emplace(module, *current);
    primitives::Target target{module, *current};
    if (absl::Status status = directive.spec->run(target, *args);
        !status.ok()) {
      // A rejected primitive left the module as it was: `pointed` is.
      return DirectiveError(schedule, directive, directive.call.pos,
                            absl::StrCat(text, ": ", status.message()),
                            pointed != nullptr ? CodeNote(*pointed) : "");
    }
    scheduled = module.Current(current);
    if (scheduled == nullptr) {
      return DirectiveError(
          schedule, directive, directive.call.pos,
          absl::StrCat(text, ": internal error: ", directive.spec->name,
                       " deleted the procedure being scheduled"));
    }
    if (checkpoint.has_value() && scheduled == current) {
      if (absl::Status status = ir::CheckParallelLoops(*current);
          !status.ok()) {
        return DirectiveError(
            schedule, directive, directive.call.pos,
            absl::StrCat(text, ": ", directive.spec->name,
                         " breaks a parallel loop: ", status.message()),
            pointed != nullptr ? CodeNote(*pointed) : "");
      }
      checkpoint->Keep();
    }
    if (absl::Status status =
            ir::VerifyProc(module, *module.Current(scheduled), step_checks);
        !status.ok()) {
      return DirectiveError(
          schedule, directive, directive.call.pos,
          absl::StrCat(
              text, ": internal error: ", directive.spec->name,
              " made a procedure that does not verify: ", status.message()));
    }
  }
  // Memories, bounds and contracts are checked once, on the result.
  if (directives->empty()) return absl::OkStatus();
  if (absl::Status status = ir::VerifyProc(module, *module.Current(scheduled));
      !status.ok()) {
    const Directive& last = directives->back();
    return DirectiveError(
        schedule, last, last.call.pos,
        absl::StrCat("the scheduled procedure is wrong at the end of the "
                     "schedule: ",
                     status.message(),
                     options.verify_each
                         ? ""
                         : " (--verify-each names the directive that made "
                           "it so)"));
  }
  return absl::OkStatus();
}

}  // namespace tessel::schedule
