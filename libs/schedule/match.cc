#include "libs/schedule/match.h"

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "libs/ir/forms.h"
#include "libs/ir/views.h"

namespace tessel::schedule {
namespace {

// A name of the IR (a top-level form's without its '@') against a
// pattern's.
bool MatchesName(absl::string_view pattern, absl::string_view name) {
  if (!name.empty() && name.front() == '@') name.remove_prefix(1);
  return pattern == "_" || pattern == name;
}

// Selectors of an element or window against a pattern's: one `_` matches
// any number of them.
bool MatchesIndices(const std::vector<PyExpr>& patterns,
                    absl::Span<ir::Node* const> indices) {
  if (patterns.size() == 1 && patterns[0].kind == PyExpr::Kind::kHole) {
    return true;
  }
  if (patterns.size() != indices.size()) return false;
  for (size_t i = 0; i < indices.size(); ++i) {
    if (!MatchesExpr(patterns[i], *indices[i])) return false;
  }
  return true;
}

// The op a pattern call names (`max(a, b)`, `stride(A, 0)`).
std::optional<ir::Op> CallOp(absl::string_view name) {
  if (name == "max") return ir::Op::kMax;
  if (name == "min") return ir::Op::kMin;
  if (name == "select") return ir::Op::kSelect;
  if (name == "stride") return ir::Op::kStride;
  return std::nullopt;
}

std::optional<size_t> MatchStmts(const std::vector<StmtPattern>& patterns,
                                 size_t p, absl::Span<ir::Node* const> stmts,
                                 size_t s);

bool MatchesBody(const std::vector<StmtPattern>& patterns,
                 absl::Span<ir::Node* const> stmts) {
  return MatchStmts(patterns, 0, stmts, 0).has_value();
}

bool MatchesStmt(const StmtPattern& pattern, ir::Node& stmt) {
  using Kind = StmtPattern::Kind;
  switch (pattern.kind) {
    case Kind::kHole:
      return true;
    case Kind::kFor: {
      if (!stmt.is(ir::Op::kFor)) return false;
      ir::ForView loop(stmt);
      return MatchesName(pattern.name, loop.var()) &&
             MatchesExpr(pattern.expr, *loop.hi()) &&
             MatchesBody(pattern.body, loop.body());
    }
    case Kind::kIf: {
      if (!stmt.is(ir::Op::kIf)) return false;
      ir::IfView branch(stmt);
      return MatchesExpr(pattern.expr, *branch.cond()) &&
             MatchesBody(pattern.body, branch.then_body());
    }
    case Kind::kAssign:
    case Kind::kReduce: {
      // A let binds a window as an assignment of one (Exo's WindowStmt).
      if (pattern.kind == Kind::kAssign && stmt.is(ir::Op::kLet)) {
        ir::LetView let(stmt);
        return !pattern.has_indices && MatchesName(pattern.name, let.name()) &&
               MatchesExpr(pattern.expr, *let.window());
      }
      ir::Op op =
          pattern.kind == Kind::kAssign ? ir::Op::kAssign : ir::Op::kReduce;
      if (!stmt.is(op)) return false;
      ir::Node* lhs = stmt.operand(0);
      ir::Node* rhs = stmt.operand(1);
      bool element = lhs->is(ir::Op::kLoad);
      if (pattern.has_indices != element) return false;
      const std::string& name =
          element ? ir::LoadView(*lhs).ref()->name() : lhs->name();
      return MatchesName(pattern.name, name) &&
             (!element ||
              MatchesIndices(pattern.indices, ir::LoadView(*lhs).indices())) &&
             MatchesExpr(pattern.expr, *rhs);
    }
    case Kind::kAlloc:
      return stmt.is(ir::Op::kAlloc) && MatchesName(pattern.name, stmt.name());
    case Kind::kCall:
      return stmt.is(ir::Op::kCall) &&
             MatchesName(pattern.name, ir::CallView(stmt).callee()->name());
    case Kind::kWriteConfig: {
      if (!stmt.is(ir::Op::kWriteConfig)) return false;
      ir::WriteConfigView write(stmt);
      return MatchesName(pattern.name, write.config()->name()) &&
             MatchesName(pattern.field, write.field()) &&
             MatchesExpr(pattern.expr, *write.value());
    }
  }
  return false;
}

// The end of the statements from `s` on that `patterns` from `p` on match
// a prefix of. A hole takes as few statements as it can, or, last, all
// that remain (as Exo's does).
std::optional<size_t> MatchStmts(const std::vector<StmtPattern>& patterns,
                                 size_t p, absl::Span<ir::Node* const> stmts,
                                 size_t s) {
  if (p == patterns.size()) return s;
  if (patterns[p].kind == StmtPattern::Kind::kHole) {
    if (p + 1 == patterns.size()) return stmts.size();
    for (size_t skip = s; skip <= stmts.size(); ++skip) {
      if (std::optional<size_t> end =
              MatchStmts(patterns, p + 1, stmts, skip)) {
        return end;
      }
    }
    return std::nullopt;
  }
  if (s == stmts.size() || !MatchesStmt(patterns[p], *stmts[s])) {
    return std::nullopt;
  }
  return MatchStmts(patterns, p + 1, stmts, s + 1);
}

// The bodies directly inside statement `stmt`.
std::vector<absl::Span<ir::Node* const>> InnerBodies(ir::Node& stmt) {
  if (stmt.is(ir::Op::kFor)) return {ir::ForView(stmt).body()};
  if (stmt.is(ir::Op::kIf)) {
    ir::IfView branch(stmt);
    return {branch.then_body(), branch.else_body()};
  }
  return {};
}

class Finder {
 public:
  Finder(ir::Module& module, const Pattern& pattern)
      : module_(module), pattern_(pattern) {}

