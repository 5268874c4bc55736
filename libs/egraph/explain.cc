#include "libs/egraph/explain.h"

#include <algorithm>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace tessel::egraph {

Explainer::Key Explainer::KeyOf(NodeId id) const {
  return {ids_[id].op, ids_[id].payload, Children(id)};
}

void Explainer::AddId(NodeId id, OpId op, PayloadId payload,
                      absl::Span<const ClassId> children) {
  // Ids are dense; slots of ids the e-graph made without telling us (none
  // today) would be roots without a term.
  while (ids_.size() < id) {
    ids_.push_back({0, 0, 0, 0});
    edges_.push_back({static_cast<NodeId>(edges_.size()), {}, true});
  }
  ids_.push_back({op, payload, static_cast<uint32_t>(children_.size()),
                  static_cast<uint32_t>(children.size())});
  children_.append(children.begin(), children.end());
  edges_.push_back({id, {}, true});
}

std::optional<NodeId> Explainer::FindExactOrReserve(
    OpId op, PayloadId payload, absl::Span<const ClassId> children,
    NodeId next) {
  return exact_.FindOrInsert(
      HashENode(op, payload, children), next, [&](NodeId id) {
        Key k = KeyOf(id);
        return k.op == op && k.payload == payload &&
               std::equal(k.children.begin(), k.children.end(),
                          children.begin(), children.end());
      });
}

// Makes `id` the root of its tree by reversing the edges on its path.
void Explainer::Reroot(NodeId id) {
  NodeId at = id;
  Edge up = edges_[id];  // the edge from `at` towards the old root
  edges_[id] = {id, {}, true};
  while (up.parent != at) {
    NodeId next = up.parent;
    Edge next_up = edges_[next];
    edges_[next] = {at, up.why, !up.forward};
    at = next;
    up = next_up;
  }
}

void Explainer::Union(NodeId a, NodeId b, Justification why) {
  // Re-root the side nearer its root (a fresh right side is a root
  // already): rewrites apply old left sides to new right sides, and
  // re-rooting the old side would walk its whole, ever longer path. The
  // trees are the same either way, and so are the paths explanations take.
  for (NodeId x = a, y = b;; x = edges_[x].parent, y = edges_[y].parent) {
    if (edges_[x].parent == x) {
      Reroot(a);
      edges_[a] = {b, why, true};
      return;
    }
    if (edges_[y].parent == y) {
      Reroot(b);
      edges_[b] = {a, why, false};
      return;
    }
  }
}

Term Explainer::TermOf(NodeId id) const {
  // Post-order over the DAG of ids, sharing repeated subterms.
  Term term;
  absl::flat_hash_map<NodeId, uint32_t> index;
  std::vector<std::pair<NodeId, bool>> stack = {{id, false}};
  std::vector<uint32_t> kids;
  while (!stack.empty()) {
    auto [n, expanded] = stack.back();
    stack.pop_back();
    if (index.contains(n)) continue;
    if (!expanded) {
      stack.push_back({n, true});
      for (ClassId c : Children(n)) {
        if (!index.contains(c)) stack.push_back({c, false});
      }
      continue;
    }
    kids.clear();
    for (ClassId c : Children(n)) kids.push_back(index.at(c));
    index[n] = term.Add(ids_[n].op, ids_[n].payload, kids);
  }
  return term;
}

// Builds the flat explanation of one equality by walking tree paths and
// descending into congruence edges.
class Explainer::Prover {
 public:
  Prover(const Explainer& ex, const EGraph& g) : ex_(ex), g_(g) {}

  // Appends to `out` the steps that turn term(a) into term(b), each as the
  // whole term at this level.
  absl::Status Prove(NodeId a, NodeId b, std::vector<ExplanationStep>* out) {
    if (a == b) return absl::OkStatus();
    if (depth_ >= kMaxDepth) {
      return absl::ResourceExhaustedError(
          absl::StrCat("explanation nested deeper than ", kMaxDepth));
    }
    ++depth_;
    absl::Status s = ProvePath(a, b, out);
    --depth_;
    return s;
  }

