// The order query: every statement instance mapped to the time it runs, a
// vector compared lexicographically (positions in bodies and loop values,
// alternating, as a 2d+1 schedule).
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
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
      space = isl_space_add_dims(space, isl_dim_out,
                                 static_cast<unsigned>(length));
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

}  // namespace tessel::effects