  void InBody(absl::Span<ir::Node* const> stmts) {
    for (size_t s = 0; s < stmts.size(); ++s) {
      if (!pattern_.stmts.empty()) {
        std::optional<size_t> end = MatchStmts(pattern_.stmts, 0, stmts, s);
        if (end && *end > s) {
          matches_.push_back(
              {ir::BlockCursor(ir::Cursor(module_, stmts[s]),
                               ir::Cursor(module_, stmts[*end - 1])),
               ir::Cursor(module_, stmts[s])});
        }
      } else {
        for (ir::Node* operand : stmts[s]->operands()) {
          if (!ir::IsBodyStatement(*operand) && !operand->is(ir::Op::kThen) &&
              !operand->is(ir::Op::kElse)) {
            InExpr(*operand);
          }
        }
      }
      for (absl::Span<ir::Node* const> body : InnerBodies(*stmts[s])) {
        InBody(body);
      }
    }
  }

  void InExpr(ir::Node& expr) {
    if (MatchesExpr(*pattern_.expr, expr)) {
      matches_.push_back({ir::BlockCursor(), ir::Cursor(module_, &expr)});
    }
    for (ir::Node* operand : expr.operands()) InExpr(*operand);
  }

  std::vector<Match> Take() { return std::move(matches_); }

 private:
  ir::Module& module_;
  const Pattern& pattern_;
  std::vector<Match> matches_;
};

}  // namespace

bool MatchesExpr(const PyExpr& pattern, const ir::Node& node) {
  using Kind = PyExpr::Kind;
  switch (pattern.kind) {
    case Kind::kHole:
      return true;
    case Kind::kName:
      return node.is(ir::Op::kRef) && MatchesName(pattern.name, node.name());
    case Kind::kInt:
      return node.is(ir::Op::kConst) && !node.is_float_literal() &&
             node.int_value() == pattern.int_value;
    case Kind::kFloat:
      return node.is(ir::Op::kConst) && node.is_float_literal() &&
             node.float_value() == pattern.float_value;
    case Kind::kBinary:
    case Kind::kUnary: {
      if (!node.is(pattern.op) ||
          node.num_operands() != pattern.operands.size()) {
        return false;
      }
      for (size_t i = 0; i < pattern.operands.size(); ++i) {
        if (!MatchesExpr(pattern.operands[i], *node.operand(i))) return false;
      }
      return true;
    }
    case Kind::kIndex:
      if (node.is(ir::Op::kLoad)) {
        ir::LoadView load(const_cast<ir::Node&>(node));
        return MatchesName(pattern.name, load.ref()->name()) &&
               MatchesIndices(pattern.operands, load.indices());
      }
      if (node.is(ir::Op::kWindow)) {
        ir::WindowView window(const_cast<ir::Node&>(node));
        return MatchesName(pattern.name, window.ref()->name()) &&
               MatchesIndices(pattern.operands, window.selectors());
      }
      return false;
    case Kind::kSlice:
      return node.is(ir::Op::kInterval) &&
             MatchesExpr(pattern.operands[0], *node.operand(0)) &&
             MatchesExpr(pattern.operands[1], *node.operand(1));
    case Kind::kCall: {
      std::optional<ir::Op> op = CallOp(pattern.name);
      if (!op || !node.is(*op) ||
          node.num_operands() != pattern.operands.size()) {
        return false;
      }
      for (size_t i = 0; i < pattern.operands.size(); ++i) {
        if (!MatchesExpr(pattern.operands[i], *node.operand(i))) return false;
      }
      return true;
    }
    case Kind::kField:
      if (!node.is(ir::Op::kReadConfig)) return false;
      return MatchesName(pattern.name,
                         ir::ReadConfigView(const_cast<ir::Node&>(node))
                             .config()
                             ->name()) &&
             MatchesName(
                 pattern.field,
                 ir::ReadConfigView(const_cast<ir::Node&>(node)).field());
  }
  return false;
}

std::vector<Match> FindMatches(ir::Module& module, ir::Node& proc,
                               const Pattern& pattern) {
  Finder finder(module, pattern);
  finder.InBody(ir::BodyOf(proc));
  return finder.Take();
}

}  // namespace tessel::schedule
