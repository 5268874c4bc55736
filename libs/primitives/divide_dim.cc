#include "libs/primitives/divide_dim.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/ir/build.h"
#include "libs/ir/edit.h"
#include "libs/primitives/buffer_uses.h"
#include "libs/primitives/transaction.h"

namespace tessel::primitives {

using ir::Build;
using ir::Node;

absl::Status DivideDim(ir::Module& module, const ir::Cursor& alloc_cursor,
                       int64_t dim_idx, int64_t quotient) {
  auto alloc = BufferAt(alloc_cursor, "divide_dim");
  if (!alloc.ok()) return alloc.status();
  const ir::Type& type = (*alloc)->declared_type();
  if (absl::Status s = CheckDimension(**alloc, dim_idx); !s.ok()) return s;
  int64_t rank = type.rank();
  if (quotient <= 0) {
    return absl::InvalidArgumentError("the quotient must be positive");
  }
  const ir::Dim& dim = type.dims()[dim_idx];
  if (!dim.is_constant()) {
    return absl::InvalidArgumentError(
        absl::StrCat("divide_dim splits a literal dimension; dimension ",
                     dim_idx, " of '", (*alloc)->name(), "' is symbolic"));
  }
  if (dim.value % quotient != 0) {
    return absl::FailedPreconditionError(
        absl::StrCat("dimension ", dim_idx, " of '", (*alloc)->name(), "' (",
                     dim.value, ") is not a multiple of ", quotient));
  }
  Transaction tx(module);
  std::vector<Node*> dims = DimNodes(module, type);
  dims[dim_idx] = Build::Int(module, dim.value / quotient);
  dims.insert(dims.begin() + dim_idx + 1, Build::Int(module, quotient));
  tx.SetDeclaredType(*alloc, ShapeOf(type.elem(), dims));
  absl::Status status = RewriteAccesses(
      tx, **alloc, [&](const BufferAccess& access) -> absl::StatusOr<Node*> {
        std::vector<Node*> selectors;
        for (int64_t k = 0; k < rank; ++k) {
          Node* sel = access.selectors[k];
          if (k != dim_idx) {
            selectors.push_back(module.Clone(sel));
            continue;
          }
          if (sel->is(ir::Op::kInterval)) {
            return absl::FailedPreconditionError(absl::StrCat(
                "cannot divide dimension ", dim_idx, " of '", (*alloc)->name(),
                "': '", NodeText(*access.node), "' keeps it"));
          }
          selectors.push_back(Build::Div(module, module.Clone(sel),
                                         Build::Int(module, quotient)));
          selectors.push_back(Build::Mod(module, module.Clone(sel),
                                         Build::Int(module, quotient)));
        }
        return Rebuilt(module, access, **alloc, selectors);
      });
  if (!status.ok()) return status;
  return tx.Commit(*ir::FormOf(*alloc),
                   absl::StrCat("cannot divide '", (*alloc)->name(), "'"));
}

PrimitiveSpec DivideDimSpec() {
  return {"divide_dim",
          {{"alloc_cursor", ArgKind::kAlloc, std::nullopt},
           {"dim_idx", ArgKind::kInt, std::nullopt},
           {"quotient", ArgKind::kInt, std::nullopt}},
          [](Target& target, const Args& args) {
            return DivideDim(target.module, args["alloc_cursor"].cursor,
                             args["dim_idx"].int_value,
                             args["quotient"].int_value);
          }};
}

}  // namespace tessel::primitives
