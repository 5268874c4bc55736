// Exo's expression syntax, a subset of Python's, as its pattern strings and
// the expressions a directive writes as text use it: names, `_` (a hole,
// in patterns), integers and floats, `+ - * / %`, comparisons, `and or
// not`, `A[i, j]` (an element), `A[i, 0:16]` (a window), `f(x, ...)`
// (`stride(A, 0)`) and `cfg.field`. Patterns (pattern.h) and built
// expressions (expr_build.h) both read it with this parser.
#ifndef TESSEL_LIBS_SCHEDULE_PY_EXPR_H_
#define TESSEL_LIBS_SCHEDULE_PY_EXPR_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "libs/ir/op.h"

namespace tessel::schedule {

struct PyExpr {
  enum class Kind {
    kHole,    // _
    kName,    // i
    kInt,     // 3
    kFloat,   // 2.5
    kBinary,  // a + b: `op` (an ir::Op of ops.def), operands a and b
    kUnary,   // -a, not a: `op` is kNeg or kNot
    kIndex,   // A[i, j]: `name`, operands the selectors
    kSlice,   // lo:hi, a selector of kIndex
    kCall,    // f(a, ...): `name`, operands the arguments
    kField,   // cfg.field: `name` the config, `field`
  };
  Kind kind = Kind::kHole;
  // Where it starts in the text, 0-based.
  size_t offset = 0;
  std::string name;
  std::string field;
  int64_t int_value = 0;
  double float_value = 0;
  ir::Op op = ir::Op::kAdd;
  std::vector<PyExpr> operands;
};

// A token of the syntax.
struct PyToken {
  enum class Kind { kName, kInt, kFloat, kPunct, kEnd };
  Kind kind = Kind::kEnd;
  std::string text;
  size_t offset = 0;
};

// Reads expressions from a token stream; the pattern reader reads
// statements around them with the same stream.
class PyParser {
 public:
  // Tokenizes `text`; an unknown character is an error.
  static absl::StatusOr<PyParser> Create(absl::string_view text);

  absl::StatusOr<PyExpr> ParseExpr();

  const PyToken& Peek(size_t ahead = 0) const;
  PyToken Next();
  bool AtPunct(absl::string_view punct) const;
  bool AtName(absl::string_view name) const;
  bool AtEnd() const { return Peek().kind == PyToken::Kind::kEnd; }
  // Consumes `punct`, or fails saying what was expected.
  absl::Status Expect(absl::string_view punct);
  // An error at the current token: "... at column N".
  absl::Status Error(absl::string_view message) const;

 private:
  PyParser() = default;
  absl::StatusOr<PyExpr> ParseOr();
  absl::StatusOr<PyExpr> ParseAnd();
  absl::StatusOr<PyExpr> ParseNot();
  absl::StatusOr<PyExpr> ParseComparison();
  absl::StatusOr<PyExpr> ParseSum();
  absl::StatusOr<PyExpr> ParseProduct();
  absl::StatusOr<PyExpr> ParseUnary();
  absl::StatusOr<PyExpr> ParsePostfix();
  absl::StatusOr<PyExpr> ParseAtom();
  // The arguments up to `close`: selectors (with slices) inside brackets.
  absl::Status ParseList(absl::string_view close, bool slices,
                         std::vector<PyExpr>& out);

  // Nested expressions (parentheses, brackets, unary operators), bounded
  // so that no text recurses deeper than the stack allows.
  absl::Status Enter();
  void Leave() { --depth_; }

  std::vector<PyToken> tokens_;
  size_t next_ = 0;
  int depth_ = 0;
};

// Whether `name` is a keyword of the syntax (for, in, if, and, or, not).
bool IsPyKeyword(absl::string_view name);

}  // namespace tessel::schedule

#endif  // TESSEL_LIBS_SCHEDULE_PY_EXPR_H_
