// An e-graph in Graphviz's dot language (`saturate --dot FILE.dot`): one
// cluster per e-class, labelled with its id; one box per e-node, labelled
// with its op and payload; an edge from every e-node to each child's class
// (clipped at the cluster's border), labelled with the argument's position
// when the e-node has more than one. Render with `dot -Tsvg FILE.dot`.
#ifndef TESSEL_LIBS_EGRAPH_DOT_H_
#define TESSEL_LIBS_EGRAPH_DOT_H_

#include <string>

#include "libs/egraph/egraph.h"

namespace tessel::egraph {

// The dot text of `egraph`, which must be clean (rebuilt). Classes come in
// ascending id order and e-nodes in their classes' order, so the same
// e-graph always gives the same text.
std::string ToDot(const EGraph& egraph);

}  // namespace tessel::egraph

#endif  // TESSEL_LIBS_EGRAPH_DOT_H_
