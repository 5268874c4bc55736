// The shapes of Glenside's access patterns in the e-graph (Glenside's shape
// analysis). The verifier's typing rules (libs/verify/access.h,
// InferAccessPattern) are the one definition of every transformer's and
// operator's shape: AccessShapes builds the access pattern over its literal
// operands in a scratch module and asks them, once per distinct op,
// compute operator, operand types and literal operands.
#ifndef TESSEL_LIBS_SATURATE_ACCESS_SHAPES_H_
#define TESSEL_LIBS_SATURATE_ACCESS_SHAPES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "libs/ir/node.h"
#include "libs/ir/type.h"

namespace tessel::saturate {

// A literal operand of an access pattern: an integer (a dimension, a bound,
// a split), or a literal list (`(list 1 0)`, `(shape 3 3)`) when `list` is
// set, of op `list`.
struct AccessLiteral {
  std::optional<ir::Op> list;
  std::vector<int64_t> values;

  friend bool operator==(const AccessLiteral&, const AccessLiteral&) = default;
  template <typename H>
  friend H AbslHashValue(H h, const AccessLiteral& l) {
    return H::combine(std::move(h), l.list, l.values);
  }
};

class AccessShapes {
 public:
  // The type of the access pattern `op` (whose compute operator is
  // `compute_op`, for `compute`) with term operands of types `terms` (at
  // ir::AccessPatternTerms(op)) and the other operands `literals`, in
  // order; nullopt when the verifier rejects it.
  std::optional<ir::Type> TypeOf(ir::Op op, const std::string& compute_op,
                                 const std::vector<ir::Type>& terms,
                                 const std::vector<AccessLiteral>& literals);

 private:
  struct Key {
    ir::Op op;
    std::string compute_op;
    std::vector<ir::Type> terms;
    std::vector<AccessLiteral> literals;
    friend bool operator==(const Key&, const Key&) = default;
    template <typename H>
    friend H AbslHashValue(H h, const Key& k) {
      return H::combine(std::move(h), k.op, k.compute_op, k.terms, k.literals);
    }
  };
  std::optional<ir::Type> Infer(const Key& key);

  ir::Module scratch_;
  absl::flat_hash_map<Key, std::optional<ir::Type>> known_;
};

}  // namespace tessel::saturate

#endif  // TESSEL_LIBS_SATURATE_ACCESS_SHAPES_H_
