// A proc's statements as they were, for a primitive made of other
// primitives (lift_if of lift_scope, autolift_alloc of expand_dim and
// lift_alloc): each step leaves the module unchanged when it rejects, but
// the steps before it have edited already. The primitive takes a
// checkpoint first and keeps it only when every step succeeded, so that a
// rejection leaves the module as it was (primitive.h).
#ifndef TESSEL_LIBS_PRIMITIVES_CHECKPOINT_H_
#define TESSEL_LIBS_PRIMITIVES_CHECKPOINT_H_

#include <vector>

#include "libs/ir/node.h"

namespace tessel::primitives {

class Checkpoint {
 public:
  // A copy of the statements of `proc` (its body: clobbers declarations,
  // assertions and parameters are no primitive's to edit).
  Checkpoint(ir::Module& module, ir::Node& proc);
  // Puts the copy in place of the statements, unless kept.
  ~Checkpoint();
  Checkpoint(const Checkpoint&) = delete;
  Checkpoint& operator=(const Checkpoint&) = delete;

  // The edits since the checkpoint stand.
  void Keep() { kept_ = true; }

 private:
  ir::Module& module_;
  ir::Node& proc_;
  bool kept_ = false;
  // The copies of the statements, in order.
  std::vector<ir::Node*> saved_;
  // Every node of the original statements and its copy, in program order.
  std::vector<ir::Node*> originals_;
  std::vector<ir::Node*> copies_;
};

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_CHECKPOINT_H_
