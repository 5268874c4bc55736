// Compiling the CS-1 level (cs1_program.h): a pe-program becomes a frame,
// whose slots are its names, and the call statements of its tasks; a dsd
// becomes a window reference the executor turns into a strided view.
#include <utility>

#include "libs/interp/cs1_program.h"
#include "libs/interp/diagnostics.h"
#include "libs/interp/loop_plan.h"
#include "libs/interp/loop_proc_compiler.h"

namespace tessel {
namespace loop {
namespace {

// The position among the pe-program's parameters of the one `ref` names.
absl::StatusOr<size_t> ParamIndex(const cs1::PeProgram& program,
                                  const ir::Node& ref) {
  for (size_t i = 0; i < program.params.size(); ++i) {
    if (program.params[i].decl == ref.def()) return i;
  }
  return NotVerified(ref, "not a parameter of the pe-program");
}

}  // namespace

absl::StatusOr<WindowRef> ProcCompiler::Descriptor(const ir::Node& e,
                                                   int& rank) {
  WindowRef ref;
  ref.where = &e;
  ref.is_descriptor = true;
  auto base = Lookup(*e.operand(0), true);
  if (!base.ok()) return base.status();
  ref.base = base->slot;
  auto offset = Control(*e.operand(1));
  if (!offset.ok()) return offset.status();
  ref.offset = *std::move(offset);
  // Elaboration gives the descriptor every dimension of the SIMD engine's
  // loop nest; those it does not list have extent 1.
  const std::vector<ir::Dim>& dims = e.type().dims();
  for (size_t k = 0; k < dims.size(); ++k) {
    size_t stride = 3 + 2 * k;
    ref.extents.push_back(dims[k].value);
    ref.strides.push_back(
        stride < e.num_operands() ? e.operand(stride)->int_value() : 0);
  }
  rank = static_cast<int>(dims.size());
  return ref;
}

absl::Status ProcCompiler::CompilePeProgram(cs1::PeProgram& out) {
  for (const ir::Node* operand : out_.proc->operands()) {
    switch (operand->op()) {
      case ir::Op::kParam: {
        const ir::Type& type = operand->declared_type();
        cs1::Param param;
        param.decl = operand;
        param.elem = type.elem();
        param.shape = type.ConstantDims().value_or(std::vector<int64_t>{});
        param.read = operand->param_kind() != ir::ParamKind::kOut;
        param.written = operand->param_kind() != ir::ParamKind::kIn;
        out.params.push_back(std::move(param));
        break;
      }
      case ir::Op::kGrid:
        out.grid = operand;
        out.x_slot = DeclareControl(*operand->operand(0));
        out.y_slot = DeclareControl(*operand->operand(1));
        out.width = operand->operand(0)->int_value();
        out.height = operand->operand(1)->int_value();
        break;
      case ir::Op::kLocal: {
        const ir::Type& type = operand->declared_type();
        cs1::Local local;
        local.decl = operand;
        local.elem = type.elem();
        local.shape = type.ConstantDims().value_or(std::vector<int64_t>{});
        local.slot = DeclareData(*operand, type.rank());
        if (operand->num_operands() > 0) {
          const ir::Node& holds = *operand->operand(0);
          cs1::Holds placement;
          auto param = ParamIndex(out, *holds.operand(0));
          if (!param.ok()) return param.status();
          placement.param = *param;
          for (size_t k = 1; k < holds.num_operands(); ++k) {
            auto offset = Control(*holds.operand(k));
            if (!offset.ok()) return offset.status();
            placement.offsets.push_back(*std::move(offset));
          }
          placement.partial = operand->num_operands() > 1;
          local.holds = std::move(placement);
        }
        out.locals.push_back(std::move(local));
        break;
      }
      case ir::Op::kTask: {
        cs1::Task task;
        task.decl = operand;
        const ir::Node& first = *operand->operand(0);
        if (first.is(ir::Op::kRecv)) {
          task.receives = true;
          auto param = ParamIndex(out, *first.operand(0));
          if (!param.ok()) return param.status();
          task.param = *param;
          for (size_t i = 1; i < first.num_operands(); ++i) {
            const ir::Node& part = *first.operand(i);
            if (part.is(ir::Op::kCoord)) {
              task.index_slots.push_back(DeclareControl(part));
              continue;
            }
            auto cond = Control(part);
            if (!cond.ok()) return cond.status();
            task.cond = *std::move(cond);
          }
          task.value_slot = DeclareData(first, 0);
        }
        auto call = Call(*operand->operand(operand->num_operands() - 1));
        if (!call.ok()) return call.status();
        task.call = *std::move(call);
        out.tasks.push_back(std::move(task));
        break;
      }
      case ir::Op::kSparse: {
        auto param = ParamIndex(out, *operand->operand(0));
        if (!param.ok()) return param.status();
        out.params[*param].sparse = true;
        break;
      }
      default:
        return NotVerified(*operand, "a form a pe-program does not hold");
    }
  }
  return absl::OkStatus();
}

}  // namespace loop

namespace cs1 {

absl::StatusOr<std::unique_ptr<PeProgram>> CompilePeProgram(
    const ir::Module& module, const ir::Node& program) {
  auto out = std::make_unique<PeProgram>();
  out->decl = &program;
  out->frame.proc = &program;
  loop::ModuleCompiler procedures(module, out->procedures);
  loop::ProcCompiler compiler(procedures, out->frame);
  if (auto status = compiler.CompilePeProgram(*out); !status.ok()) {
    return status;
  }
  for (Task& task : out->tasks) {
    // A sparse input's elements arrive one by one, its zeros not at all:
    // its tasks run call by call.
    if (task.receives && out->params[task.param].sparse) continue;
    task.nest = TaskAsNest(*out, task, out->frame);
  }
  loop::PlanLoopProgram(out->procedures);
  // The pe-program's frame comes after the procedures (Executor::FrameOf).
  out->frame.index = static_cast<int32_t>(out->procedures.procs.size());
  loop::Planner planner(out->frame);
  for (Local& local : out->locals) {
    if (!local.holds) continue;
    for (loop::Expr& offset : local.holds->offsets) planner.PlanExpr(offset);
  }
  for (Task& task : out->tasks) {
    if (task.cond) planner.PlanExpr(*task.cond);
    planner.PlanStatement(task.call);
    if (!task.nest) continue;
    planner.PlanStatement(task.nest->loops);
    // A nest the planner cannot batch is of no use: the calls run.
    if (task.nest->loops.region == nullptr) task.nest.reset();
  }
  planner.Finish();
  return out;
}

}  // namespace cs1
}  // namespace tessel
