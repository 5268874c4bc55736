// The commute condition, the order query and their witnesses.
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/effects/effects.h"
#include "libs/ir/cursor.h"

namespace tessel::effects {
namespace {

using ir::Node;

// Every set of `instances`, one per statement space.
std::vector<isl::set> Spaces(const isl::union_set& instances) {
  std::vector<isl::set> sets;
  instances.foreach_set([&](isl::set set) { sets.push_back(set); });
  return sets;
}

// The universe relation from `x`'s space to `y`'s with the first `equal`
// dimensions equal and `compare` holding.
isl::map Related(isl::set x, isl::set y, size_t equal,
                 const std::vector<DimCmp>& compare) {
  // Each may have parameters of its own (an unknown configuration value).
  x = isl::manage(isl_set_align_params(x.release(), y.space().release()));
  y = isl::manage(isl_set_align_params(y.release(), x.space().release()));
  isl::space x_space = x.space(), y_space = y.space();
  isl::space space = isl::manage(isl_space_map_from_domain_and_range(
      x_space.release(), y_space.release()));
  isl::map map = isl::map::universe(space);
  isl_size x_dims = isl_set_dim(x.get(), isl_dim_set);
  isl_size y_dims = isl_set_dim(y.get(), isl_dim_set);
  for (size_t dim = 0; dim < equal; ++dim) {
    if (static_cast<isl_size>(dim) >= x_dims ||
        static_cast<isl_size>(dim) >= y_dims) {
      return isl::map::empty(space);
    }
    map = isl::manage(
        isl_map_equate(map.release(), isl_dim_in, dim, isl_dim_out, dim));
  }
  for (const DimCmp& c : compare) {
    if (static_cast<isl_size>(c.dim) >= x_dims ||
        static_cast<isl_size>(c.dim) >= y_dims) {
      return isl::map::empty(space);
    }
    int pos = static_cast<int>(c.dim);
    map = isl::manage(
        c.cmp == Cmp::kLess
            ? isl_map_order_lt(map.release(), isl_dim_in, pos, isl_dim_out, pos)
            : isl_map_order_gt(map.release(), isl_dim_in, pos, isl_dim_out,
                               pos));
  }
  return map.intersect_domain(x).intersect_range(y);
}

isl::union_map PairsOf(const isl::union_set& first,
                       const isl::union_set& second, size_t equal,
                       const std::vector<DimCmp>& compare) {
  isl::union_map pairs = isl::union_map::empty(first.ctx());
  for (const isl::set& x : Spaces(first)) {
    for (const isl::set& y : Spaces(second)) {
      pairs = pairs.unite(isl::union_map(Related(x, y, equal, compare)));
    }
  }
  return pairs;
}

// A clash of one kind: what the first instance does, what the second does.
struct Clash {
  const isl::union_map Effects::*first;
  const isl::union_map Effects::*second;
  const char* text;
};
constexpr Clash kClashes[] = {
    {&Effects::writes, &Effects::writes, "both write"},
    {&Effects::writes, &Effects::reads, "the first writes, the second reads"},
    {&Effects::reads, &Effects::writes, "the first reads, the second writes"},
    {&Effects::writes, &Effects::reduces,
     "the first writes, the second reduces"},
    {&Effects::reduces, &Effects::writes,
     "the first reduces, the second writes"},
    {&Effects::reads, &Effects::reduces, "the first reads, the second reduces"},
    {&Effects::reduces, &Effects::reads, "the first reduces, the second reads"},
};

// What running a block twice can tell from running it once: a location
// it modifies and reads, or reduces twice.
constexpr Clash kRepeatClashes[] = {
    {&Effects::writes, &Effects::reads, "the first writes, the second reads"},
    {&Effects::reduces, &Effects::reduces, "both reduce"},
    {&Effects::reduces, &Effects::reads, "the first reduces, the second reads"},
    {&Effects::reduces, &Effects::writes,
     "the first reduces, the second writes"},
};

std::string Instance(const std::vector<std::string>& loops,
                     const std::vector<std::string>& values, size_t at) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < loops.size(); ++i) {
    parts.push_back(absl::StrCat(loops[i], " = ", values[at + i]));
  }
  return absl::StrCat("(", absl::StrJoin(parts, ", "), ")");
}

