#include "libs/interp/loop_compiler.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/interp/diagnostics.h"
#include "libs/interp/loop_plan.h"
#include "libs/interp/loop_proc_compiler.h"

namespace tessel {
namespace loop {
namespace {

ControlType ControlOf(ir::ParamKind kind) {
  switch (kind) {
    case ir::ParamKind::kSize:
      return ControlType::kSize;
    case ir::ParamKind::kBool:
      return ControlType::kBool;
    case ir::ParamKind::kStride:
      return ControlType::kStride;
    default:
      return ControlType::kIndex;
  }
}

}  // namespace

ModuleCompiler::ModuleCompiler(const ir::Module& module, LoopProgram& program)
    : program_(program) {
  for (const ir::Node* form : module.forms()) {
    if (!form->is(ir::Op::kConfig)) continue;
    for (const ir::Node* field : form->operands()) {
      const ir::Type& type = field->declared_type();
      ConfigSlot slot;
      slot.config = form->name();
      slot.field = field->name();
      slot.is_data = type.is_elem();
      if (slot.is_data) {
        slot.elem = type.elem();
      } else {
        slot.control = type.control();
      }
      config_index_[{form, field->name()}] =
          static_cast<int32_t>(program.config_slots.size());
      program.config_slots.push_back(std::move(slot));
    }
  }
}

int32_t ModuleCompiler::FindConfigSlot(const ir::Node* config,
                                       const std::string& field) const {
  auto it = config_index_.find(std::make_pair(config, field));
  return it == config_index_.end() ? -1 : it->second;
}

absl::StatusOr<const CompiledProc*> ModuleCompiler::Get(const ir::Node& proc,
                                                        const ir::Node& at) {
  if (auto it = done_.find(&proc); it != done_.end()) return it->second;
  if (in_progress_.contains(&proc)) {
    return ErrorAt(at.loc(), absl::StrCat("recursive call to ", proc.name(),
                                          " (recursion is not allowed)"));
  }
  in_progress_.insert(&proc);
  auto compiled = std::make_unique<CompiledProc>();
  compiled->proc = &proc;
  ProcCompiler compiler(*this, *compiled);
  if (auto status = compiler.Compile(); !status.ok()) return status;
  in_progress_.erase(&proc);
  const CompiledProc* result = compiled.get();
  program_.procs.push_back(std::move(compiled));
  done_[&proc] = result;
  return result;
}

int32_t ProcCompiler::DeclareControl(const ir::Node& binder) {
  Binding binding;
  binding.slot = static_cast<int32_t>(out_.control_names.size());
  out_.control_names.push_back(binder.name());
  bindings_[&binder] = binding;
  return binding.slot;
}

int32_t ProcCompiler::DeclareData(const ir::Node& binder, int rank) {
  Binding binding;
  binding.is_data = true;
  binding.slot = static_cast<int32_t>(out_.view_names.size());
  binding.rank = rank;
  out_.view_names.push_back(binder.name());
  bindings_[&binder] = binding;
  return binding.slot;
}

absl::Status ProcCompiler::Block(absl::Span<ir::Node* const> stmts,
                                 std::vector<Stmt>& out) {
  for (const ir::Node* s : stmts) {
    // A hint to the caches: it computes nothing.
    if (s->is(ir::Op::kPrefetch)) continue;
    auto stmt = Statement(*s);
    if (!stmt.ok()) return stmt.status();
    out.push_back(*std::move(stmt));
  }
  return absl::OkStatus();
}

absl::StatusOr<Stmt> ProcCompiler::Statement(const ir::Node& s) {
  switch (s.op()) {
    case ir::Op::kFor:
      return For(s);
    case ir::Op::kIf:
      return If(s);
    case ir::Op::kAlloc:
      return Alloc(s);
    case ir::Op::kAssign:
    case ir::Op::kReduce:
      return Update(s);
    case ir::Op::kLet:
      return Let(s);
    case ir::Op::kCall:
      return Call(s);
    case ir::Op::kWriteConfig:
      return WriteConfig(s);
    case ir::Op::kTransferWrite:
      return TransferWrite(s);
    default:
      return NotVerified(
          s, absl::StrCat("'", NodeText(s), "' is not a statement here"));
  }
}

absl::StatusOr<Stmt> ProcCompiler::For(const ir::Node& s) {
  Stmt stmt;
  stmt.op = StmtOp::kFor;
  stmt.where = &s;
  for (size_t i : {0, 1}) {
    auto bound = Control(*s.operand(i));
    if (!bound.ok()) return bound.status();
    stmt.exprs.push_back(*std::move(bound));
  }
  stmt.slot = DeclareControl(s);
  if (auto status = Block(s.operands().subspan(2), stmt.body); !status.ok()) {
    return status;
  }
  return stmt;
}

absl::StatusOr<Stmt> ProcCompiler::If(const ir::Node& s) {
  Stmt stmt;
  stmt.op = StmtOp::kIf;
  stmt.where = &s;
  auto cond = Control(*s.operand(0));
  if (!cond.ok()) return cond.status();
  stmt.exprs.push_back(*std::move(cond));
  if (auto status = Block(s.operand(1)->operands(), stmt.body); !status.ok()) {
    return status;
  }
  if (s.num_operands() > 2) {
    if (auto status = Block(s.operand(2)->operands(), stmt.orelse);
        !status.ok()) {
      return status;
    }
  }
  return stmt;
}

absl::StatusOr<Stmt> ProcCompiler::Alloc(const ir::Node& s) {
  const ir::Type& type = s.declared_type();
  // A vector variable is stored as a tensor of its shape.
  if (!type.is_elem() && type.kind() != ir::TypeKind::kTensor &&
      !type.is_vector()) {
    return NotVerified(s, "an alloc that is not a tensor, vector or scalar");
  }
  Stmt stmt;
  stmt.op = StmtOp::kAlloc;
  stmt.where = &s;
  stmt.elem = type.elem();
  auto dims = Dims(type, s);
  if (!dims.ok()) return dims.status();
  stmt.exprs = *std::move(dims);
  stmt.slot = DeclareData(s, type.rank());
  return stmt;
}

absl::StatusOr<Stmt> ProcCompiler::Update(const ir::Node& s) {
  const ir::Node& lhs = *s.operand(0);
  if (lhs.type().is_vector()) return AssignVector(s);
  auto target = Element(lhs);
  if (!target.ok()) return target.status();
  auto value = Data(*s.operand(1));
  if (!value.ok()) return value.status();
  // The executor stores the value with the target's width.
  if (value->type != target->type) {
    return NotVerified(
        s, absl::StrCat("a value of type ", ElemTypeName(value->type),
                        " written to ", ElemTypeName(target->type)));
  }
  Stmt stmt;
  stmt.op = s.is(ir::Op::kAssign) ? StmtOp::kAssign : StmtOp::kReduce;
  stmt.where = &s;
  stmt.slot = target->slot;
  stmt.elem = target->type;
  stmt.exprs = std::move(target->args);
  stmt.exprs.push_back(*std::move(value));
  return stmt;
}

absl::StatusOr<Stmt> ProcCompiler::Let(const ir::Node& s) {
  Stmt stmt;
  stmt.op = StmtOp::kLet;
  stmt.where = &s;
  int rank = 0;
  auto window = Window(*s.operand(0), rank);
  if (!window.ok()) return window.status();
  stmt.window = *std::move(window);
  stmt.slot = DeclareData(s, rank);
  return stmt;
}

absl::StatusOr<Stmt> ProcCompiler::Call(const ir::Node& s) {
  const ir::Node* callee = s.def();
  if (callee == nullptr ||
      !(callee->is(ir::Op::kProc) || callee->is(ir::Op::kInstr))) {
    return NotVerified(s, "a call of something other than a proc or instr");
  }
  std::vector<const ir::Node*> params;
  for (const ir::Node* operand : callee->operands()) {
    if (operand->is(ir::Op::kParam)) params.push_back(operand);
  }
  if (params.size() != s.num_operands()) {
    return NotVerified(
        s, absl::StrCat(callee->name(), " takes ", params.size(),
                        " arguments, ", s.num_operands(), " are given"));
  }
  Stmt stmt;
  stmt.op = StmtOp::kCall;
  stmt.where = &s;
  for (size_t i = 0; i < params.size(); ++i) {
    const ir::Node& param = *params[i];
    const ir::Node& arg = *s.operand(i);
    CallArg compiled;
    compiled.is_data = param.param_kind() >= ir::ParamKind::kIn;
    if (!compiled.is_data) {
      auto control = Control(arg);
      if (!control.ok()) return control.status();
      compiled.control = *std::move(control);
    } else {
      int rank = 0;
      auto window = Window(arg, rank);
      if (!window.ok()) return window.status();
      if (rank != param.declared_type().rank()) {
        return NotVerified(arg, absl::StrCat("an argument of rank ", rank,
                                             " for '", param.name(), "'"));
      }
      compiled.window = *std::move(window);
    }
    stmt.args.push_back(std::move(compiled));
  }
  auto compiled = module_.Get(*callee, s);
  if (!compiled.ok()) return compiled.status();
  stmt.callee = *compiled;
  return stmt;
}

absl::StatusOr<Stmt> ProcCompiler::WriteConfig(const ir::Node& s) {
  Stmt stmt;
  stmt.op = StmtOp::kWriteConfig;
  stmt.where = &s;
  auto slot = ConfigField(s);
  if (!slot.ok()) return slot.status();
  stmt.slot = *slot;
  const ConfigSlot& field = module_.config_slot(*slot);
  auto value = field.is_data ? Data(*s.operand(0)) : Control(*s.operand(0));
  if (!value.ok()) return value.status();
  if (field.is_data && value->type != field.elem) {
    return NotVerified(s, "a configuration field written with another type");
  }
  stmt.exprs.push_back(*std::move(value));
  return stmt;
}

absl::Status ProcCompiler::Param(const ir::Node& param) {
  CompiledParam compiled;
  compiled.decl = &param;
  compiled.kind = param.param_kind();
  if (!compiled.is_data()) {
    compiled.control = ControlOf(compiled.kind);
    compiled.slot = DeclareControl(param);
    out_.params.push_back(std::move(compiled));
    return absl::OkStatus();
  }
  const ir::Type& type = param.declared_type();
  compiled.elem = type.elem();
  compiled.is_window = type.kind() == ir::TypeKind::kWindow;
  auto dims = Dims(type, param);
  if (!dims.ok()) return dims.status();
  compiled.dims = *std::move(dims);
  compiled.slot = DeclareData(param, type.rank());
  out_.params.push_back(std::move(compiled));
  return absl::OkStatus();
}

absl::Status ProcCompiler::Compile() {
  // [Param..., (Template, Include...,) Clobbers..., Assert..., statements...]
  absl::Span<ir::Node* const> operands = out_.proc->operands();
  size_t next = 0;
  for (; next < operands.size(); ++next) {
    const ir::Node& operand = *operands[next];
    if (operand.is(ir::Op::kTemplate) || operand.is(ir::Op::kClause) ||
        operand.is(ir::Op::kClobbers)) {
      continue;
    }
    if (operand.is(ir::Op::kParam)) {
      if (auto status = Param(operand); !status.ok()) return status;
    } else if (operand.is(ir::Op::kAssert)) {
      auto cond = Control(*operand.operand(0));
      if (!cond.ok()) return cond.status();
      out_.asserts.push_back(*std::move(cond));
      out_.assert_stmts.push_back(&operand);
    } else {
      break;
    }
  }
  return Block(operands.subspan(next), out_.body);
}

absl::StatusOr<std::unique_ptr<LoopProgram>> CompileLoopProgram(
    const ir::Module& module, const ir::Node& entry) {
  auto program = std::make_unique<LoopProgram>();
  ModuleCompiler compiler(module, *program);
  auto compiled = compiler.Get(entry, entry);
  if (!compiled.ok()) return compiled.status();
  program->entry = *compiled;
  PlanLoopProgram(*program);
  return program;
}

}  // namespace loop
}  // namespace tessel
