#include "libs/primitives/names.h"

#include <cctype>

#include "absl/strings/str_cat.h"
#include "libs/ir/edit.h"

namespace tessel::primitives {

bool IsIdentifier(absl::string_view name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) {
    return false;
  }
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

absl::Status CheckNewName(const ir::Module& module, const ir::Node& proc,
                          const std::string& name, absl::string_view what) {
  if (!IsIdentifier(name)) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, ": '", name, "' is not a name"));
  }
  if (ir::FreshName(module, proc, name) != name) {
    return absl::InvalidArgumentError(absl::StrCat(
        what, ": the new name '", name, "' is already used in the proc"));
  }
  return absl::OkStatus();
}

}  // namespace tessel::primitives
