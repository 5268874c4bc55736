// The spaces of a placement's maps: PE[x, y], [PE[x, y] -> index[...]].
#ifndef TESSEL_LIBS_PLACEMENT_SPACES_H_
#define TESSEL_LIBS_PLACEMENT_SPACES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "isl/cpp.h"

namespace tessel::placement {

// A set in the space PE[x, y].
bool IsPe(const isl::set& set);
// A set in the space [PE[x, y] -> index[...]] with at least one index.
bool IsStreamRange(const isl::set& set);
// (NX, NY) of a set { PE[NX, NY] } with NX, NY > 0.
std::optional<std::pair<int64_t, int64_t>> GridSize(const isl::set& set);
// The only map of `map`, or nullopt when it has none or several spaces.
std::optional<isl::map> OneMap(const isl::union_map& map);
// The lexicographically least point of a non-empty `set`, or some point
// of it when it is unbounded below.
isl::point Least(const isl::set& set);
// isl's text `printed` (which it frees) without the braces around it.
std::string Unbraced(char* printed);
// How isl writes a space, "{ ff[i0, i1] -> PE[o0, o1] }" without braces.
std::string SpaceText(const isl::space& space);

}  // namespace tessel::placement

#endif  // TESSEL_LIBS_PLACEMENT_SPACES_H_
