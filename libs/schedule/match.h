// Finding a pattern's matches in a procedure, as Exo's pattern matcher
// does: statement patterns match runs of statements of one body (a block
// pattern a prefix of the statements from some statement on), expression
// patterns match expressions of the body (never of the assertions), and
// matches come in program order (a statement before the statements inside
// it, those before the statements after it).
#ifndef TESSEL_LIBS_SCHEDULE_MATCH_H_
#define TESSEL_LIBS_SCHEDULE_MATCH_H_

#include <vector>

#include "libs/ir/cursor.h"
#include "libs/ir/node.h"
#include "libs/schedule/pattern.h"
#include "libs/schedule/py_expr.h"

namespace tessel::schedule {

// A match: the statements a statement pattern matched, or the expression
// an expression pattern matched.
struct Match {
  ir::BlockCursor block;
  ir::Cursor node;
};

// Every match of `pattern` in `proc`, in program order, ignoring its `#N`.
std::vector<Match> FindMatches(ir::Module& module, ir::Node& proc,
                               const Pattern& pattern);

// Whether expression `node` matches `pattern` (`_` matches anything;
// names match binders and buffers by name).
bool MatchesExpr(const PyExpr& pattern, const ir::Node& node);

}  // namespace tessel::schedule

#endif  // TESSEL_LIBS_SCHEDULE_MATCH_H_
