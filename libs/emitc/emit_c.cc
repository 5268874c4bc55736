#include "libs/emitc/emit_c.h"

#include <functional>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "libs/emitc/c_template.h"
#include "libs/emitc/expr_emitter.h"
#include "libs/emitc/globals.h"
#include "libs/emitc/harness.h"
#include "libs/emitc/npy_runtime.h"
#include "libs/emitc/proc_emitter.h"
#include "libs/emitc/uses.h"
#include "libs/ir/verifier.h"

namespace tessel::emitc {
namespace {

constexpr absl::string_view kFloorDiv =
    "/* Floor division by b > 0 (C's / truncates towards zero). */\n"
    "static inline int64_t tsl_floordiv(int64_t a, int64_t b) {\n"
    "  int64_t q = a / b;\n"
    "  return a % b < 0 ? q - 1 : q;\n"
    "}\n";

constexpr absl::string_view kFloorMod =
    "/* Floor modulo by b > 0: the result is in [0, b). */\n"
    "static inline int64_t tsl_floormod(int64_t a, int64_t b) {\n"
    "  int64_t r = a % b;\n"
    "  return r < 0 ? r + b : r;\n"
    "}\n";

// Unknown placeholders are errors of the template, whether or not the
// module uses it.
absl::Status CheckTemplates(const Module& module) {
  auto known = [](bool ok) -> std::optional<CExpr> {
    if (ok) return Primary("");
    return std::nullopt;
  };
  for (const Procedure& proc : module.procedures()) {
    if (!proc.is_instr) continue;
    auto expanded = ExpandTemplate(
        proc.c_template, (*proc.form)[3][1].loc(),
        absl::StrCat("the template of ", proc.name),
        [&](absl::string_view name) -> absl::StatusOr<std::optional<CExpr>> {
          if (proc.FindParam(name) != nullptr) return known(true);
          const Param* data =
              absl::EndsWith(name, "_data")
                  ? proc.FindParam(name.substr(0, name.size() - 5))
                  : nullptr;
          return known(data != nullptr && data->is_data());
        });
    if (!expanded.ok()) return expanded.status();
  }
  for (const Memory& memory : module.memories()) {
    if (memory.form == nullptr) continue;  // the predeclared @DRAM
    for (const Sexpr& clause : memory.form->items()) {
      if (!clause.is_form("alloc") && !clause.is_form("free")) continue;
      auto expanded = ExpandTemplate(
          clause[1].text(), clause[1].loc(),
          absl::StrCat("the ", clause.head(), " template of ", memory.name),
          [&](absl::string_view name) -> absl::StatusOr<std::optional<CExpr>> {
            return known(name == "type" || name == "name" || name == "size");
          });
      if (!expanded.ok()) return expanded.status();
    }
  }
  return absl::OkStatus();
}

void CollectCalls(const Sexpr& node, std::vector<const Sexpr*>& calls) {
  if (!node.is_list()) return;
  if (node.is_form("call")) calls.push_back(&node);
  for (const Sexpr& item : node.items()) CollectCalls(item, calls);
}

// The procs (not instrs) of `module`, each after the procs it calls, and
// otherwise in file order.
absl::StatusOr<std::vector<const Procedure*>> CalleesFirst(
    const Module& module) {
  enum class State { kNew, kVisiting, kDone };
  absl::flat_hash_map<const Procedure*, State> state;
  std::vector<const Procedure*> order;
  std::function<absl::Status(const Procedure&)> visit =
      [&](const Procedure& proc) -> absl::Status {
    state[&proc] = State::kVisiting;
    std::vector<const Sexpr*> calls;
    for (const Sexpr* stmt : proc.body) CollectCalls(*stmt, calls);
    for (const Sexpr* call : calls) {
      const Procedure* callee = call->size() >= 2 && (*call)[1].is_symbol()
                                    ? module.FindProcedure((*call)[1].text())
                                    : nullptr;
      if (callee == nullptr || callee->is_instr) continue;
      if (state[callee] == State::kVisiting) {
        return ErrorAt(call->loc(),
                       absl::StrCat("recursive call of ", callee->name));
      }
      if (state[callee] == State::kNew) {
        if (auto status = visit(*callee); !status.ok()) return status;
      }
    }
    state[&proc] = State::kDone;
    order.push_back(&proc);
    return absl::OkStatus();
  };
  for (const Procedure& proc : module.procedures()) {
    if (proc.is_instr || state[&proc] != State::kNew) continue;
    if (auto status = visit(proc); !status.ok()) return status;
  }
  return order;
}

std::string WindowTypeDefinition(const WindowType& type) {
  return absl::StrCat(WindowTypeName(type), " { ",
                      type.is_const ? "const " : "", ElemTypeCName(type.elem),
                      " *data; int64_t strides[", type.rank, "]; };\n");
}

std::string ConfigDefinition(const Config& config, const GlobalNames& globals) {
  const std::string& name = globals.configs.at(config.name);
  std::string text = absl::StrCat("struct ", name, " {\n");
  for (const ConfigField& field : config.fields) {
    FieldType type = ConfigFieldType(field);
    absl::StrAppend(
        &text, "  ",
        type.control ? ControlCType(*type.control) : ElemTypeCName(type.elem),
        " ", globals.fields.at(config.name).at(field.name), ";\n");
  }
  return absl::StrCat(text, "};\nstatic struct ", name, " ", name, ";\n");
}

std::string SourceName(const Module& module) {
  std::string name = module.source() != nullptr ? module.source()->name()
                                                : std::string("<memory>");
  // The name goes into a comment.
  return absl::StrReplaceAll(name, {{"*/", "* /"}});
}

// Everything before the functions: the includes, window types,
// configurations and helpers the output needs.
std::string FileScope(const Module& module, const GlobalNames& globals,
                      const Needs& needs, bool harness) {
  std::string out =
      absl::StrCat("/* Generated by emit-c from ", SourceName(module), ". */\n",
                   harness ? kRuntimeFeatureMacro : "",
                   "#include <stdint.h>\n"
                   "#include <stdbool.h>\n"
                   "#include <stdlib.h>\n"
                   "#include <math.h>\n",
                   harness ? kRuntimeIncludes : "");
  if (!needs.windows.empty()) out += "\n";
  for (const WindowType& type : needs.windows) {
    out += WindowTypeDefinition(type);
  }
  for (const Config& config : module.configs()) {
    if (needs.configs.contains(config.name)) {
      absl::StrAppend(&out, "\n", ConfigDefinition(config, globals));
    }
  }
  if (needs.floordiv) absl::StrAppend(&out, "\n", kFloorDiv);
  if (needs.floormod) absl::StrAppend(&out, "\n", kFloorMod);
  return out;
}

}  // namespace

absl::StatusOr<std::string> EmitC(const Module& module,
                                  const EmitOptions& options) {
  if (!options.harness && (!options.entry.empty() || !options.sizes.empty())) {
    return absl::InvalidArgumentError(
        "--entry and -D choose what the harness runs; add --harness");
  }
  if (auto status = CheckTemplates(module); !status.ok()) return status;
  bool has_proc = false;
  for (const Procedure& proc : module.procedures()) has_proc |= !proc.is_instr;
  if (!has_proc) {
    return ErrorAt(Location{module.source(), 0, 0},
                   "the module has no proc to translate (a func is tensor "
                   "level: lower it with parse --emit=loops first)");
  }
  GlobalNames globals = AssignGlobalNames(module);
  auto order = CalleesFirst(module);
  if (!order.ok()) return order.status();

  Needs needs;
  std::vector<std::string> functions;
  for (const Procedure* proc : *order) {
    auto text = EmitProcedure(module, globals, *proc, needs);
    if (!text.ok()) return text.status();
    functions.push_back(*std::move(text));
  }
  std::string harness;
  if (options.harness) {
    auto entry = FindEntry(module, options.entry);
    if (!entry.ok()) return entry.status();
    if (entry->procedure == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("the harness runs a proc, and ", entry->name(),
                       " is a func; lower it to the loop level first"));
    }
    auto text =
        EmitHarness(module, globals, *entry->procedure, options.sizes, needs);
    if (!text.ok()) return text.status();
    harness = *std::move(text);
  }

  std::string out = FileScope(module, globals, needs, options.harness);
  for (const std::string& function : functions) {
    absl::StrAppend(&out, "\n", function);
  }
  return out + harness;
}

absl::StatusOr<std::string> EmitCFile(const std::string& path,
                                      const EmitOptions& options) {
  auto source = ReadSource(path);
  if (!source.ok()) return source.status();
  auto module = ReadModule(*source);
  if (!module.ok()) return module.status();
  if (auto status = VerifyModule(*module); !status.ok()) return status;
  return EmitC(*module, options);
}

}  // namespace tessel::emitc
