#include "libs/primitives/unroll_buffer.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/ir/build.h"
#include "libs/ir/edit.h"
#include "libs/primitives/buffer_uses.h"
#include "libs/primitives/transaction.h"

namespace tessel::primitives {

using ir::Build;
using ir::Node;

absl::Status UnrollBuffer(ir::Module& module, const ir::Cursor& alloc_cursor,
                          int64_t dimension) {
  auto alloc = BufferAt(alloc_cursor, "unroll_buffer");
  if (!alloc.ok()) return alloc.status();
  const ir::Type& type = (*alloc)->declared_type();
  int64_t rank = type.is_shaped() ? type.rank() : 0;
  if (dimension < 0 || dimension >= rank ||
      !type.dims()[dimension].is_constant()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", (*alloc)->name(), "' has no literal dimension ", dimension));
  }
  int64_t n = type.dims()[dimension].value;
  Node* form = ir::FormOf(*alloc);
  std::vector<Node*> allocs;
  for (int64_t k = 0; k < n; ++k) {
    std::string name = absl::StrCat((*alloc)->name(), "_", k);
    if (ir::FreshName(module, *form, name) != name) {
      return absl::InvalidArgumentError(
          absl::StrCat("the name '", name, "' is already used"));
    }
    std::vector<Node*> dims = DimNodes(module, type);
    dims.erase(dims.begin() + dimension);
    allocs.push_back(Build::Alloc(module, name, ShapeOf(type.elem(), dims),
                                  (*alloc)->def()));
  }
  Transaction tx(module);
  absl::Status status = RewriteAccesses(
      tx, **alloc, [&](const BufferAccess& access) -> absl::StatusOr<Node*> {
        const Node* at = access.selectors[dimension];
        if (!at->is(ir::Op::kConst) || at->int_value() < 0 ||
            at->int_value() >= n) {
          return absl::FailedPreconditionError(absl::StrCat(
              "cannot unroll '", (*alloc)->name(), "': '",
              NodeText(*access.node), "' does not select dimension ", dimension,
              " by a literal in [0, ", n, ")"));
        }
        std::vector<Node*> selectors;
        for (int64_t k = 0; k < rank; ++k) {
          if (k != dimension) {
            selectors.push_back(module.Clone(access.selectors[k]));
          }
        }
        const Node& target = *allocs[at->int_value()];
        return Rebuilt(module, access, target, selectors);
      });
  if (!status.ok()) return status;
  Node* parent = (*alloc)->parent();
  size_t position = (*alloc)->position();
  tx.Detach(*alloc);
  for (size_t k = 0; k < allocs.size(); ++k) {
    tx.Insert(parent, position + k, allocs[k]);
  }
  return tx.Commit(*form,
                   absl::StrCat("cannot unroll '", (*alloc)->name(), "'"));
}

PrimitiveSpec UnrollBufferSpec() {
  return {"unroll_buffer",
          {{"alloc_cursor", ArgKind::kAlloc, std::nullopt},
           {"dimension", ArgKind::kInt, std::nullopt}},
          [](Target& target, const Args& args) {
            return UnrollBuffer(target.module, args["alloc_cursor"].cursor,
                                args["dimension"].int_value);
          }};
}

}  // namespace tessel::primitives
