// The keyword sets of keywords.def as C++ enums. A `key` attribute is kept
// as written (Node::name()) so that diagnostics quote it; consumers turn it
// into its enumerator here instead of comparing strings.
#ifndef TESSEL_LIBS_IR_KEYWORDS_H_
#define TESSEL_LIBS_IR_KEYWORDS_H_

#include <cstdint>
#include <optional>

#include "absl/strings/string_view.h"

namespace tessel::ir {

enum class ComputeOp : uint8_t {
#define TIR_KEYWORD_ComputeOp(id, spelling) k##id,
#include "libs/ir/keywords.def"
};

enum class ReductionKind : uint8_t {
#define TIR_KEYWORD_ReductionKind(id, spelling) k##id,
#include "libs/ir/keywords.def"
};

// The order in which a multi-reduction combines its reduced positions.
enum class ReductionOrder : uint8_t {
#define TIR_KEYWORD_ReductionOrder(id, spelling) k##id,
#include "libs/ir/keywords.def"
};

// The enumerator spelled `word`, if any.
std::optional<ComputeOp> FindComputeOp(absl::string_view word);
std::optional<ReductionKind> FindReductionKind(absl::string_view word);
std::optional<ReductionOrder> FindReductionOrder(absl::string_view word);

absl::string_view Spelling(ComputeOp op);
absl::string_view Spelling(ReductionKind kind);
absl::string_view Spelling(ReductionOrder order);

// Whether a compute operator reduces its compute dimensions to a scalar
// (reduceSum, reduceMax, dotProd) and whether it takes a leading tuple
// dimension (dotProd, elementwiseAdd, elementwiseMul): Glenside Table 2.
bool Reduces(ComputeOp op);
bool TakesTuple(ComputeOp op);

}  // namespace tessel::ir

#endif  // TESSEL_LIBS_IR_KEYWORDS_H_
