// Splits kernel-language source into tokens.
#ifndef TESSEL_LIBS_KERNEL_LEXER_H_
#define TESSEL_LIBS_KERNEL_LEXER_H_

#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/kernel/token.h"
#include "libs/support/source.h"

namespace tessel::kernel {

// The tokens of `source` one at a time, so that a parser that turns them
// into something else never holds the tokens of a whole file (some 50
// times its bytes). After the last real token, Next returns a kEnd token
// placed just after it, as often as it is called. Errors as Lex's.
class Lexer {
 public:
  explicit Lexer(SourceRef source);
  ~Lexer();
  Lexer(const Lexer&) = delete;
  Lexer& operator=(const Lexer&) = delete;

  absl::StatusOr<Token> Next();

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

// Returns the tokens of `source`, ending with a kEnd token placed just after
// the last real token (so that "unexpected end of input" points at the end
// of the text, not at an empty line after it). `#` starts a comment that runs
// to the end of the line. Errors: a character that starts no token, a
// malformed or out-of-range number.
absl::StatusOr<std::vector<Token>> Lex(const SourceRef& source);

}  // namespace tessel::kernel

#endif  // TESSEL_LIBS_KERNEL_LEXER_H_
