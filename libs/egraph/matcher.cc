// The matcher's compiler: a pattern becomes a short program over registers
// that hold classes, run by backtracking (match_machine.cc), as egg's
// abstract machine, with the differences below.
//
// Instructions:
//   Bind r, op/payload/arity, out   for each e-node of class r with that op,
//                                   payload and arity: children -> out...
//   Compare r, s                    r == s (a repeated variable)
//   Ground r, k                     r == the class of ground subpattern k,
//                                   looked up once per search
//   Lookup r, node                  r == the class of pattern node `node`,
//                                   whose variables are all bound by now,
//                                   looked up in the hash-cons table
//   Block r, k                      for each match of subpattern k in class
//                                   r (computed once per class and search):
//                                   its variables, equal to those bound
//                                   before, -> their registers
// A Bind whose leading children are variables bound before searches the
// class's e-nodes (sorted by children) for them: non-linear patterns such
// as (+ (* ?a ?b) (* ?a ?c)) join on ?a by binary search, not by scanning
// every pair.
//
// A child of the root that has structure of its own, e.g. (= (var ?x) ?e)
// in (if (= (var ?x) ?e) ?then ?else), is a block: many roots share a
// child class, and without the cache every one of them would redo the same
// search below it (egg's machine does; relational e-matching avoids it by
// joining per-op tables).
//
// The first instruction of a pattern with an op at its root is a Bind of
// register 0; Search runs it over the e-graph's per-op node index instead of
// per class, so the root scan touches only e-nodes with the right op.
//
// Instruction order (egg's heuristic): ground subterms first, then the
// subterm with the most unbound variables, the smaller first.
#include "libs/egraph/matcher.h"

#include <algorithm>
#include <tuple>

#include "absl/container/inlined_vector.h"

namespace tessel::egraph {

namespace {

// Per pattern node: its distinct variables and its size.
struct NodeFacts {
  std::vector<VarId> vars;
  uint32_t size = 0;
};

std::vector<NodeFacts> Analyze(const Pattern& p) {
  std::vector<NodeFacts> facts(p.size());
  for (uint32_t i = 0; i < p.size(); ++i) {
    const Pattern::Node& n = p.node(i);
    if (n.is_var()) {
      facts[i].vars = {n.var};
      continue;
    }
    facts[i].size = 1;
    for (uint32_t c : p.children(i)) {
      facts[i].size += facts[c].size;
      for (VarId v : facts[c].vars) {
        if (std::find(facts[i].vars.begin(), facts[i].vars.end(), v) ==
            facts[i].vars.end()) {
          facts[i].vars.push_back(v);
        }
      }
    }
  }
  return facts;
}

}  // namespace

CompiledPattern::CompiledPattern(const Pattern& pattern, bool allow_blocks)
    : pattern_(pattern) {
  num_vars_ = pattern.VarBound();
  var_reg_.assign(num_vars_, kNoId);
  if (pattern.empty()) return;
  std::vector<NodeFacts> facts = Analyze(pattern);
  ground_slot_.assign(pattern.size(), kNoId);
  auto add_ground = [&](uint32_t node) {
    if (ground_slot_[node] == kNoId) {
      ground_slot_[node] = ground_.size();
      ground_.push_back(node);
    }
    return ground_slot_[node];
  };
  // The maximal ground subpatterns under a Lookup term.
  auto add_ground_under = [&](auto& self, uint32_t node) -> void {
    if (pattern.node(node).is_var()) return;
    if (facts[node].vars.empty()) {
      add_ground(node);
      return;
    }
    for (uint32_t c : pattern.children(node)) self(self, c);
  };
  uint32_t root = pattern.root();
  if (pattern.node(root).is_var()) {
    root_is_var_ = true;
    var_reg_[pattern.node(root).var] = 0;
    num_regs_ = 1;
    return;
  }
  root_op_ = pattern.node(root).op;

  struct Todo {
    uint32_t node;
    uint32_t reg;
  };
  std::vector<Todo> todo;
  uint32_t next_reg = 1;
  auto add_todo = [&](uint32_t node, uint32_t reg) {
    const Pattern::Node& n = pattern.node(node);
    if (!n.is_var()) {
      todo.push_back({node, reg});
    } else if (var_reg_[n.var] != kNoId) {
      program_.push_back({Instr::Kind::kCompare, reg, var_reg_[n.var]});
    } else {
      var_reg_[n.var] = reg;
    }
  };
  auto unbound = [&](uint32_t node) {
    uint32_t count = 0;
    for (VarId v : facts[node].vars) count += var_reg_[v] == kNoId;
    return count;
  };
  // A child of the root with structure of its own below it (a child that
  // is neither a variable nor ground) is matched as a block.
  auto is_block = [&](uint32_t node) {
    if (!std::count(pattern.children(root).begin(),
                    pattern.children(root).end(), node)) {
      return false;
    }
    for (uint32_t c : pattern.children(node)) {
      if (!pattern.node(c).is_var() && !facts[c].vars.empty()) return true;
    }
    return false;
  };
  add_todo(root, 0);
  while (!todo.empty()) {
    auto key = [&](const Todo& t) {
      uint32_t free = unbound(t.node);
      return std::make_tuple(free == 0, free,
                             -static_cast<int64_t>(facts[t.node].size));
    };
    auto best = std::max_element(
        todo.begin(), todo.end(),
        [&](const Todo& a, const Todo& b) { return key(a) < key(b); });
    Todo t = *best;
    todo.erase(best);
    const Pattern::Node& n = pattern.node(t.node);
    if (facts[t.node].vars.empty()) {
      program_.push_back({Instr::Kind::kGround, t.reg, add_ground(t.node)});
    } else if (unbound(t.node) == 0) {
      program_.push_back({Instr::Kind::kLookup, t.reg, t.node, n.op});
      add_ground_under(add_ground_under, t.node);
    } else if (allow_blocks && is_block(t.node)) {
      Instr block{Instr::Kind::kBlock, t.reg,
                  static_cast<uint32_t>(blocks_.size()), n.op};
      blocks_.emplace_back(pattern.Subpattern(t.node), /*allow_blocks=*/false);
      block.prefix_regs = block_vars_.size();
      std::vector<VarId> vars = facts[t.node].vars;
      std::sort(vars.begin(), vars.end());
      for (VarId v : vars) {
        bool check = var_reg_[v] != kNoId;
        if (!check) var_reg_[v] = next_reg++;
        block_vars_.push_back({v, var_reg_[v], check});
      }
      block.prefix = vars.size();
      program_.push_back(block);
    } else {
      absl::Span<const uint32_t> kids = pattern.children(t.node);
      // Leading children that are bound variables narrow the Bind to a
      // binary search (a repeated variable across subterms, e.g. ?a in
      // (+ (* ?a ?b) (* ?a ?c)), is a join on the sorted children).
      Instr bind{Instr::Kind::kBind, t.reg, next_reg, n.op, n.payload, n.arity};
      bind.prefix_regs = bound_regs_.size();
      while (bind.prefix < kids.size()) {
        const Pattern::Node& kid = pattern.node(kids[bind.prefix]);
        if (!kid.is_var() || var_reg_[kid.var] == kNoId) break;
        bound_regs_.push_back(var_reg_[kid.var]);
        ++bind.prefix;
      }
      program_.push_back(bind);
      uint32_t out = next_reg;
      next_reg += n.arity;
      for (uint32_t k = bind.prefix; k < kids.size(); ++k) {
        add_todo(kids[k], out + k);
      }
    }
  }
  num_regs_ = next_reg;
}

}  // namespace tessel::egraph
