// Running the CS-1 level (cs1_program.h) on the loop level's executor. The
// PEs share nothing at this level: data reaches a PE only through the local
// arrays that hold parts of the parameters and the elements its tasks
// receive, and comes back only from the local arrays that hold parts of the
// parameters written, each element from one PE (which the verifier checks).
// So the PEs may run in any order; they run row by row (y, then x), and on
// each PE the tasks run in the order written, a task with a recv once per
// element it receives, in the row-major order of the received tensor.
#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/interp/cs1_program.h"
#include "libs/interp/diagnostics.h"
#include "libs/interp/loop_executor_internal.h"

namespace tessel {
namespace loop {
namespace {

// Calls `visit(index, flat)` for every index of `shape` in row-major order,
// `flat` its position, until `visit` returns false.
template <typename Visit>
void ForEachIndex(const std::vector<int64_t>& shape, Visit visit) {
  int64_t count = 1;
  for (int64_t extent : shape) count *= extent;
  std::vector<int64_t> index(shape.size(), 0);
  for (int64_t flat = 0; flat < count; ++flat) {
    if (!visit(index, flat)) return;
    for (size_t k = shape.size(); k-- > 0;) {
      if (++index[k] < shape[k]) break;
      index[k] = 0;
    }
  }
}

// Calls visit(at, to, count) for each run of `count` consecutive elements
// of a local array of `shape`, from row-major position `at`, whose elements
// J + `offset` lie in a parameter of `param_shape`, from its position `to`,
// in row-major order, until visit returns false. Runs follow the last
// dimension, along which both are consecutive.
template <typename Visit>
void ForEachHeldRun(const std::vector<int64_t>& shape,
                    const std::vector<int64_t>& param_shape,
                    const std::vector<int64_t>& offset, Visit visit) {
  const size_t n = shape.size();
  if (n == 0) {
    visit(0, 0, 1);
    return;
  }
  // Along the last dimension, the elements inside: [first, last).
  const int64_t inner = shape[n - 1];
  const int64_t shift = offset[n - 1];
  int64_t first = 0;
  int64_t last = 0;
  if (shift > -inner && shift < param_shape[n - 1]) {
    first = std::max<int64_t>(0, -shift);
    last = std::min<int64_t>(inner, param_shape[n - 1] - shift);
  }
  std::vector<int64_t> row(n - 1, 0);
  const int64_t rows = n == 1 ? 1 : [&] {
    int64_t count = 1;
    for (size_t k = 0; k + 1 < n; ++k) count *= shape[k];
    return count;
  }();
  for (int64_t r = 0; r < rows && last > first; ++r) {
    int64_t to = 0;
    bool inside = true;
    for (size_t k = 0; k + 1 < n; ++k) {
      int64_t moved = 0;
      inside = inside && !__builtin_add_overflow(row[k], offset[k], &moved) &&
               moved >= 0 && moved < param_shape[k];
      to = to * param_shape[k] + moved;
    }
    if (inside && !visit(r * inner + first,
                         to * param_shape[n - 1] + first + shift,
                         last - first)) {
      return;
    }
    for (size_t k = row.size(); k-- > 0;) {
      if (++row[k] < shape[k]) break;
      row[k] = 0;
    }
  }
}

// The row-major index of position `flat` of `shape`.
std::vector<int64_t> IndexOf(const std::vector<int64_t>& shape, int64_t flat) {
  std::vector<int64_t> index(shape.size());
  for (size_t k = shape.size(); k-- > 0;) {
    index[k] = flat % shape[k];
    flat /= shape[k];
  }
  return index;
}

void CopyElements(const HostTensor& from, int64_t at, HostTensor& to,
                  int64_t into, int64_t count) {
  const int bytes = ElemTypeBytes(from.elem);
  std::memcpy(to.bytes.data() + into * bytes, from.bytes.data() + at * bytes,
              count * bytes);
}

// Adds `count` partial results of `from` from position `at` into `to`
// from position `into`; an element not yet given back is the first
// partial result, copied. The PEs give back in the order they run, so
// the sum is ((p0 + p1) + p2) ..., in the element type's arithmetic.
void AddPartials(const HostTensor& from, int64_t at, Buffer& to, int64_t into,
                 int64_t count) {
  element::WithElemType(from.elem, [&]<ElemType E>() {
    const int bytes = ElemTypeBytes(E);
    for (int64_t i = 0; i < count; ++i) {
      const uint8_t* partial = from.bytes.data() + (at + i) * bytes;
      uint8_t* sum = to.tensor.bytes.data() + (into + i) * bytes;
      if (!to.written[into + i]) {
        std::memcpy(sum, partial, bytes);
        continue;
      }
      element::Repr<E> result;
      element::Arith<E, ArithOp::kAdd>(element::Load<E>(sum),
                                       element::Load<E>(partial), result);
      element::Store<E>(result, sum);
    }
  });
}

std::string PeText(const cs1::PeProgram& program, const Frame& frame) {
  return absl::StrCat("PE (", frame.controls[program.x_slot], ", ",
                      frame.controls[program.y_slot], ")");
}

}  // namespace

bool Executor::DescriptorInside(const WindowRef& ref, const Frame& frame,
                                int64_t least, int64_t greatest) {
  // The tensor is dense: its elements are contiguous from its view's
  // offset.
  int64_t count = 1;
  for (int64_t extent : frame.views[ref.base].dims) count *= extent;
  bool overflow = false;
  for (size_t k = 0; k < ref.extents.size(); ++k) {
    int64_t span = 0;
    overflow |=
        __builtin_mul_overflow(ref.strides[k], ref.extents[k] - 1, &span) ||
        __builtin_add_overflow(span < 0 ? least : greatest, span,
                               span < 0 ? &least : &greatest);
  }
  if (overflow || least < 0 || greatest >= count) {
    Fail(ref.where,
         absl::StrCat("the dsd on '", frame.proc->view_names[ref.base],
                      "' reaches element ", least < 0 ? least : greatest,
                      ", outside its ", count, " elements"));
    return false;
  }
  return true;
}

bool Executor::DescriptorView(const WindowRef& ref, Frame& frame, View& view) {
  const int64_t offset = ControlValue(ref.offset, frame);
  if (failed_ || !DescriptorInside(ref, frame, offset, offset)) return false;
  const View& base = frame.views[ref.base];
  view.buffer = base.buffer;
  view.offset = base.offset + offset;
  // A task calls the same instructions again and again: the view most
  // often has the descriptor's shape already.
  if (!std::equal(view.dims.begin(), view.dims.end(), ref.extents.begin(),
                  ref.extents.end())) {
    view.dims.assign(ref.extents.begin(), ref.extents.end());
  }
  if (!std::equal(view.strides.begin(), view.strides.end(),
                  ref.strides.begin(), ref.strides.end())) {
    view.strides.assign(ref.strides.begin(), ref.strides.end());
  }
  return true;
}

absl::StatusOr<std::vector<HostTensor>> Executor::RunPeProgram(
    const cs1::PeProgram& program, const std::vector<HostTensor>& inputs) {
  if (program.width <= 0 || program.height <= 0 ||
      program.width > cs1::kMaxPes / program.height) {
    return ErrorAt(
        program.grid->loc(),
        absl::StrCat("a grid of ", program.width, " x ", program.height,
                     " PEs exceeds run-sim's limit of ", cs1::kMaxPes, " PEs"));
  }
  std::vector<Buffer> globals(program.params.size());
  for (size_t p = 0; p < program.params.size(); ++p) {
    const cs1::Param& param = program.params[p];
    if (param.read && (p >= inputs.size() || inputs[p].elem != param.elem ||
                       inputs[p].shape != param.shape)) {
      return ErrorAt(param.decl->loc(),
                     absl::StrCat("no ", ElemTypeName(param.elem), " ",
                                  NumpyShapeText(param.shape), " argument '",
                                  param.decl->name(), "'"));
    }
    if (!param.written) continue;
    Buffer& global = globals[p];
    if (param.read) {
      global.tensor = inputs[p];
    } else {
      auto tensor = MakeHostTensor(param.elem, param.shape);
      if (!tensor.ok())
        return ErrorAt(param.decl->loc(), tensor.status().message());
      global.tensor = *std::move(tensor);
    }
    global.SetWritten(param.read);
  }
  for (int64_t y = 0; y < program.height; ++y) {
    for (int64_t x = 0; x < program.width; ++x) {
      RunPe(program, x, y, inputs, globals);
      if (failed_) return status_;
    }
  }
  std::vector<HostTensor> outputs;
  for (size_t p = 0; p < program.params.size(); ++p) {
    const cs1::Param& param = program.params[p];
    if (!param.written) continue;
    Buffer& global = globals[p];
    for (size_t e = 0; global.unwritten > 0 && e < global.written.size();
         ++e) {
      if (global.written[e]) continue;
      return ErrorAt(param.decl->loc(),
                     absl::StrCat("no PE gives back element ", e, " of '",
                                  param.decl->name(), "'"));
    }
    outputs.push_back(std::move(global.tensor));
  }
  return outputs;
}

void Executor::RunPe(const cs1::PeProgram& program, int64_t x, int64_t y,
                     const std::vector<HostTensor>& inputs,
                     std::vector<Buffer>& globals) {
  Frame& frame = FrameOf(program.frame);
  frame.controls[program.x_slot] = x;
  frame.controls[program.y_slot] = y;
  config_.assign(config_.size(), ConfigValue{});
  // The local arrays, with what they hold of the parameters read.
  std::vector<std::vector<int64_t>> offsets(program.locals.size());
  for (size_t l = 0; l < program.locals.size(); ++l) {
    const cs1::Local& local = program.locals[l];
    std::unique_ptr<Buffer>& buffer = frame.owned[local.slot];
    if (auto status = ResetBuffer(local.elem, local.shape, buffer);
        !status.ok()) {
      Fail(local.decl, status.message());
      return;
    }
    frame.views[local.slot] = WholeView(*buffer);
    if (!local.holds) continue;
    for (const Expr& offset : local.holds->offsets) {
      offsets[l].push_back(ControlValue(offset, frame));
    }
    if (failed_) return;
    const cs1::Param& param = program.params[local.holds->param];
    if (!param.read) continue;
    ForEachHeldRun(local.shape, param.shape, offsets[l],
                   [&](int64_t at, int64_t from, int64_t count) {
                     CopyElements(inputs[local.holds->param], from,
                                  buffer->tensor, at, count);
                     buffer->MarkWritten(at, count);
                     return true;
                   });
  }
  for (const cs1::Task& task : program.tasks) {
    RunTask(program, task, inputs, frame);
    if (failed_) return;
  }
  // What the local arrays hold of the parameters written goes back.
  for (size_t l = 0; l < program.locals.size(); ++l) {
    const cs1::Local& local = program.locals[l];
    if (!local.holds || !program.params[local.holds->param].written) continue;
    const cs1::Holds& holds = *local.holds;
    const cs1::Param& param = program.params[holds.param];
    Buffer& buffer = *frame.owned[local.slot];
    Buffer& global = globals[holds.param];
    ForEachHeldRun(
        local.shape, param.shape, offsets[l],
        [&](int64_t at, int64_t to, int64_t count) {
          for (int64_t i = 0; i < count; ++i) {
            if (buffer.written[at + i]) continue;
            Fail(local.decl,
                 absl::StrCat(
                     PeText(program, frame), " never writes ",
                     ElementText(local.decl->name(),
                                 IndexOf(local.shape, at + i)),
                     ", which holds ",
                     ElementText(param.decl->name(),
                                 IndexOf(param.shape, to + i))));
            return false;
          }
          if (holds.partial) {
            AddPartials(buffer.tensor, at, global, to, count);
          } else {
            CopyElements(buffer.tensor, at, global.tensor, to, count);
          }
          global.MarkWritten(to, count);
          return true;
        });
    if (failed_) return;
  }
}

void Executor::RunTask(const cs1::PeProgram& program, const cs1::Task& task,
                       const std::vector<HostTensor>& inputs, Frame& frame) {
  if (!task.receives) {
    ExecStmt(task.call, frame);
    if (failed_) {
      AddNote(*task.decl,
              absl::StrCat("in the task on ", PeText(program, frame)));
    }
    return;
  }
  if (batching_ && task.nest) {
    RunTaskNest(program, task, inputs, frame);
    return;
  }
  const cs1::Param& param = program.params[task.param];
  ForEachIndex(param.shape, [&](const std::vector<int64_t>& index,
                                int64_t flat) {
    for (size_t k = 0; k < index.size(); ++k) {
      frame.controls[task.index_slots[k]] = index[k];
    }
    // A sparse input's zeros are not sent.
    if (param.sparse && inputs[task.param].GetDouble(flat) == 0) return true;
    if (task.cond && !ControlValue(*task.cond, frame)) return !failed_;
    if (Receive(program, task, inputs, flat, frame)) ExecStmt(task.call, frame);
    if (failed_) {
      AddNote(*task.decl, absl::StrCat("in the task on ",
                                       PeText(program, frame), ", receiving ",
                                       ElementText(param.decl->name(), index)));
      return false;
    }
    return true;
  });
}

bool Executor::Receive(const cs1::PeProgram& program, const cs1::Task& task,
                       const std::vector<HostTensor>& inputs, int64_t flat,
                       Frame& frame) {
  // The value received, a fresh scalar each time (its buffer is made once).
  std::unique_ptr<Buffer>& value = frame.owned[task.value_slot];
  if (value == nullptr) {
    if (auto status = ResetBuffer(program.params[task.param].elem, {}, value);
        !status.ok()) {
      Fail(task.decl, status.message());
      return false;
    }
    frame.views[task.value_slot] = WholeView(*value);
  }
  CopyElements(inputs[task.param], flat, value->tensor, 0, 1);
  value->SetWritten(true);
  return true;
}

void Executor::RunTaskNest(const cs1::PeProgram& program,
                           const cs1::Task& task,
                           const std::vector<HostTensor>& inputs,
                           Frame& frame) {
  const cs1::TaskNest& nest = *task.nest;
  const cs1::Param& param = program.params[task.param];
  const HostTensor& received = inputs[task.param];
  if (received.num_elements() == 0) return;
  // The first element's call makes the checks every call makes: on the
  // arguments, the same in every call, and on its own windows.
  for (int32_t slot : task.index_slots) frame.controls[slot] = 0;
  const Stmt& call = task.call;
  const CompiledProc& callee = *call.callee;
  if (Receive(program, task, inputs, 0, frame) && EnterCall(call, frame)) {
    const Frame& first = FrameOf(callee);
    for (size_t i = 0; i < callee.params.size() && !failed_; ++i) {
      const CompiledParam& callee_param = callee.params[i];
      const int32_t slot = nest.slots[i];
      if (!callee_param.is_data()) {
        frame.controls[slot] = first.controls[callee_param.slot];
        continue;
      }
      View& view = frame.views[slot];
      if (i == nest.value_param) {
        // Every value received: the received tensor (copied once).
        std::unique_ptr<Buffer>& buffer = frame.owned[slot];
        if (buffer == nullptr) {
          buffer = std::make_unique<Buffer>();
          buffer->tensor = received;
          buffer->SetWritten(true);
        }
        view = WholeView(*buffer);
        continue;
      }
      view = first.views[callee_param.slot];
      if (nest.per_element[i]) {
        DescriptorPerElement(call.args[i].window, param.shape,
                             task.index_slots, frame, view);
      }
    }
  }
  if (!failed_) ExecStmt(nest.loops, frame);
  if (failed_) {
    // A batch's error is not necessarily the first in the spec's order: the
    // run is made again call by call (RunWithFirstError), which names the
    // element received.
    AddNote(*call.where, absl::StrCat("in the call to ", callee.proc->name()));
    AddNote(*task.decl,
            absl::StrCat("in the task on ", PeText(program, frame)));
  }
}

bool Executor::DescriptorPerElement(const WindowRef& ref,
                                    const std::vector<int64_t>& shape,
                                    const std::vector<int32_t>& slots,
                                    Frame& frame, View& view) {
  // The offset and each of its subexpressions are linear in the received
  // indices (cs1_task_nest.cc): over all elements they take their least
  // and greatest values at corners of the received tensor, so that
  // computing the offset there without an error computes it so for every
  // element, and its least and greatest values are among those.
  const size_t rank = shape.size();
  int64_t first = 0;
  int64_t least = 0;
  int64_t greatest = 0;
  absl::InlinedVector<int64_t, 8> last_along(rank, 0);
  for (uint32_t corner = 0; corner < (uint32_t{1} << rank); ++corner) {
    for (size_t k = 0; k < rank; ++k) {
      frame.controls[slots[k]] = (corner >> k) & 1 ? shape[k] - 1 : 0;
    }
    const int64_t offset = ControlValue(ref.offset, frame);
    if (failed_) return false;
    if (corner == 0) first = least = greatest = offset;
    least = std::min(least, offset);
    greatest = std::max(greatest, offset);
    if (__builtin_popcount(corner) == 1) {
      last_along[__builtin_ctz(corner)] = offset;
    }
  }
  if (!DescriptorInside(ref, frame, least, greatest)) return false;
  // Every offset lies in the tensor: no difference of two overflows.
  for (size_t k = rank; k-- > 0;) {
    view.dims.insert(view.dims.begin(), shape[k]);
    view.strides.insert(view.strides.begin(),
                        shape[k] > 1 ? (last_along[k] - first) / (shape[k] - 1)
                                     : 0);
  }
  return true;
}

}  // namespace loop

namespace cs1 {

absl::StatusOr<std::vector<HostTensor>> RunPeProgram(
    const PeProgram& program, const std::vector<HostTensor>& inputs,
    bool batching) {
  return loop::RunWithFirstError(batching, [&](bool batch) {
    return loop::Executor(program.procedures, batch)
        .RunPeProgram(program, inputs);
  });
}

}  // namespace cs1
}  // namespace tessel
