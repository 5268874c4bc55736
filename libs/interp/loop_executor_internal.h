// The state of a running loop program and the executor's interface, shared
// by its files: loop_executor.cc (statements, scalars, calls),
// loop_vector_executor.cc (the vector level) and cs1_executor.cc (the CS-1
// level). Internal to libs/interp.
#ifndef TESSEL_LIBS_INTERP_LOOP_EXECUTOR_INTERNAL_H_
#define TESSEL_LIBS_INTERP_LOOP_EXECUTOR_INTERNAL_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "libs/interp/loop_executor.h"
#include "libs/interp/loop_program.h"
#include "libs/interp/vector_ops.h"
#include "libs/npy/host_tensor.h"

namespace tessel {
namespace cs1 {
struct PeProgram;
struct Task;
}  // namespace cs1
namespace loop {

// Storage with a written flag per element.
struct Buffer {
  HostTensor tensor;
  std::vector<uint8_t> written;
};

// A strided view of a buffer: what a data name stands for. Data is passed
// by reference: views share their buffer.
struct View {
  Buffer* buffer = nullptr;
  int64_t offset = 0;
  absl::InlinedVector<int64_t, 4> dims;
  absl::InlinedVector<int64_t, 4> strides;
};

struct Frame {
  const CompiledProc* proc = nullptr;
  std::vector<int64_t> controls;
  std::vector<View> views;
  // The buffers this frame allocated, by view slot.
  std::vector<std::unique_ptr<Buffer>> owned;
};

struct ConfigValue {
  bool set = false;
  int64_t control = 0;
  Scalar data;
};

// Makes `buffer` a fresh, unwritten tensor of `shape`, reusing its storage
// when the shape is unchanged (an alloc inside a loop runs every iteration).
absl::Status ResetBuffer(ElemType elem, const std::vector<int64_t>& shape,
                         std::unique_ptr<Buffer>& buffer);
View WholeView(Buffer& buffer);
Frame NewFrame(const CompiledProc& proc);
// A dimension as its declaration writes it: "(+ n 1)", "4".
std::string DimText(const Expr& dim);

class Executor {
 public:
  explicit Executor(const LoopProgram& program)
      : program_(program), config_(program.config_slots.size()) {}

  // Binds the control arguments of the entry into a new frame.
  Frame EntryFrame(const std::vector<EntryArgument>& args) {
    const CompiledProc& entry = *program_.entry;
    Frame frame = NewFrame(entry);
    for (size_t i = 0; i < entry.params.size() && i < args.size(); ++i) {
      if (!entry.params[i].is_data()) {
        frame.controls[entry.params[i].slot] = args[i].control;
      }
    }
    return frame;
  }

  absl::StatusOr<std::vector<int64_t>> ParamShape(const CompiledParam& param,
                                                  Frame& frame) {
    std::vector<int64_t> shape;
    for (const Expr& dim : param.dims) {
      int64_t value = Control(dim, frame);
      if (!failed_ && value <= 0) {
        Fail(dim.where,
             absl::StrCat("dimension ", DimText(dim), " of '", param.name(),
                          "' is ", value, ", not positive"));
      }
      shape.push_back(value);
    }
    if (failed_) return status_;
    return shape;
  }

  absl::StatusOr<std::vector<HostTensor>> Run(std::vector<EntryArgument> args);

  // Runs a pe-program whose procedures this executor's program holds, on
  // every PE of its grid (cs1_executor.cc). `inputs` holds a tensor for
  // each parameter read, by parameter position; returns the parameters
  // written, in order.
  absl::StatusOr<std::vector<HostTensor>> RunPeProgram(
      const cs1::PeProgram& program, const std::vector<HostTensor>& inputs);

 private:
  void Fail(const ir::Node* where, absl::string_view message) {
    if (failed_) return;
    failed_ = true;
    status_ = ErrorAt(where != nullptr ? where->loc() : Location{}, message);
  }

  bool CheckSizes(const CompiledProc& proc, const Frame& frame,
                  const Stmt* call);
  bool CheckAsserts(const CompiledProc& proc, Frame& frame, const Stmt* call);
  // Appends "FILE:LINE:COL: note: NOTE" at `where` to the error.
  void AddNote(const ir::Node& where, absl::string_view note);
  void Exec(const std::vector<Stmt>& block, Frame& frame);
  void ExecStmt(const Stmt& stmt, Frame& frame);
  void Call(const Stmt& stmt, Frame& caller);
  void Alloc(const Stmt& stmt, Frame& frame);
  bool MakeView(const WindowRef& ref, Frame& frame, View& view);
  // The view a dsd describes, checked to lie in its tensor
  // (cs1_executor.cc).
  bool DescriptorView(const WindowRef& ref, Frame& frame, View& view);
  // One PE of a pe-program: its local arrays, its tasks, and what goes back
  // to the parameters written (cs1_executor.cc).
  void RunPe(const cs1::PeProgram& program, int64_t x, int64_t y,
             const std::vector<HostTensor>& inputs,
             std::vector<Buffer>& globals);
  void RunTask(const cs1::PeProgram& program, const cs1::Task& task,
               const std::vector<HostTensor>& inputs, Frame& frame);
  // The buffer offset of `view` at `indices`, which are bounds-checked.
  bool Locate(const View& view, const Expr* indices, size_t count, int32_t slot,
              Frame& frame, int64_t& offset);
  absl::InlinedVector<int64_t, 4> IndexValues(const Expr* indices, size_t count,
                                              Frame& frame);
  int64_t Control(const Expr& e, Frame& frame);
  int64_t ControlArith(const Expr& e, Frame& frame);
  Scalar Data(const Expr& e, Frame& frame);
  Scalar Load(const Expr& e, Frame& frame);
  void CheckScalar(ScalarError error, const Expr& e, const Scalar& operand);

  // The vector level (loop_vector_executor.cc).
  Vec Vector(const Expr& e, Frame& frame);
  // A vector variable, read whole.
  Vec ReadVector(const Expr& e, Frame& frame);
  Vec TransferRead(const Expr& e, Frame& frame);
  // The lanes where a lane comparison (or and/or/not of them) holds.
  std::vector<uint8_t> Mask(const Expr& e, Frame& frame);
  // Scalars computed from vectors: reductions, a lane of extract.
  Scalar VectorScalar(const Expr& e, Frame& frame);
  void AssignVector(const Stmt& stmt, Frame& frame);
  void TransferWrite(const Stmt& stmt, Frame& frame);
  // Where lane `lane` of a transfer of `shape` at `base` (the view's
  // indices) falls in `view`, or false when it is outside.
  static bool LaneOffset(const View& view, const std::vector<int64_t>& base,
                         const std::vector<int64_t>& shape, int64_t lane,
                         int64_t& offset);

  const LoopProgram& program_;
  std::vector<ConfigValue> config_;
  bool failed_ = false;
  absl::Status status_;
};

}  // namespace loop
}  // namespace tessel

#endif  // TESSEL_LIBS_INTERP_LOOP_EXECUTOR_INTERNAL_H_
