#include "libs/egraph/extract_dag.h"

#include <z3++.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace tessel::egraph {
namespace {

// The part of the e-graph a term of the root can use: the classes reachable
// from the root through e-nodes that can head a finite term, and those
// e-nodes ("candidates") with their costs. Classes are numbered densely
// ("slots") in the order they are reached; the root is slot 0.
struct Candidates {
  std::vector<ClassId> classes;                 // by slot
  absl::flat_hash_map<ClassId, uint32_t> slot;  // of every class
  std::vector<std::vector<NodeId>> nodes;       // by slot
  absl::flat_hash_map<NodeId, double> cost;
  size_t num_nodes = 0;

  uint32_t SlotOf(const EGraph& egraph, ClassId id) const {
    return slot.at(egraph.Find(id));
  }
};

absl::StatusOr<Candidates> CollectCandidates(const EGraph& egraph, ClassId root,
                                             const GreedyExtractor& greedy,
                                             const AdditiveCostModel& model,
                                             size_t max_nodes) {
  Candidates out;
  auto reach = [&](ClassId c) {
    if (out.slot.try_emplace(c, out.classes.size()).second) {
      out.classes.push_back(c);
      out.nodes.emplace_back();
    }
  };
  reach(root);
  for (size_t i = 0; i < out.classes.size(); ++i) {
    const ClassId c = out.classes[i];
    for (NodeId n : egraph.Nodes(c)) {
      const ENodeRef node = egraph.Node(n);
      // A child without a finite term, or the class itself (a cycle of one
      // e-node), rules the e-node out.
      if (!std::all_of(
              node.children.begin(), node.children.end(), [&](ClassId child) {
                return egraph.Find(child) != c && greedy.HasTerm(child);
              })) {
        continue;
      }
      const double cost = model.NodeCost(egraph, c, node);
      if (std::isnan(cost) || cost < 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            "cost model gave e-node ", egraph.ops().Name(node.op),
            " of e-class e", c, " the cost ", cost,
            "; exact extraction needs costs that are numbers >= 0"));
      }
      if (std::isinf(cost)) continue;
      out.nodes[i].push_back(n);
      out.cost[n] = cost;
      for (ClassId child : node.children) reach(egraph.Find(child));
    }
    out.num_nodes += out.nodes[i].size();
    if (out.num_nodes > max_nodes) {
      return absl::ResourceExhaustedError(
          absl::StrCat("exact extraction: more than ", max_nodes,
                       " candidate e-nodes (the limit)"));
    }
  }
  return out;
}

// The strongly connected components of the candidate classes, with an edge
// from a class to the children of each of its candidates (Tarjan's
// algorithm, without recursion): `of` by slot, and each component's size.
// Only an e-node whose child is in its own component can close a cycle, so
// only those need ranks.
struct Components {
  std::vector<uint32_t> of;
  std::vector<uint32_t> size;
};

Components FindComponents(const EGraph& egraph, const Candidates& cand) {
  const size_t n = cand.classes.size();
  std::vector<size_t> begin = {0};  // successors of each slot, in rows
  std::vector<uint32_t> successors;
  for (const std::vector<NodeId>& nodes : cand.nodes) {
    for (NodeId node : nodes) {
      for (ClassId child : egraph.Node(node).children) {
        successors.push_back(cand.SlotOf(egraph, child));
      }
    }
    begin.push_back(successors.size());
  }
  constexpr uint32_t kUnvisited = ~uint32_t{0};
  Components out;
  out.of.assign(n, kUnvisited);
  std::vector<uint32_t> order(n, kUnvisited), low(n, 0), stack, path;
  std::vector<size_t> next(n, 0);
  std::vector<bool> on_stack(n, false);
  uint32_t visited = 0;
  for (uint32_t start = 0; start < n; ++start) {
    if (order[start] != kUnvisited) continue;
    path.push_back(start);
    while (!path.empty()) {
      const uint32_t v = path.back();
      if (order[v] == kUnvisited) {
        order[v] = low[v] = visited++;
        stack.push_back(v);
        on_stack[v] = true;
        next[v] = begin[v];
      }
      if (next[v] < begin[v + 1]) {
        const uint32_t w = successors[next[v]++];
        if (order[w] == kUnvisited) {
          path.push_back(w);
        } else if (on_stack[w]) {
          low[v] = std::min(low[v], order[w]);
        }
        continue;
      }
      path.pop_back();
      if (!path.empty()) low[path.back()] = std::min(low[path.back()], low[v]);
      if (low[v] != order[v]) continue;
      // v is the first class of its component: pop the component.
      const uint32_t component = out.size.size();
      out.size.push_back(0);
      uint32_t w;
      do {
        w = stack.back();
        stack.pop_back();
        on_stack[w] = false;
        out.of[w] = component;
        ++out.size[component];
      } while (w != v);
    }
  }
  return out;
}

