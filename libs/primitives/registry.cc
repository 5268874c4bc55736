// Registry::Builtin: every primitive of this package, in the order of
// Exo's scheduling API. A new primitive adds its spec here.
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <string>

#include "absl/status/status.h"
#include "libs/primitives/add_loop.h"
#include "libs/primitives/auto_stage_mem.h"
#include "libs/primitives/autofission.h"
#include "libs/primitives/autolift_alloc.h"
#include "libs/primitives/bind_config.h"
#include "libs/primitives/bind_expr.h"
#include "libs/primitives/call_eqv.h"
#include "libs/primitives/commute_expr.h"
#include "libs/primitives/contract_fma.h"
#include "libs/primitives/cut_loop.h"
#include "libs/primitives/delete_buffer.h"
#include "libs/primitives/delete_config.h"
#include "libs/primitives/divide_dim.h"
#include "libs/primitives/divide_loop.h"
#include "libs/primitives/divide_with_recompute.h"
#include "libs/primitives/eliminate_dead_code.h"
#include "libs/primitives/expand_dim.h"
#include "libs/primitives/extract_subproc.h"
#include "libs/primitives/fission.h"
#include "libs/primitives/fold_into_reduce.h"
#include "libs/primitives/fuse.h"
#include "libs/primitives/inline.h"
#include "libs/primitives/inline_assign.h"
#include "libs/primitives/inline_copy.h"
#include "libs/primitives/inline_window.h"
#include "libs/primitives/insert_noop_call.h"
#include "libs/primitives/insert_prefetch.h"
#include "libs/primitives/join_loops.h"
#include "libs/primitives/left_reassociate_expr.h"
#include "libs/primitives/lift_alloc.h"
#include "libs/primitives/lift_if.h"
#include "libs/primitives/lift_reduce_constant.h"
#include "libs/primitives/lift_scope.h"
#include "libs/primitives/make_instr.h"
#include "libs/primitives/merge_writes.h"
#include "libs/primitives/mult_dim.h"
#include "libs/primitives/mult_loops.h"
#include "libs/primitives/parallelize_loop.h"
#include "libs/primitives/primitive.h"
#include "libs/primitives/rearrange_dim.h"
#include "libs/primitives/remove_loop.h"
#include "libs/primitives/rename.h"
#include "libs/primitives/reorder_loops.h"
#include "libs/primitives/reorder_stmts.h"
#include "libs/primitives/replace.h"
#include "libs/primitives/replace_all.h"
#include "libs/primitives/resize_dim.h"
#include "libs/primitives/reuse_buffer.h"
#include "libs/primitives/rewrite_expr.h"
#include "libs/primitives/set_memory.h"
#include "libs/primitives/set_precision.h"
#include "libs/primitives/set_window.h"
#include "libs/primitives/shift_loop.h"
#include "libs/primitives/simplify_expr.h"
#include "libs/primitives/sink_alloc.h"
#include "libs/primitives/specialize.h"
#include "libs/primitives/split_write.h"
#include "libs/primitives/stage_mem.h"
#include "libs/primitives/unroll_buffer.h"
#include "libs/primitives/unroll_loop.h"
#include "libs/primitives/write_config.h"

namespace tessel::primitives {

const Registry& Registry::Builtin() {
  static const Registry* const registry = [] {
    auto* r = new Registry;
    for (PrimitiveSpec (*spec)() : std::initializer_list<PrimitiveSpec (*)()>{
             &RenameSpec,
             &SimplifySpec,
             &InsertNoopCallSpec,
             &InsertPrefetchSpec,
             &ReorderStmtsSpec,
             &CommuteExprSpec,
             &LeftReassociateExprSpec,
             &LiftAllocSpec,
             &SinkAllocSpec,
             &AutoliftAllocSpec,
             &AutofissionSpec,
             &FissionSpec,
             &FuseSpec,
             &RemoveLoopSpec,
             &AddLoopSpec,
             &LiftScopeSpec,
             &LiftIfSpec,
             &DivideLoopSpec,
             &DivideWithRecomputeSpec,
             &CutLoopSpec,
             &JoinLoopsSpec,
             &MultLoopsSpec,
             &ShiftLoopSpec,
             &ReorderLoopsSpec,
             &ParallelizeLoopSpec,
             &MergeWritesSpec,
             &SplitWriteSpec,
             &FoldIntoReduceSpec,
             &InlineAssignSpec,
             &InlineCopySpec,
             &InlineWindowSpec,
             &LiftReduceConstantSpec,
             &UnrollLoopSpec,
             &SpecializeSpec,
             &EliminateDeadCodeSpec,
             &RewriteExprSpec,
             &BindExprSpec,
             &StageMemSpec,
             &AutoStageMemSpec,
             &SetMemorySpec,
             &SetPrecisionSpec,
             &SetWindowSpec,
             &ExpandDimSpec,
             &ResizeDimSpec,
             &DivideDimSpec,
             &MultDimSpec,
             &RearrangeDimSpec,
             &UnrollBufferSpec,
             &DeleteBufferSpec,
             &ReuseBufferSpec,
             &ExtractSubprocSpec,
             &MakeInstrSpec,
             &InlineSpec,
             &CallEqvSpec,
             &ReplaceSpec,
             &CallSiteMemAwareReplaceSpec,
             &ReplaceAllSpec,
             &WriteConfigSpec,
             &BindConfigSpec,
             &DeleteConfigSpec,
             &ContractFmaSpec,
         }) {
      if (absl::Status status = r->Add(spec()); !status.ok()) {
        std::fprintf(stderr, "internal error: %s\n",
                     std::string(status.message()).c_str());
        std::abort();
      }
    }
    return r;
  }();
  return *registry;
}

}  // namespace tessel::primitives
