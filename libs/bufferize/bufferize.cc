#include "libs/bufferize/bufferize.h"

#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "libs/ir/op.h"
#include "libs/ir/verify/libcall.h"
#include "libs/ir/verify/read.h"
#include "libs/support/source.h"

namespace tessel::bufferize {

absl::StatusOr<Bufferized> Bufferize(const ir::Module& module) {
  std::string text;
  std::vector<FuncReport> reports;
  for (const ir::Node* form : module.forms()) {
    if (!form->is(ir::Op::kFunc)) {
      return ErrorAt(form->loc(),
                     absl::StrCat("bufferize reads the tensor level: '",
                                  form->name(), "' is a ", form->info().spelling,
                                  ", not a func"));
    }
    // Named calls become their definitions' terms: the loop level has no
    // named calls yet (docs/bufferize.md).
    std::unique_ptr<ir::Module> expanded;
    const ir::Node* func = form;
    if (ir::HasLibCalls(*form->operand(form->num_operands() - 1))) {
      auto copy = ir::ExpandLibCalls(*form);
      if (!copy.ok()) return copy.status();
      expanded = *std::move(copy);
      func = expanded->forms().front();
    }
    auto lowered = LowerFunc(*func);
    if (!lowered.ok()) return lowered.status();
    absl::StrAppend(&text, lowered->proc, "\n");
    reports.push_back(
        {form->name(), lowered->stats, std::move(lowered->conflicts)});
  }
  // The output is read back and verified as every tool's input is: a
  // failure here is bufferize's bug, reported as such.
  auto output = ir::ReadModule(MakeSource("<bufferize output>", text));
  if (!output.ok()) {
    return absl::InternalError(absl::StrCat(
        "bufferize made a module that does not verify: ",
        output.status().message()));
  }
  return Bufferized{*std::move(output), std::move(reports)};
}

std::string FormatConflicts(const FuncReport& report) {
  std::string text;
  for (const Conflict& conflict : report.conflicts) {
    std::string where =
        conflict.loc.known()
            ? absl::StrCat(conflict.loc.source->name(), ":", conflict.loc.line,
                           ":", conflict.loc.col, ": ")
            : "";
    absl::StrAppend(&text, where, "note: in ", report.name, ": ",
                    conflict.message, "\n");
  }
  return text;
}

}  // namespace tessel::bufferize
