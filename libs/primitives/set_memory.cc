#include "libs/primitives/set_memory.h"

#include "absl/strings/str_cat.h"
#include "libs/ir/edit.h"
#include "libs/primitives/buffer_uses.h"
#include "libs/primitives/transaction.h"

namespace tessel::primitives {

absl::Status SetMemory(ir::Module& module, const ir::Cursor& cursor,
                       const ir::Node& memory_type) {
  auto buffer = BufferAt(cursor, "set_memory", /*params=*/true);
  if (!buffer.ok()) return buffer.status();
  if (!memory_type.is(ir::Op::kMemory)) {
    return absl::InvalidArgumentError(
        absl::StrCat("set_memory expects a memory, not ", memory_type.name()));
  }
  Transaction tx(module);
  ir::Node* memory = &memory_type == module.dram()
                         ? nullptr
                         : const_cast<ir::Node*>(&memory_type);
  tx.SetDef(*buffer, memory);
  return tx.Commit(*ir::FormOf(*buffer),
                   absl::StrCat("'", (*buffer)->name(), "' cannot live in ",
                                memory_type.name()));
}

PrimitiveSpec SetMemorySpec() {
  return {"set_memory",
          {{"cursor", ArgKind::kAlloc, std::nullopt},
           {"memory_type", ArgKind::kMemory, std::nullopt}},
          [](Target& target, const Args& args) {
            return SetMemory(target.module, args["cursor"].cursor,
                             *args["memory_type"].form);
          }};
}

}  // namespace tessel::primitives
