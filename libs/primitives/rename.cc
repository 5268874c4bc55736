#include "libs/primitives/rename.h"

#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "libs/ir/edit.h"
#include "libs/primitives/names.h"

namespace tessel::primitives {
namespace {

absl::Status RunRename(Target& target, const Args& args) {
  return RenameProc(target.module, target.proc, args["name"].text);
}

}  // namespace

absl::Status RenameProc(ir::Module& module, ir::Node& proc,
                        absl::string_view name) {
  if (!IsIdentifier(name)) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", name,
                     "' is not a procedure name (letters, digits and '_', "
                     "not starting with a digit; without '@')"));
  }
  std::string global = absl::StrCat("@", name);
  if (const ir::Node* taken = module.Find(global)) {
    return absl::InvalidArgumentError(
        absl::StrCat("the new name must be fresh: ", global, " is ",
                     taken == &proc ? "the procedure's own name"
                                    : "already a form of "
                                      "the module"));
  }
  // The store keeps a form's name in the module's table of globals, which
  // Replace updates: the renamed copy takes the proc's place.
  ir::Node* renamed = module.Clone(&proc);
  renamed->set_name(global);
  for (ir::Node* form : module.forms()) {
    ir::Walk(*form, [&](ir::Node& node) {
      if (node.is(ir::Op::kCall) && node.def() == &proc) {
        node.set_def(renamed);
        node.set_name(global);
      }
    });
  }
  module.Replace(&proc, renamed);
  return absl::OkStatus();
}

PrimitiveSpec RenameSpec() {
  return {"rename", {{"name", ArgKind::kString, std::nullopt}}, &RunRename};
}

}  // namespace tessel::primitives
