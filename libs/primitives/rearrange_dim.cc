#include "libs/primitives/rearrange_dim.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/ir/build.h"
#include "libs/ir/edit.h"
#include "libs/primitives/buffer_uses.h"
#include "libs/primitives/transaction.h"

namespace tessel::primitives {

using ir::Node;

absl::Status RearrangeDim(ir::Module& module, const ir::Cursor& buf_cursor,
                          const std::vector<int64_t>& permute_vector) {
  auto alloc = BufferAt(buf_cursor, "rearrange_dim");
  if (!alloc.ok()) return alloc.status();
  const ir::Type& type = (*alloc)->declared_type();
  size_t rank = type.is_shaped() ? type.rank() : 0;
  std::vector<int64_t> sorted = permute_vector;
  std::sort(sorted.begin(), sorted.end());
  bool permutation = sorted.size() == rank;
  for (size_t k = 0; permutation && k < rank; ++k) {
    permutation = sorted[k] == static_cast<int64_t>(k);
  }
  if (!permutation) {
    return absl::InvalidArgumentError(
        absl::StrCat("[", absl::StrJoin(permute_vector, ", "),
                     "] is not a permutation of the ", rank, " dimensions of '",
                     (*alloc)->name(), "'"));
  }
  Transaction tx(module);
  std::vector<Node*> old_dims = DimNodes(module, type);
  std::vector<Node*> dims;
  for (int64_t k : permute_vector) dims.push_back(old_dims[k]);
  tx.SetDeclaredType(*alloc, ShapeOf(type.elem(), dims));
  absl::Status status = RewriteAccesses(
      tx, **alloc, [&](const BufferAccess& access) -> absl::StatusOr<Node*> {
        std::vector<Node*> selectors;
        int64_t last_interval = -1;
        for (int64_t k : permute_vector) {
          Node* sel = access.selectors[k];
          if (sel->is(ir::Op::kInterval)) {
            if (k < last_interval) {
              return absl::FailedPreconditionError(absl::StrCat(
                  "rearranging '", (*alloc)->name(), "' would transpose '",
                  NodeText(*access.node), "'"));
            }
            last_interval = k;
          }
          selectors.push_back(module.Clone(sel));
        }
        return Rebuilt(module, access, **alloc, selectors);
      });
  if (!status.ok()) return status;
  return tx.Commit(*ir::FormOf(*alloc),
                   absl::StrCat("cannot rearrange '", (*alloc)->name(), "'"));
}

PrimitiveSpec RearrangeDimSpec() {
  return {"rearrange_dim",
          {{"buf_cursor", ArgKind::kAlloc, std::nullopt},
           {"permute_vector", ArgKind::kInts, std::nullopt}},
          [](Target& target, const Args& args) {
            return RearrangeDim(target.module, args["buf_cursor"].cursor,
                                args["permute_vector"].ints);
          }};
}

}  // namespace tessel::primitives
