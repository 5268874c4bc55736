// Which procedures call which, for the verifier's recursion check.
#ifndef TESSEL_LIBS_IR_VERIFY_CALL_GRAPH_H_
#define TESSEL_LIBS_IR_VERIFY_CALL_GRAPH_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "libs/ir/module.h"

namespace tessel {

class CallGraph {
 public:
  // The `(call @P ...)` forms anywhere in each procedure's body.
  explicit CallGraph(const Module& module);

  // A chain of calls from `from` to `to` ("@a", "@b", ..., "@c"), or
  // nullopt when `from` never leads to `to`. A call from `to` to `from`
  // closes a cycle exactly when this exists.
  std::optional<std::vector<std::string>> FindPath(absl::string_view from,
                                                   absl::string_view to) const;

 private:
  absl::flat_hash_map<std::string, std::vector<std::string>> callees_;
};

}  // namespace tessel

#endif  // TESSEL_LIBS_IR_VERIFY_CALL_GRAPH_H_
