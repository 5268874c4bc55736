#include "libs/primitives/set_precision.h"

#include "absl/strings/str_cat.h"
#include "libs/ir/edit.h"
#include "libs/ir/types.h"
#include "libs/primitives/buffer_uses.h"
#include "libs/primitives/transaction.h"

namespace tessel::primitives {

absl::Status SetPrecision(ir::Module& module, const ir::Cursor& cursor,
                          const std::string& typ) {
  auto buffer = BufferAt(cursor, "set_precision", /*params=*/true);
  if (!buffer.ok()) return buffer.status();
  std::optional<ElemType> elem = ParseElemType(typ);
  if (!elem) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", typ, "' is not an element type"));
  }
  const ir::Type& old = (*buffer)->declared_type();
  ir::Type type = old;
  if (old.is_elem()) {
    type = ir::Type::Elem(*elem);
  } else if (old.kind() == ir::TypeKind::kTensor) {
    type = ir::Type::Tensor(*elem, old.dims());
  } else if (old.kind() == ir::TypeKind::kWindow) {
    type = ir::Type::Window(*elem, old.dims());
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("set_precision changes scalars, tensors and windows; '",
                     (*buffer)->name(), "' is none"));
  }
  Transaction tx(module);
  tx.SetDeclaredType(*buffer, type);
  return tx.Commit(*ir::FormOf(*buffer),
                   absl::StrCat("'", (*buffer)->name(), "' cannot hold ", typ));
}

PrimitiveSpec SetPrecisionSpec() {
  return {"set_precision",
          {{"cursor", ArgKind::kAlloc, std::nullopt},
           {"typ", ArgKind::kString, std::nullopt}},
          [](Target& target, const Args& args) {
            return SetPrecision(target.module, args["cursor"].cursor,
                                args["typ"].text);
          }};
}

}  // namespace tessel::primitives
