// Exo's pattern strings (formats/schedule/README.md, "Patterns"): a
// statement pattern (`for i in _`, `if n > 0: _`, `x = _`, `A[_] += _`,
// `x : _`, `foo(_)`, `cfg.f = _`, `_`), a block of them joined by ` ; `,
// or an expression pattern (`n % 4`, `A[_] * B[_]`), with an optional
// `#N` suffix picking match N.
#ifndef TESSEL_LIBS_SCHEDULE_PATTERN_H_
#define TESSEL_LIBS_SCHEDULE_PATTERN_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "libs/schedule/py_expr.h"

namespace tessel::schedule {

struct StmtPattern {
  enum class Kind {
    kHole,         // _: any statements, none included
    kFor,          // for NAME in EXPR[: BODY]; EXPR matches the upper bound
    kIf,           // if EXPR: BODY
    kAssign,       // NAME[IDX...] = EXPR, NAME = EXPR
    kReduce,       // NAME[IDX...] += EXPR
    kAlloc,        // NAME : TYPE (the type is not compared)
    kCall,         // NAME(ARGS) (the arguments are not compared)
    kWriteConfig,  // CFG.FIELD = EXPR
  };
  Kind kind = Kind::kHole;
  // The loop variable, the buffer written, the alloc, the callee, the
  // config; `_` matches any.
  std::string name;
  std::string field;  // kWriteConfig
  // kAssign, kReduce of an element: its indices.
  bool has_indices = false;
  std::vector<PyExpr> indices;
  // kFor: the upper bound; kIf: the condition; updates: the value.
  PyExpr expr;
  // kFor, kIf: what the body starts with (a hole when not written).
  std::vector<StmtPattern> body;
};

struct Pattern {
  // As written, without the `#N` suffix.
  std::string text;
  // `#N`: match N (from 0, in program order); none: every match.
  std::optional<int> match_no;
  // A statement pattern: the statements of a block, in order. Empty for an
  // expression pattern.
  std::vector<StmtPattern> stmts;
  // An expression pattern (a bare name is one: the binder reads it as a
  // loop or an alloc where it wants one).
  std::optional<PyExpr> expr;
};

// Reads a pattern string. Errors say what is wrong and at which column.
absl::StatusOr<Pattern> ReadPattern(absl::string_view text);

}  // namespace tessel::schedule

#endif  // TESSEL_LIBS_SCHEDULE_PATTERN_H_
