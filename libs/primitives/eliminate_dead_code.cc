#include "libs/primitives/eliminate_dead_code.h"

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "isl/cpp.h"
#include "libs/ir/cursor.h"
#include "libs/ir/node.h"
#include "libs/poly/model.h"
#include "libs/poly/poly.h"

namespace tessel::primitives {
namespace {

using ir::Node;

std::string At(const poly::Violation& at) {
  return at.at.empty() ? "" : absl::StrCat(" (at ", at.at, ")");
}

// The first instance of `stmt` where `cond` holds (`holds`) or fails.
absl::StatusOr<std::optional<poly::Violation>> Where(
    const poly::ProcModel& model, const Node& stmt, const isl::set& cond,
    bool holds) {
  absl::StatusOr<isl::pw_aff> zero = model.Constant(0, stmt);
  if (!zero.ok()) return zero.status();
  return model.FindViolation(
      stmt, {*zero}, [&](const std::vector<isl::pw_aff>& values) {
        isl::set domain = values[0].domain();
        return holds ? domain.intersect(cond) : domain.subtract(cond);
      });
}

absl::Status EliminateIf(ir::Module& module, const ir::Cursor& stmt,
                         const poly::ProcModel& model) {
  Node* node = stmt.node();
  absl::StatusOr<isl::set> cond = model.Condition(*node->operand(0));
  if (!cond.ok()) return cond.status();
  auto holds = Where(model, *node, *cond, true);
  if (!holds.ok()) return holds.status();
  auto fails = Where(model, *node, *cond, false);
  if (!fails.ok()) return fails.status();
  if (holds->has_value() && fails->has_value()) {
    return absl::FailedPreconditionError(
        absl::StrCat("eliminate_dead_code: the condition of the if can hold",
                     At(**holds), " and fail", At(**fails)));
  }
  // The branch that runs: then when the condition never fails.
  ir::BlockCursor kept = !fails->has_value() ? stmt.body() : stmt.orelse();
  std::vector<Node*> statements;
  if (kept.is_valid()) statements = kept.statements();
  if (statements.empty()) {
    stmt.Delete();
    return absl::OkStatus();
  }
  for (Node* s : statements) module.Detach(s);
  stmt.as_block().Replace(statements);
  return absl::OkStatus();
}

absl::Status EliminateFor(const ir::Cursor& stmt,
                          const poly::ProcModel& model) {
  Node* node = stmt.node();
  absl::StatusOr<isl::pw_aff> lo = model.Affine(*node->operand(0), *node);
  if (!lo.ok()) return lo.status();
  absl::StatusOr<isl::pw_aff> hi = model.Affine(*node->operand(1), *node);
  if (!hi.ok()) return hi.status();
  auto runs = model.FindViolation(
      *node, {*lo, *hi},
      [](const std::vector<isl::pw_aff>& v) { return v[0].lt_set(v[1]); });
  if (!runs.ok()) return runs.status();
  if (runs->has_value()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "eliminate_dead_code: loop '", node->name(), "' can run, from ",
        (*runs)->values[0], " to ", (*runs)->values[1], At(**runs)));
  }
  stmt.Delete();
  return absl::OkStatus();
}

absl::Status RunEliminateDeadCode(Target& target, const Args& args) {
  return EliminateDeadCode(target.module, args["stmt_cursor"].cursor);
}

}  // namespace

absl::Status EliminateDeadCode(ir::Module& module, const ir::Cursor& stmt) {
  if (absl::Status status = stmt.status(); !status.ok()) return status;
  Node* node = stmt.node();
  if (!node->is(ir::Op::kIf) && !node->is(ir::Op::kFor)) {
    return absl::InvalidArgumentError(
        "eliminate_dead_code: expected an if or a loop");
  }
  poly::Context context;
  poly::ProcModel model(isl::ctx(context.get()), *stmt.proc().node());
  return node->is(ir::Op::kIf) ? EliminateIf(module, stmt, model)
                               : EliminateFor(stmt, model);
}

PrimitiveSpec EliminateDeadCodeSpec() {
  return {"eliminate_dead_code",
          {{"stmt_cursor", ArgKind::kStmt, std::nullopt}},
          &RunEliminateDeadCode};
}

}  // namespace tessel::primitives
