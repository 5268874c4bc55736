// Parses kernel-language source into its syntax tree.
#ifndef TESSEL_LIBS_KERNEL_PARSER_H_
#define TESSEL_LIBS_KERNEL_PARSER_H_

#include <memory>
#include <optional>

#include "absl/status/statusor.h"
#include "libs/kernel/ast.h"
#include "libs/support/source.h"

namespace tessel::kernel {

// Expressions may nest at most this deep (parentheses, unary minus and the
// height of operator chains alike), which bounds the recursion of every
// pass after the parser.
inline constexpr int kMaxExprDepth = 100;

// Parses the kernels of `source` one at a time, so that a front end that
// checks and lowers each never holds the syntax of a whole file. The first
// error is returned as a located diagnostic, a lexical error anywhere in
// the text before any syntax error.
class KernelParser {
 public:
  explicit KernelParser(SourceRef source);
  ~KernelParser();
  KernelParser(const KernelParser&) = delete;
  KernelParser& operator=(const KernelParser&) = delete;

  // The next kernel, or nullopt at the end of the text.
  absl::StatusOr<std::optional<ast::Kernel>> Next();

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

// Lexes and parses `source`. The first error (lexical or syntactic) is
// returned as a located diagnostic.
absl::StatusOr<ast::Program> ParseProgram(const SourceRef& source);

}  // namespace tessel::kernel

#endif  // TESSEL_LIBS_KERNEL_PARSER_H_