 private:
  absl::Status ProvePath(NodeId a, NodeId b,
                         std::vector<ExplanationStep>* out) {
    std::vector<NodeId> up_a = PathToRoot(a);
    std::vector<NodeId> up_b = PathToRoot(b);
    // Drop the common part of the two root paths, keeping the meeting point.
    while (up_a.size() > 1 && up_b.size() > 1 &&
           up_a[up_a.size() - 2] == up_b[up_b.size() - 2]) {
      up_a.pop_back();
      up_b.pop_back();
    }
    if (up_a.back() != up_b.back()) {
      return absl::InternalError("explanation forest: terms not connected");
    }
    for (size_t i = 0; i + 1 < up_a.size(); ++i) {
      const Edge& e = ex_.edges_[up_a[i]];
      if (absl::Status s = Step(up_a[i], up_a[i + 1], e.why, e.forward, out);
          !s.ok()) {
        return s;
      }
    }
    for (size_t i = up_b.size() - 1; i-- > 0;) {
      const Edge& e = ex_.edges_[up_b[i]];
      if (absl::Status s = Step(up_b[i + 1], up_b[i], e.why, !e.forward, out);
          !s.ok()) {
        return s;
      }
    }
    return absl::OkStatus();
  }

  std::vector<NodeId> PathToRoot(NodeId id) const {
    std::vector<NodeId> path = {id};
    while (ex_.edges_[path.back()].parent != path.back()) {
      path.push_back(ex_.edges_[path.back()].parent);
    }
    return path;
  }

  // One edge from `from` to `to`.
  absl::Status Step(NodeId from, NodeId to, Justification why, bool forward,
                    std::vector<ExplanationStep>* out) {
    if (why.kind == Justification::Kind::kReason) {
      if (++steps_ > kMaxSteps) {
        return absl::ResourceExhaustedError(
            absl::StrCat("explanation longer than ", kMaxSteps, " steps"));
      }
      out->push_back(
          {std::string(g_.ReasonName(why.reason)), !forward, ex_.TermOf(to)});
      return absl::OkStatus();
    }
    // Congruence: same op and payload; rewrite the children left to right.
    absl::Span<const ClassId> from_kids = ex_.Children(from);
    absl::Span<const ClassId> to_kids = ex_.Children(to);
    std::vector<Term> current;
    for (ClassId c : from_kids) current.push_back(ex_.TermOf(c));
    for (size_t i = 0; i < from_kids.size(); ++i) {
      std::vector<ExplanationStep> inner;
      if (absl::Status s = Prove(from_kids[i], to_kids[i], &inner); !s.ok()) {
        return s;
      }
      for (ExplanationStep& step : inner) {
        current[i] = std::move(step.term);
        out->push_back(
            {std::move(step.reason), step.backward,
             Compose(ex_.ids_[from].op, ex_.ids_[from].payload, current)});
      }
      if (inner.empty()) current[i] = ex_.TermOf(to_kids[i]);
    }
    return absl::OkStatus();
  }

  static Term Compose(OpId op, PayloadId payload,
                      const std::vector<Term>& children) {
    Term t;
    std::vector<uint32_t> roots;
    for (const Term& child : children) {
      std::vector<uint32_t> index(child.size());
      std::vector<uint32_t> kids;
      for (uint32_t i = 0; i < child.size(); ++i) {
        kids.clear();
        for (uint32_t c : child.children(i)) kids.push_back(index[c]);
        index[i] = t.Add(child.node(i).op, child.node(i).payload, kids);
      }
      roots.push_back(index.back());
    }
    t.Add(op, payload, roots);
    return t;
  }

  const Explainer& ex_;
  const EGraph& g_;
  size_t steps_ = 0;
  size_t depth_ = 0;
};

absl::StatusOr<std::vector<ExplanationStep>> Explainer::Explain(
    const EGraph& g, NodeId a, NodeId b) const {
  std::vector<ExplanationStep> steps;
  steps.push_back({"", false, TermOf(a)});
  Prover prover(*this, g);
  if (absl::Status s = prover.Prove(a, b, &steps); !s.ok()) return s;
  return steps;
}

}  // namespace tessel::egraph
