// Patterns: terms over ops and payloads with variables ?x, possibly repeated
// (non-linear); substitutions from variables to classes; instantiating a
// pattern into an e-graph.
#ifndef TESSEL_LIBS_EGRAPH_PATTERN_H_
#define TESSEL_LIBS_EGRAPH_PATTERN_H_

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "libs/egraph/egraph.h"
#include "libs/egraph/ids.h"

namespace tessel::egraph {

// Names the variables of one rule (both sides share it): ?a is VarId 0, ...
class VarTable {
 public:
  VarId Intern(absl::string_view name);
  std::optional<VarId> Find(absl::string_view name) const;
  absl::string_view Name(VarId v) const { return names_[v]; }
  uint32_t size() const { return names_.size(); }

 private:
  std::deque<std::string> names_;  // a deque keeps Name()'s views valid
  absl::flat_hash_map<std::string, VarId> ids_;
};

class Pattern {
 public:
  struct Node {
    VarId var = kNoId;  // a variable if not kNoId; then the rest is unused
    OpId op = 0;
    PayloadId payload = 0;
    uint32_t first_child = 0;
    uint32_t arity = 0;
    bool is_var() const { return var != kNoId; }
  };

  // Builders, bottom-up: children are indices returned earlier; the last
  // node added is the root.
  uint32_t AddVar(VarId var);
  uint32_t AddNode(OpId op, PayloadId payload,
                   absl::Span<const uint32_t> children = {});

  bool empty() const { return nodes_.empty(); }
  uint32_t size() const { return nodes_.size(); }
  uint32_t root() const { return nodes_.size() - 1; }
  const Node& node(uint32_t i) const { return nodes_[i]; }
  absl::Span<const uint32_t> children(uint32_t i) const {
    return {children_.data() + nodes_[i].first_child, nodes_[i].arity};
  }
  // The subpattern rooted at node `i`, over the same variables.
  Pattern Subpattern(uint32_t i) const;
  // Distinct variables in order of first occurrence (left to right).
  std::vector<VarId> Vars() const;
  // One more than the largest variable id (0 without variables).
  uint32_t VarBound() const;

  // For messages and tests: (op payload-or-children...) with ?names.
  std::string ToString(const OpTable& ops, const PayloadTable& payloads,
                       const VarTable& vars) const;

 private:
  std::vector<Node> nodes_;
  std::vector<uint32_t> children_;
};

// A substitution: the class of each variable, indexed by VarId. A view into
// match storage or a caller's vector.
class Subst {
 public:
  Subst() = default;
  explicit Subst(absl::Span<const ClassId> classes) : classes_(classes) {}
  ClassId operator[](VarId v) const { return classes_[v]; }
  uint32_t size() const { return classes_.size(); }
  absl::Span<const ClassId> classes() const { return classes_; }

 private:
  absl::Span<const ClassId> classes_;
};

// Adds the instance of `pattern` under `subst` (which binds every variable
// of the pattern) and returns the id of its root: the canonical class, or,
// with explanations on, the id of that exact instance (EGraph::AddOccurrence).
ClassId Instantiate(EGraph& g, const Pattern& pattern, const Subst& subst);

// The class of the instance if every e-node of it exists, without adding.
std::optional<ClassId> LookupInstance(const EGraph& g, const Pattern& pattern,
                                      const Subst& subst);

}  // namespace tessel::egraph

#endif  // TESSEL_LIBS_EGRAPH_PATTERN_H_
