#include "libs/emitc/proc_writer.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "libs/emitc/params.h"
#include "libs/emitc/proc_emitter.h"
#include "libs/ir/forms.h"

namespace tessel::emitc {
namespace {

std::string Declaration(const std::string& type, const std::string& name) {
  return absl::EndsWith(type, "*") ? type + name
                                   : absl::StrCat(type, " ", name);
}

// `void name(a, b, c)`, with the parameters one per line under the first
// when the line would be longer than 80 columns.
std::string Signature(const std::string& name,
                      const std::vector<std::string>& params) {
  std::string head = absl::StrCat("void ", name, "(");
  if (params.empty()) return head + "void)";
  std::string line = absl::StrCat(head, absl::StrJoin(params, ", "), ")");
  if (line.size() + 2 <= 80) return line;
  std::string separator = absl::StrCat(",\n", std::string(head.size(), ' '));
  return absl::StrCat(head, absl::StrJoin(params, separator), ")");
}

}  // namespace

void ProcWriter::AddLine(int depth, std::string text, const Uses& uses,
                         const Binding* if_used) {
  if (if_used == nullptr) Scope::Commit(uses, needs_);
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    lines_.push_back(Line{depth, std::string(line), if_used});
  }
}

absl::StatusOr<std::string> ProcWriter::Emit() {
  auto params = BindParameters(proc_, scope_, expr_);
  if (!params.ok()) return params.status();
  std::vector<std::string> declarations;
  std::vector<ir::Node*> param_nodes = ir::ParamsOf(proc_);
  for (size_t i = 0; i < param_nodes.size(); ++i) {
    declarations.push_back(Declaration(ParameterCType(*param_nodes[i], needs_),
                                       (*params)[i]->c_name));
  }
  // Asserts are preconditions the caller establishes; like Exo, the output
  // only records them (as comments, so they use nothing).
  for (const ir::Node* assertion : ir::AssertsOf(proc_)) {
    auto condition = expr_.Control(*assertion->operand(0));
    if (!condition.ok()) return condition.status();
    lines_.push_back(
        Line{1, absl::StrCat("/* assert: ", condition->text, " */")});
  }
  size_t body_start = lines_.size();
  if (auto status = Block(ir::BodyOf(proc_), 1, /*proc_body=*/true);
      !status.ok()) {
    return status;
  }
  std::vector<Line> unused;
  for (const Binding* param : *params) {
    if (!param->used) {
      unused.push_back(Line{1, absl::StrCat("(void)", param->c_name, ";")});
    }
  }
  lines_.insert(lines_.begin() + body_start, unused.begin(), unused.end());
  // Streaming stores are weakly ordered: the fence orders them before
  // whatever the caller stores next (a flag that hands the output to
  // another thread, say), as every other store is ordered. (GCC's and
  // Clang's builtin needs no header.)
  if (ir::AnyNode(proc_, [](const ir::Node& node) {
        return node.is(ir::Op::kNontemporal);
      })) {
    lines_.push_back(Line{0, "#if defined(__AVX2__) || defined(__AVX512F__)"});
    lines_.push_back(Line{1, "__builtin_ia32_sfence();"});
    lines_.push_back(Line{0, "#endif"});
  }

  std::string text =
      Signature(globals_.procedures.at(&proc_), declarations) + " {\n";
  for (const Line& line : lines_) {
    if (line.if_used != nullptr && !line.if_used->used) continue;
    if (!line.text.empty()) {
      absl::StrAppend(&text, std::string(2 * line.depth, ' '), line.text);
    }
    text += "\n";
  }
  return text + "}\n";
}

absl::Status ProcWriter::Block(absl::Span<ir::Node* const> stmts, int depth,
                               bool proc_body) {
  scope_.Push();
  std::vector<Allocation> allocations;
  for (size_t i = 0; i < stmts.size(); ++i) {
    if (auto status =
            Statement(*stmts[i], stmts.subspan(i + 1), depth, allocations);
        !status.ok()) {
      return status;
    }
  }
  const bool pooled = proc_body && PoolTemporaries(allocations, depth);
  for (auto it = allocations.rbegin(); it != allocations.rend(); ++it) {
    if (auto status = Release(*it, depth); !status.ok()) return status;
  }
  if (pooled) AddLine(depth, "tsl_free(tsl_temporaries);", Uses{});
  scope_.Pop();
  return absl::OkStatus();
}

