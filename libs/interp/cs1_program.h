// The CS-1 level compiled for interpretation (formats/tir/README.md, "CS-1
// level"): a pe-program as the frame every PE runs its tasks in (its grid
// coordinates, local arrays, recv indices and received values are slots of
// it), each task's call compiled as a loop-level call statement, the
// procedures and instructions the tasks call, and how the data of the
// parameters goes to the PEs' local arrays and comes back. Built by
// CompilePeProgram (cs1_compiler.cc), run by RunPeProgram
// (cs1_executor.cc). Internal to libs/interp.
#ifndef TESSEL_LIBS_INTERP_CS1_PROGRAM_H_
#define TESSEL_LIBS_INTERP_CS1_PROGRAM_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/interp/loop_program.h"
#include "libs/ir/node.h"
#include "libs/npy/host_tensor.h"

namespace tessel {
namespace cs1 {

// run-sim simulates at most this many PEs, more than the CS-1 has (about
// 400,000), so that a grid of absurd extents is an error, not a hang.
inline constexpr int64_t kMaxPes = int64_t{1} << 20;

// A parameter of the pe-program: data of literal shape.
struct Param {
  const ir::Node* decl = nullptr;
  ElemType elem = ElemType::kF32;
  std::vector<int64_t> shape;
  bool read = false;
  bool written = false;
  // (sparse P): an input whose zeros are not sent; no recv task runs for
  // an element equal to zero.
  bool sparse = false;
};

// A local array, every PE's own. With `holds`, element J of it is element
// J + offsets of parameter `param` (offsets over the PE coordinates): it
// starts with those elements of a parameter read, and gives them back to a
// parameter written.
struct Holds {
  size_t param = 0;
  std::vector<loop::Expr> offsets;
  // (partial add): the PEs holding an element add their values into it.
  bool partial = false;
};
struct Local {
  const ir::Node* decl = nullptr;
  int32_t slot = -1;  // its view in the frame
  ElemType elem = ElemType::kF32;
  std::vector<int64_t> shape;
  std::optional<Holds> holds;
};

// A receiving task's calls, for all the elements it receives, as one loop
// nest of the pe-program's frame (cs1_task_nest.cc): loops over the indices
// of the received tensor around the callee's body, whose names are slots of
// the frame. Every argument but a descriptor and the value received is the
// same in every call; a descriptor's offset is affine in the received
// indices. So the callee's parameters are views that hold every call's
// window at once, with a leading dimension per received index: the value
// received is the received tensor itself, a descriptor's window the same
// strided view from the first call's, moved by its offset's coefficient
// along each received index. Built only when the planner makes the nest a
// region (loop_plan.h); the executor runs it when batching.
struct TaskNest {
  loop::Stmt loops;
  // Per parameter of the callee, the slot in the frame of its value (a
  // control slot or a view slot), and whether its view has the leading
  // dimensions of the received indices.
  std::vector<int32_t> slots;
  std::vector<bool> per_element;
  // The callee's parameter the value received is passed to.
  size_t value_param = 0;
};

// A task: its call, run once when the PE starts or, with a recv, once per
// element of parameter `param` for which `cond` holds, with the element's
// indices and value in their slots.
struct Task {
  const ir::Node* decl = nullptr;
  bool receives = false;
  size_t param = 0;
  std::vector<int32_t> index_slots;
  int32_t value_slot = -1;
  std::optional<loop::Expr> cond;
  loop::Stmt call;
  std::optional<TaskNest> nest;
};

struct PeProgram {
  const ir::Node* decl = nullptr;
  std::vector<Param> params;
  // The grid: PE (x, y) for 0 <= x < width, 0 <= y < height.
  const ir::Node* grid = nullptr;
  int64_t width = 0;
  int64_t height = 0;
  int32_t x_slot = -1;
  int32_t y_slot = -1;
  std::vector<Local> locals;
  std::vector<Task> tasks;
  // The frame's layout, as a procedure's (its `proc` is the pe-program).
  loop::CompiledProc frame;
  // What the tasks call.
  loop::LoopProgram procedures;
};

// `program` is a verified pe-program of `module`, which must outlive the
// result.
absl::StatusOr<std::unique_ptr<PeProgram>> CompilePeProgram(
    const ir::Module& module, const ir::Node& program);

// `task`'s calls as one loop nest of `frame`, the pe-program's (adding the
// slots it needs), when they qualify (cs1_task_nest.cc); before planning.
std::optional<TaskNest> TaskAsNest(const PeProgram& program, const Task& task,
                                   loop::CompiledProc& frame);

// Runs `program` on every PE. `inputs` holds, by parameter position, a
// tensor of the parameter's type for every parameter read (others are
// ignored); returns the parameters written, in order. Without `batching`,
// every loop runs iteration by iteration.
absl::StatusOr<std::vector<HostTensor>> RunPeProgram(
    const PeProgram& program, const std::vector<HostTensor>& inputs,
    bool batching = true);

}  // namespace cs1
}  // namespace tessel

#endif  // TESSEL_LIBS_INTERP_CS1_PROGRAM_H_
