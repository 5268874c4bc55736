#include "libs/verify/verifier.h"

#include "libs/verify/func.h"
#include "libs/verify/proc.h"
#include "libs/poly/poly.h"

namespace tessel::ir {

absl::Status VerifyModule(Module& module) {
  poly::Context ctx;
  return VerifyProcedures(module, ctx, [&ctx](Node& form) -> absl::Status {
    switch (form.op()) {
      case Op::kFunc:
        return VerifyFunc(form, ctx);
      default:
        // Memories and configurations: the reader has checked them.
        return absl::OkStatus();
    }
  });
}

absl::Status VerifyProc(Module& module, Node& proc, ProcChecks checks) {
  poly::Context ctx;
  if (proc.is(Op::kFunc)) return VerifyFunc(proc, ctx);
  return VerifyProcedure(module, proc, ctx, checks);
}

}  // namespace tessel::ir
