// Statements of the loop level (formats/tir/README.md, "Statements"). Loops
// and conditions extend the polyhedral domain of the statements they hold.
#include "absl/strings/str_cat.h"
#include "libs/ir/verify/proc.h"
#include "libs/support/source.h"

namespace tessel::ir {

absl::Status ProcVerifier::CheckBlock(absl::Span<Node* const> stmts) {
  EnterBlock();
  for (Node* stmt : stmts) {
    if (auto status = CheckStmt(*stmt); !status.ok()) return status;
  }
  LeaveBlock();
  return absl::OkStatus();
}

absl::Status ProcVerifier::CheckStmt(Node& stmt) {
  switch (stmt.op()) {
    case Op::kFor:
      return CheckFor(stmt);
    case Op::kIf:
      return CheckIf(stmt);
    case Op::kAlloc:
      return CheckAlloc(stmt);
    case Op::kAssign:
    case Op::kReduce:
      return CheckAssign(stmt);
    case Op::kLet:
      return CheckLet(stmt);
    case Op::kCall:
      if (auto status = CheckCall(stmt); !status.ok()) return status;
      ForgetConfigWrittenBy(stmt);
      return absl::OkStatus();
    case Op::kWriteConfig:
      return CheckWriteConfig(stmt);
    case Op::kTransferWrite:
      return CheckTransferWrite(stmt);
    case Op::kAssert:
      return ErrorAt(stmt.loc(),
                     "assert is a precondition: it must come "
                     "before the other statements of a proc or "
                     "instr");
    default:
      // The reader reads statements only where statements go.
      return ErrorAt(stmt.item_loc(0), absl::StrCat("unknown statement '",
                                                    Spelling(stmt.op()), "'"));
  }
}

absl::Status ProcVerifier::CheckFor(Node& stmt) {
  auto lo = ControlInt(*stmt.operand(0));
  if (!lo.ok()) return lo.status();
  auto hi = ControlInt(*stmt.operand(1));
  if (!hi.ok()) return hi.status();
  PolyDomain::Mark mark = domain_.mark();
  EnterBlock();
  LoopName var;
  var.control = ControlType::kIndex;
  var.isl = domain_.IslName(stmt.name());
  std::string isl = var.isl;
  if (auto status = Bind(stmt, std::move(var)); !status.ok()) return status;
  domain_.AddDim(isl, stmt.name());
  std::vector<int> params = lo->params;
  MergeParams(params, hi->params);
  domain_.Assume(
      Affine{absl::StrCat("(", lo->text, " <= ", isl, " < ", hi->text, ")"),
             std::move(params)});
  // What the body writes differs from one iteration to the next.
  ForgetConfigWrittenBy(stmt);
  for (Node* body : stmt.operands().subspan(2)) {
    if (auto status = CheckStmt(*body); !status.ok()) return status;
  }
  LeaveBlock();
  domain_.Restore(mark);
  ForgetConfigWrittenBy(stmt);
  return absl::OkStatus();
}

absl::Status ProcVerifier::CheckIf(Node& stmt) {
  auto cond = ControlCondition(*stmt.operand(0));
  if (!cond.ok()) return cond.status();
  // Each branch starts from the configuration before the `if`.
  auto config_before = config_values_;
  for (size_t i = 1; i < stmt.num_operands(); ++i) {
    config_values_ = config_before;
    PolyDomain::Mark mark = domain_.mark();
    domain_.Assume(
        i == 1 ? *cond
               : Affine{absl::StrCat("(not ", cond->text, ")"), cond->params});
    if (auto status = CheckBlock(stmt.operand(i)->operands()); !status.ok()) {
      return status;
    }
    domain_.Restore(mark);
  }
  config_values_ = std::move(config_before);
  ForgetConfigWrittenBy(stmt);
  return absl::OkStatus();
}

absl::Status ProcVerifier::CheckAlloc(Node& stmt) {
  const Type& type = stmt.declared_type();
  if (type.kind() == TypeKind::kWindow) {
    return ErrorAt(stmt.item_loc(2),
                   "alloc takes a scalar or tensor type, not a window");
  }
  auto memory = MemoryOf(stmt, 3);
  if (!memory.ok()) return memory.status();
  if (auto status = CheckVectorMemory(stmt, **memory); !status.ok()) {
    return status;
  }
  auto extents = CheckDimensions(type);
  if (!extents.ok()) return extents.status();
  if (auto status = CheckPositive(*extents, type, stmt.name()); !status.ok()) {
    return status;
  }
  LoopName entry;
  entry.is_data = true;
  entry.view = RootView(AddRoot(stmt.name(), type, *extents), type, *extents,
                        *memory, /*writable=*/true, "");
  return Bind(stmt, std::move(entry));
}

absl::Status ProcVerifier::CheckAssign(Node& stmt) {
  if (IsVectorVariable(*stmt.operand(0))) return CheckVectorAssign(stmt);
  auto elem = CheckLocation(*stmt.operand(0), /*write=*/true);
  if (!elem.ok()) return elem.status();
  return InferData(*stmt.operand(1), *elem).status();
}

absl::Status ProcVerifier::CheckLet(Node& stmt) {
  auto view = CheckWindow(*stmt.operand(0));
  if (!view.ok()) return view.status();
  LoopName entry;
  entry.is_data = true;
  entry.view = *std::move(view);
  return Bind(stmt, std::move(entry));
}

absl::Status ProcVerifier::CheckWriteConfig(Node& stmt) {
  auto field = FindConfigField(stmt);
  if (!field.ok()) return field.status();
  const Type& type = (*field)->declared_type();
  if (type.is_elem()) return InferData(*stmt.operand(0), type.elem()).status();
  bool is_bool = type.is_control(ControlType::kBool);
  auto value = is_bool ? ControlCondition(*stmt.operand(0))
                       : ControlInt(*stmt.operand(0));
  if (!value.ok()) return value.status();
  RememberConfig(*field, ControlValue{is_bool, *std::move(value)});
  return absl::OkStatus();
}

}  // namespace tessel::ir
