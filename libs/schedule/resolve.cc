#include "libs/schedule/resolve.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "targets/target_forms.h"

namespace tessel::schedule {

absl::StatusOr<ir::Node*> ResolveForm(ir::Module& module,
                                      absl::string_view name) {
  if (ir::Node* form = module.Find(absl::StrCat("@", name))) return form;
  auto imported = targets::ImportTargetForm(module, name);
  if (imported.ok()) return *imported;
  if (!absl::IsNotFound(imported.status())) return imported.status();
  return absl::NotFoundError(
      absl::StrCat("no proc, instr, memory or config named @", name,
                   " in the module or the target libraries"));
}

}  // namespace tessel::schedule
