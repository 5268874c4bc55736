#include "libs/kernel/parse_command.h"

#include <set>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/cli/command_line.h"
#include "libs/ir/syntax.h"
#include "libs/verify/read.h"
#include "libs/verify/verifier.h"

namespace tessel::kernel {

bool LooksLikeTir(absl::string_view text) {
  size_t pos = 0;
  while (pos < text.size()) {
    char c = text[pos];
    if (c == ';' || c == '#') {
      pos = text.find('\n', pos);
      if (pos == absl::string_view::npos) return false;
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
               c == '\v') {
      ++pos;
    } else {
      return c == '(';
    }
  }
  return false;
}

absl::Status RunParse(const ParseOptions& options, ir::TextSink write) {
  auto source = ReadSource(options.input);
  if (!source.ok()) return source.status();
  bool is_tir = options.input == "-" ? LooksLikeTir((*source)->text())
                                     : absl::EndsWith(options.input, ".tir");
  if (is_tir) {
    // Flags that only kernel input takes are a malformed command line.
    if (options.emit) {
      return UsageError("--emit applies to kernel input, not to TIR");
    }
    if (!options.sizes.empty()) {
      return UsageError(
          "-D applies to kernel input, not to TIR (TIR sizes are bound "
          "where a module is run: run-sim -D, emit-c --harness -D)");
    }
    auto module = ir::ReadModule(*source);
    if (!module.ok()) return module.status();
    return ir::PrintModule(*module, write);
  }
  std::set<std::string> used;
  // Each kernel's form is verified like any input, so that a lowering bug
  // shows as a diagnostic located in the kernel rather than as bad output,
  // and printed, before the next kernel is read: lowered kernels never
  // call each other (only their own labelled statements' procedures).
  std::string out;
  auto status = CompileEachKernel(
      *source, options.sizes, options.emit.value_or(EmitLevel::kLoops), &used,
      [&](std::vector<Sexpr> forms) -> absl::Status {
        auto module = ir::ReadForms(forms, *source);
        if (!module.ok()) return module.status();
        if (auto status = ir::VerifyModule(*module); !status.ok()) {
          return status;
        }
        if (!out.empty()) out += "\n";
        out += ir::PrintModule(*module);
        return absl::OkStatus();
      });
  if (!status.ok()) return status;
  // A size that no kernel uses is a mistake (a misspelt name, the wrong
  // file) that would otherwise go unnoticed.
  for (const auto& [name, value] : options.sizes) {
    if (used.contains(name)) continue;
    return absl::InvalidArgumentError(absl::StrCat(
        "-D ", name, ": no kernel in ", (*source)->name(), " has a size '",
        name, "' (sizes: ", used.empty() ? "none" : absl::StrJoin(used, ", "),
        ")"));
  }
  return write(out);
}

absl::StatusOr<std::string> RunParse(const ParseOptions& options) {
  std::string out;
  auto status = RunParse(options, [&](absl::string_view text) {
    out.append(text.data(), text.size());
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return out;
}

}  // namespace tessel::kernel
