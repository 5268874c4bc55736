// Named library calls: typed as their definitions, and expanded into them.
#include "libs/verify/libcall.h"

#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/ir/edit.h"
#include "libs/ir/library.h"
#include "libs/verify/func.h"
#include "libs/verify/func_verifier.h"

namespace tessel::ir {
namespace {

// How deeply definitions may call definitions. Rank-polymorphic ones call
// themselves once per dimension, and no NumPy array has more than 64.
constexpr int kMaxNesting = 64;

}  // namespace

absl::StatusOr<TermType> FuncVerifier::InferLibCall(Node& call) {
  auto def = Libraries::Builtin().Find(call.name(), call.name_loc());
  if (!def.ok()) return def.status();
  auto operands = CallOperands(**def, call);
  if (!operands.ok()) return operands.status();
  std::vector<Binder> values;
  std::optional<TermType> typed;  // the first value of a known element type
  for (size_t i = 0; i < operands->size(); ++i) {
    LibOperand& operand = (*operands)[i];
    switch (operand.kind) {
      case LibOperandKind::kKeyword:  // a keyword has no node
        continue;
      case LibOperandKind::kInt:
        RecordIndex(*operand.node);
        continue;
      case LibOperandKind::kShape:
        for (const Node* extent : operand.node->operands()) {
          RecordIndex(*extent);
        }
        continue;
      case LibOperandKind::kValue:
        break;
    }
    Node& node = const_cast<Node&>(*operand.node);
    auto type = Infer(node, nullptr);
    if (!type.ok()) return type.status();
    if (!type->is_scalar() && !type->is_array()) {
      return ErrorAt(node.loc(),
                     absl::StrCat("operand ", i + 1, " of '", call.name(),
                                  "' must be a tensor or a "
                                  "scalar, found ",
                                  Describe(*type)));
    }
    if (type->elem.type.is_elem()) {
      if (typed && typed->elem.type.elem != type->elem.type.elem) {
        return ErrorAt(node.loc(),
                       absl::StrCat("the operands of '", call.name(),
                                    "' must have one element type: this one "
                                    "is ",
                                    Describe(*type), ", an earlier one ",
                                    Describe(*typed)));
      }
      if (!typed) typed = *type;
    }
    operand.dims = type->dims;
    operand.split = type->is_access() ? type->access_dims : -1;
    operand.text = Describe(*type);
    Binder binder;
    binder.value = *std::move(type);
    values.push_back(std::move(binder));
  }
  auto instance = SelectDefinition(**def, call, *operands);
  if (!instance.ok()) return instance.status();
  if (instance_depth_ == kMaxNesting) {
    return ErrorAt(
        call.loc(),
        absl::StrCat("the definitions of '", call.name(),
                     "' and the calls they make nest more than ", kMaxNesting,
                     " deep: a definition may call itself only "
                     "on a lower rank, of at most ",
                     kMaxNesting));
  }
  Node* body = InstantiateBody(instances_, *instance, call.loc());
  size_t depth = binders_.size();
  binders_.insert(binders_.end(), values.begin(), values.end());
  // The body is typed on its own, so that a mismatch with `expected` is
  // reported for the call (by Infer); literal operands take their types
  // from the body's uses and from the call's context alike (their groups).
  ++instance_depth_;
  auto type = Infer(*body, nullptr);
  --instance_depth_;
  binders_.resize(depth);
  return type;
}

bool HasLibCalls(const Node& term) {
  if (term.is(Op::kLibCall)) return true;
  for (const Node* operand : term.operands()) {
    if (HasLibCalls(*operand)) return true;
  }
  return false;
}

absl::StatusOr<std::unique_ptr<Module>> ExpandLibCalls(
    const Node& func, const std::function<bool(const Node& call)>& keep) {
  auto module = std::make_unique<Module>();
  Node* copy = module->Clone(&func);
  module->AddForm(copy);
  poly::Context ctx;
  // Each round expands the calls there are, typed by the round before;
  // their definitions' calls wait for the next.
  for (int round = 0; round <= kMaxNesting; ++round) {
    std::vector<Node*> calls;
    Walk(*copy, [&calls, &keep](Node& node) {
      if (node.is(Op::kLibCall) && (keep == nullptr || !keep(node))) {
        calls.push_back(&node);
      }
    });
    if (calls.empty()) return module;
    for (Node* call : calls) {
      if (auto status = ExpandLibCall(*module, *call); !status.ok()) {
        return status;
      }
    }
    if (auto status = VerifyFunc(*copy, ctx); !status.ok()) return status;
  }
  return ErrorAt(func.loc(),
                 absl::StrCat("the named calls of '", func.name(),
                              "' nest more than ", kMaxNesting, " deep"));
}

}  // namespace tessel::ir
