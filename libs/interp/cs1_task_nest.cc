// A receiving task's calls as one loop nest (cs1_program.h, TaskNest). A
// CS-1 task typically calls a SIMD instruction of a few lanes per element
// it receives: called one by one, each call costs far more than its few
// multiply-adds. As a nest, the received indices' loops around the
// callee's body, the planner can make all the calls one region, run a
// batch of iterations at a time like any loop nest (loop_plan.h).
//
// The nest computes what the calls compute, in the same order, when the
// executor has made, once, the checks every call makes (cs1_executor.cc):
// so the arguments that are checked (sizes, shapes, assertions) must be the
// same in every call, and a descriptor's window, whose bounds each call
// checks, must move linearly with the received indices, so that the
// windows of the first and last elements along each index bound them all.
// Hence what qualifies, checked here:
//   - the task receives every element (no condition);
//   - every control argument, and every descriptor's offset, reads no data
//     and no configuration (which the calls could change); the control
//     arguments use no received index, and a descriptor's offset uses them
//     only through +, - and multiplication by a literal;
//   - every other data argument is a name alone: a view of the frame, or
//     the value received (for a parameter the callee does not write);
//   - the callee's body is loops, ifs, assignments and reductions, reading
//     its parameters and loop variables only (no configuration, strides,
//     vectors, calls or local names), which the planner makes a region
//     around the received indices' loops.
#include <algorithm>
#include <string>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "libs/interp/cs1_program.h"

namespace tessel {
namespace cs1 {
namespace {

using loop::Expr;
using loop::ExprOp;
using loop::Stmt;
using loop::StmtOp;

bool UsesSlot(const Expr& e, const absl::flat_hash_set<int32_t>& slots) {
  if (e.op == ExprOp::kControlVar && slots.contains(e.slot)) return true;
  return std::any_of(e.args.begin(), e.args.end(),
                     [&](const Expr& arg) { return UsesSlot(arg, slots); });
}

// Whether `e` reads nothing a call may change: no data, no configuration.
bool ReadsOnlyControls(const Expr& e) {
  switch (e.op) {
    case ExprOp::kLoad:
    case ExprOp::kCompareData:
    case ExprOp::kStride:
    case ExprOp::kReadControlConfig:
    case ExprOp::kReadDataConfig:
      return false;
    default:
      return std::all_of(e.args.begin(), e.args.end(), ReadsOnlyControls);
  }
}

// Whether every subexpression of `e` is a sum of the received indices
// `slots` times literals plus what does not use them.
bool Linear(const Expr& e, const absl::flat_hash_set<int32_t>& slots) {
  if (!UsesSlot(e, slots)) return true;
  switch (e.op) {
    case ExprOp::kControlVar:
      return true;
    case ExprOp::kAddIndex:
    case ExprOp::kSubIndex:
      return Linear(e.args[0], slots) && Linear(e.args[1], slots);
    case ExprOp::kNegIndex:
      return Linear(e.args[0], slots);
    case ExprOp::kMulIndex:
      return (e.args[0].op == ExprOp::kIntConst && Linear(e.args[1], slots)) ||
             (e.args[1].op == ExprOp::kIntConst && Linear(e.args[0], slots));
    default:
      return false;
  }
}

// Copies the callee's body into the frame of the pe-program: its control
// slots become new slots of the frame (its parameters' are given), its
// parameters' views the views the executor makes for the whole task.
class Inliner {
 public:
  Inliner(const loop::CompiledProc& callee, loop::CompiledProc& frame,
          TaskNest& nest, std::vector<Expr> received)
      : callee_(callee),
        frame_(frame),
        nest_(nest),
        controls_(callee.control_names.size(), -1),
        params_(callee.view_names.size(), -1),
        received_(std::move(received)) {
    for (size_t i = 0; i < callee.params.size(); ++i) {
      const loop::CompiledParam& param = callee.params[i];
      if (param.is_data()) {
        params_[param.slot] = static_cast<int32_t>(i);
      } else {
        controls_[param.slot] = nest.slots[i];
      }
    }
  }

  bool Block(const std::vector<Stmt>& from, std::vector<Stmt>& to) {
    for (const Stmt& stmt : from) {
      to.emplace_back();
      if (!Statement(stmt, to.back())) return false;
    }
    return true;
  }

 private:
  int32_t Control(int32_t slot) {
    if (controls_[slot] < 0) {
      controls_[slot] = static_cast<int32_t>(frame_.control_names.size());
      frame_.control_names.push_back(callee_.control_names[slot]);
    }
    return controls_[slot];
  }

  // The indices of an access of the parameter in view slot `slot` of the
  // callee: the received indices first when its view has them.
  bool Access(int32_t& slot, std::vector<Expr>& indices) {
    const int32_t param = params_[slot];
    if (param < 0) return false;
    for (Expr& index : indices) {
      if (!Remap(index)) return false;
    }
    slot = nest_.slots[param];
    if (nest_.per_element[param]) {
      indices.insert(indices.begin(), received_.begin(), received_.end());
    }
    return true;
  }

