#include "libs/primitives/write_support.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/ir/forms.h"
#include "libs/ir/types.h"
#include "libs/primitives/buffer_uses.h"

namespace tessel::primitives {

using ir::Node;
using ir::Op;

namespace {

// The buffer `expr` names if it is a location (a scalar's Ref or an
// element's Load), else null.
const Node* NamedBuffer(const Node& expr) {
  const Node& ref = expr.is(Op::kLoad) ? *expr.operand(0) : expr;
  return ref.def();
}

}  // namespace

const Node& BufferOf(const Node& location) { return *NamedBuffer(location); }

const Node& RootOf(const Node& buffer) {
  const Node* root = &buffer;
  while (root->is(Op::kLet)) {
    const Node& window = *root->operand(0);
    const Node& ref = window.is(Op::kWindow) ? *window.operand(0) : window;
    if (ref.def() == nullptr) break;
    root = ref.def();
  }
  return *root;
}

std::vector<const Node*> WrittenBuffers(const Node& stmt) {
  std::vector<const Node*> written;
  if (stmt.is(Op::kAssign) || stmt.is(Op::kReduce)) {
    written.push_back(&BufferOf(*stmt.operand(0)));
  } else if (stmt.is(Op::kCall) || stmt.is(Op::kTransferWrite)) {
    for (const Node* arg : stmt.operands()) {
      ir::AnyNode(*arg, [&](const Node& node) {
        if (node.is(Op::kRef) && node.def() != nullptr) {
          written.push_back(node.def());
        }
        return false;
      });
    }
  }
  return written;
}

bool SameLocation(const Node& a, const Node& b) {
  return &BufferOf(a) == NamedBuffer(b) && NodeText(a) == NodeText(b);
}

const Node* ReadOf(const Node& expr, const Node& buffer) {
  const Node* found = nullptr;
  ir::AnyNode(expr, [&](const Node& node) {
    if (node.is(Op::kRef) && node.def() != nullptr &&
        &RootOf(*node.def()) == &RootOf(buffer)) {
      found = &node;
    }
    return found != nullptr;
  });
  if (found != nullptr && found->position() == 0 &&
      found->parent()->is(Op::kLoad)) {
    return found->parent();
  }
  return found;
}

absl::Status CheckExactRegrouping(const Node& value, Regrouping how,
                                  const std::string& primitive) {
  const ir::Type& type = value.type();
  if (!type.is_elem()) return absl::OkStatus();
  return CheckExactRegrouping(type.elem(), how, primitive);
}

absl::Status CheckExactRegrouping(ElemType elem, Regrouping how,
                                  const std::string& primitive) {
  if (!IsFloat(elem)) return absl::OkStatus();
  // Values whose result changes in every float format: 1e20 absorbs 1 (and
  // overflows the small formats), a product of two 1e30 overflows f32 (and
  // the small formats; f64 at 1e300).
  const char* what = "+";
  const char* witness = "(1 + 1e20) + -1e20 is not 1 + (1e20 + -1e20)";
  if (how == Regrouping::kProduct) {
    what = "*";
    witness = "(1e30 * 1e30) * 1e-30 is not 1e30 * (1e30 * 1e-30)";
  } else if (how == Regrouping::kDistribute) {
    what = "* over +";
    witness = "1e30 * 1e30 + 1e30 * -1e30 is not 1e30 * (1e30 + -1e30)";
  }
  return absl::FailedPreconditionError(absl::StrCat(
      primitive, ": regrouping ", what, " over ", ElemTypeName(elem),
      " changes its rounding (", witness,
      "): only integer values regroup exactly"));
}

}  // namespace tessel::primitives
