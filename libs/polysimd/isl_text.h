// isl objects as isl writes them, for --explain and diagnostics.
#ifndef TESSEL_LIBS_POLYSIMD_ISL_TEXT_H_
#define TESSEL_LIBS_POLYSIMD_ISL_TEXT_H_

#include <string>

#include "isl/cpp.h"

namespace tessel::polysimd {

std::string Text(const isl::set& set);
std::string Text(const isl::map& map);
std::string Text(const isl::union_map& map);
std::string Text(const isl::multi_aff& ma);
std::string Text(const isl::multi_val& mv);
std::string Text(const isl::multi_pw_aff& mpa);

}  // namespace tessel::polysimd

#endif  // TESSEL_LIBS_POLYSIMD_ISL_TEXT_H_
