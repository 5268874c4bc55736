// What the loop primitives of H15 share: a loop rebuilt around other
// statements, and the checks before statements move apart.
#ifndef TESSEL_LIBS_PRIMITIVES_LOOP_SUPPORT_H_
#define TESSEL_LIBS_PRIMITIVES_LOOP_SUPPORT_H_

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "libs/effects/effects.h"
#include "libs/ir/cursor.h"
#include "libs/ir/node.h"

namespace tessel::primitives {

// A new loop with `loop`'s variable and bounds (cloned) around `stmts`,
// which are detached from where they were and appended in order;
// references inside them to `loop` now refer to the new loop.
ir::Node* LoopAround(ir::Module& module, const ir::Node& loop,
                     absl::Span<ir::Node* const> stmts);

// FailedPrecondition when one of `users` refers to a binder (an alloc, a
// let) that one of `binders` declares: they cannot be put in different
// scopes. `what` names the primitive for the message.
absl::Status NoScopeCrossing(absl::Span<ir::Node* const> binders,
                             absl::Span<ir::Node* const> users,
                             const std::string& what);

// The loop at `outer` and the one loop its body holds (Exo's "i j" pair);
// InvalidArgument otherwise.
absl::StatusOr<std::pair<ir::Node*, ir::Node*>> NestedLoops(
    const ir::Cursor& outer, const std::string& what);

// The loop at `cursor`; InvalidArgument when it is no loop.
absl::StatusOr<ir::Node*> LoopAt(const ir::Cursor& cursor,
                                 const std::string& what);

// Whether `root` refers to `binder`.
bool Uses(const ir::Node& root, const ir::Node& binder);

// The loop or if whose body (or branch) holds `stmt`, or null at the top
// of its proc.
ir::Node* ScopeOf(ir::Node& stmt);

// The control expressions `exprs` as functions of the instances of `at`
// (the bounds of loops of one body, which the same loops surround);
// FailedPrecondition "FAILURE: ..." when one is not quasi-affine.
absl::StatusOr<std::vector<isl::pw_aff>> AffineAt(
    const poly::ProcModel& model, const std::vector<ir::Node*>& exprs,
    const ir::Node& at, const std::string& failure);

// The bounds of `loops` commute with `body` (section 5.8's first
// condition): `body` writes no configuration field a bound reads.
// FailedPrecondition with the witness otherwise.
absl::Status BoundsCommute(const poly::ProcModel& model,
                           const std::vector<ir::Node*>& loops,
                           const effects::Effects& body,
                           const std::string& what);

// Where `loop` may run no iteration: nullopt when it runs at least once at
// every instance; else the first instance where it does not ("N = 3"), or
// "" when a bound is not quasi-affine (nothing is proven).
absl::StatusOr<std::optional<std::string>> MayRunNone(
    const poly::ProcModel& model, const ir::Node& loop);

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_LOOP_SUPPORT_H_
