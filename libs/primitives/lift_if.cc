#include "libs/primitives/lift_if.h"

#include "absl/strings/str_cat.h"
#include "libs/ir/edit.h"
#include "libs/primitives/checkpoint.h"
#include "libs/primitives/lift_scope.h"

namespace tessel::primitives {

absl::StatusOr<ir::Cursor> LiftIf(ir::Module& module,
                                  const ir::Cursor& if_cursor,
                                  int64_t n_lifts) {
  if (absl::Status status = if_cursor.status(); !status.ok()) return status;
  if (!if_cursor.node()->is(ir::Op::kIf)) {
    return absl::InvalidArgumentError("lift_if: expected an if");
  }
  if (n_lifts < 1) {
    return absl::InvalidArgumentError("lift_if: n_lifts must be at least 1");
  }
  Checkpoint checkpoint(module, *ir::FormOf(if_cursor.node()));
  ir::Cursor lifted = if_cursor;
  for (int64_t lift = 0; lift < n_lifts; ++lift) {
    auto next = LiftScope(module, lifted);
    if (!next.ok()) {
      return absl::Status(
          next.status().code(),
          absl::StrCat("lift_if: could not lift the if ", n_lifts,
                       n_lifts == 1 ? " time" : " times", " (", n_lifts - lift,
                       n_lifts - lift == 1 ? " lift remains" : " lifts remain",
                       "): ", next.status().message()));
    }
    lifted = *next;
  }
  checkpoint.Keep();
  return lifted;
}

namespace {

absl::Status Run(Target& target, const Args& args) {
  return LiftIf(target.module, args["cursor"].cursor,
                args["n_lifts"].int_value)
      .status();
}

}  // namespace

PrimitiveSpec LiftIfSpec() {
  return {"lift_if",
          {{"cursor", ArgKind::kStmt, {}}, {"n_lifts", ArgKind::kInt, "1"}},
          &Run};
}

}  // namespace tessel::primitives