absl::Status ProcWriter::Statement(const ir::Node& stmt,
                                   absl::Span<ir::Node* const> rest, int depth,
                                   std::vector<Allocation>& allocations) {
  switch (stmt.op()) {
    case ir::Op::kFor:
      return For(stmt, depth);
    case ir::Op::kIf:
      return If(stmt, depth);
    case ir::Op::kAlloc:
      return Alloc(stmt, rest, depth, allocations);
    case ir::Op::kAssign:
      if (stmt.operand(0)->type().is_vector()) {
        return VectorStatement(stmt, depth);
      }
      return Assign(stmt, depth);
    case ir::Op::kReduce:
      return Assign(stmt, depth);
    case ir::Op::kTransferWrite:
      return VectorStatement(stmt, depth);
    case ir::Op::kLet:
      return Let(stmt);
    case ir::Op::kCall:
      return Call(stmt, depth);
    case ir::Op::kWriteConfig:
      return WriteConfig(stmt, depth);
    case ir::Op::kPrefetch:
      return Prefetch(stmt, depth);
    default:
      return Unexpected(stmt, "a statement");
  }
}

absl::Status ProcWriter::For(const ir::Node& stmt, int depth) {
  const ir::Node& lo_node = *stmt.operand(0);
  const ir::Node& hi_node = *stmt.operand(1);
  auto lo = expr_.Control(lo_node);
  if (!lo.ok()) return lo.status();
  auto hi = expr_.Control(hi_node);
  if (!hi.ok()) return hi.status();
  // The bound is evaluated once; C re-evaluates the condition, which only
  // matters when the body may change a configuration the bound reads.
  if (ir::AnyNode(hi_node, [](const ir::Node& node) {
        return node.is(ir::Op::kReadConfig);
      })) {
    std::string end = scope_.Fresh(absl::StrCat(stmt.name(), "_end"));
    AddLine(depth, absl::StrCat("const int64_t ", end, " = ", hi->text, ";"),
            hi->uses);
    hi = Primary(end);
  }
  scope_.Push();
  Binding var;
  var.kind = BindingKind::kControl;
  var.non_negative = expr_.NonNegative(lo_node);
  const std::string& name = scope_.Bind(stmt, var)->c_name;
  CExpr condition = Binary("<", Primary(name), *hi);
  Uses uses = lo->uses;
  uses.Merge(condition.uses);
  // A parallel loop's iterations are independent (the verifier proves it):
  // OpenMP runs them at once; without it the pragma is not there and the
  // loop runs in order.
  if (stmt.is_parallel()) {
    AddLine(depth, "#ifdef _OPENMP", {});
    AddLine(depth, "#pragma omp parallel for", {});
    AddLine(depth, "#endif", {});
  }
  AddLine(depth,
          absl::StrCat("for (int64_t ", name, " = ", lo->text, "; ",
                       condition.text, "; ", name, "++) {"),
          uses);
  if (auto status = Block(ir::StatementsOf(stmt), depth + 1); !status.ok()) {
    return status;
  }
  AddLine(depth, "}", {});
  scope_.Pop();
  return absl::OkStatus();
}

absl::Status ProcWriter::If(const ir::Node& stmt, int depth) {
  auto condition = expr_.Control(*stmt.operand(0));
  if (!condition.ok()) return condition.status();
  AddLine(depth, absl::StrCat("if (", condition->text, ") {"), condition->uses);
  if (auto status = Block(ir::StatementsOf(*stmt.operand(1)), depth + 1);
      !status.ok()) {
    return status;
  }
  if (stmt.num_operands() == 3) {
    AddLine(depth, "} else {", {});
    if (auto status = Block(ir::StatementsOf(*stmt.operand(2)), depth + 1);
        !status.ok()) {
      return status;
    }
  }
  AddLine(depth, "}", {});
  return absl::OkStatus();
}

absl::Status ProcWriter::Assign(const ir::Node& stmt, int depth) {
  const ir::Node& location = *stmt.operand(0);
  auto target = expr_.AssignTarget(location);
  if (!target.ok()) return target.status();
  auto value = expr_.Data(*stmt.operand(1));
  if (!value.ok()) return value.status();
  bool reduce = stmt.is(ir::Op::kReduce);
  // `+=` on an i32 would add in C's int, whose overflow is undefined; an
  // f16 sum is spelled out as every f16 operation is.
  if (reduce && !ExprEmitter::ReducesWithPlusEquals(target->elem)) {
    auto current = expr_.Data(location);
    if (!current.ok()) return current.status();
    value =
        ExprEmitter::Arithmetic(ir::Op::kAdd, *current, *value, target->elem);
    reduce = false;
  }
  Uses uses = target->lvalue.uses;
  uses.Merge(value->uses);
  AddVectorLines(depth);
  AddLine(depth,
          absl::StrCat(target->lvalue.text, reduce ? " += " : " = ",
                       value->text, ";"),
          uses);
  return absl::OkStatus();
}

