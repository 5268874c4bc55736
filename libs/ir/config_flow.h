// What code does with the value a configuration field holds before it runs
// (Exo's global dataflow of configuration, section 5.3, for one field):
// whether it may read that value, and whether it certainly overwrites it
// first. The configuration primitives ask it of the code after a write
// (is the written value dead?), the verifier of a callee after a call that
// clobbers the field (does it read what the call left?).
#ifndef TESSEL_LIBS_IR_CONFIG_FLOW_H_
#define TESSEL_LIBS_IR_CONFIG_FLOW_H_

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "libs/ir/node.h"

namespace tessel::ir {

// A configuration field: its config form and its name.
struct ConfigFieldRef {
  const Node* config;
  absl::string_view field;
};

struct ConfigFlow {
  bool reads = false;  // may read the value before overwriting it
  bool kills = false;  // certainly overwrites it, having read nothing
};

// Statements in order; a statement's flow counts its callees (their
// assertions first, then their bodies) and its expressions. A loop
// overwrites only if it certainly runs (literal bounds); an `if` only if
// both branches do. `ignore`, a read-config, does not count.
ConfigFlow FlowOfBlock(absl::Span<Node* const> stmts,
                       const ConfigFieldRef& field,
                       const Node* ignore = nullptr);
ConfigFlow FlowOfStmt(const Node& stmt, const ConfigFieldRef& field,
                      const Node* ignore = nullptr);

// Whether `node` or a proc it calls (its assertions too) reads the field
// anywhere; `ignore` does not count.
bool ReadsConfigField(const Node& node, const ConfigFieldRef& field,
                      const Node* ignore = nullptr);

}  // namespace tessel::ir

#endif  // TESSEL_LIBS_IR_CONFIG_FLOW_H_
