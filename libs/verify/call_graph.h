// Which procedures call which, for the verifier's recursion check.
#ifndef TESSEL_LIBS_VERIFY_CALL_GRAPH_H_
#define TESSEL_LIBS_VERIFY_CALL_GRAPH_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "libs/ir/node.h"

namespace tessel::ir {

class CallGraph {
 public:
  // The calls anywhere in each proc and instr of `module`.
  explicit CallGraph(const Module& module);

  // A chain of calls from `from` to `to` ("@a", "@b", ..., "@c"), or
  // nullopt when `from` never leads to `to`. A call from `to` to `from`
  // closes a cycle exactly when this exists.
  std::optional<std::vector<std::string>> FindPath(const Node* from,
                                                   const Node* to) const;

 private:
  absl::flat_hash_map<const Node*, std::vector<const Node*>> callees_;
};

}  // namespace tessel::ir

#endif  // TESSEL_LIBS_VERIFY_CALL_GRAPH_H_