absl::Status ProcWriter::Let(const ir::Node& stmt) {
  auto view = expr_.WindowOf(*stmt.operand(0));
  if (!view.ok()) return view.status();
  // A let declares nothing: accesses through the window are written
  // through its base, with the window's offsets folded in.
  Binding binding;
  binding.kind = BindingKind::kBuffer;
  binding.elem = view->root->elem;
  binding.view = *std::move(view);
  scope_.BindAlias(stmt, std::move(binding));
  return absl::OkStatus();
}

absl::Status ProcWriter::WriteConfig(const ir::Node& stmt, int depth) {
  const ir::Node& config = *stmt.def();
  const ir::Node* field = ir::FindField(config, stmt.name());
  if (field == nullptr) return Unexpected(stmt, "a field of the config");
  const ir::Node& value_node = *stmt.operand(0);
  auto value = field->declared_type().is_control() ? expr_.Control(value_node)
                                                   : expr_.Data(value_node);
  if (!value.ok()) return value.status();
  CExpr target =
      Member(Primary(globals_.configs.at(&config)), globals_.fields.at(field));
  Uses uses = value->uses;
  uses.needs.configs.insert(&config);
  AddVectorLines(depth);
  AddLine(depth, absl::StrCat(target.text, " = ", value->text, ";"), uses);
  return absl::OkStatus();
}

absl::Status ProcWriter::Prefetch(const ir::Node& stmt, int depth) {
  auto address = expr_.PrefetchAddress(stmt);
  if (!address.ok()) return address.status();
  // For a read (0), kept in every level of the caches (3). GCC's manual
  // allows an address past the array: a prefetch does not fault.
  AddLine(depth,
          absl::StrCat("__builtin_prefetch(", address->text, ", 0, 3);"),
          address->uses);
  return absl::OkStatus();
}

absl::Status ProcWriter::VectorStatement(const ir::Node& stmt, int depth) {
  auto status = stmt.is(ir::Op::kAssign) ? vectors_.Assign(stmt)
                                         : vectors_.TransferWrite(stmt);
  if (!status.ok()) return status;
  AddVectorLines(depth);
  return absl::OkStatus();
}

void ProcWriter::AddVectorLines(int depth) {
  for (VectorEmitter::Line& line : vectors_.TakeLines()) {
    AddLine(depth + line.depth, std::move(line.text), line.uses);
  }
}

absl::StatusOr<Statements> ProcWriter::EmitBody(
    absl::Span<const OuterBinder> outer, const ir::Node* guard,
    absl::Span<ir::Node* const> stmts, int depth) {
  scope_.Push();
  std::vector<Binding*> bound;
  for (const OuterBinder& binder : outer) {
    Binding* binding = binder.binding.c_name.empty()
                           ? scope_.Bind(*binder.binder, binder.binding)
                           : scope_.BindAlias(*binder.binder, binder.binding);
    // A buffer's accesses use it through its view.
    if (binding->kind == BindingKind::kBuffer) {
      binding->view.root = binding;
      binding->view.base.uses.reads.push_back(binding);
    }
    bound.push_back(binding);
  }
  int inner = depth;
  if (guard != nullptr) {
    auto condition = expr_.Control(*guard);
    if (!condition.ok()) return condition.status();
    AddLine(depth, absl::StrCat("if (", condition->text, ") {"),
            condition->uses);
    ++inner;
  }
  if (auto status = Block(stmts, inner); !status.ok()) return status;
  if (guard != nullptr) AddLine(depth, "}", Uses{});
  Statements out;
  for (const Line& line : lines_) {
    if (line.if_used != nullptr && !line.if_used->used) continue;
    if (!line.text.empty()) {
      absl::StrAppend(&out.text, std::string(2 * line.depth, ' '), line.text);
    }
    out.text += "\n";
  }
  for (const Binding* binding : bound) {
    out.c_names.push_back(binding->c_name);
    out.used.push_back(binding->used);
  }
  scope_.Pop();
  return out;
}

absl::StatusOr<std::string> EmitProcedure(const ir::Module& module,
                                          const GlobalNames& globals,
                                          const ir::Node& proc, Needs& needs,
                                          const Extensions& extensions) {
  return ProcWriter(module, globals, proc, needs, extensions).Emit();
}

absl::StatusOr<Statements> EmitStatements(
    const ir::Module& module, const GlobalNames& globals,
    absl::Span<const OuterBinder> outer, const ir::Node* guard,
    absl::Span<ir::Node* const> stmts, int depth, Needs& needs,
    const Extensions& extensions) {
  if (stmts.empty()) return Statements{};
  return ProcWriter(module, globals, *stmts.front(), needs, extensions)
      .EmitBody(outer, guard, stmts, depth);
}

}  // namespace tessel::emitc
