#include "libs/egraph/dot.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace tessel::egraph {
namespace {

// `text` as the body of a dot string literal.
std::string Escape(absl::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '"':
      case '\\':
        out += '\\';
        out += c;
        break;
      case '\n':
        out += "\\n";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string Label(const EGraph& egraph, const ENodeRef& node) {
  std::string label(egraph.ops().Name(node.op));
  if (node.payload != PayloadTable::kNone) {
    absl::StrAppend(&label, " ", egraph.payloads().ToString(node.payload));
  }
  return Escape(label);
}

// The box that edges into class `c` end at: its first e-node.
std::string Anchor(const EGraph& egraph, ClassId c) {
  absl::Span<const NodeId> nodes = egraph.Nodes(c);
  return nodes.empty() ? absl::StrCat("e", c) : absl::StrCat("n", nodes[0]);
}

}  // namespace

std::string ToDot(const EGraph& egraph) {
  // compound=true lets an edge end at a cluster's border (lhead).
  std::string out =
      "digraph egraph {\n"
      "  compound=true\n"
      "  clusterrank=local\n"
      "  node [shape=box]\n";
  for (ClassId c : egraph.Classes()) {
    absl::StrAppend(&out, "  subgraph cluster_e", c, " {\n", "    label=\"e", c,
                    "\"\n", "    style=dotted\n");
    for (NodeId n : egraph.Nodes(c)) {
      absl::StrAppend(&out, "    n", n, " [label=\"",
                      Label(egraph, egraph.Node(n)), "\"]\n");
    }
    // A class whose e-nodes were all pruned still gets a box for its
    // parents' edges to end at.
    if (egraph.Nodes(c).empty()) {
      absl::StrAppend(&out, "    ", Anchor(egraph, c),
                      " [label=\"no e-nodes\", style=dashed]\n");
    }
    absl::StrAppend(&out, "  }\n");
  }
  for (ClassId c : egraph.Classes()) {
    for (NodeId n : egraph.Nodes(c)) {
      const ENodeRef node = egraph.Node(n);
      for (size_t i = 0; i < node.children.size(); ++i) {
        const ClassId child = egraph.Find(node.children[i]);
        // An edge ends at the child class's anchor, clipped at the
        // cluster's border; an edge back into its own class cannot be
        // clipped (Graphviz ignores such an lhead) and ends at the anchor.
        absl::StrAppend(&out, "  n", n, " -> ", Anchor(egraph, child));
        std::string attributes;
        if (child != c) absl::StrAppend(&attributes, "lhead=cluster_e", child);
        if (node.children.size() > 1) {
          absl::StrAppend(&attributes, attributes.empty() ? "" : ", ",
                          "label=\"", i, "\"");
        }
        if (!attributes.empty()) absl::StrAppend(&out, " [", attributes, "]");
        absl::StrAppend(&out, "\n");
      }
    }
  }
  absl::StrAppend(&out, "}\n");
  return out;
}

}  // namespace tessel::egraph
