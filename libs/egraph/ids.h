// The small integer handles of the e-graph engine. Everything the engine
// stores is a dense array indexed by one of these, so that an e-node is a few
// words and no e-node owns heap memory.
#ifndef TESSEL_LIBS_EGRAPH_IDS_H_
#define TESSEL_LIBS_EGRAPH_IDS_H_

#include <cstdint>

namespace tessel::egraph {

// An e-node's id. Every e-node the e-graph creates gets the next id, and that
// id is also the union-find element of the e-class it was created in, as in
// egg: Find(id) is the canonical id of its e-class. So ClassId and NodeId are
// the same space; the names say which role a value plays.
using NodeId = uint32_t;
using ClassId = uint32_t;

// An operator of a language (OpTable) and the leaf data that makes e-nodes
// with the same operator differ (PayloadTable): a number, a symbol, ...
using OpId = uint32_t;
using PayloadId = uint32_t;

// A pattern variable (?x), numbered densely per rule (VarTable).
using VarId = uint32_t;

// A reason for a union, interned by the e-graph (a rule name, "congruence",
// an analysis name) so that a union costs no string copy.
using ReasonId = uint32_t;

inline constexpr uint32_t kNoId = ~uint32_t{0};

}  // namespace tessel::egraph

#endif  // TESSEL_LIBS_EGRAPH_IDS_H_
