// Statements of the loop level (formats/tir/README.md, "Statements"). Loops
// and conditions bound the polyhedral domain of the statements they hold
// (libs/poly/model.h).
#include "absl/strings/str_cat.h"
#include "libs/verify/common.h"
#include "libs/verify/proc.h"
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
      // Before the callee's assertions are checked: a clobbered field is
      // an error at the call, not an unknown value.
      if (auto status = CheckCalleeReadsNoClobbered(stmt); !status.ok()) {
        return status;
      }
      if (auto status = CheckCall(stmt); !status.ok()) return status;
      ForgetConfigWrittenBy(stmt);
      RememberConfigWrittenByCall(stmt);
      return absl::OkStatus();
    case Op::kWriteConfig:
      return CheckWriteConfig(stmt);
    case Op::kTransferWrite:
      return CheckTransferWrite(stmt);
    case Op::kPrefetch:
      return CheckPrefetch(stmt);
    case Op::kAssert:
      return ErrorAt(stmt.loc(),
                     "assert is a precondition: it must come "
                     "before the other statements of a proc or "
                     "instr");
    case Op::kClobbers:
      return ErrorAt(stmt.loc(),
                     "clobbers is a declaration of a proc: it must come "
                     "before its assertions and statements");
    default:
      // The reader reads statements only where statements go.
      return ErrorAt(stmt.item_loc(0), absl::StrCat("unknown statement '",
                                                    Spelling(stmt.op()), "'"));
  }
}

absl::Status ProcVerifier::CheckFor(Node& stmt) {
  for (Node* bound : stmt.operands().subspan(0, 2)) {
    if (auto status = ControlInt(*bound); !status.ok()) return status.status();
  }
  EnterBlock();
  LoopName var;
  var.control = ControlType::kIndex;
  if (auto status = Bind(stmt, std::move(var)); !status.ok()) return status;
  // What the body writes differs from one iteration to the next; a later
  // iteration sees what an earlier one clobbered.
  ForgetConfigWrittenBy(stmt);
  auto clobbered_before = clobbered_;
  ClobberConfigMaybeBy(stmt);
  for (Node* body : stmt.operands().subspan(2)) {
    if (auto status = CheckStmt(*body); !status.ok()) return status;
  }
  LeaveBlock();
  ForgetConfigWrittenBy(stmt);
  // The loop may run no iteration, or end on one that clobbers.
  clobbered_.insert(clobbered_before.begin(), clobbered_before.end());
  ClobberConfigMaybeBy(stmt);
  return absl::OkStatus();
}

absl::Status ProcVerifier::CheckIf(Node& stmt) {
  if (auto cond = ControlCondition(*stmt.operand(0)); !cond.ok()) {
    return cond.status();
  }
  // Each branch starts from the configuration before the `if`.
  auto config_before = config_values_;
  auto clobbered_before = clobbered_;
  // What either branch (or no branch) leaves clobbered.
  auto clobbered_after =
      stmt.num_operands() < 3 ? clobbered_before : decltype(clobbered_before)();
  for (size_t i = 1; i < stmt.num_operands(); ++i) {
    config_values_ = config_before;
    clobbered_ = clobbered_before;
    if (auto status = CheckBlock(stmt.operand(i)->operands()); !status.ok()) {
      return status;
    }
    clobbered_after.insert(clobbered_.begin(), clobbered_.end());
  }
  config_values_ = std::move(config_before);
  clobbered_ = std::move(clobbered_after);
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
  if (auto status = CheckMemory(stmt, **memory); !status.ok()) {
    return status;
  }
  if (auto status = CheckDimensions(type); !status.ok()) return status;
  if (auto status = CheckPositive(type, stmt.name(), stmt); !status.ok()) {
    return status;
  }
  LoopName entry;
  entry.is_data = true;
  entry.view = RootView(stmt, *memory, /*writable=*/true, "");
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
  clobbered_.erase(*field);
  const Type& type = (*field)->declared_type();
  if (type.is_elem()) return InferData(*stmt.operand(0), type.elem()).status();
  bool is_bool = type.is_control(ControlType::kBool);
  auto value = is_bool ? ControlCondition(*stmt.operand(0))
                       : ControlInt(*stmt.operand(0));
  if (!value.ok()) return value.status();
  RememberConfig(*field, ConfigValue{.written = stmt.operand(0)});
  return absl::OkStatus();
}

absl::Status ProcVerifier::CheckPrefetch(Node& stmt) {
  Node& tensor = *stmt.operand(0);
  absl::Span<Node* const> indices = stmt.operands().subspan(1);
  if (!tensor.is(Op::kRef)) {
    return ErrorAt(tensor.loc(),
                   absl::StrCat("prefetch needs the name of a tensor or "
                                "window, found '",
                                Text(tensor), "'"));
  }
  auto data = FindData(tensor);
  if (!data.ok()) return data.status();
  const Type& type = (*data)->view.type;
  if (type.is_vector() || type.rank() == 0) {
    return ErrorAt(tensor.loc(),
                   absl::StrCat("'", tensor.name(), "' is ",
                                type.is_vector() ? "a vector" : "a scalar",
                                "; prefetch needs a tensor or window"));
  }
  if (static_cast<int>(indices.size()) != type.rank()) {
    return ErrorAt(stmt.loc(),
                   absl::StrCat("'", tensor.name(), "' has rank ", type.rank(),
                                ", but prefetch gives ", indices.size(),
                                indices.size() == 1 ? " index" : " indices"));
  }
  if (auto status = CheckAddressable(tensor, **data); !status.ok()) {
    return status;
  }
  // A hint of an address, not an access: indices outside the tensor are
  // allowed (a loop's last steps prefetch past its end), so no bounds.
  for (Node* index : indices) {
    if (auto value = ControlInt(*index); !value.ok()) return value.status();
  }
  return absl::OkStatus();
}

}  // namespace tessel::ir
