#include "libs/primitives/expand_dim.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/ir/build.h"
#include "libs/ir/edit.h"
#include "libs/primitives/buffer_uses.h"
#include "libs/primitives/transaction.h"

namespace tessel::primitives {

using ir::Node;

absl::Status ExpandDim(ir::Module& module, const ir::Cursor& buf_cursor,
                       const Node& alloc_dim, const Node& indexing_expr) {
  auto alloc = BufferAt(buf_cursor, "expand_dim");
  if (!alloc.ok()) return alloc.status();
  bool of_sizes = true;
  ir::Walk(const_cast<Node&>(alloc_dim), [&](Node& node) {
    if (node.is(ir::Op::kRef) &&
        (node.def() == nullptr || !node.def()->is(ir::Op::kParam) ||
         node.def()->param_kind() != ir::ParamKind::kSize)) {
      of_sizes = false;
    }
  });
  if (!of_sizes) {
    return absl::InvalidArgumentError(
        absl::StrCat("the new dimension '", NodeText(alloc_dim),
                     "' must be a literal or an expression of sizes"));
  }
  Transaction tx(module);
  std::vector<Node*> dims = DimNodes(module, (*alloc)->declared_type());
  dims.insert(dims.begin(), module.Clone(&alloc_dim));
  // The accesses first: a scalar's are found by its type as declared.
  absl::Status status =
      RewriteAccesses(tx, **alloc, [&](const BufferAccess& access) {
        std::vector<Node*> selectors = {module.Clone(&indexing_expr)};
        for (Node* sel : access.selectors) {
          selectors.push_back(module.Clone(sel));
        }
        return Rebuilt(module, access, **alloc, selectors);
      });
  if (!status.ok()) return status;
  tx.SetDeclaredType(*alloc, ShapeOf((*alloc)->declared_type().elem(), dims));
  return tx.Commit(*ir::FormOf(*alloc),
                   absl::StrCat("cannot expand '", (*alloc)->name(), "' by ",
                                NodeText(alloc_dim), " indexed by ",
                                NodeText(indexing_expr)));
}

PrimitiveSpec ExpandDimSpec() {
  return {"expand_dim",
          {{"buf_cursor", ArgKind::kAlloc, std::nullopt},
           {"alloc_dim", ArgKind::kExprText, std::nullopt},
           {"indexing_expr", ArgKind::kExprText, std::nullopt}},
          [](Target& target, const Args& args) {
            return ExpandDim(target.module, args["buf_cursor"].cursor,
                             *args["alloc_dim"].node,
                             *args["indexing_expr"].node);
          }};
}

}  // namespace tessel::primitives
