#include "libs/kernel/parse_command.h"

#include "absl/strings/match.h"
#include "libs/ir/syntax.h"
#include "libs/ir/verify/read.h"
#include "libs/ir/verify/verifier.h"

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

absl::StatusOr<std::string> RunParse(const ParseOptions& options) {
  auto source = ReadSource(options.input);
  if (!source.ok()) return source.status();
  bool is_tir = options.input == "-" ? LooksLikeTir((*source)->text())
                                     : absl::EndsWith(options.input, ".tir");
  if (is_tir) {
    if (options.emit) {
      return absl::InvalidArgumentError("--emit applies to kernel input");
    }
    if (!options.sizes.empty()) {
      return absl::InvalidArgumentError("-D applies to kernel input");
    }
    auto module = ir::ReadModule(*source);
    if (!module.ok()) return module.status();
    return ir::PrintModule(*module);
  }
  auto forms = CompileKernels(*source, options.sizes,
                              options.emit.value_or(EmitLevel::kLoops));
  if (!forms.ok()) return forms.status();
  // The lowered module is verified like any input, so that a lowering bug
  // shows as a diagnostic located in the kernel rather than as bad output.
  auto module = ir::ReadForms(*forms, *source);
  if (!module.ok()) return module.status();
  if (auto status = ir::VerifyModule(*module); !status.ok()) return status;
  return ir::PrintModule(*module);
}

}  // namespace tessel::kernel
