// Reads the S-expression syntax of formats/tir/README.md ("Lexical
// structure") into located Sexpr trees.
#ifndef TESSEL_LIBS_SEXPR_READER_H_
#define TESSEL_LIBS_SEXPR_READER_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "libs/sexpr/sexpr.h"
#include "libs/support/source.h"

namespace tessel {

// Lists may nest at most this deep; deeper input is rejected rather than
// risking the stack of every recursive pass after the reader.
inline constexpr int kMaxSexprDepth = 256;

// Reads the top-level forms of `source` one at a time, so that a reader
// that turns each into something else never holds the S-expressions of a
// whole file (a tree of them takes some 40 times the text's bytes). Errors
// (an unbalanced parenthesis, an unterminated string, a malformed number,
// too deep a nesting) carry the location of the offending character.
class SexprReader {
 public:
  explicit SexprReader(SourceRef source);
  ~SexprReader();
  SexprReader(const SexprReader&) = delete;
  SexprReader& operator=(const SexprReader&) = delete;

  // The next top-level form, or nullopt at the end of the text.
  absl::StatusOr<std::optional<Sexpr>> Next();

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

// The byte offsets of the items of the list whose '(' is at byte `open` of
// `text`, a list that reads without error: where SexprReader located them,
// found again by skipping over the text instead of reading it, so that
// what was read need not keep the locations of its parts.
std::vector<uint32_t> ListItemOffsets(absl::string_view text, uint32_t open);

// Reads every top-level form of `source` (SexprReader's errors).
absl::StatusOr<std::vector<Sexpr>> ReadSexprs(const SourceRef& source);

}  // namespace tessel

#endif  // TESSEL_LIBS_SEXPR_READER_H_
