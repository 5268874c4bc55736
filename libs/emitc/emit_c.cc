#include "libs/emitc/emit_c.h"

#include <functional>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "libs/emitc/c_template.h"
#include "libs/emitc/expr_emitter.h"
#include "libs/emitc/globals.h"
#include "libs/emitc/harness.h"
#include "libs/emitc/helpers.h"
#include "libs/emitc/npy_runtime.h"
#include "libs/emitc/proc_emitter.h"
#include "libs/emitc/uses.h"
#include "libs/emitc/vector_types.h"
#include "libs/ir/forms.h"

namespace tessel::emitc {
namespace {

// Unknown placeholders are errors of the template, whether or not the
// module uses it.
absl::Status CheckTemplates(const ir::Module& module) {
  auto known = [](bool ok) -> std::optional<CExpr> {
    if (ok) return Primary("");
    return std::nullopt;
  };
  for (const ir::Node* form : module.forms()) {
    if (!form->is(ir::Op::kInstr)) continue;
    const ir::Node& templ = ir::TemplateOf(*form);
    auto expanded = ExpandTemplate(
        templ.text(), templ.item_loc(1),
        absl::StrCat("the template of ", form->name()),
        [&](absl::string_view name) -> absl::StatusOr<std::optional<CExpr>> {
          if (ir::FindParam(*form, name) != nullptr) return known(true);
          const ir::Node* data =
              absl::EndsWith(name, "_data")
                  ? ir::FindParam(*form, name.substr(0, name.size() - 5))
                  : nullptr;
          return known(data != nullptr && ir::IsDataParam(*data));
        });
    if (!expanded.ok()) return expanded.status();
  }
  for (const ir::Node* form : module.forms()) {
    if (!form->is(ir::Op::kMemory)) continue;
    for (const ir::Node* clause : form->operands()) {
      if (clause->name() != "alloc" && clause->name() != "free") continue;
      auto expanded = ExpandTemplate(
          clause->text(), clause->item_loc(1),
          absl::StrCat("the ", clause->name(), " template of ", form->name()),
          [&](absl::string_view name) -> absl::StatusOr<std::optional<CExpr>> {
            return known(name == "type" || name == "name" || name == "size" ||
                         name == "shape");
          });
      if (!expanded.ok()) return expanded.status();
    }
  }
  return absl::OkStatus();
}

std::string WindowTypeDefinition(const WindowType& type) {
  return absl::StrCat(WindowTypeName(type), " { ",
                      type.is_const ? "const " : "", ElemTypeCName(type.elem),
                      " *data; int64_t strides[", type.rank, "]; };\n");
}

std::string ConfigDefinition(const ir::Node& config,
                             const GlobalNames& globals) {
  const std::string& name = globals.configs.at(&config);
  std::string text = absl::StrCat("struct ", name, " {\n");
  for (const ir::Node* field : config.operands()) {
    const ir::Type& type = field->declared_type();
    absl::StrAppend(&text, "  ",
                    type.is_control() ? ControlCType(type.control())
                                      : ElemTypeCName(type.elem()),
                    " ", globals.fields.at(field), ";\n");
  }
  return absl::StrCat(text, "};\nstatic struct ", name, " ", name, ";\n");
}

// GCC 12.2's predictive commoning (-O3) miscompiles a vector that one
// iteration writes and the next reads back shifted by fewer lanes than it
// has (a transfer-write at y + i, a transfer-read at y + i + 1: vectorize
// makes them where a loop and the lanes index one dimension, `y[a + b +
// c]` with lanes `c`): it takes the written vector for the read one. Off
// for the vector level's functions (the headers' keep it); it leaves a
// matmul's and a convolution's code the same instructions.
constexpr absl::string_view kNoPredictiveCommoning =
    "/* GCC 12's predictive commoning (-O3) takes a vector written in one\n"
    "   iteration for an overlapping one read in the next. */\n"
    "#if defined(__GNUC__) && !defined(__clang__)\n"
    "#pragma GCC optimize(\"no-predictive-commoning\")\n"
    "#endif\n";

// Clang contracts `a * b + c` into one fused multiply-add by default, in
// ISO modes too (GCC only in its GNU modes), where TIR rounds the product
// and the sum: a 64 x 16 x 32 matmul's loops compiled by Clang 14 at -O3
// -march=native differed from run-sim in 669 of 1024 elements. The
// standard pragma turns that off; GCC ignores it (with a warning).
constexpr absl::string_view kNoContraction =
    "#if defined(__clang__)\n"
    "#pragma STDC FP_CONTRACT OFF\n"
    "#endif\n";

// Everything before the functions: the includes, window types,
// configurations, runtime functions and helpers the output needs. The
// output depends on the module alone, not on where its file lies.
std::string FileScope(const ir::Module& module, const GlobalNames& globals,
                      const Needs& needs, bool harness) {
  bool errors = needs.allocate;
  bool cast_errors = false;
  for (const Helper& helper : needs.helpers) {
    errors |= HelperReportsErrors(helper);
    cast_errors |= HelperReportsCastErrors(helper);
  }
  std::string out = "/* Generated by emit-c. */\n";
  if (harness) absl::StrAppend(&out, RuntimePart("posix_feature"));
  absl::StrAppend(&out,
                  "#include <stdint.h>\n"
                  "#include <stdbool.h>\n"
                  "#include <stdlib.h>\n"
                  "#include <math.h>\n");
  if (needs.memcpy) out += "#include <string.h>\n";
  for (const std::string& header : needs.includes) {
    absl::StrAppend(&out, "#include ", header, "\n");
  }
  if (harness || errors) absl::StrAppend(&out, RuntimePart("stdio"));
  if (harness) absl::StrAppend(&out, RuntimePart("posix"));
  absl::StrAppend(&out, kNoContraction);
  if (!needs.windows.empty()) out += "\n";
  for (const WindowType& type : needs.windows) {
    out += WindowTypeDefinition(type);
  }
  if (!needs.vector_types.empty()) {
    absl::StrAppend(&out, "\n", kNoPredictiveCommoning);
  }
  for (const VectorCType& type : needs.vector_types) {
    out += VectorTypeDefinition(type);
  }
  for (const ir::Node* config : module.forms()) {
    if (needs.configs.contains(config)) {
      absl::StrAppend(&out, "\n", ConfigDefinition(*config, globals));
    }
  }
  if (harness || errors) absl::StrAppend(&out, "\n", RuntimePart("program"));
  if (errors) absl::StrAppend(&out, "\n", RuntimePart("error"));
  if (needs.allocate) absl::StrAppend(&out, "\n", RuntimePart("allocate"));
  if (cast_errors) absl::StrAppend(&out, "\n", RuntimePart("cast_error"));
  for (const Helper& helper : needs.helpers) {
    absl::StrAppend(&out, "\n", HelperDefinition(helper));
  }
  // Vector helpers call the scalar ones.
  for (const auto& [name, definition] : needs.vector_helpers) {
    absl::StrAppend(&out, "\n", definition);
  }
  return out;
}

// The C text of `module`, with a harness for `entry` if it is not null, to
// `write`. The file's scope depends on what every function needs: each
// proc is translated once to learn it (and to report any error before the
// file begins), then again as the file is written, so that the functions'
// text is never held whole (translating is a small part of emit-c's time).
absl::Status Emit(const ir::Module& module, const ir::Node* entry,
                  const std::map<std::string, int64_t>& sizes,
                  ir::TextSink write) {
  if (auto status = CheckLevel(module); !status.ok()) return status;
  if (auto status = CheckTemplates(module); !status.ok()) return status;
  std::vector<const ir::Node*> order = ProceduresCalleesFirst(module);
  if (order.empty()) {
    return ErrorAt(Location{module.source(), 0, 0},
                   "the module has no proc to translate (a func is tensor "
                   "level: lower it with parse --emit=loops first)");
  }
  GlobalNames globals = AssignGlobalNames(module);
  Needs needs;
  for (const ir::Node* proc : order) {
    auto text = EmitProcedure(module, globals, *proc, needs);
    if (!text.ok()) return text.status();
  }
  std::string harness;
  if (entry != nullptr) {
    if (!entry->is(ir::Op::kProc)) {
      return absl::InvalidArgumentError(
          absl::StrCat("the harness runs a proc, and ", entry->name(),
                       " is a func; lower it to the loop level first"));
    }
    auto text = EmitHarness(module, globals, *entry, sizes, needs);
    if (!text.ok()) return text.status();
    harness = *std::move(text);
  }

  if (auto status = write(FileScope(module, globals, needs, entry != nullptr));
      !status.ok()) {
    return status;
  }
  for (const ir::Node* proc : order) {
    Needs again;
    auto text = EmitProcedure(module, globals, *proc, again);
    if (!text.ok()) return text.status();
    if (auto status = write(absl::StrCat("\n", *text)); !status.ok()) {
      return status;
    }
  }
  return write(harness);
}

// Emit's text as a string.
absl::StatusOr<std::string> EmitText(
    const ir::Module& module, const ir::Node* entry,
    const std::map<std::string, int64_t>& sizes) {
  std::string out;
  auto status = Emit(module, entry, sizes, [&](absl::string_view text) {
    out.append(text.data(), text.size());
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return out;
}

}  // namespace

std::vector<const ir::Node*> ProceduresCalleesFirst(const ir::Module& module) {
  absl::flat_hash_map<const ir::Node*, bool> visited;
  std::vector<const ir::Node*> order;
  std::function<void(const ir::Node&)> visit = [&](const ir::Node& proc) {
    visited[&proc] = true;
    for (const ir::Node* stmt : ir::BodyOf(proc)) {
      ir::AnyNode(*stmt, [&](const ir::Node& node) {
        const ir::Node* callee = node.is(ir::Op::kCall) ? node.def() : nullptr;
        if (callee != nullptr && callee->is(ir::Op::kProc) &&
            !visited[callee]) {
          visit(*callee);
        }
        return false;
      });
    }
    order.push_back(&proc);
  };
  for (const ir::Node* form : module.forms()) {
    if (form->is(ir::Op::kProc) && !visited[form]) visit(*form);
  }
  return order;
}

absl::Status CheckLevel(const ir::Module& module) {
  // The CS-1 level (formats/tir/README.md, "CS-1 level").
  for (const ir::Node* form : module.forms()) {
    if (form->is(ir::Op::kPeProgram)) {
      return ErrorAt(form->name_loc(),
                     absl::StrCat("'", form->name(),
                                  "' is a CS-1 pe-program: emit-c translates "
                                  "the loop level, and the CS-1 level is "
                                  "emit-cs1's"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> EmitC(const ir::Module& module) {
  return EmitText(module, nullptr, {});
}

absl::StatusOr<std::string> EmitC(const ir::Module& module,
                                  const ir::Node& entry,
                                  const std::map<std::string, int64_t>& sizes) {
  return EmitText(module, &entry, sizes);
}

absl::Status EmitC(const ir::Module& module, const ir::Node* entry,
                   const std::map<std::string, int64_t>& sizes,
                   ir::TextSink write) {
  return Emit(module, entry, sizes, write);
}

}  // namespace tessel::emitc
