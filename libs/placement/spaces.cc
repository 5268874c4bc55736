#include "libs/placement/spaces.h"

#include <cstdlib>

#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "isl/map.h"
#include "isl/set.h"
#include "isl/space.h"
#include "isl/union_map.h"
#include "isl/val.h"

namespace tessel::placement {
namespace {

// Is `set` in the space NAME[...] of `dims` dimensions (any when -1)?
bool IsNamed(const isl::set& set, absl::string_view name, int dims) {
  isl_space* space = isl_set_get_space(set.get());
  const char* tuple = isl_space_get_tuple_name(space, isl_dim_set);
  isl_size n = isl_space_dim(space, isl_dim_set);
  isl_space_free(space);
  return !set.is_wrapping() && tuple != nullptr && tuple == name &&
         (dims < 0 ? n >= 1 : n == dims);
}

}  // namespace

bool IsPe(const isl::set& set) {
  return IsNamed(set, "PE", 2);
}

bool IsStreamRange(const isl::set& set) {
  if (!set.is_wrapping()) return false;
  isl::map pair = set.unwrap();
  return IsPe(pair.domain()) && IsNamed(pair.range(), "index", -1);
}

std::optional<std::pair<int64_t, int64_t>> GridSize(const isl::set& set) {
  if (!IsPe(set) || !set.is_singleton() || set.is_empty()) return std::nullopt;
  isl::point point = set.sample_point();
  int64_t size[2];
  for (int d = 0; d < 2; ++d) {
    isl_val* value = isl_point_get_coordinate_val(point.get(), isl_dim_set, d);
    bool small = isl_val_is_int(value) && isl_val_get_den_si(value) == 1 &&
                 isl_val_cmp_si(value, 0) > 0 &&
                 isl_val_cmp_si(value, int64_t{1} << 30) < 0;
    size[d] = small ? isl_val_get_num_si(value) : 0;
    isl_val_free(value);
    if (!small) return std::nullopt;
  }
  return std::pair{size[0], size[1]};
}

std::optional<isl::map> OneMap(const isl::union_map& map) {
  if (isl_union_map_n_map(map.get()) != 1) return std::nullopt;
  std::optional<isl::map> one;
  map.foreach_map([&](isl::map piece) { one = piece; });
  return one;
}

std::string Unbraced(char* printed) {
  std::string text = printed != nullptr ? printed : "";
  free(printed);
  absl::string_view view = text;
  absl::ConsumePrefix(&view, "{ ");
  absl::ConsumeSuffix(&view, " }");
  return std::string(view);
}

std::string SpaceText(const isl::space& space) {
  return Unbraced(isl_space_to_str(space.get()));
}

}  // namespace tessel::placement
