#include "libs/ir/verify/parallel.h"

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/effects/effects.h"
#include "libs/ir/edit.h"
#include "libs/ir/forms.h"
#include "libs/ir/views.h"
#include "libs/support/source.h"

namespace tessel::ir {

absl::StatusOr<std::optional<std::string>> FindParallelRace(const Node& loop) {
  effects::ProcAnalysis analysis(*FormOf(const_cast<Node*>(&loop)));
  const poly::ProcModel& model = analysis.model();
  auto body = effects::EffectsOf(model, ForView(const_cast<Node&>(loop)).body());
  if (!body.ok()) return body.status();
  // A reduction counts as a write: two iterations may not both update one
  // location, which the commute condition alone allows.
  effects::Effects strict = *body;
  strict.writes = body->writes.unite(body->reduces);
  strict.reduces = isl::union_map::empty(body->reduces.ctx());
  size_t depth = effects::LoopsAround(loop).size();
  auto pairs = effects::InstancePairs(model, strict, strict, depth,
                                      {{depth, effects::Cmp::kLess}});
  if (!pairs.ok()) return pairs.status();
  return effects::FindConflict(model, strict, strict, *pairs);
}

absl::Status CheckParallelLoops(const Node& proc) {
  std::vector<const Node*> loops;
  Walk(const_cast<Node&>(proc), [&](Node& node) {
    if (node.is(Op::kFor) && node.is_parallel()) loops.push_back(&node);
  });
  for (const Node* loop : loops) {
    auto race = FindParallelRace(*loop);
    if (!race.ok()) {
      return ErrorAt(loop->loc(),
                     absl::StrCat("cannot prove the iterations of the "
                                  "parallel loop '",
                                  loop->name(), "' independent: ",
                                  race.status().message()));
    }
    if (race->has_value()) {
      return ErrorAt(
          loop->loc(),
          absl::StrCat("two iterations of the parallel loop '", loop->name(),
                       "' are not independent (run at once, two += of one "
                       "location race too): ",
                       **race));
    }
  }
  return absl::OkStatus();
}

}  // namespace tessel::ir