// A non-negative double as a decimal numeral Z3 reads as a soft-constraint
// weight (it takes neither exponents nor fractions): 17 significant digits.
std::string Weight(double cost) {
  const int magnitude = static_cast<int>(std::floor(std::log10(cost)));
  return absl::StrFormat("%.*f", std::max(0, 16 - magnitude), cost);
}

// The chosen e-node of every needed class (by slot; kNoId if not needed),
// solved by Z3.
absl::StatusOr<std::vector<NodeId>> Solve(const EGraph& egraph,
                                          const Candidates& cand,
                                          const DagExtractOptions& options) {
  z3::context ctx;
  z3::optimize opt(ctx);
  z3::params params(ctx);
  params.set("rlimit", static_cast<unsigned>(
                           std::min<uint64_t>(options.solver_budget, ~0u)));
  opt.set(params);

  const Components components = FindComponents(egraph, cand);
  z3::expr_vector needed(ctx), rank(ctx);
  for (uint32_t i = 0; i < cand.classes.size(); ++i) {
    needed.push_back(ctx.bool_const(absl::StrCat("need", i).c_str()));
    rank.push_back(ctx.int_const(absl::StrCat("rank", i).c_str()));
    const int size = components.size[components.of[i]];
    if (size > 1) opt.add(0 <= rank.back() && rank.back() < size);
  }
  opt.add(needed[0]);
  absl::flat_hash_map<NodeId, z3::expr> chosen;
  for (uint32_t i = 0; i < cand.classes.size(); ++i) {
    z3::expr_vector alternatives(ctx);
    for (NodeId n : cand.nodes[i]) {
      const z3::expr choose = ctx.bool_const(absl::StrCat("node", n).c_str());
      chosen.emplace(n, choose);
      alternatives.push_back(choose);
      opt.add(z3::implies(choose, needed[i]));
      for (ClassId child : egraph.Node(n).children) {
        const uint32_t d = cand.SlotOf(egraph, child);
        opt.add(z3::implies(choose, needed[d]));
        if (components.of[d] == components.of[i]) {
          opt.add(z3::implies(choose, rank[d] < rank[i]));
        }
      }
      const double cost = cand.cost.at(n);
      if (cost > 0) opt.add_soft(!choose, Weight(cost).c_str());
    }
    opt.add(z3::implies(needed[i], z3::mk_or(alternatives)));
  }

  switch (opt.check()) {
    case z3::sat:
      break;
    case z3::unknown:
      return absl::ResourceExhaustedError(absl::StrCat(
          "exact extraction: the solver did not finish within its budget (",
          Z3_optimize_get_reason_unknown(ctx, opt), ")"));
    case z3::unsat:
      return absl::InternalError(
          "exact extraction: the solver found no term, but one exists");
  }
  const z3::model model = opt.get_model();
  std::vector<NodeId> choice(cand.classes.size(), kNoId);
  for (uint32_t i = 0; i < cand.classes.size(); ++i) {
    for (NodeId n : cand.nodes[i]) {
      if (model.eval(chosen.at(n), true).is_true()) {
        choice[i] = n;
        break;
      }
    }
  }
  return choice;
}

// The DAG cost of a term whose class c was given e-node choice(c).
double DagCost(const Extraction& term, const Candidates& cand,
               absl::FunctionRef<NodeId(ClassId)> choice) {
  double total = 0;
  for (ClassId c : term.classes) total += cand.cost.at(choice(c));
  return total;
}

}  // namespace

absl::StatusOr<Extraction> ExtractDag(const EGraph& egraph, ClassId root,
                                      const AdditiveCostModel& model,
                                      const DagExtractOptions& options) {
  absl::StatusOr<GreedyExtractor> greedy =
      GreedyExtractor::Create(egraph, model);
  if (!greedy.ok()) return greedy.status();
  absl::StatusOr<Extraction> greedy_term = greedy->Extract(root);
  if (!greedy_term.ok()) return greedy_term.status();
  absl::StatusOr<Candidates> cand = CollectCandidates(
      egraph, egraph.Find(root), *greedy, model, options.max_nodes);
  if (!cand.ok()) return cand.status();
  greedy_term->cost = DagCost(*greedy_term, *cand,
                              [&](ClassId c) { return greedy->BestNode(c); });

  absl::StatusOr<std::vector<NodeId>> choice;
  try {
    choice = Solve(egraph, *cand, options);
  } catch (const z3::exception& e) {
    return absl::InternalError(
        absl::StrCat("exact extraction: Z3 failed: ", e.msg()));
  }
  if (!choice.ok()) return choice.status();
  auto chosen = [&](ClassId c) { return (*choice)[cand->slot.at(c)]; };
  absl::StatusOr<Extraction> best =
      BuildChosenTerm(egraph, egraph.Find(root), chosen);
  if (!best.ok()) return best.status();
  best->cost = DagCost(*best, *cand, chosen);
  // Among terms of equal cost, the greedy extractor's is the one its
  // documented tie-breaking picks; the solver's choice among them is
  // arbitrary.
  return best->cost < greedy_term->cost ? best : greedy_term;
}

}  // namespace tessel::egraph
