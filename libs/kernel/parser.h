// Parses kernel-language source into its syntax tree.
#ifndef TESSEL_LIBS_KERNEL_PARSER_H_
#define TESSEL_LIBS_KERNEL_PARSER_H_

#include "absl/status/statusor.h"
#include "libs/kernel/ast.h"
#include "libs/support/source.h"

namespace tessel::kernel {

// Expressions may nest at most this deep (parentheses, unary minus and the
// height of operator chains alike), which bounds the recursion of every
// pass after the parser.
inline constexpr int kMaxExprDepth = 100;

// Lexes and parses `source`. The first error (lexical or syntactic) is
// returned as a located diagnostic.
absl::StatusOr<ast::Program> ParseProgram(const SourceRef& source);

}  // namespace tessel::kernel

#endif  // TESSEL_LIBS_KERNEL_PARSER_H_
