// The state of a running loop program and the executor's interface, shared
// by its files: loop_executor.cc (statements, regions, calls),
// loop_expr_executor.cc (expressions), loop_vector_executor.cc (the vector
// level) and cs1_executor.cc (the CS-1 level). Internal to libs/interp.
//
// The executor computes every expression for a set of lanes at once
// (column_ops.h): the iterations of a batch of a region (loop_plan.h), the
// lanes of a vector, or one. A run batches regions; when it fails, the
// program runs again with every loop iteration by iteration, the order the
// spec defines, so that the error reported is the first one met in that
// order, whatever a batch met first.
#ifndef TESSEL_LIBS_INTERP_LOOP_EXECUTOR_INTERNAL_H_
#define TESSEL_LIBS_INTERP_LOOP_EXECUTOR_INTERNAL_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "libs/interp/column_ops.h"
#include "libs/interp/loop_executor.h"
#include "libs/interp/loop_program.h"
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
  // The elements not written yet: reads check the flags only while some
  // are.
  int64_t unwritten = 0;

  void MarkWritten(int64_t offset) {
    if (written[offset]) return;
    written[offset] = 1;
    --unwritten;
  }
  void MarkWritten(int64_t offset, int64_t count);
  // Every element written (true) or none.
  void SetWritten(bool all);
};

// A strided view of a buffer: what a data name stands for. Data is passed
// by reference: views share their buffer.
struct View {
  Buffer* buffer = nullptr;
  int64_t offset = 0;
  absl::InlinedVector<int64_t, 4> dims;
  absl::InlinedVector<int64_t, 4> strides;
};

// A procedure's frame, one per procedure for the whole run (there is no
// recursion), so that a call allocates nothing.
struct Frame {
  const CompiledProc* proc = nullptr;
  std::vector<int64_t> controls;
  std::vector<View> views;
  // The buffers this frame allocated, by view slot.
  std::vector<std::unique_ptr<Buffer>> owned;
  // The columns of the procedure's expressions (loop_plan.h).
  std::vector<uint64_t> arena;
  // Per region, the bounds of its loops (lows, then highs) when its
  // variables' columns hold all its iterations, from its last run (a nest
  // of one batch, run again with the same bounds, needs no new columns);
  // else empty.
  std::vector<absl::InlinedVector<int64_t, 8>> region_bounds;

  template <typename T = uint64_t>
  T* Column(const Expr& e) {
    return reinterpret_cast<T*>(arena.data() + e.column);
  }
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
// A frame for `proc`, its literals' columns filled.
std::unique_ptr<Frame> NewFrame(const CompiledProc& proc);
// A dimension as its declaration writes it: "(+ n 1)", "4".
std::string DimText(const Expr& dim);
// "NAME[I, J]" (NAME alone without indices).
std::string ElementText(absl::string_view name,
                        absl::Span<const int64_t> indices);

class Executor {
 public:
  // Without `batching`, every loop runs iteration by iteration.
  Executor(const LoopProgram& program, bool batching);

  absl::StatusOr<std::vector<int64_t>> ParamShape(const CompiledParam& param,
                                                  Frame& frame);
  // The same without allocating; false (and the error) when one is not
  // positive.
  bool ParamDims(const CompiledParam& param, Frame& frame,
                 absl::InlinedVector<int64_t, 4>& shape);

  absl::StatusOr<std::vector<HostTensor>> Run(
      const std::vector<EntryArgument>& args);

  // Runs a pe-program whose procedures this executor's program holds, on
  // every PE of its grid (cs1_executor.cc). `inputs` holds a tensor for
  // each parameter read, by parameter position; returns the parameters
  // written, in order.
  absl::StatusOr<std::vector<HostTensor>> RunPeProgram(
      const cs1::PeProgram& program, const std::vector<HostTensor>& inputs);

  // The frame of `proc`, made on first use.
  Frame& FrameOf(const CompiledProc& proc);

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

