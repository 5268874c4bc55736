#include "libs/emitc/uses.h"

#include "absl/strings/str_cat.h"

namespace tessel::emitc {

std::string WindowTypeName(const WindowType& type) {
  return absl::StrCat("struct tsl_win_", ElemTypeName(type.elem), "_",
                      type.rank, type.is_const ? "_const" : "");
}

void Needs::Merge(const Needs& other) {
  helpers.insert(other.helpers.begin(), other.helpers.end());
  allocate |= other.allocate;
  configs.insert(other.configs.begin(), other.configs.end());
  windows.insert(other.windows.begin(), other.windows.end());
  vector_types.insert(other.vector_types.begin(), other.vector_types.end());
  vector_helpers.insert(other.vector_helpers.begin(),
                        other.vector_helpers.end());
  memcpy |= other.memcpy;
  includes.insert(other.includes.begin(), other.includes.end());
}

void Uses::Merge(const Uses& other) {
  reads.insert(reads.end(), other.reads.begin(), other.reads.end());
  writes.insert(writes.end(), other.writes.begin(), other.writes.end());
  needs.Merge(other.needs);
}

}  // namespace tessel::emitc
