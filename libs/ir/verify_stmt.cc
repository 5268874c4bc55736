// Statements of the loop level (formats/tir/README.md, "Statements"). Loops
// and conditions extend the polyhedral domain of the statements they hold.
#include "absl/strings/str_cat.h"
#include "libs/ir/verify_common.h"
#include "libs/ir/verify_proc.h"
#include "libs/sexpr/printer.h"
#include "libs/support/source.h"

namespace tessel {

absl::Status ProcVerifier::CheckBlock(const std::vector<const Sexpr*>& stmts) {
  EnterBlock();
  for (const Sexpr* stmt : stmts) {
    if (auto status = CheckStmt(*stmt); !status.ok()) return status;
  }
  LeaveBlock();
  return absl::OkStatus();
}

absl::Status ProcVerifier::CheckBlockItems(const Sexpr& form, size_t first) {
  std::vector<const Sexpr*> stmts;
  for (size_t i = first; i < form.size(); ++i) stmts.push_back(&form[i]);
  return CheckBlock(stmts);
}

absl::Status ProcVerifier::CheckStmt(const Sexpr& stmt) {
  absl::string_view head = stmt.head();
  if (head.empty()) {
    return ErrorAt(stmt.loc(), absl::StrCat("expected a statement, found '",
                                            PrintFlat(stmt), "'"));
  }
  if (head == "for") return CheckFor(stmt);
  if (head == "if") return CheckIf(stmt);
  if (head == "alloc") return CheckAlloc(stmt);
  if (head == "assign" || head == "reduce") return CheckAssign(stmt);
  if (head == "let") return CheckLet(stmt);
  if (head == "call") {
    if (auto status = CheckCall(stmt); !status.ok()) return status;
    ForgetConfigWrittenBy(stmt);
    return absl::OkStatus();
  }
  if (head == "write-config") return CheckWriteConfig(stmt);
  if (head == "assert") {
    return ErrorAt(stmt.loc(),
                   "assert is a precondition: it must come "
                   "before the other statements of a proc or "
                   "instr");
  }
  return ErrorAt(stmt[0].loc(), absl::StrCat("unknown statement '", head, "'"));
}

absl::Status ProcVerifier::CheckFor(const Sexpr& stmt) {
  if (stmt.size() < 4) {
    return ErrorAt(stmt.loc(), "expected (for V LO HI STMT...)");
  }
  auto lo = ControlInt(stmt[2]);
  if (!lo.ok()) return lo.status();
  auto hi = ControlInt(stmt[3]);
  if (!hi.ok()) return hi.status();
  PolyDomain::Mark mark = domain_.mark();
  EnterBlock();
  LoopName var;
  var.control = ControlType::kIndex;
  if (stmt[1].is_symbol()) var.isl = domain_.IslName(stmt[1].text());
  std::string isl = var.isl;
  if (auto status = Bind(stmt[1], std::move(var), "loop variable");
      !status.ok()) {
    return status;
  }
  domain_.AddDim(isl, stmt[1].text());
  std::vector<int> params = lo->params;
  MergeParams(params, hi->params);
  domain_.Assume(
      Affine{absl::StrCat("(", lo->text, " <= ", isl, " < ", hi->text, ")"),
             std::move(params)});
  // What the body writes differs from one iteration to the next.
  ForgetConfigWrittenBy(stmt);
  for (size_t i = 4; i < stmt.size(); ++i) {
    if (auto status = CheckStmt(stmt[i]); !status.ok()) return status;
  }
  LeaveBlock();
  domain_.Restore(mark);
  ForgetConfigWrittenBy(stmt);
  return absl::OkStatus();
}

absl::Status ProcVerifier::CheckIf(const Sexpr& stmt) {
  if (stmt.size() != 3 && stmt.size() != 4) {
    return ErrorAt(stmt.loc(),
                   "expected (if COND (then STMT...) [(else STMT...)])");
  }
  auto cond = ControlCondition(stmt[1]);
  if (!cond.ok()) return cond.status();
  const char* branches[] = {"then", "else"};
  // Each branch starts from the configuration before the `if`.
  auto config_before = config_values_;
  for (size_t i = 2; i < stmt.size(); ++i) {
    config_values_ = config_before;
    const Sexpr& branch = stmt[i];
    if (!branch.is_form(branches[i - 2])) {
      return ErrorAt(branch.loc(),
                     absl::StrCat("expected (", branches[i - 2], " STMT...)"));
    }
    PolyDomain::Mark mark = domain_.mark();
    domain_.Assume(
        i == 2 ? *cond
               : Affine{absl::StrCat("(not ", cond->text, ")"), cond->params});
    if (auto status = CheckBlockItems(branch, 1); !status.ok()) return status;
    domain_.Restore(mark);
  }
  config_values_ = std::move(config_before);
  ForgetConfigWrittenBy(stmt);
  return absl::OkStatus();
}

absl::Status ProcVerifier::CheckAlloc(const Sexpr& stmt) {
  if (stmt.size() != 3 && stmt.size() != 4) {
    return ErrorAt(stmt.loc(), "expected (alloc NAME TYPE [@MEM])");
  }
  auto type = ParseDataType(stmt[2]);
  if (!type.ok()) return type.status();
  if (type->is_window) {
    return ErrorAt(stmt[2].loc(),
                   "alloc takes a scalar or tensor type, not a window");
  }
  std::string memory(kDefaultMemory);
  if (stmt.size() == 4) {
    if (!stmt[3].is_symbol() || module_.FindMemory(stmt[3].text()) == nullptr) {
      return ErrorAt(stmt[3].loc(),
                     absl::StrCat("unknown memory '", PrintFlat(stmt[3]), "'"));
    }
    memory = stmt[3].text();
  }
  std::vector<Affine> extents;
  for (const Sexpr& dim : type->dims) {
    auto extent = CheckDimension(dim);
    if (!extent.ok()) return extent.status();
    extents.push_back(*std::move(extent));
  }
  absl::string_view name =
      stmt[1].is_symbol() ? absl::string_view(stmt[1].text()) : "";
  if (auto status = CheckPositive(extents, *type, name); !status.ok()) {
    return status;
  }
  LoopName entry;
  entry.is_data = true;
  entry.view = RootView(AddRoot(name, *type, extents), *type, extents, memory,
                        /*writable=*/true, "");
  return Bind(stmt[1], std::move(entry), "allocation");
}

absl::Status ProcVerifier::CheckAssign(const Sexpr& stmt) {
  if (auto status = ExpectOperands(stmt, 2); !status.ok()) return status;
  auto elem = CheckLocation(stmt[1], /*write=*/true);
  if (!elem.ok()) return elem.status();
  return InferData(stmt[2], *elem).status();
}

absl::Status ProcVerifier::CheckLet(const Sexpr& stmt) {
  if (auto status = ExpectOperands(stmt, 2); !status.ok()) return status;
  auto view = CheckWindow(stmt[2]);
  if (!view.ok()) return view.status();
  LoopName entry;
  entry.is_data = true;
  entry.view = *std::move(view);
  return Bind(stmt[1], std::move(entry), "window");
}

absl::Status ProcVerifier::CheckWriteConfig(const Sexpr& stmt) {
  if (auto status = ExpectOperands(stmt, 3); !status.ok()) return status;
  auto field = FindConfigField(stmt);
  if (!field.ok()) return field.status();
  absl::string_view type = (*field)->type->text();
  if (std::optional<ElemType> elem = ParseElemType(type)) {
    return InferData(stmt[3], *elem).status();
  }
  bool is_bool = ParseControlType(type) == ControlType::kBool;
  auto value = is_bool ? ControlCondition(stmt[3]) : ControlInt(stmt[3]);
  if (!value.ok()) return value.status();
  RememberConfig(stmt, ControlValue{is_bool, *std::move(value)});
  return absl::OkStatus();
}

}  // namespace tessel
