#include "libs/primitives/bind_config.h"

#include "absl/strings/str_cat.h"
#include "libs/ir/build.h"
#include "libs/ir/edit.h"
#include "libs/primitives/buffer_uses.h"
#include "libs/primitives/config_state.h"
#include "libs/primitives/transaction.h"

namespace tessel::primitives {

using ir::Node;

absl::Status BindConfig(ir::Module& module, const ir::Cursor& var_cursor,
                        const Node& config, const std::string& field) {
  if (!var_cursor.is_valid()) return var_cursor.status();
  if (absl::Status s = CheckConfigField(config, field); !s.ok()) return s;
  Node* expr = var_cursor.node();
  Node* stmt = expr;
  while (stmt != nullptr && !ir::IsBodyStatement(*stmt)) stmt = stmt->parent();
  if (stmt == nullptr || stmt == expr) {
    return absl::InvalidArgumentError(
        absl::StrCat("bind_config expects an expression in a statement, not '",
                     NodeText(*expr), "'"));
  }
  ConfigField target{&config, field};
  if (WritesField(*stmt, target)) {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot bind '", NodeText(*expr), "': '", NodeText(*stmt),
                     "' writes ", config.name(), ".", field));
  }
  Transaction tx(module);
  Node* write =
      ir::Build::WriteConfig(module, config, field, module.Clone(expr));
  Node* read = ir::Build::ReadConfig(module, config, field);
  tx.Insert(stmt->parent(), stmt->position(), write);
  tx.Replace(expr, read);
  std::string what = absl::StrCat("cannot bind '", NodeText(*write->operand(0)),
                                  "' to ", config.name(), ".", field);
  if (absl::Status s = tx.Verify(*ir::FormOf(write), what); !s.ok()) {
    return s;
  }
  bool clobbers = false;
  if (absl::Status s = CheckUnobservable(*write, read, &clobbers); !s.ok()) {
    return absl::FailedPreconditionError(
        absl::StrCat(what, ": ", s.message()));
  }
  if (clobbers) {
    if (absl::Status s = DeclareClobbered(tx, *write, what); !s.ok()) return s;
  }
  return tx.Commit(*ir::FormOf(write), what);
}

PrimitiveSpec BindConfigSpec() {
  return {"bind_config",
          {{"var_cursor", ArgKind::kExpr, std::nullopt},
           {"config", ArgKind::kConfig, std::nullopt},
           {"field", ArgKind::kString, std::nullopt}},
          [](Target& target, const Args& args) {
            return BindConfig(target.module, args["var_cursor"].cursor,
                              *args["config"].form, args["field"].text);
          }};
}

}  // namespace tessel::primitives
