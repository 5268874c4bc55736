#include "libs/verify/parallel.h"

#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "libs/effects/effects.h"
#include "libs/ir/edit.h"
#include "libs/ir/forms.h"
#include "libs/ir/views.h"
#include "libs/support/source.h"

namespace tessel::ir {

namespace {

// The witness of two iterations of `loop` that are not independent, or
// nullopt.
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

// An alloc in `root` (a parallel loop's body) or in a procedure it calls,
// whose memory may not give each iteration a buffer of its own in C:
// @DRAM's are malloc'd and a register memory's are local variables, but
// another memory's alloc template is any C (a `static` array is one buffer
// for every thread).
const Node* SharedAlloc(const Node& root,
                        absl::flat_hash_set<const Node*>& seen) {
  const Node* shared = nullptr;
  AnyNode(root, [&](const Node& node) {
    if (node.is(Op::kCall) && node.def() != nullptr &&
        seen.insert(node.def()).second) {
      shared = SharedAlloc(*node.def(), seen);
    }
    const Node* memory = node.is(Op::kAlloc) ? node.def() : nullptr;
    if (memory != nullptr && memory->name() != "@DRAM" &&
        FindClause(*memory, "register") == nullptr) {
      shared = &node;
    }
    return shared != nullptr;
  });
  return shared;
}

}  // namespace

absl::Status CheckParallelLoop(const Node& loop) {
  absl::flat_hash_set<const Node*> seen;
  if (const Node* alloc = SharedAlloc(loop, seen)) {
    const Node* callee = FormOf(const_cast<Node*>(alloc));
    std::string where =
        callee != FormOf(const_cast<Node*>(&loop))
            ? absl::StrCat(" (in ", callee->name(), ", which it calls)")
            : "";
    return absl::FailedPreconditionError(absl::StrCat(
        "'", alloc->name(), "' in ", alloc->def()->name(),
        " inside the parallel loop '", loop.name(), "'", where,
        ": only @DRAM and register memories give each iteration a buffer of "
        "its own"));
  }
  auto race = FindParallelRace(loop);
  if (!race.ok()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "cannot prove the iterations of the parallel loop '", loop.name(),
        "' independent: ", race.status().message()));
  }
  if (race->has_value()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "two iterations of the parallel loop '", loop.name(),
        "' are not independent (run at once, two += of one location race "
        "too): ",
        **race));
  }
  return absl::OkStatus();
}

absl::Status CheckParallelLoops(const Node& proc) {
  std::vector<const Node*> loops;
  Walk(const_cast<Node&>(proc), [&](Node& node) {
    if (node.is(Op::kFor) && node.is_parallel()) loops.push_back(&node);
  });
  for (const Node* loop : loops) {
    if (absl::Status status = CheckParallelLoop(*loop); !status.ok()) {
      return ErrorAt(loop->loc(), status.message());
    }
  }
  return absl::OkStatus();
}

}  // namespace tessel::ir