// A witness: the least point of `clash`, a map [x -> y] -> location.
absl::StatusOr<std::string> Witness(const poly::ProcModel& model,
                                    const Effects& first, const Effects& second,
                                    const isl::map& clash, const char* text) {
  isl::set points = clash.wrap();
  auto context = model.Context();
  if (!context.ok()) return context.status();
  // Only the parameters the clash depends on beyond what holds everywhere
  // (a size is positive), then moved in front.
  isl::set essential = points.gist_params(*context);
  for (int pos = isl_set_dim(points.get(), isl_dim_param) - 1; pos >= 0;
       --pos) {
    isl_id* id = isl_set_get_dim_id(points.get(), isl_dim_param, pos);
    int at = isl_set_find_dim_by_id(essential.get(), isl_dim_param, id);
    isl_id_free(id);
    if (at < 0 || isl_set_involves_dims(essential.get(), isl_dim_param, at,
                                        1) == isl_bool_false) {
      points = isl::manage(
          isl_set_project_out(points.release(), isl_dim_param, pos, 1));
    }
  }
  isl_size params = isl_set_dim(points.get(), isl_dim_param);
  std::vector<std::string> param_names;
  for (int pos = 0; pos < params; ++pos) {
    param_names.emplace_back(
        isl_set_get_dim_name(points.get(), isl_dim_param, pos));
  }
  auto name = [](const char* text) {
    return std::string(text != nullptr ? text : "?");
  };
  isl::map pair = clash.domain().unwrap();
  std::string x_name = name(isl_map_get_tuple_name(pair.get(), isl_dim_in));
  std::string y_name = name(isl_map_get_tuple_name(pair.get(), isl_dim_out));
  std::string location = name(isl_map_get_tuple_name(clash.get(), isl_dim_out));
  isl::set flat = isl::manage(isl_set_move_dims(points.release(), isl_dim_set,
                                                0, isl_dim_param, 0, params));
  auto point = poly::FirstPoint(flat.ctx(), [&] { return flat; });
  if (!point.ok()) return point.status();
  if (!point->has_value())
    return absl::InternalError("a clash without a point");
  const std::vector<std::string>& values = **point;
  // The loops' names; dimensions by position where they are unknown.
  auto loops = [](const Effects& effects, const std::string& name,
                  isl_size dims) {
    auto it = effects.loops.find(name);
    if (it != effects.loops.end() &&
        it->second.size() == static_cast<size_t>(dims)) {
      return it->second;
    }
    std::vector<std::string> names;
    for (isl_size dim = 0; dim < dims; ++dim) {
      names.push_back(absl::StrCat("d", dim));
    }
    return names;
  };
  std::vector<std::string> x_loops =
      loops(first, x_name, isl_map_dim(pair.get(), isl_dim_in));
  std::vector<std::string> y_loops =
      loops(second, y_name, isl_map_dim(pair.get(), isl_dim_out));
  size_t at = param_names.size();
  std::string prefix;
  if (!param_names.empty()) {
    std::vector<std::string> parts;
    for (size_t i = 0; i < param_names.size(); ++i) {
      parts.push_back(absl::StrCat(param_names[i], " = ", values[i]));
    }
    prefix = absl::StrCat(absl::StrJoin(parts, ", "), ": ");
  }
  std::string x = Instance(x_loops, values, at);
  std::string y = Instance(y_loops, values, at + x_loops.size());
  size_t loc_at = at + x_loops.size() + y_loops.size();
  std::vector<std::string> indices(values.begin() + loc_at, values.end());
  std::string element =
      indices.empty()
          ? location
          : absl::StrCat(location, "[", absl::StrJoin(indices, ", "), "]");
  std::string instances = x_loops.empty() && y_loops.empty()
                              ? "the statements"
                              : absl::StrCat("instances ", x, " and ", y);
  return absl::StrCat(prefix, instances, " both access ", element, ": ", text);
}

}  // namespace

absl::StatusOr<isl::union_map> InstancePairs(
    const poly::ProcModel& model, const Effects& first, const Effects& second,
    size_t equal, const std::vector<DimCmp>& compare) {
  return poly::Ask<isl::union_map>(model.ctx(), [&] {
    return PairsOf(first.Instances(), second.Instances(), equal, compare);
  });
}

namespace {

// The first pair of `pairs` that clashes in one of the ways of `clashes`.
absl::StatusOr<std::optional<std::string>> FindClash(
    const poly::ProcModel& model, const Effects& first, const Effects& second,
    const isl::union_map& pairs, absl::Span<const Clash> clashes) {
  using Result = std::optional<std::string>;
  return poly::Ask<Result>(model.ctx(), [&]() -> absl::StatusOr<Result> {
    for (const Clash& clash : clashes) {
      // location -> [x -> y], restricted to the pairs asked about.
      isl::union_map touched =
          (first.*clash.first)
              .reverse()
              .range_product((second.*clash.second).reverse())
              .reverse()
              .intersect_domain(pairs.wrap());
      if (touched.is_empty()) continue;
      std::optional<isl::map> some;
      touched.foreach_map([&](isl::map map) {
        if (!some.has_value() && !map.is_empty()) some = map;
      });
      auto witness = Witness(model, first, second, *some, clash.text);
      if (!witness.ok()) return witness.status();
      return Result(*std::move(witness));
    }
    return Result(std::nullopt);
  });
}

}  // namespace

absl::StatusOr<std::optional<std::string>> FindConflict(
    const poly::ProcModel& model, const Effects& first, const Effects& second,
    const isl::union_map& pairs) {
  return FindClash(model, first, second, pairs, kClashes);
}

absl::StatusOr<std::optional<std::string>> FindNotIdempotent(
    const poly::ProcModel& model, const Effects& effects) {
  auto pairs = InstancePairs(model, effects, effects, 0);
  if (!pairs.ok()) return pairs.status();
  return FindClash(model, effects, effects, *pairs, kRepeatClashes);
}

absl::StatusOr<std::optional<std::string>> FindConflictInSharedIteration(
    const poly::ProcModel& model, const Effects& first, const Effects& second,
    size_t shared) {
  auto pairs = InstancePairs(model, first, second, shared);
  if (!pairs.ok()) return pairs.status();
  return FindConflict(model, first, second, *pairs);
}

}  // namespace tessel::effects
