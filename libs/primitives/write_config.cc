#include "libs/primitives/write_config.h"

#include "absl/strings/str_cat.h"
#include "libs/ir/build.h"
#include "libs/ir/edit.h"
#include "libs/primitives/buffer_uses.h"
#include "libs/primitives/config_state.h"
#include "libs/primitives/transaction.h"

namespace tessel::primitives {

absl::Status WriteConfig(ir::Module& module, const ir::GapCursor& gap_cursor,
                         const ir::Node& config, const std::string& field,
                         const ir::Node& rhs) {
  if (!gap_cursor.is_valid()) return gap_cursor.status();
  if (absl::Status s = CheckConfigField(config, field); !s.ok()) return s;
  ir::Node* write =
      ir::Build::WriteConfig(module, config, field, module.Clone(&rhs));
  Transaction tx(module);
  tx.Insert(gap_cursor.owner(), gap_cursor.position(), write);
  if (absl::Status s =
          tx.Verify(*ir::FormOf(write),
                    absl::StrCat("cannot insert '", NodeText(*write), "'"));
      !s.ok()) {
    return s;
  }
  bool clobbers = false;
  if (absl::Status s = CheckUnobservable(*write, nullptr, &clobbers); !s.ok()) {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot insert '", NodeText(*write), "': ", s.message()));
  }
  std::string what = absl::StrCat("cannot insert '", NodeText(*write), "'");
  if (clobbers) {
    if (absl::Status s = DeclareClobbered(tx, *write, what); !s.ok()) return s;
  }
  return tx.Commit(*ir::FormOf(write), what);
}

PrimitiveSpec WriteConfigSpec() {
  return {"write_config",
          {{"gap_cursor", ArgKind::kGap, std::nullopt},
           {"config", ArgKind::kConfig, std::nullopt},
           {"field", ArgKind::kString, std::nullopt},
           {"rhs", ArgKind::kExprText, std::nullopt}},
          [](Target& target, const Args& args) {
            return WriteConfig(target.module, args["gap_cursor"].gap,
                               *args["config"].form, args["field"].text,
                               *args["rhs"].node);
          }};
}

}  // namespace tessel::primitives
