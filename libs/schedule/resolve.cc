#include "libs/schedule/resolve.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace tessel::schedule {

absl::StatusOr<ir::Node*> ResolveForm(ir::Module& module,
                                      absl::string_view name) {
  if (ir::Node* form = module.Find(absl::StrCat("@", name))) return form;
  return absl::NotFoundError(
      absl::StrCat("no proc, instr, memory or config named @", name));
}

}  // namespace tessel::schedule