  // Statements (loop_executor.cc), one iteration at a time...
  void Exec(const std::vector<Stmt>& block, Frame& frame);
  void ExecStmt(const Stmt& stmt, Frame& frame);
  void For(const Stmt& stmt, Frame& frame);
  void Call(const Stmt& stmt, Frame& caller);
  // A call's arguments in the callee's frame, with every check a call
  // makes before its body runs; false (and the error) when one fails.
  bool EnterCall(const Stmt& stmt, Frame& caller);
  // Whether `view`, the argument `arg` of `call`, has the shape the
  // callee's `param` declares (and is dense unless it is a window); the
  // error otherwise.
  bool ShapeMatches(const CompiledParam& param, Frame& frame,
                    const View& view, const Stmt& call, const WindowRef& arg);
  void Alloc(const Stmt& stmt, Frame& frame);
  void AccessPattern(const Stmt& stmt, Frame& frame);
  bool MakeView(const WindowRef& ref, Frame& frame, View& view);
  // ... and a batch of iterations at a time.
  void RunRegion(const Stmt& loop, Frame& frame);
  bool ViewsShareElements(const Region& region, const Frame& frame) const;
  void BatchBlock(const std::vector<Stmt>& block, Frame& frame, LaneSet lanes);
  void Update(const Stmt& stmt, Frame& frame, LaneSet lanes);
  void Accumulate(const Stmt& stmt, Frame& frame, LaneSet lanes);
  // The lanes of `lanes` where `cond` is nonzero (or zero), in a selection
  // buffer of this executor's that lives until the matching Release.
  LaneSet Choose(const int64_t* cond, bool holds, LaneSet lanes);
  void Release(LaneSet chosen);

  // The view a dsd describes, checked to lie in its tensor
  // (cs1_executor.cc).
  bool DescriptorView(const WindowRef& ref, Frame& frame, View& view);
  // Whether the windows of `ref` from every offset in [least, greatest]
  // lie in its tensor; else the error, at the offset that leaves it.
  bool DescriptorInside(const WindowRef& ref, const Frame& frame,
                        int64_t least, int64_t greatest);
  // One PE of a pe-program: its local arrays, its tasks, and what goes back
  // to the parameters written (cs1_executor.cc).
  void RunPe(const cs1::PeProgram& program, int64_t x, int64_t y,
             const std::vector<HostTensor>& inputs,
             std::vector<Buffer>& globals);
  void RunTask(const cs1::PeProgram& program, const cs1::Task& task,
               const std::vector<HostTensor>& inputs, Frame& frame);
  // Element `flat` of the received tensor as the task's value.
  bool Receive(const cs1::PeProgram& program, const cs1::Task& task,
               const std::vector<HostTensor>& inputs, int64_t flat,
               Frame& frame);
  // A task's calls as its nest (cs1_program.h, TaskNest).
  void RunTaskNest(const cs1::PeProgram& program, const cs1::Task& task,
                   const std::vector<HostTensor>& inputs, Frame& frame);
  // The windows of descriptor `ref` for every element of a received tensor
  // of `shape` (indices in `slots`), as `view`, the first element's window,
  // with a leading dimension per index; false (and an error) when one of
  // them leaves its tensor or its offset cannot be computed.
  bool DescriptorPerElement(const WindowRef& ref,
                            const std::vector<int64_t>& shape,
                            const std::vector<int32_t>& slots, Frame& frame,
                            View& view);

  // Expressions (loop_expr_executor.cc): their columns, computed on
  // `lanes` (an expression that does not vary in a batch on its first
  // lane, then copied to the others).
  const int64_t* Control(const Expr& e, Frame& frame, LaneSet lanes);
  const void* Data(const Expr& e, Frame& frame, LaneSet lanes);
  // A control value on one lane, the first of `lane` (a literal or a
  // variable at once: they are most control expressions).
  int64_t ControlValue(const Expr& e, Frame& frame,
                       LaneSet lane = LaneSet::Dense(1)) {
    int64_t value;
    if (QuickControl(e, frame, lane.first(), value)) return value;
    return Control(e, frame, lane)[lane.first()];
  }
  // The value of `e` on `lane` without its columns, when it is control
  // arithmetic, comparisons and logic on literals and variables that
  // cannot fail there; else false (and Control computes it, and reports
  // what went wrong).
  static bool QuickControl(const Expr& e, const Frame& frame, int32_t lane,
                           int64_t& value);
  void ComputeControl(const Expr& e, Frame& frame, LaneSet lanes,
                      int64_t* out);
  void ComputeData(const Expr& e, Frame& frame, LaneSet lanes, void* out);
  void ControlArith(const Expr& e, Frame& frame, LaneSet lanes, int64_t* out);
  void Logic(const Expr& e, Frame& frame, LaneSet lanes, int64_t* out);
  void Select(const Expr& e, Frame& frame, LaneSet lanes, void* out);
  void Load(const Expr& e, Frame& frame, LaneSet lanes, void* out);
  // A load on one lane whose indices QuickControl computes, in bounds, of
  // an element written; false to leave it to Load's general way, which
  // reports what went wrong.
  static bool LoadOne(const Expr& e, const View& view, const Frame& frame,
                      int32_t lane, void* out);
  // The offsets in `view`'s buffer of the element at `indices` on each
  // lane, bounds-checked, into offsets_; only on the first lane when no
  // index varies over the lanes.
  bool Locate(const View& view, absl::Span<const Expr> indices, int32_t slot,
              Frame& frame, LaneSet lanes);
  // Locate for indices all of which are affine (Expr::affine) and, over
  // every iteration of the running region, in bounds without overflow,
  // which no lane then needs to check again; false when they are not.
  bool LocateAffine(const View& view, absl::Span<const Expr> indices,
                    Frame& frame, LaneSet lanes);
  // The least and greatest values of a control expression over the
  // iterations of the running region, with every step of it free of
  // overflow; false when they are not known so.
  bool Range(const Expr& e, Frame& frame, LaneSet lanes, int64_t& least,
             int64_t& greatest);
  void OutOfBounds(const Expr& index, size_t dim, int64_t value,
                   int64_t extent, int32_t slot, Frame& frame);
  // The indices of an element access on `lane` (which it has computed
  // without error).
  absl::InlinedVector<int64_t, 4> IndicesAt(absl::Span<const Expr> indices,
                                            Frame& frame, int32_t lane);
  void CastFailed(const Expr& e, ElemType from, const void* operand,
                  int32_t lane);
  void ReadConfig(const Expr& e, LaneSet lanes, void* out);

