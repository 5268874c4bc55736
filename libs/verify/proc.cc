#include "libs/verify/proc.h"

#include "absl/strings/str_cat.h"
#include "libs/verify/common.h"
#include "libs/verify/parallel.h"
#include "libs/support/source.h"

namespace tessel::ir {
namespace {

bool IsData(ParamKind kind) { return kind >= ParamKind::kIn; }

bool IsWritten(ParamKind kind) {
  return kind == ParamKind::kOut || kind == ParamKind::kInOut;
}

bool IsProcedure(const Node& form) {
  return form.is(Op::kProc) || form.is(Op::kInstr);
}

}  // namespace

absl::Status VerifyProcedures(
    Module& module, poly::Context& ctx,
    absl::FunctionRef<absl::Status(Node& form)> other_form) {
  CallGraph calls(module);
  for (Node* form : module.forms()) {
    if (!IsProcedure(*form)) continue;
    if (auto status = ProcVerifier(module, *form, calls, ctx).CheckSignature();
        !status.ok()) {
      return status;
    }
  }
  for (Node* form : module.forms()) {
    if (form->is(Op::kPeProgram)) {
      ProcVerifier verifier(module, *form, calls, ctx);
      if (auto status = verifier.CheckPeProgram(); !status.ok()) return status;
      continue;
    }
    if (!IsProcedure(*form)) {
      if (auto status = other_form(*form); !status.ok()) return status;
      continue;
    }
    ProcVerifier verifier(module, *form, calls, ctx);
    if (auto status = verifier.CheckSignature(); !status.ok()) return status;
    if (auto status = verifier.CheckBody(); !status.ok()) return status;
  }
  return absl::OkStatus();
}

absl::Status VerifyProcedure(Module& module, Node& proc, poly::Context& ctx,
                             ProcChecks checks) {
  // The call graph is for the recursion check, which must see the edited
  // proc's calls as they are now.
  CallGraph calls(module);
  ProcVerifier verifier(module, proc, calls, ctx, checks);
  if (proc.is(Op::kPeProgram)) return verifier.CheckPeProgram();
  if (auto status = verifier.CheckSignature(); !status.ok()) return status;
  return verifier.CheckBody();
}

Type BinderType(const Node& binder) {
  switch (binder.op()) {
    case Op::kFor:
      return Type::Control(ControlType::kIndex);
    case Op::kLet:
      return binder.num_operands() > 0 ? binder.operand(0)->type() : Type();
    default:  // Param, Alloc
      return binder.declared_type();
  }
}

ProcVerifier::ProcVerifier(Module& module, Node& proc, const CallGraph& calls,
                           poly::Context& ctx, ProcChecks checks)
    : module_(module),
      proc_(proc),
      calls_(calls),
      checks_(checks),
      model_(isl::ctx(ctx.get()), proc) {
  EnterBlock();  // the parameters'
}

absl::Status ProcVerifier::CheckSignature() {
  std::vector<Node*> params = ParamsOf(proc_);
  for (Node* param : params) {
    if (auto status = BindParam(*param); !status.ok()) return status;
  }
  if (auto status = CheckClobbersDeclarations(); !status.ok()) return status;
  std::vector<Node*> asserts = AssertsOf(proc_);
  for (Node* assertion : asserts) {
    auto condition = ControlCondition(*assertion->operand(0));
    if (!condition.ok()) return condition.status();
  }
  if (!asserts.empty()) {
    auto empty = model_.IsDead(proc_);
    if (!empty.ok()) return empty.status();
    if (*empty) {
      return ErrorAt(asserts.front()->loc(),
                     absl::StrCat("the assertions of '", proc_.name(),
                                  "' contradict each other: no call can "
                                  "establish them"));
    }
  }
  for (Node* param : params) {
    if (!IsData(param->param_kind())) continue;
    if (auto status =
            CheckPositive(param->declared_type(), param->name(), proc_);
        !status.ok()) {
      return status;
    }
  }
  return absl::OkStatus();
}

absl::Status ProcVerifier::CheckBody() {
  if (auto status = CheckBlock(BodyOf(proc_)); !status.ok()) return status;
  if (auto status = CheckClobberedAtEnd(); !status.ok()) return status;
  return CheckParallelLoops(proc_);
}

absl::Status ProcVerifier::BindParam(Node& param) {
  LoopName entry;
  if (!IsData(param.param_kind())) {
    entry.control = param.declared_type().control();
    return Bind(param, std::move(entry));
  }
  auto memory = MemoryOf(param, 3);
  if (!memory.ok()) return memory.status();
  const Type& type = param.declared_type();
  if (auto status = CheckMemory(param, **memory); !status.ok()) {
    return status;
  }
  if (auto status = CheckDimensions(type); !status.ok()) return status;
  bool written = IsWritten(param.param_kind());
  entry.is_data = true;
  entry.view = RootView(param, *memory, written, written ? "" : param.name());
  return Bind(param, std::move(entry));
}

absl::Status ProcVerifier::Bind(const Node& binder, LoopName entry) {
  if (auto status = CheckBindableName(binder); !status.ok()) return status;
  if (names_.contains(binder.name())) {
    return ErrorAt(binder.name_loc(),
                   absl::StrCat("'", binder.name(),
                                "' is already bound (names may not be "
                                "shadowed)"));
  }
  names_[binder.name()] = &binder;
  bound_.insert_or_assign(&binder, std::move(entry));
  blocks_.back().push_back(&binder);
  return absl::OkStatus();
}

void ProcVerifier::EnterBlock() { blocks_.emplace_back(); }

void ProcVerifier::LeaveBlock() {
  for (const Node* binder : blocks_.back()) {
    names_.erase(binder->name());
    bound_.erase(binder);
  }
  blocks_.pop_back();
}

const LoopName* ProcVerifier::Find(const Node* binder) const {
  auto it = bound_.find(binder);
  return it == bound_.end() ? nullptr : &it->second;
}

absl::StatusOr<const Node*> ProcVerifier::MemoryOf(const Node& decl,
                                                   size_t item) const {
  const Node* memory = decl.def();
  if (memory == nullptr) return module_.dram();
  if (memory->is(Op::kMemory)) return memory;
  return ErrorAt(decl.item_loc(item),
                 absl::StrCat("unknown memory '", memory->name(), "'"));
}

absl::Status ProcVerifier::CheckDimensions(const Type& type) {
  for (const Dim& dim : type.dims()) {
    if (dim.is_constant()) continue;
    if (auto status = CheckDimension(Mutable(dim.expr)); !status.ok()) {
      return status;
    }
  }
  return absl::OkStatus();
}

absl::Status ProcVerifier::CheckDimension(Node& dim) {
  if (dim.is(Op::kRef)) {
    const LoopName* name = Find(dim.def());
    if (name != nullptr &&
        (name->is_data || name->control != ControlType::kSize)) {
      return ErrorAt(dim.loc(),
                     absl::StrCat("a dimension may only use sizes and "
                                  "literals, and '",
                                  dim.name(), "' is ",
                                  name->is_data ? "data" : "not a size"));
    }
  } else if (!dim.is(Op::kConst)) {
    if (!IsDimensionOperator(dim.op())) {
      return ErrorAt(dim.loc(), absl::StrCat("a dimension may only use "
                                             "sizes, literals and "
                                             "arithmetic, not '",
                                             Text(dim), "'"));
    }
    for (Node* operand : dim.operands()) {
      if (auto status = CheckDimension(*operand); !status.ok()) return status;
    }
  }
  return ControlInt(dim).status();
}

absl::Status ProcVerifier::CheckPositive(const Type& type,
                                         const std::string& name,
                                         const Node& stmt) {
  for (size_t k = 0; k < type.dims().size(); ++k) {
    const Dim& dim = type.dims()[k];
    if (dim.is_constant()) continue;  // the reader checked it
    auto extent = model_.Affine(*dim.expr, stmt);
    if (!extent.ok()) return extent.status();
    auto violation = model_.FindViolation(
        stmt, {*extent}, [](const std::vector<isl::pw_aff>& values) {
          return values[0].le_set(poly::ConstantOn(values[0], 0));
        });
    if (!violation.ok()) return violation.status();
    if (!violation->has_value()) continue;
    const poly::Violation& at = **violation;
    return ErrorAt(
        dim.expr->loc(),
        absl::StrCat("dimension ", k, " of '", name, "' can be ", at.values[0],
                     ", but dimensions are positive", AtPoint(at.at)));
  }
  return absl::OkStatus();
}

View ProcVerifier::RootView(const Node& root, const Node* memory, bool writable,
                            const std::string& read_only_source) const {
  View view;
  view.type = root.declared_type();
  view.source = &root;
  view.root = &root;
  view.memory = memory;
  view.writable = writable;
  view.read_only_source = read_only_source;
  return view;
}

}  // namespace tessel::ir
