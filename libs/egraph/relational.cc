// Relational e-matching by generic join.
//
// The query: one variable per pattern variable and per operator node of the
// pattern (the class of that subterm; the root's is the match's root), and
// one atom per operator node, op(payload)(class, child classes...). A
// repeated pattern variable is one shared query variable. The maximal ground
// subpatterns are constants, looked up once per search.
//
// Join order: constants, then the root's class, then the pattern breadth
// first (each variable where it first occurs), so that an e-node's class
// comes before its children's. Generic join binds one variable at a time:
// the atom with the fewest rows left for it enumerates its distinct values,
// every other atom that mentions it narrows to each value or rejects it. The
// root's class is in the root's atom only, whose rows (e-nodes) are
// enumerated one by one, binding the class and the children's columns.
//
// Relations: an atom whose variables are bound in column order (its class
// first, then its children left to right; constants and repeats of earlier
// columns are checked on the way) uses the e-graph's own index, each
// class's e-nodes sorted by (op, payload, arity, children), which is a trie
// of the relation in that order: no copy per search. Breadth-first order
// makes this the common case: in (+ (* ?a ?b) (* ?a ?c)) the order is the
// root, both products, ?a, ?b, ?c, and ?a is the intersection of the two
// products' runs. An atom with a child variable bound before its class, as
// ?a before the class of (g ?a) in (f ?a (g ?a)), gets a sorted copy of its
// rows in join order, built once per search from EGraph::NodesWithOp.
//
// Semi-joins: generic join from the root has no memory across root
// e-nodes, so a structured child (an atom below the root with operator
// children, as (= (var ?x) ?e) in (if (= (var ?x) ?e) ?then ?else)) would be
// searched again under every root whose child is in the same class. Before
// the join, a bottom-up pass (Yannakakis' semi-join reduction) computes for
// each such atom the classes with an e-node whose operator children are in
// the classes computed for them (pattern variables ignored, so a superset
// of where the subtree matches); the join rejects other classes at once.
//
// Old matches: a match's stamp is the newest stamp of its e-nodes (the root
// e-node's RootStamp, or Stamp with a retry set, as CompiledPattern::Search
// decides) and of the constants' e-nodes. The contract counts old matches
// and stops at `limit` counting them (the backoff scheduler bans a rule on
// that count), so old matches must be enumerated anyway: they are filtered
// when yielded, not excluded by a semi-naive split of the query into one
// query per atom over new rows.
//
// Order: by root e-node in EGraph::NodesWithOp order, as CompiledPattern;
// the matches of one root e-node by the classes of the query variables in
// join order, ascending, where CompiledPattern follows its program. (A
// constant is looked up with EGraph::LookupNode, as CompiledPattern does,
// which also finds pruned e-nodes; every other e-node matched is in a
// class.)
#include "libs/egraph/relational.h"

#include <algorithm>

