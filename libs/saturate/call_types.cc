#include "libs/saturate/call_types.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "libs/ir/library.h"
#include "libs/verify/func.h"

namespace tessel::saturate {

CallTypes::CallTypes() = default;

std::optional<ir::Type> CallTypes::TypeOf(
    const std::string& callee, const std::string& keywords,
    const std::vector<CallOperand>& operands) {
  Key key{callee, keywords, operands};
  if (auto it = known_.find(key); it != known_.end()) return it->second;
  std::optional<ir::Type> type = Elaborate(key);
  known_.emplace(std::move(key), type);
  return type;
}

std::optional<ir::Type> CallTypes::Elaborate(const Key& key) {
  auto def = ir::Libraries::Builtin().Find(key.callee, Location{});
  if (!def.ok()) return std::nullopt;
  std::vector<std::string> words;
  if (!key.keywords.empty()) words = absl::StrSplit(key.keywords, ' ');
  size_t count = words.size() + key.operands.size();
  const std::vector<ir::LibOperandKind>* kinds = (*def)->Kinds(count);
  if (kinds == nullptr || static_cast<size_t>(std::count(
                              kinds->begin(), kinds->end(),
                              ir::LibOperandKind::kKeyword)) != words.size()) {
    return std::nullopt;
  }

  ir::Node* func = scratch_.Create(ir::Op::kFunc);
  func->set_name("@call");
  ir::Node* call = scratch_.Create(ir::Op::kLibCall);
  call->set_name(key.callee);
  call->set_text(key.keywords);
  size_t next = 0;  // the next non-keyword operand
  for (ir::LibOperandKind kind : *kinds) {
    if (kind == ir::LibOperandKind::kKeyword) continue;
    const CallOperand& operand = key.operands[next];
    switch (kind) {
      case ir::LibOperandKind::kKeyword:
        break;
      case ir::LibOperandKind::kInt: {
        if (!operand.integer) return std::nullopt;
        ir::Node* literal = scratch_.Create(ir::Op::kConst);
        literal->set_int(*operand.integer);
        scratch_.Append(call, literal);
        break;
      }
      case ir::LibOperandKind::kShape: {
        if (!operand.extents) return std::nullopt;
        ir::Node* shape = scratch_.Create(ir::Op::kShape);
        for (int64_t extent : *operand.extents) {
          ir::Node* literal = scratch_.Create(ir::Op::kConst);
          literal->set_int(extent);
          scratch_.Append(shape, literal);
        }
        scratch_.Append(call, shape);
        break;
      }
      case ir::LibOperandKind::kValue: {
        if (!operand.type) return std::nullopt;
        ir::Node* param = scratch_.Create(ir::Op::kValue);
        param->set_name(absl::StrCat("v", next));
        param->set_param_kind(ir::ParamKind::kIn);
        param->set_declared_type(*operand.type);
        scratch_.Append(func, param);
        ir::Node* ref = scratch_.Create(ir::Op::kRef);
        ref->set_name(param->name());
        ref->set_def(param);
        scratch_.Append(call, ref);
        break;
      }
    }
    ++next;
  }
  auto type = ir::InferTermType(*func, *call, ctx_);
  if (!type.ok()) return std::nullopt;
  return *type;
}

}  // namespace tessel::saturate
