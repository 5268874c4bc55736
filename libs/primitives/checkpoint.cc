#include "libs/primitives/checkpoint.h"

#include "libs/ir/edit.h"
#include "libs/ir/forms.h"

namespace tessel::primitives {

using ir::Node;

namespace {

// The nodes under `root`, in program order.
std::vector<Node*> NodesOf(Node& root) {
  std::vector<Node*> nodes;
  ir::Walk(root, [&](Node& node) { nodes.push_back(&node); });
  return nodes;
}

}  // namespace

Checkpoint::Checkpoint(ir::Module& module, Node& proc)
    : module_(module), proc_(proc) {
  for (Node* stmt : ir::BodyOf(proc)) {
    Node* copy = module.Clone(stmt);
    saved_.push_back(copy);
    // A copy has the shape of its original, node for node.
    std::vector<Node*> from = NodesOf(*stmt);
    std::vector<Node*> to = NodesOf(*copy);
    originals_.insert(originals_.end(), from.begin(), from.end());
    copies_.insert(copies_.end(), to.begin(), to.end());
  }
}

Checkpoint::~Checkpoint() {
  if (kept_) return;
  std::vector<Node*> edited(ir::BodyOf(proc_).begin(),
                            ir::BodyOf(proc_).end());
  size_t first = proc_.num_operands() - edited.size();
  for (Node* stmt : edited) module_.Detach(stmt);
  for (size_t k = 0; k < saved_.size(); ++k) {
    module_.Insert(&proc_, first + k, saved_[k]);
  }
  // Cursors to the original nodes find their copies.
  for (size_t n = 0; n < originals_.size(); ++n) {
    if (!module_.Contains(originals_[n])) {
      module_.Forward(originals_[n], copies_[n]);
    }
  }
}

}  // namespace tessel::primitives
