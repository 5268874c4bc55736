#include "libs/interp/access_compiler.h"

#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/interp/diagnostics.h"
#include "libs/interp/tensor_compiler.h"
#include "libs/ir/keywords.h"

namespace tessel {
namespace tensor {
namespace {

// How many leading dimensions of the access pattern `node` are access
// dimensions. A rank-0 access pattern is typed as its element type.
int64_t SplitOf(const ir::Node& node) {
  const ir::Type& type = node.type();
  return type.kind() == ir::TypeKind::kAccess ? type.split() : type.rank();
}

// The integers of a (list N...) or (shape N...).
void AppendInts(const ir::Node& list, std::vector<int64_t>& ints) {
  for (const ir::Node* item : list.operands()) {
    ints.push_back(item->int_value());
  }
}

AccessOp AccessOpOf(ir::ComputeOp op) {
  switch (op) {
    case ir::ComputeOp::kReduceSum:
      return AccessOp::kReduceSum;
    case ir::ComputeOp::kReduceMax:
      return AccessOp::kReduceMax;
    case ir::ComputeOp::kDotProd:
      return AccessOp::kDotProd;
    case ir::ComputeOp::kRelu:
      return AccessOp::kRelu;
    case ir::ComputeOp::kElementwiseAdd:
      return AccessOp::kElementwiseAdd;
    case ir::ComputeOp::kElementwiseMul:
      return AccessOp::kElementwiseMul;
  }
  return AccessOp::kReshape;  // Not reached: the switch covers every op.
}

}  // namespace

absl::StatusOr<Term> CompileAccessPattern(const ir::Node& node, Term term) {
  term.op = TermOp::kAccessPattern;
  // The operands that are access patterns; the others are literals.
  std::vector<const ir::Node*> patterns = {node.operand(0)};
  switch (node.op()) {
    case ir::Op::kAccess:
    case ir::Op::kSqueeze:
    case ir::Op::kFlatten:
    case ir::Op::kReshape:
      term.access = AccessOp::kReshape;
      break;
    case ir::Op::kTranspose:
      term.access = AccessOp::kTranspose;
      AppendInts(*node.operand(1), term.ints);
      break;
    case ir::Op::kCartProd:
      term.access = AccessOp::kCartProd;
      patterns.push_back(node.operand(1));
      term.ints = {SplitOf(*node.operand(0)), SplitOf(*node.operand(1))};
      break;
    case ir::Op::kWindows:
      term.access = AccessOp::kWindows;
      term.ints = {SplitOf(*node.operand(0))};
      AppendInts(*node.operand(1), term.ints);
      AppendInts(*node.operand(2), term.ints);
      break;
    case ir::Op::kSlice:
      term.access = AccessOp::kSlice;
      for (size_t i : {1, 2, 3}) {
        term.ints.push_back(node.operand(i)->int_value());
      }
      break;
    case ir::Op::kPair:
      term.access = AccessOp::kPair;
      patterns.push_back(node.operand(1));
      term.ints = {SplitOf(*node.operand(0))};
      break;
    case ir::Op::kConcat:
      term.access = AccessOp::kConcat;
      patterns.push_back(node.operand(1));
      term.ints = {node.operand(2)->int_value()};
      break;
    case ir::Op::kCompute: {
      std::optional<ir::ComputeOp> op = ir::FindComputeOp(node.name());
      if (!op) {
        return NotVerified(node, absl::StrCat("unknown access pattern "
                                              "operator '",
                                              node.name(), "'"));
      }
      term.access = AccessOpOf(*op);
      term.ints = {SplitOf(*node.operand(0))};
      break;
    }
    default:
      return NotVerified(node, absl::StrCat("'", NodeText(node),
                                            "' is not an access pattern"));
  }
  for (const ir::Node* pattern : patterns) {
    auto compiled = CompileTerm(*pattern);
    if (!compiled.ok()) return compiled.status();
    // Access patterns are arrays (or, of rank 0, scalars) of elements.
    if (compiled->type.kind != Type::Kind::kArray &&
        compiled->type.kind != Type::Kind::kElem) {
      return NotVerified(*pattern, "an access pattern that is not an array");
    }
    term.args.push_back(*std::move(compiled));
  }
  if (term.type.kind != Type::Kind::kArray &&
      term.type.kind != Type::Kind::kElem) {
    return NotVerified(node, "an access pattern that is not an array");
  }
  // Access patterns are materialised, as builds are: the 1 GiB limit.
  if (auto size = CheckedElementCount(term.type.elem, term.type.shape);
      !size.ok()) {
    return ErrorAt(node.loc(), size.status().message());
  }
  return term;
}

}  // namespace tensor
}  // namespace tessel
