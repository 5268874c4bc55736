#include "libs/vectorize/repeated_copies.h"

#include <cstddef>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "libs/effects/effects.h"
#include "libs/ir/cursor.h"
#include "libs/ir/views.h"
#include "libs/primitives/buffer_uses.h"
#include "libs/primitives/transaction.h"

namespace tessel::vectorize {
namespace {

using ir::Node;
using ir::Op;

// The names of the locations `stmts` write or reduce into.
absl::StatusOr<absl::flat_hash_set<std::string>> Modified(
    const poly::ProcModel& model, absl::Span<Node* const> stmts) {
  auto effects = effects::EffectsOf(model, stmts);
  if (!effects.ok()) return effects.status();
  return effects::LocationNames(effects->writes.unite(effects->reduces));
}

// Whether the copy at `first` of `body` (`(alloc x T)` and the statement
// after it) still holds what it copied wherever the block reads x, and
// what it read is as it was at `second` (the position of the repeat's
// alloc): the copy writes x only and reads none of it, nothing between
// the two writes what it reads, nothing after it writes x.
absl::StatusOr<bool> StillHolds(const Node& proc, absl::Span<Node* const> body,
                                size_t first, size_t second) {
  effects::ProcAnalysis analysis(proc);
  const poly::ProcModel& model = analysis.model();
  const std::string& x = body[first]->name();
  auto copy = effects::EffectsOf(model, body.subspan(first + 1, 1));
  if (!copy.ok()) return copy.status();
  const absl::flat_hash_set<std::string> written =
      effects::LocationNames(copy->writes.unite(copy->reduces));
  const absl::flat_hash_set<std::string> read =
      effects::LocationNames(copy->reads);
  if (written != absl::flat_hash_set<std::string>{x} || read.contains(x)) {
    return false;
  }
  auto between = Modified(model, body.subspan(first + 2, second - (first + 2)));
  if (!between.ok()) return between.status();
  for (const std::string& name : read) {
    if (between->contains(name)) return false;
  }
  auto after = Modified(model, body.subspan(first + 2));
  if (!after.ok()) return after.status();
  return !after->contains(x);
}

// Deletes the repeat `(alloc y T) S'` and makes y's uses read x.
absl::Status Share(ir::Module& module, Node& proc, Node& x, Node& y,
                   Node& repeat) {
  primitives::Transaction tx(module);
  for (Node* use : primitives::UsesOf(y)) {
    tx.SetDef(use, &x);
    tx.SetName(use, x.name());
  }
  tx.Detach(&repeat);
  tx.Detach(&y);
  return tx.Commit(proc, absl::StrCat("reading '", x.name(), "' for '",
                                      y.name(), "', its repeat"));
}

// Whether `body[at]` starts a copy: an alloc of a tensor (registers, a
// vector's or a scalar's, are not copies to share) and a statement after
// it.
bool StartsCopy(absl::Span<Node* const> body, size_t at) {
  return body[at]->is(Op::kAlloc) &&
         body[at]->declared_type().kind() == ir::TypeKind::kTensor &&
         at + 1 < body.size() && !body[at + 1]->is(Op::kAlloc);
}

// Shares the first repeated copy in the body of `owner` or inside it;
// returns whether there was one.
absl::StatusOr<bool> ShareFirst(ir::Module& module, Node& proc, Node& owner) {
  absl::Span<Node* const> body = ir::Body(owner);
  for (size_t second = 0; second < body.size(); ++second) {
    if (!StartsCopy(body, second)) continue;
    Node& y = *body[second];
    for (size_t first = 0; first + 1 < second; ++first) {
      if (!StartsCopy(body, first)) continue;
      Node& x = *body[first];
      if (x.declared_type() != y.declared_type() || x.def() != y.def() ||
          !ir::AlphaEquivalent(body.subspan(first + 1, 1),
                               body.subspan(second + 1, 1), &x, &y)) {
        continue;
      }
      auto holds = StillHolds(proc, body, first, second);
      if (!holds.ok()) return holds.status();
      if (!*holds) continue;
      if (absl::Status status = Share(module, proc, x, y, *body[second + 1]);
          !status.ok()) {
        return status;
      }
      return true;
    }
  }
  for (Node* stmt : body) {
    std::vector<Node*> owners;
    if (ir::HasBody(*stmt)) owners.push_back(stmt);
    if (stmt->is(Op::kIf)) {
      ir::IfView branch(*stmt);
      owners.push_back(branch.then_block());
      if (branch.else_block() != nullptr) {
        owners.push_back(branch.else_block());
      }
    }
    for (Node* inner : owners) {
      auto shared = ShareFirst(module, proc, *inner);
      if (!shared.ok() || *shared) return shared;
    }
  }
  return false;
}

}  // namespace

absl::Status ShareRepeatedCopies(ir::Module& module, Node& proc) {
  for (;;) {
    auto shared = ShareFirst(module, proc, proc);
    if (!shared.ok()) return shared.status();
    if (!*shared) return absl::OkStatus();
  }
}

}  // namespace tessel::vectorize
