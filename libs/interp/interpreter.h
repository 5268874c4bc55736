// The reference interpreter: runs the entry of a TIR module (a loop-level
// `proc`, a tensor-level `func` or a CS-1 `pe-program` on every PE of its
// grid) on host tensors, exactly and strictly, as
// the oracle every transformation is checked against. Reading data before
// it is written, indexing out of bounds, integer division by zero, an
// out-of-range cast or a violated assertion are errors naming the offending
// node, never undefined behaviour.
//
//   auto module = ir::ReadModuleFile(path);     // read, elaborated, verified
//   auto entry = ir::FindEntry(*module, "");
//   auto program = Program::Compile(*module, **entry);
//   auto outputs = program->Run({{"n", 16}}, {{"A", a}, {"x", x}});
//
// The module must have been verified (ir::VerifyModule, which every tool runs
// through ir::ReadModule): names are resolved and every node typed there, and
// the interpreter takes both from the IR instead of working them out again.
// Each procedure is compiled once into a tree of nodes with enum opcodes and
// frame slots (loop_program.h; a func is first compiled to tensor_program.h
// and lowered to that form by tensor_lowering.h), planned (loop_plan.h) and
// then executed, computing each expression for many lanes at once
// (loop_executor_internal.h); the module must outlive the Program.
#ifndef TESSEL_LIBS_INTERP_INTERPRETER_H_
#define TESSEL_LIBS_INTERP_INTERPRETER_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/ir/node.h"
#include "libs/ir/type.h"
#include "libs/npy/host_tensor.h"

namespace tessel {

namespace loop {
struct LoopProgram;
}
namespace cs1 {
struct PeProgram;
}
namespace tensor {
struct CompiledFunction;
}

using ControlValues = std::map<std::string, int64_t, std::less<>>;
using TensorMap = std::map<std::string, HostTensor, std::less<>>;

// A control parameter of a `proc` entry: a size, index, bool or stride.
struct ControlPort {
  std::string name;
  ControlType type = ControlType::kSize;
  const ir::Node* decl = nullptr;  // the Param
};

// A data value the entry reads (an `in` or `inout` parameter, a `func`
// parameter) or writes (an `out` or `inout` parameter, a `func` result).
struct DataPort {
  std::string name;
  ElemType elem = ElemType::kF32;
  // Per dimension, the size parameter it is when it is written as exactly
  // that name, else "" (used to infer sizes from the shapes of inputs).
  std::vector<std::string> size_names;
  // The declared type.
  ir::Type type;
  const ir::Node* decl = nullptr;  // the Param, or the func's Value
  size_t param_index = 0;  // for procedures: the position in the parameters

  int rank() const { return static_cast<int>(size_names.size()); }
};

class Program {
 public:
  // Compiles `entry` of `module` and everything it calls.
  // `entry` is a proc, func or pe-program of `module` (ir::FindEntry).
  static absl::StatusOr<Program> Compile(const ir::Module& module,
                                         const ir::Node& entry);

  const std::string& name() const { return name_; }
  // Empty for a `func` or a `pe-program`, which are fully specialised.
  const std::vector<ControlPort>& controls() const { return controls_; }
  const std::vector<DataPort>& inputs() const { return inputs_; }
  const std::vector<DataPort>& outputs() const { return outputs_; }
  const ControlPort* FindControl(absl::string_view name) const;

  // The shape of an input or output for the given control values (those
  // its dimensions use must be present).
  absl::StatusOr<std::vector<int64_t>> Shape(
      const DataPort& port, const ControlValues& controls) const;

  // Runs the entry. `controls` holds a value for every control parameter
  // and `inputs` a tensor of the exact type and shape for every input
  // (further entries are ignored). Returns every output by name. Without
  // `batching`, every loop runs iteration by iteration, the order the spec
  // gives; batches of iterations compute the same bits (docs/run-sim.md,
  // "How it runs"), which this lets tests and users check.
  absl::StatusOr<TensorMap> Run(const ControlValues& controls,
                                const TensorMap& inputs,
                                bool batching = true) const;

 private:
  Program() = default;

  std::string name_;
  std::vector<ControlPort> controls_;
  std::vector<DataPort> inputs_;
  std::vector<DataPort> outputs_;
  std::shared_ptr<const loop::LoopProgram> procedure_;
  std::shared_ptr<const tensor::CompiledFunction> function_;
  std::shared_ptr<const cs1::PeProgram> pe_program_;
};

}  // namespace tessel

#endif  // TESSEL_LIBS_INTERP_INTERPRETER_H_
