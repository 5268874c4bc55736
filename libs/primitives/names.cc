#include "libs/primitives/names.h"

#include <cctype>

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

}  // namespace tessel::primitives
