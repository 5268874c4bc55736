// Reads the S-expression syntax of formats/tir/README.md ("Lexical
// structure") into located Sexpr trees.
#ifndef TESSEL_LIBS_SEXPR_READER_H_
#define TESSEL_LIBS_SEXPR_READER_H_

#include <vector>

#include "absl/status/statusor.h"
#include "libs/sexpr/sexpr.h"
#include "libs/support/source.h"

namespace tessel {

// Lists may nest at most this deep; deeper input is rejected rather than
// risking the stack of every recursive pass after the reader.
inline constexpr int kMaxSexprDepth = 256;

// Reads every top-level form of `source`. Errors (an unbalanced parenthesis,
// an unterminated string, a malformed number, too deep a nesting) carry the
// location of the offending character.
absl::StatusOr<std::vector<Sexpr>> ReadSexprs(const SourceRef& source);

}  // namespace tessel

#endif  // TESSEL_LIBS_SEXPR_READER_H_
