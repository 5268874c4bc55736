#include "libs/ir/verifier.h"

#include "libs/ir/verify_call_graph.h"
#include "libs/ir/verify_func.h"
#include "libs/ir/verify_proc.h"
#include "libs/poly/poly.h"

namespace tessel {

absl::Status VerifyModule(const Module& module) {
  poly::Context ctx;
  CallGraph calls(module);
  // Signatures first: checking a call translates the callee's parameter
  // types and assertions, which must be valid wherever the callee is.
  for (const Procedure& proc : module.procedures()) {
    if (auto status = ProcVerifier(module, proc, calls, ctx).CheckSignature();
        !status.ok()) {
      return status;
    }
  }
  for (const Sexpr& form : module.forms()) {
    if (form.is_form("func")) {
      const Function* func = module.FindFunction(form[1].text());
      if (auto status = FuncVerifier(*func, ctx).Verify(); !status.ok()) {
        return status;
      }
    } else if (form.is_form("proc") || form.is_form("instr")) {
      ProcVerifier verifier(module, *module.FindProcedure(form[1].text()),
                            calls, ctx);
      if (auto status = verifier.CheckSignature(); !status.ok()) {
        return status;
      }
      if (auto status = verifier.CheckBody(); !status.ok()) return status;
    }
  }
  return absl::OkStatus();
}

}  // namespace tessel
