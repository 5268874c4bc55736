// Relational e-matching (Zhang et al., "Relational e-matching", POPL'22): a
// pattern becomes a conjunctive query with one atom per operator node,
// op(payload)(class, child classes...), over the e-graph's e-nodes as
// relations, evaluated by generic join: one query variable at a time, its
// candidates the intersection of every atom that mentions it. An
// alternative to CompiledPattern, with the same contract, kept to measure
// the two against each other (egg_bench --matcher); relational.cc says how
// the relations are indexed and how the order of matches differs, and
// relational_join.cc runs the join.
#ifndef TESSEL_LIBS_EGRAPH_RELATIONAL_H_
#define TESSEL_LIBS_EGRAPH_RELATIONAL_H_

#include <cstdint>
#include <vector>

#include "libs/egraph/egraph.h"
#include "libs/egraph/ids.h"
#include "libs/egraph/matcher.h"
#include "libs/egraph/pattern.h"

namespace tessel::egraph {

class RelationalPattern {
 public:
  explicit RelationalPattern(const Pattern& pattern);

  uint32_t num_vars() const { return num_vars_; }

  // The contract of CompiledPattern::Search (the same matches, counts,
  // limit, old matches and retry set). Matches come by root e-node as
  // CompiledPattern's, but those of one root e-node may come in another
  // order (relational.cc), so with a limit the two may return different
  // matches.
  size_t Search(const EGraph& g, size_t limit, Matches* out,
                uint32_t old_before = 0, const RetrySet* retry = nullptr) const;

 private:
  friend class GenericJoin;
  // One atom: op(payload) with `arity` children; cols[0] is the query
  // variable of the e-node's class, cols[1 + k] that of child k.
  struct Atom {
    OpId op = 0;
    PayloadId payload = 0;
    uint32_t arity = 0;
    bool is_root = false;
    // The e-graph's class node lists are tries of this relation in column
    // order (class, then children): used directly when the atom's variables
    // are bound in that order; otherwise the search builds a sorted copy.
    bool indexed = false;
    std::vector<uint32_t> cols;
    // The column of each level (each distinct non-constant query variable,
    // in join order); the other columns are checked, not joined.
    std::vector<uint32_t> level_cols;
    // A child of the root or deeper with operator children of its own
    // (neither a variable nor a constant): the search first computes the
    // classes where its subtree can match (relational.cc, semi-joins).
    bool reduced = false;
  };
  // An atom taking part in the join of one query variable, at its level.
  struct Participant {
    uint32_t atom;
    uint32_t level;
  };
  enum class Shape : uint8_t { kEmpty, kVar, kGround, kQuery };

  Shape shape_ = Shape::kEmpty;
  uint32_t num_vars_ = 0;
  // Query variables: the maximal ground subpatterns first (constants,
  // looked up once per search), then the rest in join order.
  uint32_t num_consts_ = 0;
  uint32_t num_qvars_ = 0;
  std::vector<uint32_t> ground_nodes_;  // pattern node of each constant
  std::vector<uint32_t> var_qvar_;      // by VarId, or kNoId
  uint32_t root_qvar_ = 0;
  std::vector<Atom> atoms_;  // atoms_[0] is the root's
  // By query variable minus num_consts_: the atoms that mention it.
  std::vector<std::vector<Participant>> participants_;
  bool any_table_ = false;    // some atom is not indexed
  bool any_reduced_ = false;  // some atom is reduced
  // By query variable: the atom of which it is the class, or kNoId.
  std::vector<uint32_t> class_atom_;
  Pattern pattern_;  // for the ground lookups
};

}  // namespace tessel::egraph

#endif  // TESSEL_LIBS_EGRAPH_RELATIONAL_H_
