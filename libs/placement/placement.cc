#include "libs/placement/placement.h"

#include "absl/strings/str_cat.h"
#include <cstdlib>
#include <vector>

#include "absl/strings/str_join.h"
#include "isl/set.h"
#include "isl/space.h"
#include "isl/val.h"

namespace tessel::placement {

isl::set Placement::Grid() const {
  return isl::set(place.ctx(), absl::StrCat("{ PE[x, y] : 0 <= x < ", nx,
                                            " and 0 <= y < ", ny, " }"));
}

isl::set Placement::Border() const {
  return isl::set(
      place.ctx(),
      absl::StrCat("{ PE[x, y] : (x = -1 or x = ", nx, ") and 0 <= y < ", ny,
                   "; PE[x, y] : (y = -1 or y = ", ny, ") and 0 <= x < ", nx,
                   " }"));
}

namespace {

const TensorClause* Find(const std::vector<TensorClause>& clauses,
                         const std::string& tensor) {
  for (const TensorClause& clause : clauses) {
    if (clause.tensor == tensor) return &clause;
  }
  return nullptr;
}

}  // namespace

const TensorClause* Placement::Input(const std::string& tensor) const {
  return Find(inputs, tensor);
}

const TensorClause* Placement::Output(const std::string& tensor) const {
  return Find(outputs, tensor);
}

namespace {

// The coordinates of `point` from `first` on in the tuples of `space`:
// NAME[c0, c1] or [DOMAIN -> RANGE].
std::string PointText(isl_space* space, const isl::point& point, int& first) {
  std::string text;
  if (isl_space_is_wrapping(space) == isl_bool_true) {
    isl_space* pair = isl_space_unwrap(isl_space_copy(space));
    isl_space* domain = isl_space_domain(isl_space_copy(pair));
    isl_space* range = isl_space_range(pair);
    // The domain's coordinates come first.
    std::string from = PointText(domain, point, first);
    text = absl::StrCat("[", from, " -> ", PointText(range, point, first), "]");
    isl_space_free(domain);
    isl_space_free(range);
    return text;
  }
  const char* name = isl_space_get_tuple_name(space, isl_dim_set);
  std::vector<std::string> coords;
  for (isl_size k = 0; k < isl_space_dim(space, isl_dim_set); ++k) {
    isl_val* value =
        isl_point_get_coordinate_val(point.get(), isl_dim_set, first++);
    char* printed = isl_val_to_str(value);
    coords.push_back(printed != nullptr ? printed : "?");
    free(printed);
    isl_val_free(value);
  }
  return absl::StrCat(name != nullptr ? name : "", "[",
                      absl::StrJoin(coords, ", "), "]");
}

}  // namespace

isl::point Least(const isl::set& set) {
  // isl finds no least point when the set is unbounded below: a sample
  // then.
  isl_set* least = isl_set_lexmin(set.copy());
  if (least == nullptr) isl_ctx_reset_error(set.ctx().get());
  return isl::manage(
      isl_set_sample_point(least != nullptr ? least : set.copy()));
}

std::string FirstPoint(const isl::set& set) {
  isl::point point = Least(set);
  isl_space* space = isl_set_get_space(set.get());
  int first = 0;
  std::string text = PointText(space, point, first);
  isl_space_free(space);
  return text;
}

}  // namespace tessel::placement
