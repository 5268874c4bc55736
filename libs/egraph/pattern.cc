#include "libs/egraph/pattern.h"

#include <algorithm>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"

namespace tessel::egraph {

VarId VarTable::Intern(absl::string_view name) {
  auto it = ids_.find(name);
  if (it != ids_.end()) return it->second;
  VarId id = names_.size();
  names_.emplace_back(name);
  ids_.emplace(std::string(name), id);
  return id;
}

std::optional<VarId> VarTable::Find(absl::string_view name) const {
  auto it = ids_.find(name);
  if (it == ids_.end()) return std::nullopt;
  return it->second;
}

uint32_t Pattern::AddVar(VarId var) {
  Node n;
  n.var = var;
  nodes_.push_back(n);
  return nodes_.size() - 1;
}

uint32_t Pattern::AddNode(OpId op, PayloadId payload,
                          absl::Span<const uint32_t> children) {
  Node n;
  n.op = op;
  n.payload = payload;
  n.first_child = children_.size();
  n.arity = children.size();
  children_.insert(children_.end(), children.begin(), children.end());
  nodes_.push_back(n);
  return nodes_.size() - 1;
}

Pattern Pattern::Subpattern(uint32_t i) const {
  Pattern out;
  std::vector<uint32_t> index(i + 1, kNoId);
  auto copy = [&](auto& self, uint32_t n) -> uint32_t {
    if (index[n] != kNoId) return index[n];
    const Node& node = nodes_[n];
    if (node.is_var()) return index[n] = out.AddVar(node.var);
    std::vector<uint32_t> kids;
    for (uint32_t c : children(n)) kids.push_back(self(self, c));
    return index[n] = out.AddNode(node.op, node.payload, kids);
  };
  copy(copy, i);
  return out;
}

std::vector<VarId> Pattern::Vars() const {
  // Left to right: a pre-order walk from the root.
  std::vector<VarId> vars;
  if (nodes_.empty()) return vars;
  std::vector<uint32_t> stack = {root()};
  while (!stack.empty()) {
    uint32_t i = stack.back();
    stack.pop_back();
    if (nodes_[i].is_var()) {
      if (std::find(vars.begin(), vars.end(), nodes_[i].var) == vars.end()) {
        vars.push_back(nodes_[i].var);
      }
      continue;
    }
    absl::Span<const uint32_t> kids = children(i);
    for (size_t k = kids.size(); k-- > 0;) stack.push_back(kids[k]);
  }
  return vars;
}

uint32_t Pattern::VarBound() const {
  uint32_t bound = 0;
  for (const Node& n : nodes_) {
    if (n.is_var()) bound = std::max(bound, n.var + 1);
  }
  return bound;
}

std::string Pattern::ToString(const OpTable& ops, const PayloadTable& payloads,
                              const VarTable& vars) const {
  auto print = [&](auto& self, uint32_t i) -> std::string {
    const Node& n = nodes_[i];
    if (n.is_var()) {
      return n.var < vars.size() ? std::string(vars.Name(n.var))
                                 : absl::StrCat("?", n.var);
    }
    std::string head(ops.Name(n.op));
    std::string payload = payloads.ToString(n.payload);
    if (n.arity == 0) return payload.empty() ? head : payload;
    std::string out = absl::StrCat("(", head);
    if (!payload.empty()) absl::StrAppend(&out, " ", payload);
    for (uint32_t c : children(i)) absl::StrAppend(&out, " ", self(self, c));
    return out + ")";
  };
  return nodes_.empty() ? "" : print(print, root());
}

namespace {

// The class of each node of `pattern` under `subst`, bottom-up, a node's
// from its children's by `node_class` (which may fail: nullopt).
template <typename NodeClass>
std::optional<ClassId> ClassOfInstance(const Pattern& pattern,
                                       const Subst& subst,
                                       NodeClass node_class) {
  absl::InlinedVector<ClassId, 16> ids(pattern.size());
  absl::InlinedVector<ClassId, 8> kids;
  for (uint32_t i = 0; i < pattern.size(); ++i) {
    const Pattern::Node& n = pattern.node(i);
    if (n.is_var()) {
      ids[i] = subst[n.var];
      continue;
    }
    kids.clear();
    for (uint32_t c : pattern.children(i)) kids.push_back(ids[c]);
    std::optional<ClassId> id = node_class(n, kids);
    if (!id) return std::nullopt;
    ids[i] = *id;
  }
  return ids[pattern.root()];
}

}  // namespace

ClassId Instantiate(EGraph& g, const Pattern& pattern, const Subst& subst) {
  return *ClassOfInstance(
      pattern, subst,
      [&g](const Pattern::Node& n,
           absl::Span<const ClassId> kids) -> std::optional<ClassId> {
        return g.AddOccurrence(n.op, n.payload, kids);
      });
}

std::optional<ClassId> LookupInstance(const EGraph& g, const Pattern& pattern,
                                      const Subst& subst) {
  return ClassOfInstance(
      pattern, subst,
      [&g](const Pattern::Node& n, absl::Span<const ClassId> kids) {
        return g.Lookup(n.op, n.payload, kids);
      });
}

}  // namespace tessel::egraph
