#include "libs/ir/forms.h"

#include <algorithm>

namespace tessel::ir {
namespace {

const Node* FindNamed(const Node& form, Op op, absl::string_view name) {
  for (const Node* operand : form.operands()) {
    if (operand->is(op) && operand->name() == name) return operand;
  }
  return nullptr;
}

}  // namespace

std::vector<Node*> ParamsOf(const Node& proc) {
  std::vector<Node*> params;
  for (Node* operand : proc.operands()) {
    if (operand->is(Op::kParam)) params.push_back(operand);
  }
  return params;
}

namespace {

// The operands of a proc or instr before its statements.
bool InPreamble(const Node& operand) {
  return operand.is(Op::kParam) || operand.is(Op::kTemplate) ||
         operand.is(Op::kClause) || operand.is(Op::kClobbers) ||
         operand.is(Op::kAssert);
}

// The preamble's operands of kind `op`.
std::vector<Node*> PreambleOf(const Node& proc, Op op) {
  std::vector<Node*> found;
  for (Node* operand : proc.operands()) {
    if (!InPreamble(*operand)) break;
    if (operand->is(op)) found.push_back(operand);
  }
  return found;
}

}  // namespace

std::vector<Node*> AssertsOf(const Node& proc) {
  return PreambleOf(proc, Op::kAssert);
}

std::vector<Node*> ClobbersOf(const Node& proc) {
  return PreambleOf(proc, Op::kClobbers);
}

absl::Span<Node* const> BodyOf(const Node& proc) {
  absl::Span<Node* const> operands = proc.operands();
  size_t first = 0;
  while (first < operands.size() && InPreamble(*operands[first])) ++first;
  return operands.subspan(first);
}

absl::Span<Node* const> StatementsOf(const Node& block) {
  // A For's operands start with its two bounds.
  size_t first = block.is(Op::kFor) ? 2 : 0;
  return block.operands().subspan(std::min(first, block.num_operands()));
}

const Node& TemplateOf(const Node& instr) {
  for (const Node* operand : instr.operands()) {
    if (operand->is(Op::kTemplate)) return *operand;
  }
  return instr;  // a verified instr always has one
}

const Node* FindParam(const Node& proc, absl::string_view name) {
  return FindNamed(proc, Op::kParam, name);
}

const Node* FindField(const Node& config, absl::string_view name) {
  return FindNamed(config, Op::kField, name);
}

const Node* FindClause(const Node& memory, absl::string_view kind) {
  return FindNamed(memory, Op::kClause, kind);
}

bool IsDataParam(const Node& param) {
  return param.param_kind() >= ParamKind::kIn;
}

bool IsReadParam(const Node& param) {
  return param.param_kind() == ParamKind::kIn ||
         param.param_kind() == ParamKind::kInOut;
}

bool IsWrittenParam(const Node& param) {
  return param.param_kind() == ParamKind::kOut ||
         param.param_kind() == ParamKind::kInOut;
}

const Node& MemoryOf(const Module& module, const Node& decl) {
  return decl.def() != nullptr ? *decl.def() : *module.dram();
}

bool AnyNode(const Node& root, absl::FunctionRef<bool(const Node&)> pred) {
  if (pred(root)) return true;
  for (const Node* operand : root.operands()) {
    if (AnyNode(*operand, pred)) return true;
  }
  return false;
}

}  // namespace tessel::ir
