#include "libs/primitives/inline_window.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/ir/build.h"
#include "libs/ir/edit.h"
#include "libs/ir/views.h"
#include "libs/primitives/buffer_uses.h"
#include "libs/primitives/simplify_expr.h"
#include "libs/primitives/transaction.h"

namespace tessel::primitives {

using ir::Build;
using ir::Node;
using ir::Op;

absl::Status InlineWindow(ir::Module& module,
                          const ir::Cursor& winstmt_cursor) {
  if (absl::Status status = winstmt_cursor.status(); !status.ok()) {
    return status;
  }
  Node* let = winstmt_cursor.node();
  if (!let->is(Op::kLet) || !let->operand(0)->is(Op::kWindow)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "inline_window expects a let of a window, not '", NodeText(*let), "'"));
  }
  Node& proc = *ir::FormOf(let);
  const Node& window = *let->operand(0);
  if (!ir::WindowView::IsBox(window)) {
    return NotABox(*let, window);
  }
  const Node& base = *window.operand(0)->def();
  absl::Span<Node* const> selectors = window.operands().subspan(1);
  // lo + i, simplified.
  auto offset = [&](const Node& lo, const Node& i) {
    return SimplifyExpr(
        module, *Build::Add(module, module.Clone(&lo), module.Clone(&i)));
  };
  Transaction tx(module);
  absl::Status status = RewriteAccesses(
      tx, *let, [&](const BufferAccess& access) -> absl::StatusOr<Node*> {
        std::vector<Node*> composed;
        size_t k = 0;
        for (const Node* sel : selectors) {
          if (!sel->is(Op::kInterval)) {
            composed.push_back(module.Clone(sel));
            continue;
          }
          const Node& lo = *sel->operand(0);
          const Node& inner = *access.selectors[k++];
          composed.push_back(
              inner.is(Op::kInterval)
                  ? Build::Interval(module, offset(lo, *inner.operand(0)),
                                    offset(lo, *inner.operand(1)))
                  : offset(lo, inner));
        }
        return Rebuilt(module, access, base, composed);
      });
  // Only its elements and windows are rewritten: the window used whole.
  if (!status.ok()) {
    return absl::Status(status.code(),
                        absl::StrCat("inline_window: ", status.message()));
  }
  tx.Detach(let);
  return tx.Commit(proc,
                   absl::StrCat("cannot inline '", let->name(), "'"));
}

PrimitiveSpec InlineWindowSpec() {
  return {"inline_window",
          {{"winstmt_cursor", ArgKind::kStmt, std::nullopt}},
          [](Target& target, const Args& args) {
            return InlineWindow(target.module, args["winstmt_cursor"].cursor);
          }};
}

}  // namespace tessel::primitives
