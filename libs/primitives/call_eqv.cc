#include "libs/primitives/call_eqv.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/ir/edit.h"
#include "libs/ir/views.h"
#include "libs/primitives/buffer_uses.h"
#include "libs/primitives/transaction.h"

namespace tessel::primitives {

using ir::Node;

namespace {

// A detached copy of `form` named `name`, without its C template and the
// headers it includes.
Node* Comparable(ir::Module& module, const Node& form,
                 const std::string& name) {
  Node* copy = module.Clone(&form);
  copy->set_name(name);
  std::vector<Node*> c_text;
  for (Node* operand : copy->operands()) {
    if (operand->is(ir::Op::kTemplate) || operand->is(ir::Op::kClause)) {
      c_text.push_back(operand);
    }
  }
  for (Node* operand : c_text) module.Detach(operand);
  return copy;
}

}  // namespace

absl::Status CallEqv(ir::Module& module, const ir::Cursor& call_cursor,
                     const Node& eqv_proc) {
  if (!call_cursor.is_valid()) return call_cursor.status();
  Node& call = *call_cursor.node();
  if (!call.is(ir::Op::kCall) || !ir::ProcView::Is(eqv_proc)) {
    return absl::InvalidArgumentError(
        absl::StrCat("call_eqv expects a call and a proc, not '",
                     NodeText(call), "' and ", eqv_proc.name()));
  }
  const Node& callee = *ir::CallView(call).callee();
  if (&callee == &eqv_proc) return absl::OkStatus();
  if (callee.op() != eqv_proc.op() ||
      !ir::AlphaEquivalent(Comparable(module, callee, "@eqv"),
                           Comparable(module, eqv_proc, "@eqv"))) {
    return absl::FailedPreconditionError(absl::StrCat(
        eqv_proc.name(), " is not known to be equivalent to ", callee.name(),
        ": call_eqv proves equivalence as alpha-equivalence of the "
        "parameters, assertions and bodies"));
  }
  Transaction tx(module);
  tx.SetDef(&call, const_cast<Node*>(&eqv_proc));
  tx.SetName(&call, eqv_proc.name());
  return tx.Commit(*ir::FormOf(&call),
                   absl::StrCat("cannot call ", eqv_proc.name()));
}

PrimitiveSpec CallEqvSpec() {
  return {"call_eqv",
          {{"call_cursor", ArgKind::kStmt, std::nullopt},
           {"eqv_proc", ArgKind::kInstr, std::nullopt}},
          [](Target& target, const Args& args) {
            return CallEqv(target.module, args["call_cursor"].cursor,
                           *args["eqv_proc"].form);
          }};
}

}  // namespace tessel::primitives
