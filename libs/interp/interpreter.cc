#include "libs/interp/interpreter.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "libs/interp/loop_compiler.h"
#include "libs/interp/loop_executor.h"
#include "libs/interp/loop_program.h"
#include "libs/interp/tensor_compiler.h"
#include "libs/interp/tensor_evaluator.h"
#include "libs/interp/tensor_program.h"

namespace tessel {
namespace {

DataPort ProcedurePort(const Procedure& proc, size_t index) {
  const Param& param = proc.params[index];
  DataPort port;
  port.name = param.name;
  port.elem = param.type.elem;
  port.type = &param.type;
  port.decl = param.decl;
  port.param_index = index;
  for (const Sexpr& dim : param.type.dims) {
    const Param* size = dim.is_symbol() ? proc.FindParam(dim.text()) : nullptr;
    port.size_names.push_back(
        size != nullptr && size->kind == ParamKind::kSize ? size->name : "");
  }
  return port;
}

DataPort FunctionPort(const NamedType& named, size_t index) {
  DataPort port;
  port.name = named.name;
  port.elem = named.type.elem;
  port.type = &named.type;
  port.decl = named.decl;
  port.param_index = index;
  port.size_names.assign(named.type.dims.size(), "");
  return port;
}

}  // namespace

absl::StatusOr<Program> Program::Compile(const Module& module,
                                         const Entry& entry) {
  Program program;
  program.name_ = entry.name();
  if (entry.function != nullptr) {
    const Function& function = *entry.function;
    auto compiled = tensor::CompileFunction(function);
    if (!compiled.ok()) return compiled.status();
    program.function_ =
        std::make_shared<const tensor::CompiledFunction>(*std::move(compiled));
    for (size_t i = 0; i < function.params.size(); ++i) {
      program.inputs_.push_back(FunctionPort(function.params[i], i));
    }
    for (size_t i = 0; i < function.results.size(); ++i) {
      program.outputs_.push_back(FunctionPort(function.results[i], i));
    }
    return program;
  }
  const Procedure& proc = *entry.procedure;
  auto compiled = loop::CompileLoopProgram(module, proc);
  if (!compiled.ok()) return compiled.status();
  program.procedure_ = std::move(*compiled);
  for (size_t i = 0; i < proc.params.size(); ++i) {
    const Param& param = proc.params[i];
    if (!param.is_data()) {
      program.controls_.push_back(
          ControlPort{param.name, param.control, param.decl});
      continue;
    }
    if (param.is_read()) program.inputs_.push_back(ProcedurePort(proc, i));
    if (param.is_written()) program.outputs_.push_back(ProcedurePort(proc, i));
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
    const Procedure& proc, const ControlValues& controls) {
  std::vector<loop::EntryArgument> args(proc.params.size());
  for (size_t i = 0; i < proc.params.size(); ++i) {
    const Param& param = proc.params[i];
    if (param.is_data()) continue;
    auto it = controls.find(param.name);
    if (it == controls.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat(ControlTypeName(param.control), " parameter '",
                       param.name, "' of ", proc.name, " has no value"));
    }
    args[i].control = it->second;
  }
  return args;
}

}  // namespace

absl::StatusOr<std::vector<int64_t>> Program::Shape(
    const DataPort& port, const ControlValues& controls) const {
  if (function_ != nullptr) {
    // Compilation checked that a func's dimensions are literals.
    return *ConstantDims(*port.type);
  }
  auto args = ControlArguments(*procedure_->entry->proc, controls);
  if (!args.ok()) return args.status();
  return loop::EntryParamShape(*procedure_, port.param_index, *args);
}

absl::StatusOr<TensorMap> Program::Run(const ControlValues& controls,
                                       const TensorMap& inputs) const {
  std::vector<HostTensor> results;
  if (function_ != nullptr) {
    std::vector<HostTensor> args;
    for (const DataPort& port : inputs_) {
      auto it = inputs.find(port.name);
      if (it == inputs.end()) {
        return absl::InvalidArgumentError(
            absl::StrCat("no value for the input '", port.name, "'"));
      }
      args.push_back(it->second);
    }
    auto outputs = tensor::EvaluateFunction(*function_, args);
    if (!outputs.ok()) return outputs.status();
    results = *std::move(outputs);
  } else {
    auto args = ControlArguments(*procedure_->entry->proc, controls);
    if (!args.ok()) return args.status();
    for (const DataPort& port : inputs_) {
      auto it = inputs.find(port.name);
      if (it == inputs.end()) {
        return absl::InvalidArgumentError(
            absl::StrCat("no value for the input '", port.name, "'"));
      }
      (*args)[port.param_index].tensor = it->second;
    }
    auto outputs = loop::RunEntry(*procedure_, *std::move(args));
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
