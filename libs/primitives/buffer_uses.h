// What the buffer primitives (expand_dim, divide_dim, resize_dim,
// rearrange_dim, unroll_buffer, reuse_buffer, delete_buffer) share: the
// uses of a buffer and the rewrite of each access of it.
#ifndef TESSEL_LIBS_PRIMITIVES_BUFFER_USES_H_
#define TESSEL_LIBS_PRIMITIVES_BUFFER_USES_H_

#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "libs/ir/cursor.h"
#include "libs/ir/node.h"
#include "libs/primitives/transaction.h"

namespace tessel::primitives {

// The text of a node, for messages.
std::string NodeText(const ir::Node& node);

// The alloc (or, with `params`, the data parameter) `cursor` points at;
// InvalidArgument naming `primitive` otherwise.
absl::StatusOr<ir::Node*> BufferAt(const ir::Cursor& cursor,
                                   const std::string& primitive,
                                   bool params = false);

// The references to `decl` in the proc it is declared in, in program
// order.
std::vector<ir::Node*> UsesOf(const ir::Node& decl);

// One access of a buffer: an element read or written (a Load, `is_window`
// false), a window of it (is_window), or a scalar named whole (`node` is
// the Ref; no selectors).
struct BufferAccess {
  ir::Node* node;
  absl::Span<ir::Node* const> selectors;
  bool is_window = false;
  bool is_scalar = false;
};

// The rejection of a rewrite of `decl` through `window`, which is not a
// box of what it views (ir::WindowView::IsBox): windows are composed by
// adding offsets, which a step, a split or a permutation would make wrong.
absl::Status NotABox(const ir::Node& decl, const ir::Node& window);

// Replaces each access of `decl` by what `rewrite` builds for it (a
// detached node), through `tx`. `decl` is an alloc, a data parameter or a
// let of a window. A use that is none of the three (the whole tensor or
// window passed to a call) is FailedPrecondition, as are a window of it
// that is not a box (NotABox) and any error of `rewrite`; edits made
// before it are undone with `tx`.
using AccessRewrite =
    std::function<absl::StatusOr<ir::Node*>(const BufferAccess& access)>;
absl::Status RewriteAccesses(Transaction& tx, const ir::Node& decl,
                             const AccessRewrite& rewrite);

// `access` rebuilt on `buffer` with `selectors`: a window stays a window,
// an element an element (a scalar's Ref without selectors).
ir::Node* Rebuilt(ir::Module& module, const BufferAccess& access,
                  const ir::Node& buffer,
                  const std::vector<ir::Node*>& selectors);

// InvalidArgument unless `alloc` has a dimension `dim`.
absl::Status CheckDimension(const ir::Node& alloc, int64_t dim);

// A Load of `buffer` at `indices`, or a Ref to it when there are none.
ir::Node* ElementOf(ir::Module& module, const ir::Node& buffer,
                    const std::vector<ir::Node*>& indices);

// The dimensions of `type` as detached control expressions (literals and
// copies of symbolic dimensions), to build a changed shape from.
std::vector<ir::Node*> DimNodes(ir::Module& module, const ir::Type& type);

// The tensor type of `elem` with `dims`, or the scalar type without dims.
ir::Type ShapeOf(ElemType elem, const std::vector<ir::Node*>& dims);

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_BUFFER_USES_H_
