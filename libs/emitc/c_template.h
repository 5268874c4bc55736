// The C templates of memories (`alloc`, `free`) and instructions (`c`):
// C text in which `{NAME}` stands for the C text of an argument. A `{` not
// followed by a name and `}` (a C block, `{0}`) is kept as written.
#ifndef TESSEL_LIBS_EMITC_C_TEMPLATE_H_
#define TESSEL_LIBS_EMITC_C_TEMPLATE_H_

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "libs/emitc/c_expr.h"
#include "libs/support/source.h"

namespace tessel::emitc {

struct TemplatePiece {
  std::string text;  // literal C text, or the placeholder's name
  bool is_placeholder = false;
  // The placeholder is a whole argument of a call, `f({a}, {b})`, so its
  // value needs no parentheses.
  bool is_argument = false;
};

std::vector<TemplatePiece> ParseTemplate(absl::string_view text);

// The C text of a placeholder, or nullopt when the name is unknown.
using PlaceholderResolver =
    std::function<absl::StatusOr<std::optional<CExpr>>(absl::string_view)>;

// Replaces every placeholder of `text` by its value, parenthesised unless it
// is a call argument or a primary expression, and whenever it holds a comma
// outside parentheses (a compound literal in a macro's argument list). An
// unknown placeholder is an error at `loc` naming `owner` (e.g. "the template
// of @ld_data").
absl::StatusOr<std::string> ExpandTemplate(absl::string_view text,
                                           const Location& loc,
                                           absl::string_view owner,
                                           const PlaceholderResolver& resolve);

}  // namespace tessel::emitc

#endif  // TESSEL_LIBS_EMITC_C_TEMPLATE_H_