  bool Remap(Expr& e) {
    switch (e.op) {
      case ExprOp::kControlVar:
        e.slot = Control(e.slot);
        return true;
      case ExprOp::kLoad:
        return Access(e.slot, e.args);
      case ExprOp::kStride:
      case ExprOp::kReadControlConfig:
      case ExprOp::kReadDataConfig:
        return false;
      default:
        if (e.op >= ExprOp::kReduction) return false;  // the vector level
        return std::all_of(e.args.begin(), e.args.end(),
                           [&](Expr& arg) { return Remap(arg); });
    }
  }

  bool Statement(const Stmt& from, Stmt& to) {
    to.op = from.op;
    to.where = from.where;
    to.elem = from.elem;
    to.exprs = from.exprs;
    switch (from.op) {
      case StmtOp::kFor:
        to.slot = Control(from.slot);
        return Remap(to.exprs[0]) && Remap(to.exprs[1]) &&
               Block(from.body, to.body);
      case StmtOp::kIf:
        return Remap(to.exprs[0]) && Block(from.body, to.body) &&
               Block(from.orelse, to.orelse);
      case StmtOp::kAssign:
      case StmtOp::kReduce: {
        Expr value = std::move(to.exprs.back());
        to.exprs.pop_back();
        to.slot = from.slot;
        if (!Access(to.slot, to.exprs) || !Remap(value)) return false;
        to.exprs.push_back(std::move(value));
        return true;
      }
      default:
        return false;
    }
  }

  const loop::CompiledProc& callee_;
  loop::CompiledProc& frame_;
  TaskNest& nest_;
  // Of the callee's slots: the frame's control slot, the parameter a view
  // slot holds.
  std::vector<int32_t> controls_;
  std::vector<int32_t> params_;
  std::vector<Expr> received_;
};

std::optional<TaskNest> BuildNest(const PeProgram& program, const Task& task,
                                  loop::CompiledProc& frame) {
  if (!task.receives || task.cond) return std::nullopt;
  const Param& received = program.params[task.param];
  // A descriptor's windows are bounded by those at the corners of the
  // received tensor, which the executor visits: not too many.
  if (received.shape.size() > 8) return std::nullopt;
  const absl::flat_hash_set<int32_t> indices(task.index_slots.begin(),
                                             task.index_slots.end());
  const Stmt& call = task.call;
  const loop::CompiledProc& callee = *call.callee;
  TaskNest nest;
  bool value_passed = false;
  for (size_t i = 0; i < callee.params.size(); ++i) {
    const loop::CompiledParam& param = callee.params[i];
    const loop::CallArg& arg = call.args[i];
    if (!arg.is_data) {
      if (!ReadsOnlyControls(arg.control) || UsesSlot(arg.control, indices)) {
        return std::nullopt;
      }
      nest.slots.push_back(static_cast<int32_t>(frame.control_names.size()));
      frame.control_names.push_back(param.name());
      nest.per_element.push_back(false);
      continue;
    }
    const loop::WindowRef& window = arg.window;
    bool per_element = false;
    if (window.is_descriptor) {
      if (!ReadsOnlyControls(window.offset) ||
          !Linear(window.offset, indices)) {
        return std::nullopt;
      }
      per_element = UsesSlot(window.offset, indices);
      if (window.base == task.value_slot) return std::nullopt;
    } else if (!window.selectors.empty()) {
      return std::nullopt;
    } else if (window.base == task.value_slot) {
      if (param.is_written() || value_passed) return std::nullopt;
      value_passed = true;
      nest.value_param = i;
      per_element = true;
    }
    nest.slots.push_back(static_cast<int32_t>(frame.view_names.size()));
    frame.view_names.push_back(param.name());
    nest.per_element.push_back(per_element);
  }
  // (A task that does not pass what it receives has no reason to.)
  if (!value_passed) return std::nullopt;
  // The loops over the received indices, outermost first.
  std::vector<Expr> variables;
  for (size_t k = 0; k < task.index_slots.size(); ++k) {
    Expr variable;
    variable.op = ExprOp::kControlVar;
    variable.slot = task.index_slots[k];
    variable.where = task.decl->operand(0);
    variables.push_back(std::move(variable));
  }
  Inliner inliner(callee, frame, nest, variables);
  Stmt* innermost = nullptr;
  for (size_t k = 0; k < variables.size(); ++k) {
    Stmt loop;
    loop.op = StmtOp::kFor;
    loop.where = task.decl;
    loop.slot = task.index_slots[k];
    Expr bound;
    bound.where = task.decl->operand(0);
    loop.exprs.push_back(bound);
    bound.value = received.shape[k];
    loop.exprs.push_back(bound);
    if (innermost == nullptr) {
      nest.loops = std::move(loop);
      innermost = &nest.loops;
    } else {
      innermost->body.push_back(std::move(loop));
      innermost = &innermost->body.back();
    }
  }
  if (innermost == nullptr || !inliner.Block(callee.body, innermost->body)) {
    return std::nullopt;
  }
  return nest;
}

}  // namespace

std::optional<TaskNest> TaskAsNest(const PeProgram& program, const Task& task,
                                   loop::CompiledProc& frame) {
  const size_t controls = frame.control_names.size();
  const size_t views = frame.view_names.size();
  std::optional<TaskNest> nest = BuildNest(program, task, frame);
  if (!nest) {
    // The slots of a nest not built go again.
    frame.control_names.resize(controls);
    frame.view_names.resize(views);
  }
  return nest;
}

}  // namespace cs1
}  // namespace tessel
