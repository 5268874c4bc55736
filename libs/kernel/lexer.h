// Splits kernel-language source into tokens.
#ifndef TESSEL_LIBS_KERNEL_LEXER_H_
#define TESSEL_LIBS_KERNEL_LEXER_H_

#include <vector>

#include "absl/status/statusor.h"
#include "libs/kernel/token.h"
#include "libs/support/source.h"

namespace tessel::kernel {

// Returns the tokens of `source`, ending with a kEnd token placed just after
// the last real token (so that "unexpected end of input" points at the end
// of the text, not at an empty line after it). `#` starts a comment that runs
// to the end of the line. Errors: a character that starts no token, a
// malformed or out-of-range number.
absl::StatusOr<std::vector<Token>> Lex(const SourceRef& source);

}  // namespace tessel::kernel

#endif  // TESSEL_LIBS_KERNEL_LEXER_H_
