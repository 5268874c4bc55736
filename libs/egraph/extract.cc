#include "libs/egraph/extract.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace tessel::egraph {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// An e-node whose children are all settled, priced, waiting for its class to
// be settled. `rank` is its position in its class's node list.
struct Candidate {
  double cost;
  ClassId eclass;
  uint32_t rank;
  NodeId node;

  // std::priority_queue pops the greatest element; the least key must win.
  bool operator<(const Candidate& other) const {
    return std::tie(other.cost, other.eclass, other.rank) <
           std::tie(cost, eclass, rank);
  }
};

// The e-graph seen from below: the class and rank of every e-node in a
// class, and for every class the e-nodes that have it as a child (once per
// occurrence), in compressed rows.
struct Index {
  std::vector<ClassId> owner;           // by node id
  std::vector<uint32_t> rank;           // by node id
  std::vector<uint32_t> parents_begin;  // by class id, plus one
  std::vector<NodeId> parents;
};

Index BuildIndex(const EGraph& egraph) {
  Index index;
  size_t ids = egraph.NumIds();
  index.owner.assign(ids, kNoId);
  index.rank.assign(ids, 0);
  index.parents_begin.assign(ids + 1, 0);
  for (ClassId c : egraph.Classes()) {
    absl::Span<const NodeId> nodes = egraph.Nodes(c);
    for (uint32_t i = 0; i < nodes.size(); ++i) {
      index.owner[nodes[i]] = c;
      index.rank[nodes[i]] = i;
      for (ClassId child : egraph.Node(nodes[i]).children) {
        ++index.parents_begin[egraph.Find(child) + 1];
      }
    }
  }
  for (size_t i = 0; i < ids; ++i) {
    index.parents_begin[i + 1] += index.parents_begin[i];
  }
  index.parents.resize(index.parents_begin[ids]);
  std::vector<uint32_t> fill(index.parents_begin.begin(),
                             index.parents_begin.end() - 1);
  for (ClassId c : egraph.Classes()) {
    for (NodeId n : egraph.Nodes(c)) {
      for (ClassId child : egraph.Node(n).children) {
        index.parents[fill[egraph.Find(child)]++] = n;
      }
    }
  }
  return index;
}

// An e-node for messages: (op payload eCHILD...).
std::string Describe(const EGraph& egraph, const ENodeRef& node) {
  std::string text = absl::StrCat("(", egraph.ops().Name(node.op));
  if (node.payload != PayloadTable::kNone) {
    absl::StrAppend(&text, " ", egraph.payloads().ToString(node.payload));
  }
  for (ClassId child : node.children) absl::StrAppend(&text, " e", child);
  return absl::StrCat(text, ")");
}

}  // namespace

GreedyExtractor::GreedyExtractor(const EGraph* egraph) : egraph_(egraph) {}

