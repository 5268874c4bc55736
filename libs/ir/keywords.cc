#include "libs/ir/keywords.h"

namespace tessel::ir {
namespace {

template <typename Enum>
struct Keyword {
  Enum id;
  absl::string_view spelling;
};

constexpr Keyword<ComputeOp> kComputeOps[] = {
#define TIR_KEYWORD_ComputeOp(id, spelling) {ComputeOp::k##id, spelling},
#include "libs/ir/keywords.def"
};

constexpr Keyword<ReductionKind> kReductionKinds[] = {
#define TIR_KEYWORD_ReductionKind(id, spelling) \
  {ReductionKind::k##id, spelling},
#include "libs/ir/keywords.def"
};

constexpr Keyword<ReductionOrder> kReductionOrders[] = {
#define TIR_KEYWORD_ReductionOrder(id, spelling) \
  {ReductionOrder::k##id, spelling},
#include "libs/ir/keywords.def"
};

template <typename Enum, size_t N>
std::optional<Enum> Find(const Keyword<Enum> (&table)[N],
                         absl::string_view word) {
  for (const Keyword<Enum>& keyword : table) {
    if (keyword.spelling == word) return keyword.id;
  }
  return std::nullopt;
}

}  // namespace

std::optional<ComputeOp> FindComputeOp(absl::string_view word) {
  return Find(kComputeOps, word);
}

std::optional<ReductionKind> FindReductionKind(absl::string_view word) {
  return Find(kReductionKinds, word);
}

std::optional<ReductionOrder> FindReductionOrder(absl::string_view word) {
  return Find(kReductionOrders, word);
}

// The tables list each set in enumerator order.
absl::string_view Spelling(ComputeOp op) {
  return kComputeOps[static_cast<size_t>(op)].spelling;
}

absl::string_view Spelling(ReductionKind kind) {
  return kReductionKinds[static_cast<size_t>(kind)].spelling;
}

absl::string_view Spelling(ReductionOrder order) {
  return kReductionOrders[static_cast<size_t>(order)].spelling;
}

bool Reduces(ComputeOp op) {
  return op == ComputeOp::kReduceSum || op == ComputeOp::kReduceMax ||
         op == ComputeOp::kDotProd;
}

bool TakesTuple(ComputeOp op) {
  return op == ComputeOp::kDotProd || op == ComputeOp::kElementwiseAdd ||
         op == ComputeOp::kElementwiseMul;
}

}  // namespace tessel::ir
