#include "libs/polysimd/isl_text.h"

#include <cstdlib>

#include "isl/aff.h"
#include "isl/map.h"
#include "isl/set.h"
#include "isl/union_map.h"
#include "isl/val.h"

namespace tessel::polysimd {
namespace {

std::string Taken(char* text) {
  std::string out = text != nullptr ? text : "(null)";
  free(text);
  return out;
}

}  // namespace

std::string Text(const isl::set& set) {
  return Taken(isl_set_to_str(set.get()));
}
std::string Text(const isl::map& map) {
  return Taken(isl_map_to_str(map.get()));
}
std::string Text(const isl::union_map& map) {
  return Taken(isl_union_map_to_str(map.get()));
}
std::string Text(const isl::multi_aff& ma) {
  return Taken(isl_multi_aff_to_str(ma.get()));
}
std::string Text(const isl::multi_val& mv) {
  return Taken(isl_multi_val_to_str(mv.get()));
}
std::string Text(const isl::multi_pw_aff& mpa) {
  return Taken(isl_multi_pw_aff_to_str(mpa.get()));
}

}  // namespace tessel::polysimd
