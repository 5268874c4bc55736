#include "libs/primitives/delete_buffer.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/primitives/buffer_uses.h"

namespace tessel::primitives {

absl::Status DeleteBuffer(ir::Module& module, const ir::Cursor& buf_cursor) {
  auto alloc = BufferAt(buf_cursor, "delete_buffer");
  if (!alloc.ok()) return alloc.status();
  std::vector<ir::Node*> uses = UsesOf(**alloc);
  if (!uses.empty()) {
    const ir::Node& use = uses.front()->parent() != nullptr
                              ? *uses.front()->parent()
                              : *uses.front();
    return absl::FailedPreconditionError(
        absl::StrCat("cannot delete '", (*alloc)->name(), "': it is used in '",
                     NodeText(use), "'"));
  }
  ir::Cursor(module, *alloc).Delete();
  return absl::OkStatus();
}

PrimitiveSpec DeleteBufferSpec() {
  return {"delete_buffer",
          {{"buf_cursor", ArgKind::kAlloc, std::nullopt}},
          [](Target& target, const Args& args) {
            return DeleteBuffer(target.module, args["buf_cursor"].cursor);
          }};
}

}  // namespace tessel::primitives