namespace tessel::egraph {

RelationalPattern::RelationalPattern(const Pattern& pattern)
    : pattern_(pattern) {
  num_vars_ = pattern.VarBound();
  var_qvar_.assign(num_vars_, kNoId);
  if (pattern.empty()) return;
  const uint32_t root = pattern.root();
  if (pattern.node(root).is_var()) {
    shape_ = Shape::kVar;
    var_qvar_[pattern.node(root).var] = 0;
    num_qvars_ = 1;
    return;
  }
  // Children come before their parents, so one forward pass finds the
  // operator nodes without variables below them.
  std::vector<bool> ground(pattern.size());
  for (uint32_t i = 0; i < pattern.size(); ++i) {
    ground[i] = !pattern.node(i).is_var();
    for (uint32_t c : pattern.children(i)) ground[i] = ground[i] && ground[c];
  }
  std::vector<uint32_t> node_qvar(pattern.size(), kNoId);
  auto find_constants = [&](auto& self, uint32_t n) -> void {
    if (pattern.node(n).is_var() || node_qvar[n] != kNoId) return;
    if (ground[n]) {
      node_qvar[n] = ground_nodes_.size();
      ground_nodes_.push_back(n);
      return;
    }
    for (uint32_t c : pattern.children(n)) self(self, c);
  };
  find_constants(find_constants, root);
  num_consts_ = ground_nodes_.size();
  if (ground[root]) {
    shape_ = Shape::kGround;
    root_qvar_ = node_qvar[root];
    num_qvars_ = num_consts_;
    return;
  }
  shape_ = Shape::kQuery;
  // Breadth first: every class before its children's, so that most atoms
  // are bound in column order.
  uint32_t next = num_consts_;
  std::vector<uint32_t> atom_nodes = {root};  // the root first
  node_qvar[root] = next++;
  for (size_t i = 0; i < atom_nodes.size(); ++i) {
    for (uint32_t c : pattern.children(atom_nodes[i])) {
      const Pattern::Node& kid = pattern.node(c);
      if (kid.is_var()) {
        if (var_qvar_[kid.var] == kNoId) var_qvar_[kid.var] = next++;
      } else if (node_qvar[c] == kNoId) {  // not a constant, not shared
        node_qvar[c] = next++;
        atom_nodes.push_back(c);
      }
    }
  }
  root_qvar_ = num_consts_;
  num_qvars_ = next;

  for (uint32_t n : atom_nodes) {
    const Pattern::Node& node = pattern.node(n);
    Atom a;
    a.op = node.op;
    a.payload = node.payload;
    a.arity = node.arity;
    a.is_root = n == root;
    a.cols.push_back(node_qvar[n]);
    for (uint32_t c : pattern.children(n)) {
      const Pattern::Node& kid = pattern.node(c);
      a.cols.push_back(kid.is_var() ? var_qvar_[kid.var] : node_qvar[c]);
    }
    auto earlier = [&](uint32_t col) {
      return std::find(a.cols.begin(), a.cols.begin() + col, a.cols[col]) !=
             a.cols.begin() + col;
    };
    // Indexed if the new variables of the columns come in join order.
    a.indexed = true;
    a.level_cols = {0};
    for (uint32_t col = 1; col < a.cols.size() && a.indexed; ++col) {
      if (a.cols[col] < num_consts_ || earlier(col)) continue;
      a.indexed = a.cols[col] > a.cols[a.level_cols.back()];
      a.level_cols.push_back(col);
    }
    if (!a.indexed) {
      a.level_cols.clear();
      for (uint32_t col = 0; col < a.cols.size(); ++col) {
        if (a.cols[col] >= num_consts_ && !earlier(col)) {
          a.level_cols.push_back(col);
        }
      }
      std::sort(a.level_cols.begin(), a.level_cols.end(),
                [&](uint32_t x, uint32_t y) { return a.cols[x] < a.cols[y]; });
    }
    atoms_.push_back(std::move(a));
  }
  class_atom_.assign(num_qvars_, kNoId);
  for (uint32_t i = 0; i < atoms_.size(); ++i)
    class_atom_[atoms_[i].cols[0]] = i;
  for (Atom& a : atoms_) {
    for (uint32_t col = 1; col < a.cols.size() && !a.is_root; ++col) {
      if (class_atom_[a.cols[col]] != kNoId) a.reduced = true;
    }
  }
  for (const Atom& a : atoms_) {
    any_table_ = any_table_ || !a.indexed;
    any_reduced_ = any_reduced_ || a.reduced;
  }
  participants_.resize(num_qvars_ - num_consts_);
  for (uint32_t i = 0; i < atoms_.size(); ++i) {
    const Atom& a = atoms_[i];
    for (uint32_t l = 0; l < a.level_cols.size(); ++l) {
      participants_[a.cols[a.level_cols[l]] - num_consts_].push_back({i, l});
    }
  }
}

}  // namespace tessel::egraph
