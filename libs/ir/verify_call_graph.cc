#include "libs/ir/verify_call_graph.h"

#include <deque>

namespace tessel {
namespace {

void CollectCallees(const Sexpr& node, std::vector<std::string>& callees) {
  if (!node.is_list()) return;
  if (node.is_form("call") && node.size() >= 2 && node[1].is_symbol()) {
    callees.push_back(node[1].text());
  }
  for (const Sexpr& item : node.items()) CollectCallees(item, callees);
}

}  // namespace

CallGraph::CallGraph(const Module& module) {
  for (const Procedure& proc : module.procedures()) {
    std::vector<std::string>& callees = callees_[proc.name];
    for (const Sexpr* stmt : proc.body) CollectCallees(*stmt, callees);
  }
}

std::optional<std::vector<std::string>> CallGraph::FindPath(
    absl::string_view from, absl::string_view to) const {
  // Breadth first, so that the reported cycle is a shortest one.
  absl::flat_hash_map<std::string, std::string> reached_from;
  std::deque<std::string> frontier = {std::string(from)};
  reached_from[from] = "";
  while (!frontier.empty()) {
    std::string current = frontier.front();
    frontier.pop_front();
    if (current == to) {
      std::vector<std::string> path;
      for (std::string at = current; !at.empty(); at = reached_from[at]) {
        path.insert(path.begin(), at);
      }
      return path;
    }
    auto it = callees_.find(current);
    if (it == callees_.end()) continue;
    for (const std::string& callee : it->second) {
      if (reached_from.emplace(callee, current).second) {
        frontier.push_back(callee);
      }
    }
  }
  return std::nullopt;
}

}  // namespace tessel
