#include "libs/primitives/buffer_uses.h"

#include "absl/strings/str_cat.h"
#include "libs/ir/build.h"
#include "libs/ir/edit.h"
#include "libs/ir/forms.h"
#include "libs/ir/views.h"
#include "libs/ir/syntax.h"
#include "libs/sexpr/printer.h"

namespace tessel::primitives {

using ir::Node;
using ir::Op;

std::string NodeText(const Node& node) {
  return PrintFlat(ir::WriteNode(node));
}

absl::StatusOr<Node*> BufferAt(const ir::Cursor& cursor,
                               const std::string& primitive, bool params) {
  if (!cursor.is_valid()) return cursor.status();
  Node* node = cursor.node();
  if (node->is(Op::kAlloc) || (params && ir::IsDataParam(*node))) return node;
  return absl::InvalidArgumentError(
      absl::StrCat(primitive, " expects ", params ? "a buffer" : "an alloc",
                   ", not '", NodeText(*node), "'"));
}

std::vector<Node*> UsesOf(const Node& decl) {
  std::vector<Node*> uses;
  Node* form = ir::FormOf(const_cast<Node*>(&decl));
  if (form == nullptr) return uses;
  ir::Walk(*form, [&](Node& node) {
    if (node.is(Op::kRef) && node.def() == &decl) uses.push_back(&node);
  });
  return uses;
}

namespace {

// Whether a reference to `decl` alone is a scalar's value. A let names a
// window and declares no type: named whole, it is the window passed on.
bool NamesScalar(const Node& decl) {
  if (decl.is(Op::kLet)) return false;
  const ir::Type& type = decl.declared_type();
  return !type.is_shaped() || type.rank() == 0;
}

}  // namespace

absl::Status NotABox(const Node& decl, const Node& window) {
  return absl::FailedPreconditionError(absl::StrCat(
      "'", decl.name(), "' is seen through '", NodeText(window),
      "', a window with a step, a split or a permutation, which this "
      "rewrite cannot compose"));
}

absl::Status RewriteAccesses(Transaction& tx, const Node& decl,
                             const AccessRewrite& rewrite) {
  for (Node* ref : UsesOf(decl)) {
    Node* parent = ref->parent();
    BufferAccess access{ref, {}};
    if (parent != nullptr && ref->position() == 0 &&
        (parent->is(Op::kLoad) || parent->is(Op::kWindow))) {
      access.node = parent;
      access.is_window = parent->is(Op::kWindow);
      if (access.is_window && !ir::WindowView::IsBox(*parent)) {
        return NotABox(decl, *parent);
      }
      access.selectors = parent->operands().subspan(1);
    } else if (NamesScalar(decl)) {
      access.is_scalar = true;
    } else {
      return absl::FailedPreconditionError(
          absl::StrCat("'", decl.name(), "' is used whole in '",
                       NodeText(parent != nullptr ? *parent : *ref),
                       "'; only its elements and windows can be rewritten"));
    }
    auto replacement = rewrite(access);
    if (!replacement.ok()) return replacement.status();
    tx.Replace(access.node, *replacement);
  }
  return absl::OkStatus();
}

Node* ElementOf(ir::Module& module, const Node& buffer,
                const std::vector<Node*>& indices) {
  if (indices.empty()) return ir::Build::Ref(module, buffer);
  return ir::Build::Load(module, buffer, indices);
}

Node* Rebuilt(ir::Module& module, const BufferAccess& access,
              const Node& buffer, const std::vector<Node*>& selectors) {
  return access.is_window ? ir::Build::Window(module, buffer, selectors)
                          : ElementOf(module, buffer, selectors);
}

absl::Status CheckDimension(const Node& alloc, int64_t dim) {
  const ir::Type& type = alloc.declared_type();
  int64_t rank = type.is_shaped() ? type.rank() : 0;
  if (dim >= 0 && dim < rank) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("'", alloc.name(), "' has no dimension ", dim));
}

std::vector<Node*> DimNodes(ir::Module& module, const ir::Type& type) {
  std::vector<Node*> dims;
  if (!type.is_shaped()) return dims;
  for (const ir::Dim& dim : type.dims()) {
    dims.push_back(dim.is_constant() ? ir::Build::Int(module, dim.value)
                                     : module.Clone(dim.expr));
  }
  return dims;
}

ir::Type ShapeOf(ElemType elem, const std::vector<Node*>& dims) {
  if (dims.empty()) return ir::Type::Elem(elem);
  return ir::Build::Tensor(elem, dims);
}

}  // namespace tessel::primitives
