#include "libs/verify/call_graph.h"

#include <deque>

#include "libs/ir/edit.h"

namespace tessel::ir {

CallGraph::CallGraph(const Module& module) {
  for (Node* form : module.forms()) {
    if (!form->is(Op::kProc) && !form->is(Op::kInstr)) continue;
    std::vector<const Node*> callees;
    Walk(*form, [&](Node& node) {
      if (node.is(Op::kCall) && node.def() != nullptr) {
        callees.push_back(node.def());
      }
    });
    // Most procs of a large module call nothing: they have no entry.
    if (!callees.empty()) callees_.emplace(form, std::move(callees));
  }
}

std::optional<std::vector<std::string>> CallGraph::FindPath(
    const Node* from, const Node* to) const {
  // Breadth first, so that the reported cycle is a shortest one.
  absl::flat_hash_map<const Node*, const Node*> reached_from;
  std::deque<const Node*> frontier = {from};
  reached_from[from] = nullptr;
  while (!frontier.empty()) {
    const Node* current = frontier.front();
    frontier.pop_front();
    if (current == to) {
      std::vector<std::string> path;
      for (const Node* at = current; at != nullptr; at = reached_from[at]) {
        path.insert(path.begin(), at->name());
      }
      return path;
    }
    auto it = callees_.find(current);
    if (it == callees_.end()) continue;
    for (const Node* callee : it->second) {
      if (reached_from.emplace(callee, current).second) {
        frontier.push_back(callee);
      }
    }
  }
  return std::nullopt;
}

}  // namespace tessel::ir
