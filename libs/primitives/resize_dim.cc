#include "libs/primitives/resize_dim.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/ir/build.h"
#include "libs/ir/edit.h"
#include "libs/primitives/buffer_uses.h"
#include "libs/primitives/transaction.h"

namespace tessel::primitives {

using ir::Build;
using ir::Node;

namespace {

// `index - offset`, or `index` for an offset of 0.
Node* Shifted(ir::Module& module, const Node& index, const Node& offset) {
  if (offset.is(ir::Op::kConst) && offset.int_value() == 0) {
    return module.Clone(&index);
  }
  return Build::Sub(module, module.Clone(&index), module.Clone(&offset));
}

}  // namespace

absl::Status ResizeDim(ir::Module& module, const ir::Cursor& buf_cursor,
                       int64_t dim_idx, const Node& size, const Node& offset,
                       bool fold) {
  auto alloc = BufferAt(buf_cursor, "resize_dim");
  if (!alloc.ok()) return alloc.status();
  if (fold) {
    return absl::InvalidArgumentError(
        "resize_dim with fold=True (a circular buffer) is not supported");
  }
  const ir::Type& type = (*alloc)->declared_type();
  if (absl::Status s = CheckDimension(**alloc, dim_idx); !s.ok()) return s;
  int64_t rank = type.rank();
  Transaction tx(module);
  std::vector<Node*> dims = DimNodes(module, type);
  dims[dim_idx] = module.Clone(&size);
  tx.SetDeclaredType(*alloc, ShapeOf(type.elem(), dims));
  absl::Status status = RewriteAccesses(
      tx, **alloc, [&](const BufferAccess& access) -> absl::StatusOr<Node*> {
        std::vector<Node*> selectors;
        for (int64_t k = 0; k < rank; ++k) {
          Node* sel = access.selectors[k];
          if (k != dim_idx) {
            selectors.push_back(module.Clone(sel));
          } else if (sel->is(ir::Op::kInterval)) {
            selectors.push_back(Build::Interval(
                module, Shifted(module, *sel->operand(0), offset),
                Shifted(module, *sel->operand(1), offset)));
          } else {
            selectors.push_back(Shifted(module, *sel, offset));
          }
        }
        return Rebuilt(module, access, **alloc, selectors);
      });
  if (!status.ok()) return status;
  return tx.Commit(*ir::FormOf(*alloc),
                   absl::StrCat("cannot resize dimension ", dim_idx, " of '",
                                (*alloc)->name(), "' to ", NodeText(size),
                                " from ", NodeText(offset)));
}

PrimitiveSpec ResizeDimSpec() {
  return {"resize_dim",
          {{"buf_cursor", ArgKind::kAlloc, std::nullopt},
           {"dim_idx", ArgKind::kInt, std::nullopt},
           {"size", ArgKind::kExprText, std::nullopt},
           {"offset", ArgKind::kExprText, std::nullopt},
           {"fold", ArgKind::kBool, "False"}},
          [](Target& target, const Args& args) {
            return ResizeDim(target.module, args["buf_cursor"].cursor,
                             args["dim_idx"].int_value, *args["size"].node,
                             *args["offset"].node, args["fold"].bool_value);
          }};
}

}  // namespace tessel::primitives
