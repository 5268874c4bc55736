// Tokens of the kernel language (formats/kernel/README.md).
#ifndef TESSEL_LIBS_KERNEL_TOKEN_H_
#define TESSEL_LIBS_KERNEL_TOKEN_H_

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"
#include "libs/support/source.h"

namespace tessel::kernel {

enum class TokenKind {
  kIdentifier,
  kInt,
  kFloat,
  // Keywords.
  kKernel,
  kAll,
  kIn,
  kLocal,
  // Punctuation and operators.
  kLParen,
  kRParen,
  kLBracket,
  kRBracket,
  kLBrace,
  kRBrace,
  kComma,
  kColon,
  kSemicolon,
  kArrow,
  kPlus,
  kMinus,
  kStar,
  kSlash,
  kAssign,     // =
  kAddAssign,  // +=
  kMaxAssign,  // max=
  kMinAssign,  // min=
  kEnd,
};

// How a token kind is quoted in diagnostics: "';'", "an identifier".
std::string DescribeTokenKind(TokenKind kind);

struct Token {
  TokenKind kind = TokenKind::kEnd;
  std::string text;
  Location loc;
  // The position just after the token, where "expected ';' after ..."
  // diagnostics point.
  Location end;
  int64_t int_value = 0;
  double float_value = 0;
};

}  // namespace tessel::kernel

#endif  // TESSEL_LIBS_KERNEL_TOKEN_H_
