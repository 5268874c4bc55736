// The order query: every statement instance mapped to the time it runs, a
// vector compared lexicographically (positions in bodies and loop values,
// alternating, as a 2d+1 schedule).
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/effects/effects.h"
#include "libs/ir/cursor.h"
#include "libs/ir/edit.h"

namespace tessel::effects {
namespace {

using ir::Node;

// One coordinate of a statement's time: a constant or a loop dimension.
struct Coordinate {
  bool is_loop;
  int value;  // the constant, or the loop's dimension
};

std::vector<Coordinate> TimeOf(const Node& stmt) {
  std::vector<const Node*> path;
  for (const Node* at = &stmt; at != nullptr; at = at->parent()) {
    path.insert(path.begin(), at);
  }
  std::vector<Coordinate> time;
  int loops = 0;
  for (size_t k = 0; k + 1 < path.size(); ++k) {
    const Node& parent = *path[k];
    const Node* child = path[k + 1];
    if (parent.is(ir::Op::kFor)) time.push_back({true, loops++});
    int position = 0;
    for (size_t i = 0; i < parent.num_operands(); ++i) {
      if (parent.operand(i) == child) position = static_cast<int>(i);
    }
    time.push_back({false, position});
  }
  return time;
}

}  // namespace

absl::StatusOr<isl::union_map> ScheduleOf(const poly::ProcModel& model,
                                          const Node& root) {
  std::vector<const Node*> stmts;
  ir::Walk(const_cast<Node&>(root), [&](Node& node) {
    if (ir::IsBodyStatement(node)) stmts.push_back(&node);
  });
  std::vector<std::vector<Coordinate>> times;
  size_t length = 0;
  for (const Node* stmt : stmts) {
    times.push_back(TimeOf(*stmt));
    length = std::max(length, times.back().size());
  }
  isl::union_map schedule = isl::union_map::empty(model.ctx());
  for (size_t s = 0; s < stmts.size(); ++s) {
    auto domain = model.Domain(*stmts[s]);
    if (!domain.ok()) return domain.status();
    auto map = poly::Ask<isl::map>(model.ctx(), [&] {
      // The time space, with the domain's parameters.
      isl_space* space = isl_space_from_domain(domain->space().release());
      space =
          isl_space_add_dims(space, isl_dim_out, static_cast<unsigned>(length));
      space = isl_space_set_tuple_name(space, isl_dim_out, "T");
      isl::map map = isl::manage(isl_map_universe(space));
      // Unused trailing coordinates are 0.
      for (size_t k = 0; k < length; ++k) {
        const Coordinate c =
            k < times[s].size() ? times[s][k] : Coordinate{false, 0};
        map = isl::manage(
            c.is_loop ? isl_map_equate(map.release(), isl_dim_in, c.value,
                                       isl_dim_out, static_cast<int>(k))
                      : isl_map_fix_si(map.release(), isl_dim_out,
                                       static_cast<unsigned>(k), c.value));
      }
      return map.intersect_domain(*domain);
    });
    if (!map.ok()) return map.status();
    schedule = schedule.unite(isl::union_map(*map));
  }
  return schedule;
}

absl::StatusOr<isl::union_map> Before(const poly::ProcModel& model,
                                      const Node& a, const Node& b) {
  const Node* proc = ir::FormOf(const_cast<Node*>(&a));
  auto all = ScheduleOf(model, *proc);
  if (!all.ok()) return all.status();
  auto instances = [&](const Node& root) -> absl::StatusOr<isl::union_set> {
    auto schedule = ScheduleOf(model, root);
    if (!schedule.ok()) return schedule.status();
    return schedule->domain();
  };
  auto in_a = instances(a);
  if (!in_a.ok()) return in_a.status();
  auto in_b = instances(b);
  if (!in_b.ok()) return in_b.status();
  return poly::Ask<isl::union_map>(model.ctx(), [&] {
    return isl::manage(
        isl_union_map_lex_lt_union_map(all->intersect_domain(*in_a).release(),
                                       all->intersect_domain(*in_b).release()));
  });
}

absl::StatusOr<std::optional<std::string>> FindReadFromEarlierIteration(
    const poly::ProcModel& model, const Node& loop, const Effects& body,
    const std::string& buffer) {
  auto schedule = ScheduleOf(model, loop);
  if (!schedule.ok()) return schedule.status();
  size_t dim = LoopsAround(loop).size();
  auto same = InstancePairs(model, body, body, dim + 1);
  if (!same.ok()) return same.status();
  using Result = std::optional<std::string>;
  return poly::Ask<Result>(model.ctx(), [&]() -> absl::StatusOr<Result> {
    auto of_buffer = [&](const isl::union_map& map) {
      isl::union_map kept = isl::union_map::empty(model.ctx());
      map.foreach_map([&](isl::map m) {
        const char* name = isl_map_get_tuple_name(m.get(), isl_dim_out);
        if (name != nullptr && buffer == name) kept = kept.unite(m);
      });
      return kept;
    };
    isl::union_map reads = of_buffer(body.reads.unite(body.reduces));
    isl::union_map writes = of_buffer(body.writes);
    // Earlier in the same iteration.
    isl::union_map earlier =
        isl::manage(
            isl_union_map_lex_lt_union_map(schedule->copy(), schedule->copy()))
            .intersect(*same);
    isl::union_map covered = earlier.reverse().apply_range(writes);
    isl::union_map uncovered = reads.subtract(covered);
    if (uncovered.is_empty()) return Result(std::nullopt);
    std::optional<isl::map> some;
    uncovered.foreach_map([&](isl::map m) {
      if (!some.has_value() && !m.is_empty()) some = m;
    });
    // Parameters and the instance's loops, then the element.
    isl::set flat = some->wrap();
    isl_size params = isl_set_dim(flat.get(), isl_dim_param);
    std::vector<std::string> names;
    for (int pos = 0; pos < params; ++pos) {
      names.emplace_back(isl_set_get_dim_name(flat.get(), isl_dim_param, pos));
    }
    std::string stmt = isl_map_get_tuple_name(some->get(), isl_dim_in);
    auto loops = body.loops.find(stmt);
    isl_size dims = isl_map_dim(some->get(), isl_dim_in);
    flat = isl::manage(isl_set_move_dims(flat.release(), isl_dim_set, 0,
                                         isl_dim_param, 0, params));
    auto point = poly::FirstPoint(model.ctx(), [&] { return flat; });
    if (!point.ok()) return point.status();
    const std::vector<std::string>& values = **point;
    std::vector<std::string> at;
    for (int k = 0; k < params + dims; ++k) {
      std::string name =
          k < params ? names[k]
          : loops != body.loops.end() &&
                  loops->second.size() == static_cast<size_t>(dims)
              ? loops->second[k - params]
              : absl::StrCat("d", k - params);
      at.push_back(absl::StrCat(name, " = ", values[k]));
    }
    std::vector<std::string> element(values.begin() + params + dims,
                                     values.end());
    return Result(absl::StrCat(
        "at ", absl::StrJoin(at, ", "), ": ", buffer,
        element.empty() ? ""
                        : absl::StrCat("[", absl::StrJoin(element, ", "), "]"),
        " is read before the iteration writes it"));
  });
}

}  // namespace tessel::effects