  // The vector level (loop_vector_executor.cc): a vector expression's
  // column holds all its lanes.
  const void* Vector(const Expr& e, Frame& frame);
  // The lanes where a lane comparison (or and/or/not of them) holds, as a
  // column of 1s and 0s.
  const int64_t* Mask(const Expr& e, Frame& frame);
  // Scalars computed from vectors: reductions, a lane of extract, on one
  // lane.
  void VectorScalar(const Expr& e, Frame& frame, void* out);
  // The lanes read, in `out` or where they are stored.
  const void* ReadVector(const Expr& e, Frame& frame, void* out);
  const void* TransferRead(const Expr& e, Frame& frame, void* out);
  void AssignVector(const Stmt& stmt, Frame& frame);
  void TransferWrite(const Stmt& stmt, Frame& frame);
  // Checks the indices of a transfer in the view's dimensions no lane
  // dimension runs along (`lane_dims`).
  bool CheckTransferBase(absl::Span<const Expr> indices,
                         absl::Span<const int64_t> base,
                         absl::Span<const int64_t> lane_dims, int32_t slot,
                         Frame& frame);
  // A transfer with a permutation map or a mask, lane by lane: false, with
  // the lane, where a read finds an element not written yet.
  bool TransferLanes(const View& view, absl::Span<const int64_t> base,
                     absl::Span<const int64_t> shape,
                     absl::Span<const int64_t> lane_dims, const int64_t* mask,
                     ElemType type, const void* pad, void* read_into,
                     const void* write_from, int64_t& unwritten_lane);

  const LoopProgram& program_;
  const bool batching_;
  std::vector<std::unique_ptr<Frame>> frames_;  // by CompiledProc::index
  std::vector<ConfigValue> config_;
  // The offsets Locate computes, for one access at a time.
  std::vector<int64_t> offsets_;
  // The running region's loops: their bounds and variables' columns.
  absl::InlinedVector<int64_t, 4> region_lo_;
  absl::InlinedVector<int64_t, 4> region_hi_;
  absl::InlinedVector<int64_t*, 4> region_vars_;
  // Selection buffers of nested choices (ifs, selects, and/or), as a stack.
  std::vector<std::vector<int32_t>> selections_;
  size_t selections_used_ = 0;
  bool failed_ = false;
  absl::Status status_;
};

// `run(true)`, which batches regions, or when it fails (or without
// `batching`) `run(false)`, which runs every loop iteration by iteration:
// its error is the first in the spec's order. `run` makes an Executor and
// runs it.
template <typename Run>
absl::StatusOr<std::vector<HostTensor>> RunWithFirstError(bool batching,
                                                          Run run) {
  if (!batching) return run(false);
  auto outputs = run(/*batching=*/true);
  if (outputs.ok()) return outputs;
  auto sequential = run(/*batching=*/false);
  if (sequential.ok()) {
    return absl::InternalError(absl::StrCat(
        "internal error: a batched run failed where the iterations one by "
        "one do not: ",
        outputs.status().message()));
  }
  return sequential;
}

}  // namespace loop
}  // namespace tessel

#endif  // TESSEL_LIBS_INTERP_LOOP_EXECUTOR_INTERNAL_H_
