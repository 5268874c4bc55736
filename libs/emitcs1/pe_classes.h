// PE classes: the PEs of a pe-program whose programs are the same once
// specialised to the PE, which share one setup (their `main`) and task
// set. A task with a recv runs on a PE only if an element it receives
// there satisfies its condition: the projection of its call's domain
// (isl, libs/poly's model) onto the PE coordinates. PEs on which the same
// tasks run form a class; the rest of what differs between them (the parts
// of the parameters their local arrays hold, the elements a task
// receives) is arithmetic on their coordinates in the shared code.
#ifndef TESSEL_LIBS_EMITCS1_PE_CLASSES_H_
#define TESSEL_LIBS_EMITCS1_PE_CLASSES_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/ir/node.h"

namespace tessel::emitcs1 {

struct PeClasses {
  // Per class, per task of the program (in order), whether it runs; the
  // classes in the order of their first PE.
  std::vector<std::vector<bool>> runs;
  // The class of each PE, row by row (y, then x).
  std::vector<int> class_of;
};

// The classes of `program` (a verified pe-program), whose tasks are
// `tasks`, on its grid of `nx` x `ny` PEs.
absl::StatusOr<PeClasses> ClassifyPes(
    const ir::Node& program, const std::vector<const ir::Node*>& tasks,
    int64_t nx, int64_t ny);

}  // namespace tessel::emitcs1

#endif  // TESSEL_LIBS_EMITCS1_PE_CLASSES_H_
