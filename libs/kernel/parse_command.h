// What the `parse` tool does, behind its command line: reads kernel
// language or TIR, checks it, and returns canonical TIR.
#ifndef TESSEL_LIBS_KERNEL_PARSE_COMMAND_H_
#define TESSEL_LIBS_KERNEL_PARSE_COMMAND_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "libs/ir/syntax.h"
#include "libs/kernel/compile.h"

namespace tessel::kernel {

struct ParseOptions {
  std::string input;                     // a path, or "-" for stdin
  std::map<std::string, int64_t> sizes;  // -D NAME=VALUE
  std::optional<EmitLevel> emit;         // --emit, when given
};

// Whether `text` is TIR rather than kernel language: its first character
// outside blanks and comments (`;` or `#` to the end of the line) is '('.
bool LooksLikeTir(absl::string_view text);

// Input named *.tir, or stdin that looks like TIR, is read as a module and
// printed canonically; anything else is kernel language, lowered to the
// level `emit` asks for (loops by default). The output is verified TIR.
// The text goes to `write`: TIR input a form at a time once the module is
// read and verified (a large module's text is never held whole), kernels
// once every kernel is lowered and verified (an error in a later kernel
// leaves no output).
absl::Status RunParse(const ParseOptions& options, ir::TextSink write);
// RunParse's text as a string.
absl::StatusOr<std::string> RunParse(const ParseOptions& options);

}  // namespace tessel::kernel

#endif  // TESSEL_LIBS_KERNEL_PARSE_COMMAND_H_
