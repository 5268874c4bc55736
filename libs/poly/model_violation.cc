// Violations: the first point where a property fails, named as TIR names
// it, for diagnostics.
#include <cstdlib>

#include "absl/strings/str_join.h"
#include "libs/poly/model.h"

namespace tessel::poly {
namespace {

// Does the parameter `id` appear in the constraints of `set`?
bool Involves(const isl::set& set, const isl::id& id) {
  int pos = isl_set_find_dim_by_id(set.get(), isl_dim_param, id.get());
  return pos >= 0 && isl_set_involves_dims(set.get(), isl_dim_param, pos, 1) !=
                         isl_bool_false;
}

// The coordinates of `point`'s set dimensions, as decimals.
absl::StatusOr<std::vector<std::string>> Coordinates(const isl::point& point,
                                                     isl_size dims) {
  if (isl_point_is_void(point.get()) == isl_bool_true) {
    return absl::InternalError("isl found no point in a non-empty set");
  }
  std::vector<std::string> coordinates;
  for (int pos = 0; pos < dims; ++pos) {
    isl::val value = isl::manage(
        isl_point_get_coordinate_val(point.get(), isl_dim_set, pos));
    char* text = isl_val_to_str(value.get());
    coordinates.emplace_back(text);
    std::free(text);
  }
  return coordinates;
}

// The lexicographically least point of the non-empty `set`; when the set
// is unbounded below, the least point whose first `coordinates` lie in the
// smallest box around 0 that holds one (the smallest values: -1 for an
// index below 0).
isl::set LeastPoint(const isl::set& set, size_t coordinates) {
  try {
    return set.lexmin();
  } catch (const isl::exception_quota&) {
    throw;
  } catch (const isl::exception&) {
    // An unbounded optimum.
  }
  for (int bound = 0; bound < (1 << 30); bound = bound == 0 ? 1 : 2 * bound) {
    isl::set box = set;
    for (int pos = 0; pos < static_cast<int>(coordinates); ++pos) {
      box = isl::manage(
          isl_set_lower_bound_si(box.release(), isl_dim_set, pos, -bound));
      box = isl::manage(
          isl_set_upper_bound_si(box.release(), isl_dim_set, pos, bound));
    }
    if (!box.is_empty()) return box.lexmin();
  }
  return set;  // any point
}

}  // namespace

absl::StatusOr<std::optional<Violation>> ProcModel::FindViolation(
    const ir::Node& stmt, const std::vector<isl::pw_aff>& values,
    absl::FunctionRef<isl::set(const std::vector<isl::pw_aff>&)> fails) const {
  using Result = std::optional<Violation>;
  return Guard<Result>([&]() -> absl::StatusOr<Result> {
    auto domain = DomainOf(stmt);
    if (!domain.ok()) return domain.status();
    isl::set failing = domain->intersect(fails(values));
    // The values may bring parameters of their own (an unknown size).
    if (isl_set_dim(failing.get(), isl_dim_param) !=
        isl_set_dim(domain->get(), isl_dim_param)) {
      failing = failing.intersect(TypeConstraints(failing.space()));
    }
    if (failing.is_empty()) return std::nullopt;
    auto point = PickPoint(stmt, failing, values);
    if (!point.ok()) return point.status();
    return *std::move(point);
  });
}

absl::StatusOr<std::optional<std::vector<std::string>>> FirstPoint(
    isl::ctx ctx, absl::FunctionRef<isl::set()> build) {
  using Result = std::optional<std::vector<std::string>>;
  return Ask<Result>(ctx, [&]() -> absl::StatusOr<Result> {
    isl::set set = build();
    if (set.is_empty()) return std::nullopt;
    isl_size dims = isl_set_dim(set.get(), isl_dim_set);
    isl::set least = LeastPoint(set, static_cast<size_t>(dims));
    auto coordinates = Coordinates(least.sample_point(), dims);
    if (!coordinates.ok()) return coordinates.status();
    return *std::move(coordinates);
  });
}

absl::StatusOr<Violation> ProcModel::PickPoint(
    const ir::Node& stmt, const isl::set& failing,
    const std::vector<isl::pw_aff>& values) const {
  // The values as a map from the failing points, its parameters in the
  // order counterexamples name them.
  isl::map map = isl::manage(isl_map_from_domain(failing.copy()));
  for (const isl::pw_aff& value : values) {
    map = isl::manage(isl_map_flat_range_product(
        map.release(), value.as_map().intersect_domain(failing).release()));
  }
  isl::space order = isl::space::unit(ctx_);
  for (const Param& param : params_) order = order.add_param(param.id);
  map = isl::manage(isl_map_align_params(map.release(), order.release()));

  // Only the parameters the property depends on: those its types alone
  // constrain (an unused size, positive) are left out.
  isl::set essential =
      failing.gist_params(TypeConstraints(failing.space()).params());
  for (int pos = isl_map_dim(map.get(), isl_dim_param) - 1; pos >= 0; --pos) {
    isl::id id = isl::manage(isl_map_get_dim_id(map.get(), isl_dim_param, pos));
    bool used = Involves(essential, id);
    for (const isl::pw_aff& value : values) {
      used = used || value.involves_param(id);
    }
    if (!used) {
      map = isl::manage(
          isl_map_project_out(map.release(), isl_dim_param, pos, 1));
    }
  }

  std::vector<std::string> names;
  isl_size params = isl_map_dim(map.get(), isl_dim_param);
  for (int pos = 0; pos < params; ++pos) {
    names.emplace_back(isl_map_get_dim_name(map.get(), isl_dim_param, pos));
  }
  for (const ir::Node* loop : DimsAround(stmt)) names.push_back(loop->name());

  isl::set flat = isl::manage(isl_set_move_dims(
      map.wrap().release(), isl_dim_set, 0, isl_dim_param, 0, params));
  isl::set least = LeastPoint(flat, names.size());
  isl_size dims = isl_set_dim(least.get(), isl_dim_set);
  auto coordinates = Coordinates(least.sample_point(), dims);
  if (!coordinates.ok()) return coordinates.status();
  Violation violation;
  std::vector<std::string> parts;
  for (size_t i = 0; i < names.size(); ++i) {
    parts.push_back(absl::StrCat(names[i], " = ", (*coordinates)[i]));
  }
  violation.at = absl::StrJoin(parts, ", ");
  violation.values.assign(coordinates->begin() + names.size(),
                          coordinates->end());
  return violation;
}

}  // namespace tessel::poly
