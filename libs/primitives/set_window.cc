#include "libs/primitives/set_window.h"

#include "absl/strings/str_cat.h"
#include "libs/ir/edit.h"
#include "libs/ir/forms.h"
#include "libs/primitives/buffer_uses.h"
#include "libs/primitives/transaction.h"

namespace tessel::primitives {

absl::Status SetWindow(ir::Module& module, const ir::Cursor& cursor,
                       bool is_window) {
  if (absl::Status status = cursor.status(); !status.ok()) return status;
  ir::Node* param = cursor.node();
  if (!param->is(ir::Op::kParam) || !ir::IsDataParam(*param)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "set_window expects a data parameter, not '", NodeText(*param), "'"));
  }
  const ir::Type& old = param->declared_type();
  if (old.kind() != ir::TypeKind::kTensor &&
      old.kind() != ir::TypeKind::kWindow) {
    return absl::InvalidArgumentError(absl::StrCat(
        "set_window: '", param->name(), "' is neither a tensor nor a window"));
  }
  Transaction tx(module);
  tx.SetDeclaredType(param, is_window
                                ? ir::Type::Window(old.elem(), old.dims())
                                : ir::Type::Tensor(old.elem(), old.dims()));
  return tx.Commit(*ir::FormOf(param),
                   absl::StrCat("'", param->name(), "' cannot be ",
                                is_window ? "a window" : "a tensor"));
}

PrimitiveSpec SetWindowSpec() {
  return {"set_window",
          {{"cursor", ArgKind::kAlloc, std::nullopt},
           {"is_window", ArgKind::kBool, "True"}},
          [](Target& target, const Args& args) {
            return SetWindow(target.module, args["cursor"].cursor,
                             args["is_window"].bool_value);
          }};
}

}  // namespace tessel::primitives