absl::StatusOr<GreedyExtractor> GreedyExtractor::Create(
    const EGraph& egraph, const CostModel& model) {
  if (!egraph.clean()) {
    return absl::FailedPreconditionError("extraction needs a rebuilt e-graph");
  }
  GreedyExtractor extractor(&egraph);
  extractor.cost_.assign(egraph.NumIds(), kInfinity);
  extractor.best_.assign(egraph.NumIds(), kNoId);
  const Index index = BuildIndex(egraph);

  // Until a class is settled, cost_ and best_ hold its best candidate so
  // far, and only a better candidate is queued.
  std::vector<bool> settled(egraph.NumIds(), false);
  // Children of each e-node not settled yet, counted with repetition.
  std::vector<uint32_t> unsettled(egraph.NumIds(), 0);
  std::priority_queue<Candidate> queue;
  std::vector<double> child_costs;
  // Prices e-node `n`, whose children are settled, and queues it.
  auto offer = [&](NodeId n) -> absl::Status {
    const ENodeRef node = egraph.Node(n);
    const ClassId c = index.owner[n];
    child_costs.clear();
    double dearest_child = -kInfinity;
    for (ClassId child : node.children) {
      child_costs.push_back(extractor.cost_[egraph.Find(child)]);
      dearest_child = std::max(dearest_child, child_costs.back());
    }
    const double cost = model.TreeCost(egraph, c, node, child_costs);
    if (std::isnan(cost) || cost == -kInfinity) {
      return absl::InvalidArgumentError(
          absl::StrCat("cost model returned ", cost, " for e-node ",
                       Describe(egraph, node), " of e-class e", c));
    }
    if (cost < dearest_child) {
      return absl::InvalidArgumentError(absl::StrCat(
          "cost model is not monotone: e-node ", Describe(egraph, node),
          " of e-class e", c, " costs ", cost,
          ", less than one of its children (", dearest_child, ")"));
    }
    const NodeId incumbent = extractor.best_[c];
    if (!settled[c] && cost < kInfinity &&
        (incumbent == kNoId ||
         std::pair(cost, index.rank[n]) <
             std::pair(extractor.cost_[c], index.rank[incumbent]))) {
      extractor.cost_[c] = cost;
      extractor.best_[c] = n;
      queue.push({cost, c, index.rank[n], n});
    }
    return absl::OkStatus();
  };

  for (ClassId c : egraph.Classes()) {
    for (NodeId n : egraph.Nodes(c)) {
      unsettled[n] = egraph.Node(n).children.size();
      if (unsettled[n] == 0) {
        if (absl::Status s = offer(n); !s.ok()) return s;
      }
    }
  }
  while (!queue.empty()) {
    const Candidate best = queue.top();
    queue.pop();
    // Skip candidates superseded by a better one of their class.
    if (extractor.best_[best.eclass] != best.node) continue;
    settled[best.eclass] = true;
    for (uint32_t i = index.parents_begin[best.eclass];
         i < index.parents_begin[best.eclass + 1]; ++i) {
      const NodeId parent = index.parents[i];
      if (--unsettled[parent] == 0) {
        if (absl::Status s = offer(parent); !s.ok()) return s;
      }
    }
  }
  return extractor;
}

absl::StatusOr<Extraction> GreedyExtractor::Extract(ClassId id) const {
  const ClassId root = egraph_->Find(id);
  if (best_[root] == kNoId) {
    return absl::NotFoundError(
        absl::StrCat("e-class e", root, " has no term of finite cost"));
  }
  absl::StatusOr<Extraction> extraction =
      BuildChosenTerm(*egraph_, root, [this](ClassId c) { return best_[c]; });
  if (extraction.ok()) extraction->cost = cost_[root];
  return extraction;
}

absl::StatusOr<Extraction> BuildChosenTerm(
    const EGraph& egraph, ClassId root,
    absl::FunctionRef<NodeId(ClassId)> choice) {
  constexpr uint32_t kOnPath = kNoId;
  Extraction out;
  // The term node of every class visited; kOnPath while its subterm is
  // being built.
  absl::flat_hash_map<ClassId, uint32_t> built;
  struct Frame {
    ClassId eclass;
    NodeId node;
    uint32_t next_child;
  };
  std::vector<Frame> path;
  auto enter = [&](ClassId c) -> absl::Status {
    const NodeId n = choice(c);
    if (n == kNoId) {
      return absl::InternalError(
          absl::StrCat("extraction chose no e-node for e-class e", c));
    }
    built[c] = kOnPath;
    path.push_back({c, n, 0});
    return absl::OkStatus();
  };
  if (absl::Status s = enter(egraph.Find(root)); !s.ok()) return s;
  std::vector<uint32_t> kids;
  while (!path.empty()) {
    const Frame frame = path.back();
    const ENodeRef node = egraph.Node(frame.node);
    if (frame.next_child < node.children.size()) {
      ++path.back().next_child;
      const ClassId child = egraph.Find(node.children[frame.next_child]);
      auto it = built.find(child);
      if (it == built.end()) {
        if (absl::Status s = enter(child); !s.ok()) return s;
      } else if (it->second == kOnPath) {
        return absl::InternalError(
            absl::StrCat("extraction chose a cycle through e-class e", child));
      }
      continue;
    }
    kids.clear();
    for (ClassId child : node.children) {
      kids.push_back(built[egraph.Find(child)]);
    }
    built[frame.eclass] = out.term.Add(node.op, node.payload, kids);
    out.classes.push_back(frame.eclass);
    path.pop_back();
  }
  return out;
}

}  // namespace tessel::egraph
