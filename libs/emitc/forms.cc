#include "libs/emitc/forms.h"

#include <algorithm>

namespace tessel::emitc {
namespace {

std::vector<const ir::Node*> OperandsOf(const ir::Node& form, ir::Op op) {
  std::vector<const ir::Node*> found;
  for (const ir::Node* operand : form.operands()) {
    if (operand->is(op)) found.push_back(operand);
  }
  return found;
}

const ir::Node* FindNamed(const ir::Node& form, ir::Op op,
                          absl::string_view name) {
  for (const ir::Node* operand : form.operands()) {
    if (operand->is(op) && operand->name() == name) return operand;
  }
  return nullptr;
}

}  // namespace

std::vector<const ir::Node*> ParamsOf(const ir::Node& proc) {
  return OperandsOf(proc, ir::Op::kParam);
}

std::vector<const ir::Node*> AssertsOf(const ir::Node& proc) {
  return OperandsOf(proc, ir::Op::kAssert);
}

absl::Span<ir::Node* const> BodyOf(const ir::Node& proc) {
  absl::Span<ir::Node* const> operands = proc.operands();
  size_t first = 0;
  while (first < operands.size() && (operands[first]->is(ir::Op::kParam) ||
                                     operands[first]->is(ir::Op::kTemplate) ||
                                     operands[first]->is(ir::Op::kAssert))) {
    ++first;
  }
  return operands.subspan(first);
}

absl::Span<ir::Node* const> StatementsOf(const ir::Node& block) {
  // A For's operands start with its two bounds.
  size_t first = block.is(ir::Op::kFor) ? 2 : 0;
  return block.operands().subspan(std::min(first, block.num_operands()));
}

const ir::Node& TemplateOf(const ir::Node& instr) {
  return *OperandsOf(instr, ir::Op::kTemplate).front();
}

const ir::Node* FindParam(const ir::Node& proc, absl::string_view name) {
  return FindNamed(proc, ir::Op::kParam, name);
}

const ir::Node* FindField(const ir::Node& config, absl::string_view name) {
  return FindNamed(config, ir::Op::kField, name);
}

const ir::Node* FindClause(const ir::Node& memory, absl::string_view kind) {
  return FindNamed(memory, ir::Op::kClause, kind);
}

bool IsDataParam(const ir::Node& param) {
  return param.param_kind() >= ir::ParamKind::kIn;
}

bool IsReadParam(const ir::Node& param) {
  return param.param_kind() == ir::ParamKind::kIn ||
         param.param_kind() == ir::ParamKind::kInOut;
}

bool IsWrittenParam(const ir::Node& param) {
  return param.param_kind() == ir::ParamKind::kOut ||
         param.param_kind() == ir::ParamKind::kInOut;
}

const ir::Node& MemoryOf(const ir::Module& module, const ir::Node& decl) {
  return decl.def() != nullptr ? *decl.def() : *module.dram();
}

bool AnyNode(const ir::Node& root,
             absl::FunctionRef<bool(const ir::Node&)> pred) {
  if (pred(root)) return true;
  for (const ir::Node* operand : root.operands()) {
    if (AnyNode(*operand, pred)) return true;
  }
  return false;
}

}  // namespace tessel::emitc
