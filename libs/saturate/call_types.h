// The types of named calls in the e-graph. A call's type is its
// definition's (libs/ir/library.h), which only the verifier knows how to
// elaborate: CallTypes builds the call over parameters of its operands'
// types in a scratch function and asks the verifier (ir::InferTermType),
// once per distinct callee, keywords and operand types.
#ifndef TESSEL_LIBS_SATURATE_CALL_TYPES_H_
#define TESSEL_LIBS_SATURATE_CALL_TYPES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "libs/ir/node.h"
#include "libs/ir/type.h"
#include "libs/poly/poly.h"

namespace tessel::saturate {

// What is known of one operand of a call: a value's type, an integer's
// value, a shape's extents (whichever the definition takes there).
struct CallOperand {
  std::optional<ir::Type> type;
  std::optional<int64_t> integer;
  std::optional<std::vector<int64_t>> extents;

  friend bool operator==(const CallOperand&, const CallOperand&) = default;
  template <typename H>
  friend H AbslHashValue(H h, const CallOperand& o) {
    h = H::combine(std::move(h), o.type.has_value(), o.integer.value_or(0),
                   o.extents.has_value());
    if (o.type) h = H::combine(std::move(h), *o.type);
    if (o.extents) h = H::combine(std::move(h), *o.extents);
    return h;
  }
};

class CallTypes {
 public:
  CallTypes();

  // The type of `(callee keywords operands...)`, or nullopt when an operand
  // it needs is not known or the call does not type (the e-graph then
  // learns the class's type from another of its terms).
  std::optional<ir::Type> TypeOf(const std::string& callee,
                                 const std::string& keywords,
                                 const std::vector<CallOperand>& operands);

 private:
  struct Key {
    std::string callee;
    std::string keywords;
    std::vector<CallOperand> operands;
    friend bool operator==(const Key&, const Key&) = default;
    template <typename H>
    friend H AbslHashValue(H h, const Key& k) {
      return H::combine(std::move(h), k.callee, k.keywords, k.operands);
    }
  };
  std::optional<ir::Type> Elaborate(const Key& key);

  ir::Module scratch_;
  poly::Context ctx_;
  absl::flat_hash_map<Key, std::optional<ir::Type>> known_;
};

}  // namespace tessel::saturate

#endif  // TESSEL_LIBS_SATURATE_CALL_TYPES_H_
