#include "libs/primitives/mult_dim.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/ir/build.h"
#include "libs/ir/edit.h"
#include "libs/primitives/buffer_uses.h"
#include "libs/primitives/simplify_expr.h"
#include "libs/primitives/transaction.h"

namespace tessel::primitives {

using ir::Build;
using ir::Node;

absl::Status MultDim(ir::Module& module, const ir::Cursor& alloc_cursor,
                     int64_t hi_dim_idx, int64_t lo_dim_idx) {
  auto alloc = BufferAt(alloc_cursor, "mult_dim");
  if (!alloc.ok()) return alloc.status();
  const ir::Type& type = (*alloc)->declared_type();
  for (int64_t dim : {hi_dim_idx, lo_dim_idx}) {
    if (absl::Status s = CheckDimension(**alloc, dim); !s.ok()) return s;
  }
  if (hi_dim_idx == lo_dim_idx) {
    return absl::InvalidArgumentError(
        "mult_dim merges two different dimensions");
  }
  const ir::Dim& lo = type.dims()[lo_dim_idx];
  if (!lo.is_constant()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "mult_dim: the lower dimension ", lo_dim_idx, " of '",
        (*alloc)->name(), "' must be a literal"));
  }
  const int64_t rank = type.rank();
  Transaction tx(module);
  std::vector<Node*> dims = DimNodes(module, type);
  dims[hi_dim_idx] = SimplifyExpr(
      module, *Build::Mul(module, dims[hi_dim_idx], Build::Int(module, lo.value)));
  dims.erase(dims.begin() + lo_dim_idx);
  tx.SetDeclaredType(*alloc, ShapeOf(type.elem(), dims));
  absl::Status status = RewriteAccesses(
      tx, **alloc, [&](const BufferAccess& access) -> absl::StatusOr<Node*> {
        Node* hi_sel = access.selectors[hi_dim_idx];
        Node* lo_sel = access.selectors[lo_dim_idx];
        if (hi_sel->is(ir::Op::kInterval) || lo_sel->is(ir::Op::kInterval)) {
          return absl::FailedPreconditionError(absl::StrCat(
              "cannot merge dimensions ", hi_dim_idx, " and ", lo_dim_idx,
              " of '", (*alloc)->name(), "': '", NodeText(*access.node),
              "' keeps one of them"));
        }
        std::vector<Node*> selectors;
        for (int64_t k = 0; k < rank; ++k) {
          if (k == lo_dim_idx) continue;
          selectors.push_back(
              k != hi_dim_idx
                  ? module.Clone(access.selectors[k])
                  : SimplifyExpr(
                        module,
                        *Build::Add(module,
                                    Build::Mul(module, module.Clone(hi_sel),
                                               Build::Int(module, lo.value)),
                                    module.Clone(lo_sel))));
        }
        return Rebuilt(module, access, **alloc, selectors);
      });
  if (!status.ok()) return status;
  return tx.Commit(*ir::FormOf(*alloc),
                   absl::StrCat("cannot merge dimensions of '",
                                (*alloc)->name(), "'"));
}

PrimitiveSpec MultDimSpec() {
  return {"mult_dim",
          {{"alloc_cursor", ArgKind::kAlloc, std::nullopt},
           {"hi_dim_idx", ArgKind::kInt, std::nullopt},
           {"lo_dim_idx", ArgKind::kInt, std::nullopt}},
          [](Target& target, const Args& args) {
            return MultDim(target.module, args["alloc_cursor"].cursor,
                           args["hi_dim_idx"].int_value,
                           args["lo_dim_idx"].int_value);
          }};
}

}  // namespace tessel::primitives
