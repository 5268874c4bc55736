#include "libs/primitives/reuse_buffer.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/ir/edit.h"
#include "libs/primitives/buffer_uses.h"
#include "libs/primitives/transaction.h"

namespace tessel::primitives {

using ir::Node;

namespace {

// `node` and its ancestors, innermost first.
std::vector<const Node*> Ancestors(const Node* node) {
  std::vector<const Node*> path;
  for (; node != nullptr; node = node->parent()) path.push_back(node);
  return path;
}

// Whether `use` (a reference to x) may see y's data after the rewrite:
// it runs after y's alloc, or in a loop around y inside x's scope `scope`.
bool Overlaps(const Node* use, const Node* y, const Node* scope) {
  std::vector<const Node*> up = Ancestors(use);
  std::vector<const Node*> yp = Ancestors(y);
  // Walk down from the common ancestor.
  size_t i = up.size(), j = yp.size();
  while (i > 0 && j > 0 && up[i - 1] == yp[j - 1]) {
    --i;
    --j;
  }
  const Node* common = up[i];  // the deepest node holding both
  if (i == 0 || j == 0) return true;
  for (const Node* at = common; at != scope && at != nullptr;
       at = at->parent()) {
    if (at->is(ir::Op::kFor)) return true;
  }
  return up[i - 1]->position() > yp[j - 1]->position();
}

}  // namespace

absl::Status ReuseBuffer(ir::Module& module, const ir::Cursor& buf_cursor,
                         const ir::Cursor& replace_cursor) {
  auto x = BufferAt(buf_cursor, "reuse_buffer");
  if (!x.ok()) return x.status();
  auto y = BufferAt(replace_cursor, "reuse_buffer");
  if (!y.ok()) return y.status();
  if (*x == *y) {
    return absl::InvalidArgumentError("reuse_buffer needs two allocs");
  }
  if ((*x)->declared_type() != (*y)->declared_type() ||
      (*x)->def() != (*y)->def()) {
    return absl::FailedPreconditionError(
        absl::StrCat("'", (*y)->name(), "' and '", (*x)->name(),
                     "' differ in type or memory"));
  }
  const Node* scope = (*x)->parent();
  bool after = false;
  for (const Node* at = *y; at != nullptr && !after; at = at->parent()) {
    after = at->parent() == scope && at->position() > (*x)->position();
  }
  if (!after) {
    return absl::FailedPreconditionError(
        absl::StrCat("'", (*y)->name(), "' is not allocated after '",
                     (*x)->name(), "' in its scope"));
  }
  for (Node* use : UsesOf(**x)) {
    if (Overlaps(use, *y, scope)) {
      return absl::FailedPreconditionError(absl::StrCat(
          "'", (*x)->name(), "' is not dead at '", (*y)->name(), "': '",
          NodeText(use->parent() != nullptr ? *use->parent() : *use),
          "' uses it later"));
    }
  }
  Transaction tx(module);
  for (Node* use : UsesOf(**y)) {
    tx.SetDef(use, *x);
    tx.SetName(use, (*x)->name());
  }
  tx.Detach(*y);
  return tx.Commit(*ir::FormOf(*x), absl::StrCat("cannot reuse '", (*x)->name(),
                                                 "' for '", (*y)->name(), "'"));
}

PrimitiveSpec ReuseBufferSpec() {
  return {"reuse_buffer",
          {{"buf_cursor", ArgKind::kAlloc, std::nullopt},
           {"replace_cursor", ArgKind::kAlloc, std::nullopt}},
          [](Target& target, const Args& args) {
            return ReuseBuffer(target.module, args["buf_cursor"].cursor,
                               args["replace_cursor"].cursor);
          }};
}

}  // namespace tessel::primitives
