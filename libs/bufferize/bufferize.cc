#include "libs/bufferize/bufferize.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "libs/bufferize/lib_call.h"
#include "libs/ir/op.h"
#include "libs/ir/syntax.h"
#include "libs/verify/libcall.h"
#include "libs/verify/read.h"
#include "libs/sexpr/printer.h"
#include "libs/support/source.h"

namespace tessel::bufferize {

namespace {

// The tensor arguments of `func` that `options` marks writable, in the
// order they are listed (`all` lists the rest in the func's order): the
// order in which a build prefers them as its destination. `named`
// collects the names it finds.
std::vector<std::string> WritableArgs(const ir::Node& func,
                                      const Options& options,
                                      absl::flat_hash_set<std::string>& named) {
  std::vector<std::string> writable;
  for (const std::string& name : options.writable_args) {
    for (const ir::Node* decl : func.operands()) {
      if (!decl->is(ir::Op::kValue) ||
          decl->param_kind() == ir::ParamKind::kOut ||
          decl->declared_type().is_elem() ||
          (name != "all" && name != decl->name())) {
        continue;
      }
      named.insert(name);
      if (std::find(writable.begin(), writable.end(), decl->name()) ==
          writable.end()) {
        writable.push_back(decl->name());
      }
    }
  }
  return writable;
}

}  // namespace

absl::StatusOr<Bufferized> Bufferize(const ir::Module& module,
                                     const Options& options) {
  absl::flat_hash_set<std::string> named;
  std::string text;
  std::string instr_text;
  std::vector<const ir::Node*> instrs;
  std::vector<FuncReport> reports;
  for (const ir::Node* form : module.forms()) {
    if (!form->is(ir::Op::kFunc)) {
      return ErrorAt(form->loc(),
                     absl::StrCat("bufferize reads the tensor level: '",
                                  form->name(), "' is a ", form->info().spelling,
                                  ", not a func"));
    }
    // Named calls with a loop-level instr stay calls; the others become
    // their definitions' terms (docs/bufferize.md, "Library calls").
    std::unique_ptr<ir::Module> expanded;
    const ir::Node* func = form;
    if (ir::HasLibCalls(*form->operand(form->num_operands() - 1))) {
      auto copy = ir::ExpandLibCalls(*form, [](const ir::Node& call) {
        return InstrForCall(call) != nullptr;
      });
      if (!copy.ok()) return copy.status();
      expanded = *std::move(copy);
      func = expanded->forms().front();
    }
    auto lowered = LowerFunc(*func, WritableArgs(*form, options, named));
    if (!lowered.ok()) return lowered.status();
    for (const ir::Node* instr : lowered->instrs) {
      // Each instr once, before the procs that call it.
      if (std::find(instrs.begin(), instrs.end(), instr) == instrs.end()) {
        instrs.push_back(instr);
        absl::StrAppend(&instr_text, PrintFlat(ir::WriteNode(*instr)), "\n");
      }
    }
    absl::StrAppend(&text, lowered->proc, "\n");
    reports.push_back(
        {form->name(), lowered->stats, std::move(lowered->conflicts)});
  }
  for (const std::string& name : options.writable_args) {
    if (name != "all" && !named.contains(name)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--writable-args: '", name, "' is no tensor argument of a func"));
    }
  }
  // The output is read back and verified as every tool's input is: a
  // failure here is bufferize's bug, reported as such.
  auto output =
      ir::ReadModule(MakeSource("<bufferize output>", instr_text + text));
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
