// A term outside the e-graph (egg's RecExpr): a flat vector of nodes in which
// children come before their parents and the root is last. Extraction
// returns terms, AddTerm puts them into an e-graph, explanations print them.
#ifndef TESSEL_LIBS_EGRAPH_TERM_H_
#define TESSEL_LIBS_EGRAPH_TERM_H_

#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "libs/egraph/ids.h"

namespace tessel::egraph {

class Term {
 public:
  struct Node {
    OpId op;
    PayloadId payload;
    uint32_t first_child;  // index into the child pool
    uint32_t arity;
  };

  // Appends a node whose children are indices of nodes already added;
  // returns its index. Identical nodes are not shared: a term is a tree
  // stored as a DAG only where the caller reuses an index.
  uint32_t Add(OpId op, PayloadId payload,
               absl::Span<const uint32_t> children = {});

  bool empty() const { return nodes_.empty(); }
  uint32_t size() const { return nodes_.size(); }
  uint32_t root() const { return nodes_.size() - 1; }
  const Node& node(uint32_t i) const { return nodes_[i]; }
  absl::Span<const uint32_t> children(uint32_t i) const {
    return {children_.data() + nodes_[i].first_child, nodes_[i].arity};
  }

  // The subterm rooted at `i` as a term of its own (shared subterms stay
  // shared).
  Term Subterm(uint32_t i) const;

  // Structural equality of the trees the two terms denote.
  friend bool operator==(const Term& a, const Term& b);

 private:
  std::vector<Node> nodes_;
  std::vector<uint32_t> children_;
};

}  // namespace tessel::egraph

#endif  // TESSEL_LIBS_EGRAPH_TERM_H_
