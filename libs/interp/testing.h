// Helpers of the interpreter's unit tests: a module read from text and its
// entry compiled, tensors from values, and failures by message.
#ifndef TESSEL_LIBS_INTERP_TESTING_H_
#define TESSEL_LIBS_INTERP_TESTING_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "gtest/gtest.h"
#include "libs/interp/interpreter.h"
#include "libs/verify/read.h"

namespace tessel {
namespace testing_util {

// Reads `text` as m.tir (reading elaborates and verifies it), runs its
// entry and returns the outputs.
class Runner {
 public:
  explicit Runner(const std::string& text, const std::string& entry = "") {
    auto module = ir::ReadModule(MakeSource("m.tir", text));
    if (!module.ok()) {
      status_ = module.status();
      return;
    }
    module_ = std::make_unique<ir::Module>(*std::move(module));
    auto found = ir::FindEntry(*module_, entry);
    if (!found.ok()) {
      status_ = found.status();
      return;
    }
    entry_ = *found;
    Compile(*entry_);
  }

  // Edits the verified module, as a transformation would, and compiles the
  // entry again: what verification rules out, the interpreter still checks
  // when it runs.
  void Edit(absl::FunctionRef<void(ir::Module&, ir::Node& entry)> edit) {
    ASSERT_NE(entry_, nullptr) << status_;
    edit(*module_, *entry_);
    Compile(*entry_);
  }

  // Compiles `entry` again, after a test has edited the module.
  void Compile(const ir::Node& entry) {
    auto program = Program::Compile(*module_, entry);
    if (!program.ok()) {
      status_ = program.status();
      return;
    }
    program_ = std::make_unique<Program>(*std::move(program));
    status_ = absl::OkStatus();
  }

  const absl::Status& compile_status() const { return status_; }
  ir::Module& module() { return *module_; }
  const Program& program() const { return *program_; }

  absl::StatusOr<TensorMap> Run(const ControlValues& controls,
                                const TensorMap& inputs) const {
    if (!status_.ok()) return status_;
    return program_->Run(controls, inputs);
  }

 private:
  absl::Status status_;
  std::unique_ptr<ir::Module> module_;
  ir::Node* entry_ = nullptr;
  std::unique_ptr<Program> program_;
};

inline HostTensor F32(std::vector<int64_t> shape, std::vector<float> values) {
  HostTensor tensor = *MakeHostTensor(ElemType::kF32, std::move(shape));
  for (size_t i = 0; i < values.size(); ++i) tensor.Set<float>(i, values[i]);
  return tensor;
}

inline HostTensor I32(std::vector<int64_t> shape, std::vector<int32_t> values) {
  HostTensor tensor = *MakeHostTensor(ElemType::kI32, std::move(shape));
  for (size_t i = 0; i < values.size(); ++i) tensor.Set<int32_t>(i, values[i]);
  return tensor;
}

inline HostTensor I8(std::vector<int64_t> shape, std::vector<int8_t> values) {
  HostTensor tensor = *MakeHostTensor(ElemType::kI8, std::move(shape));
  for (size_t i = 0; i < values.size(); ++i) tensor.Set<int8_t>(i, values[i]);
  return tensor;
}

inline std::vector<float> Floats(const HostTensor& tensor) {
  std::vector<float> values;
  for (int64_t i = 0; i < tensor.num_elements(); ++i) {
    values.push_back(tensor.Get<float>(i));
  }
  return values;
}

inline testing::AssertionResult FailsWith(const absl::StatusOr<TensorMap>& result,
                                   const std::string& fragment) {
  if (result.ok()) return testing::AssertionFailure() << "succeeded";
  if (std::string(result.status().message()).find(fragment) ==
      std::string::npos) {
    return testing::AssertionFailure() << result.status().message();
  }
  return testing::AssertionSuccess();
}

// The first operand of `proc` that is an assert.
inline ir::Node* FirstAssert(ir::Node& proc) {
  for (ir::Node* operand : proc.operands()) {
    if (operand->is(ir::Op::kAssert)) return operand;
  }
  return nullptr;
}

// Removes the assertions of a verified `proc`, which the verifier relied on
// to prove its accesses and calls safe.
inline void DropAssertions(ir::Module& module, ir::Node& proc) {
  while (ir::Node* assertion = FirstAssert(proc)) module.Detach(assertion);
}

}  // namespace testing_util
}  // namespace tessel

#endif  // TESSEL_LIBS_INTERP_TESTING_H_
