#include "libs/interp/interpreter.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "libs/interp/cs1_program.h"
#include "libs/interp/loop_compiler.h"
#include "libs/interp/loop_executor.h"
#include "libs/interp/loop_program.h"
#include "libs/interp/tensor_compiler.h"
#include "libs/interp/tensor_lowering.h"
#include "libs/interp/tensor_program.h"

namespace tessel {
namespace {

DataPort ProcedurePort(const loop::CompiledParam& param, size_t index) {
  DataPort port;
  port.name = param.name();
  port.elem = param.elem;
  port.type = param.decl->declared_type();
  port.decl = param.decl;
  port.param_index = index;
  for (const ir::Dim& dim : port.type.dims()) {
    const ir::Node* size = !dim.is_constant() && dim.expr->is(ir::Op::kRef)
                               ? dim.expr->def()
                               : nullptr;
    port.size_names.push_back(size != nullptr && size->is(ir::Op::kParam) &&
                                      size->param_kind() == ir::ParamKind::kSize
                                  ? size->name()
                                  : "");
  }
  return port;
}

// A port whose dimensions are literals: of a func (its Value) or of a
// pe-program (its Param).
DataPort FunctionPort(const ir::Node& value, size_t index) {
  DataPort port;
  port.name = value.name();
  port.type = value.declared_type();
  port.elem = port.type.elem();
  port.decl = &value;
  port.param_index = index;
  port.size_names.assign(port.type.rank(), "");
  return port;
}

}  // namespace

absl::StatusOr<Program> Program::Compile(const ir::Module& module,
                                         const ir::Node& entry) {
  Program program;
  program.name_ = entry.name();
  if (entry.is(ir::Op::kFunc)) {
    auto compiled = tensor::CompileFunction(entry);
    if (!compiled.ok()) return compiled.status();
    program.function_ =
        std::make_shared<const tensor::CompiledFunction>(*std::move(compiled));
    auto lowered = tensor::LowerFunction(*program.function_);
    if (!lowered.ok()) return lowered.status();
    program.procedure_ = *std::move(lowered);
    for (const ir::Node* value : program.function_->params) {
      program.inputs_.push_back(FunctionPort(*value, program.inputs_.size()));
    }
    for (const ir::Node* value : program.function_->results) {
      program.outputs_.push_back(FunctionPort(*value, program.outputs_.size()));
    }
    return program;
  }
  if (entry.is(ir::Op::kPeProgram)) {
    auto compiled = cs1::CompilePeProgram(module, entry);
    if (!compiled.ok()) return compiled.status();
    program.pe_program_ = *std::move(compiled);
    const std::vector<cs1::Param>& params = program.pe_program_->params;
    for (size_t i = 0; i < params.size(); ++i) {
      if (params[i].read) {
        program.inputs_.push_back(FunctionPort(*params[i].decl, i));
      }
      if (params[i].written) {
        program.outputs_.push_back(FunctionPort(*params[i].decl, i));
      }
    }
    return program;
  }
  if (!entry.is(ir::Op::kProc)) {
    return ErrorAt(entry.loc(),
                   absl::StrCat("'", entry.name(), "' is not a proc or func"));
  }
  auto compiled = loop::CompileLoopProgram(module, entry);
  if (!compiled.ok()) return compiled.status();
  program.procedure_ = std::move(*compiled);
  const std::vector<loop::CompiledParam>& params =
      program.procedure_->entry->params;
  for (size_t i = 0; i < params.size(); ++i) {
    const loop::CompiledParam& param = params[i];
    if (!param.is_data()) {
      program.controls_.push_back(
          ControlPort{param.name(), param.control, param.decl});
      continue;
    }
    if (param.is_read()) program.inputs_.push_back(ProcedurePort(param, i));
    if (param.is_written()) program.outputs_.push_back(ProcedurePort(param, i));
  }
  return program;
}

const ControlPort* Program::FindControl(absl::string_view name) const {
  for (const ControlPort& port : controls_) {
    if (port.name == name) return &port;
  }
  return nullptr;
}

namespace {

// The entry's arguments: control values by parameter position.
absl::StatusOr<std::vector<loop::EntryArgument>> ControlArguments(
    const loop::CompiledProc& proc, const ControlValues& controls) {
  std::vector<loop::EntryArgument> args(proc.params.size());
  for (size_t i = 0; i < proc.params.size(); ++i) {
    const loop::CompiledParam& param = proc.params[i];
    if (param.is_data()) continue;
    auto it = controls.find(param.name());
    if (it == controls.end()) {
      return absl::InvalidArgumentError(absl::StrCat(
          ControlTypeName(param.control), " parameter '", param.name(), "' of ",
          proc.proc->name(), " has no value"));
    }
    args[i].control = it->second;
  }
  return args;
}

}  // namespace

absl::StatusOr<std::vector<int64_t>> Program::Shape(
    const DataPort& port, const ControlValues& controls) const {
  if (function_ != nullptr || pe_program_ != nullptr) {
    // Their dimensions are literals: they are fully specialised.
    return *port.type.ConstantDims();
  }
  auto args = ControlArguments(*procedure_->entry, controls);
  if (!args.ok()) return args.status();
  return loop::EntryParamShape(*procedure_, port.param_index, *args);
}

absl::StatusOr<TensorMap> Program::Run(const ControlValues& controls,
                                       const TensorMap& inputs,
                                       bool batching) const {
  std::vector<HostTensor> results;
  if (function_ != nullptr) {
    // The lowered entry takes the parameters, then the results.
    std::vector<loop::EntryArgument> args(inputs_.size() + outputs_.size());
    for (const DataPort& port : inputs_) {
      auto it = inputs.find(port.name);
      if (it == inputs.end()) {
        return absl::InvalidArgumentError(
            absl::StrCat("no value for the input '", port.name, "'"));
      }
      const HostTensor& arg = it->second;
      auto shape = port.type.ConstantDims();
      if (arg.elem != port.elem || arg.shape != *shape) {
        return ErrorAt(
            port.decl->loc(),
            absl::StrCat("argument '", port.name, "' is ",
                         ElemTypeName(arg.elem), " ", NumpyShapeText(arg.shape),
                         " but the parameter is ",
                         tensor::TypeText(function_->param_types[port.param_index])));
      }
      args[port.param_index].tensor = &arg;
    }
    auto outputs = loop::RunEntry(*procedure_, args, batching);
    if (!outputs.ok()) return outputs.status();
    results = *std::move(outputs);
  } else if (pe_program_ != nullptr) {
    // By parameter position.
    std::vector<HostTensor> args(pe_program_->params.size());
    for (const DataPort& port : inputs_) {
      auto it = inputs.find(port.name);
      if (it == inputs.end()) {
        return absl::InvalidArgumentError(
            absl::StrCat("no value for the input '", port.name, "'"));
      }
      args[port.param_index] = it->second;
    }
    auto outputs = cs1::RunPeProgram(*pe_program_, args, batching);
    if (!outputs.ok()) return outputs.status();
    results = *std::move(outputs);
  } else {
    auto args = ControlArguments(*procedure_->entry, controls);
    if (!args.ok()) return args.status();
    for (const DataPort& port : inputs_) {
      auto it = inputs.find(port.name);
      if (it == inputs.end()) {
        return absl::InvalidArgumentError(
            absl::StrCat("no value for the input '", port.name, "'"));
      }
      (*args)[port.param_index].tensor = &it->second;
    }
    auto outputs = loop::RunEntry(*procedure_, *args, batching);
    if (!outputs.ok()) return outputs.status();
    results = *std::move(outputs);
  }
  TensorMap by_name;
  for (size_t i = 0; i < outputs_.size(); ++i) {
    by_name[outputs_[i].name] = std::move(results[i]);
  }
  return by_name;
}

}  // namespace tessel
