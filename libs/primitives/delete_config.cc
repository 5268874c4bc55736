#include "libs/primitives/delete_config.h"

#include "absl/strings/str_cat.h"
#include "libs/primitives/buffer_uses.h"
#include "libs/primitives/config_state.h"

namespace tessel::primitives {

absl::Status DeleteConfig(ir::Module& module, const ir::Cursor& stmt_cursor) {
  if (!stmt_cursor.is_valid()) return stmt_cursor.status();
  ir::Node& write = *stmt_cursor.node();
  if (!write.is(ir::Op::kWriteConfig)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "delete_config expects a write-config, not '", NodeText(write), "'"));
  }
  if (absl::Status s = CheckUnobservable(write); !s.ok()) {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot delete '", NodeText(write), "': ", s.message()));
  }
  ir::Cursor(module, &write).Delete();
  return absl::OkStatus();
}

PrimitiveSpec DeleteConfigSpec() {
  return {"delete_config",
          {{"stmt_cursor", ArgKind::kStmt, std::nullopt}},
          [](Target& target, const Args& args) {
            return DeleteConfig(target.module, args["stmt_cursor"].cursor);
          }};
}

}  // namespace tessel::primitives
