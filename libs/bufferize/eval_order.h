// The order in which a bufferized function evaluates its term, and where
// each value is read: the use-def chains of the in-place analysis
// (in_place.h). Terms are evaluated as the loop level will run them: an
// `app`'s argument before its body, operands left to right, an ifold's
// init before its loop. Each node gets the interval of positions its
// evaluation covers; each binder (a `lam`, a parameter) the positions of
// its uses.
#ifndef TESSEL_LIBS_BUFFERIZE_EVAL_ORDER_H_
#define TESSEL_LIBS_BUFFERIZE_EVAL_ORDER_H_

#include <vector>

#include "absl/container/flat_hash_map.h"
#include "libs/ir/node.h"

namespace tessel::bufferize {

struct Span {
  int first = 0;  // the node's own position
  int last = 0;   // the last position inside it
};

class EvalOrder {
 public:
  // `func` is a verified Func.
  explicit EvalOrder(const ir::Node& func);

  Span SpanOf(const ir::Node& node) const;
  // The uses (Var or Ref nodes) of a `lam`'s variable or of a parameter,
  // in evaluation order.
  const std::vector<const ir::Node*>& UsesOf(const ir::Node& binder) const;

 private:
  void Number(const ir::Node& node);

  int next_ = 0;
  absl::flat_hash_map<const ir::Node*, Span> spans_;
  absl::flat_hash_map<const ir::Node*, std::vector<const ir::Node*>> uses_;
};

}  // namespace tessel::bufferize

#endif  // TESSEL_LIBS_BUFFERIZE_EVAL_ORDER_H_
