#include "libs/emitc/proc_emitter.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/types/span.h"
#include "libs/emitc/c_template.h"
#include "libs/sexpr/printer.h"

namespace tessel::emitc {
namespace {

bool Mentions(const Sexpr& node, absl::string_view name) {
  if (node.is_symbol()) return node.text() == name;
  for (const Sexpr& item : node.items()) {
    if (Mentions(item, name)) return true;
  }
  return false;
}

// Does `stmt`, which mentions `name`, write the scalar without reading it:
// an assign, or a call passing it only to `out` parameters?
bool WritesFirst(const Module& module, const Sexpr& stmt,
                 absl::string_view name) {
  if (stmt.is_form("assign")) {
    return stmt.size() == 3 && stmt[1].is_symbol(name) &&
           !Mentions(stmt[2], name);
  }
  const Procedure* callee =
      stmt.is_form("call") && stmt.size() >= 2 && stmt[1].is_symbol()
          ? module.FindProcedure(stmt[1].text())
          : nullptr;
  if (callee == nullptr || stmt.size() - 2 != callee->params.size()) {
    return false;
  }
  for (size_t i = 0; i < callee->params.size(); ++i) {
    const Sexpr& arg = stmt[i + 2];
    bool out = arg.is_symbol(name) && callee->params[i].kind == ParamKind::kOut;
    if (!out && Mentions(arg, name)) return false;
  }
  return true;
}

// True when the first of `rest` that mentions `name` writes it first:
// every read of the new scalar then follows a write on every path, plainly
// enough for GCC's -Wmaybe-uninitialized to see it too.
bool AssignedBeforeUse(const Module& module,
                       absl::Span<const Sexpr* const> rest,
                       absl::string_view name) {
  for (const Sexpr* stmt : rest) {
    if (Mentions(*stmt, name)) return WritesFirst(module, *stmt, name);
  }
  return true;
}

std::vector<const Sexpr*> Items(const Sexpr& list, size_t first) {
  std::vector<const Sexpr*> items;
  for (size_t i = first; i < list.size(); ++i) items.push_back(&list[i]);
  return items;
}

absl::StatusOr<std::vector<CExpr>> Dimensions(const DataType& type,
                                              const ExprEmitter& expr) {
  std::vector<CExpr> dims;
  for (const Sexpr& dim : type.dims) {
    auto value = expr.Control(dim);
    if (!value.ok()) return value.status();
    dims.push_back(*std::move(value));
  }
  return dims;
}

CExpr ElementCount(const std::vector<CExpr>& dims) {
  CExpr count = IntLiteral(1);
  for (const CExpr& dim : dims) count = Multiply(count, dim);
  return count;
}

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

// Where a memory's template is written, for diagnostics.
Location TemplateLocation(const Memory& memory, absl::string_view clause) {
  if (memory.form == nullptr) return Location{};
  for (const Sexpr& item : memory.form->items()) {
    if (item.is_form(clause) && item.size() == 2) return item[1].loc();
  }
  return memory.form->loc();
}

struct Line {
  int depth = 0;
  std::string text;
  const Binding* if_used = nullptr;  // an allocation, dropped when unused
};

class ProcEmitter {
 public:
  ProcEmitter(const Module& module, const GlobalNames& globals,
              const Procedure& proc, Needs& needs)
      : module_(module),
        globals_(globals),
        proc_(proc),
        needs_(needs),
        scope_(globals.taken),
        expr_(module, globals, scope_) {}

  absl::StatusOr<std::string> Emit();

 private:
  // An allocation of the current block, released at its end.
  struct Allocation {
    Binding* binding;
    const Memory* memory;  // null for a scalar local
    CExpr size;
    Uses uses;  // of the declaration, committed if the allocation is used
  };
  enum class ArgumentMode { kCall, kTemplateValue, kTemplatePointer };

  void AddLine(int depth, std::string text, const Uses& uses,
               const Binding* if_used = nullptr);
  absl::Status Block(absl::Span<const Sexpr* const> stmts, int depth);
  absl::Status Statement(const Sexpr& stmt, absl::Span<const Sexpr* const> rest,
                         int depth, std::vector<Allocation>& allocations);
  absl::Status For(const Sexpr& stmt, int depth);
  absl::Status If(const Sexpr& stmt, int depth);
  absl::Status Alloc(const Sexpr& stmt, absl::Span<const Sexpr* const> rest,
                     int depth, std::vector<Allocation>& allocations);
  absl::Status Release(const Allocation& allocation, int depth);
  absl::Status Assign(const Sexpr& stmt, int depth);
  absl::Status Let(const Sexpr& stmt);
  absl::Status Call(const Sexpr& stmt, int depth);
  absl::Status WriteConfig(const Sexpr& stmt, int depth);
  absl::StatusOr<CExpr> Argument(const Procedure& callee, const Param& param,
                                 const Sexpr& arg, ArgumentMode mode);
  absl::StatusOr<std::string> ExpandMemoryTemplate(const Memory& memory,
                                                   absl::string_view clause,
                                                   const Allocation& allocation,
                                                   Uses& uses);

  const Module& module_;
  const GlobalNames& globals_;
  const Procedure& proc_;
  Needs& needs_;
  Scope scope_;
  ExprEmitter expr_;
  std::vector<Line> lines_;
};

void ProcEmitter::AddLine(int depth, std::string text, const Uses& uses,
                          const Binding* if_used) {
  if (if_used == nullptr) Scope::Commit(uses, needs_);
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    lines_.push_back(Line{depth, std::string(line), if_used});
  }
}

absl::StatusOr<std::string> ProcEmitter::Emit() {
  auto params = BindParameters(proc_, scope_, expr_);
  if (!params.ok()) return params.status();
  std::vector<std::string> declarations;
  for (size_t i = 0; i < proc_.params.size(); ++i) {
    declarations.push_back(Declaration(ParameterCType(proc_.params[i], needs_),
                                       (*params)[i]->c_name));
  }
  // Asserts are preconditions the caller establishes; like Exo, the output
  // only records them (as comments, so they use nothing).
  for (const Sexpr* assertion : proc_.asserts) {
    auto condition = expr_.Control((*assertion)[1]);
    if (!condition.ok()) return condition.status();
    lines_.push_back(
        Line{1, absl::StrCat("/* assert: ", condition->text, " */")});
  }
  size_t body_start = lines_.size();
  if (auto status = Block(proc_.body, 1); !status.ok()) return status;
  std::vector<Line> unused;
  for (const Binding* param : *params) {
    if (!param->used)
      unused.push_back(Line{1, absl::StrCat("(void)", param->c_name, ";")});
  }
  lines_.insert(lines_.begin() + body_start, unused.begin(), unused.end());

  std::string text =
      Signature(globals_.procedures.at(proc_.name), declarations) + " {\n";
  for (const Line& line : lines_) {
    if (line.if_used != nullptr && !line.if_used->used) continue;
    if (!line.text.empty()) {
      absl::StrAppend(&text, std::string(2 * line.depth, ' '), line.text);
    }
    text += "\n";
  }
  return text + "}\n";
}

absl::Status ProcEmitter::Block(absl::Span<const Sexpr* const> stmts,
                                int depth) {
  scope_.Push();
  std::vector<Allocation> allocations;
  for (size_t i = 0; i < stmts.size(); ++i) {
    if (auto status =
            Statement(*stmts[i], stmts.subspan(i + 1), depth, allocations);
        !status.ok()) {
      return status;
    }
  }
  for (auto it = allocations.rbegin(); it != allocations.rend(); ++it) {
    if (auto status = Release(*it, depth); !status.ok()) return status;
  }
  scope_.Pop();
  return absl::OkStatus();
}

absl::Status ProcEmitter::Statement(const Sexpr& stmt,
                                    absl::Span<const Sexpr* const> rest,
                                    int depth,
                                    std::vector<Allocation>& allocations) {
  absl::string_view head = stmt.head();
  if (head == "for") return For(stmt, depth);
  if (head == "if") return If(stmt, depth);
  if (head == "alloc") return Alloc(stmt, rest, depth, allocations);
  if (head == "assign" || head == "reduce") return Assign(stmt, depth);
  if (head == "let") return Let(stmt);
  if (head == "call") return Call(stmt, depth);
  if (head == "write-config") return WriteConfig(stmt, depth);
  if (head == "assert") {
    return ErrorAt(stmt.loc(),
                   "assert is a precondition: it must come "
                   "before the other statements");
  }
  return ErrorAt(stmt.loc(),
                 absl::StrCat("expected a statement (for, if, alloc, assign, "
                              "reduce, let, call or write-config), found '",
                              PrintFlat(stmt), "'"));
}

absl::Status ProcEmitter::For(const Sexpr& stmt, int depth) {
  if (stmt.size() < 4 || !stmt[1].is_symbol()) {
    return ErrorAt(stmt.loc(), "expected (for VAR LO HI STMT...)");
  }
  auto lo = expr_.Control(stmt[2]);
  if (!lo.ok()) return lo.status();
  auto hi = expr_.Control(stmt[3]);
  if (!hi.ok()) return hi.status();
  // The bound is evaluated once; C re-evaluates the condition, which only
  // matters when the body may change a configuration the bound reads.
  if (Mentions(stmt[3], "read-config")) {
    std::string end = scope_.Fresh(absl::StrCat(stmt[1].text(), "_end"));
    AddLine(depth, absl::StrCat("const int64_t ", end, " = ", hi->text, ";"),
            hi->uses);
    hi = Primary(end);
  }
  scope_.Push();
  Binding var;
  var.kind = BindingKind::kControl;
  var.non_negative = expr_.NonNegative(stmt[2]);
  const std::string& name = scope_.Bind(stmt[1].text(), var)->c_name;
  CExpr condition = Binary("<", Primary(name), *hi);
  Uses uses = lo->uses;
  uses.Merge(condition.uses);
  AddLine(depth,
          absl::StrCat("for (int64_t ", name, " = ", lo->text, "; ",
                       condition.text, "; ", name, "++) {"),
          uses);
  if (auto status = Block(Items(stmt, 4), depth + 1); !status.ok()) {
    return status;
  }
  AddLine(depth, "}", {});
  scope_.Pop();
  return absl::OkStatus();
}

absl::Status ProcEmitter::If(const Sexpr& stmt, int depth) {
  if (stmt.size() < 3 || stmt.size() > 4 || !stmt[2].is_form("then") ||
      (stmt.size() == 4 && !stmt[3].is_form("else"))) {
    return ErrorAt(stmt.loc(),
                   "expected (if COND (then STMT...) "
                   "[(else STMT...)])");
  }
  auto condition = expr_.Control(stmt[1]);
  if (!condition.ok()) return condition.status();
  AddLine(depth, absl::StrCat("if (", condition->text, ") {"), condition->uses);
  if (auto status = Block(Items(stmt[2], 1), depth + 1); !status.ok()) {
    return status;
  }
  if (stmt.size() == 4) {
    AddLine(depth, "} else {", {});
    if (auto status = Block(Items(stmt[3], 1), depth + 1); !status.ok()) {
      return status;
    }
  }
  AddLine(depth, "}", {});
  return absl::OkStatus();
}

absl::StatusOr<std::string> ProcEmitter::ExpandMemoryTemplate(
    const Memory& memory, absl::string_view clause,
    const Allocation& allocation, Uses& uses) {
  const std::string& text =
      clause == "alloc" ? memory.alloc_template : memory.free_template;
  return ExpandTemplate(
      text, TemplateLocation(memory, clause),
      absl::StrCat("the ", clause, " template of ", memory.name),
      [&](absl::string_view name) -> absl::StatusOr<std::optional<CExpr>> {
        if (name == "type") {
          return Primary(std::string(ElemTypeCName(allocation.binding->elem)));
        }
        if (name == "name") return Primary(allocation.binding->c_name);
        if (name == "size") {
          uses.Merge(allocation.size.uses);
          return allocation.size;
        }
        return std::nullopt;
      });
}

absl::Status ProcEmitter::Alloc(const Sexpr& stmt,
                                absl::Span<const Sexpr* const> rest, int depth,
                                std::vector<Allocation>& allocations) {
  if (stmt.size() < 3 || stmt.size() > 4 || !stmt[1].is_symbol()) {
    return ErrorAt(stmt.loc(), "expected (alloc NAME TYPE [@MEM])");
  }
  auto type = ParseDataType(stmt[2]);
  if (!type.ok()) return type.status();
  if (type->is_window) {
    return ErrorAt(stmt[2].loc(), "a window cannot be allocated; use let");
  }
  std::string memory_name =
      stmt.size() == 4 ? stmt[3].text() : std::string(kDefaultMemory);
  const Memory* memory = module_.FindMemory(memory_name);
  if (memory == nullptr) {
    return ErrorAt(stmt.size() == 4 ? stmt[3].loc() : stmt.loc(),
                   absl::StrCat("unknown memory '", memory_name, "'"));
  }
  auto dims = Dimensions(*type, expr_);
  if (!dims.ok()) return dims.status();
  Binding binding;
  binding.elem = type->elem;
  binding.memory = memory_name;
  const std::string& name = stmt[1].text();
  if (type->is_scalar() && memory_name == kDefaultMemory) {
    // A DRAM scalar is a plain local. Its initial value is undefined; a
    // zero stands in for it where GCC could not prove it written first.
    binding.kind = BindingKind::kScalar;
    Binding* local = scope_.Bind(name, binding);
    AddLine(
        depth,
        absl::StrCat(ElemTypeCName(type->elem), " ", local->c_name,
                     AssignedBeforeUse(module_, rest, name) ? "" : " = 0", ";"),
        {}, local);
    allocations.push_back(Allocation{local, nullptr, IntLiteral(1), {}});
    return absl::OkStatus();
  }
  binding.kind =
      type->is_scalar() ? BindingKind::kScalar : BindingKind::kBuffer;
  binding.by_pointer = true;
  binding.is_tensor = !type->is_scalar();
  Binding* local = scope_.Bind(name, binding);
  if (!type->is_scalar()) {
    local->view =
        WholeView(Primary(local->c_name), RowMajorStrides(*dims), local);
  }
  Allocation allocation{local, memory, ElementCount(*dims), {}};
  auto text =
      ExpandMemoryTemplate(*memory, "alloc", allocation, allocation.uses);
  if (!text.ok()) return text.status();
  AddLine(depth, *text, {}, local);
  allocations.push_back(std::move(allocation));
  return absl::OkStatus();
}

absl::Status ProcEmitter::Release(const Allocation& allocation, int depth) {
  Binding& binding = *allocation.binding;
  if (!binding.used) return absl::OkStatus();
  // The declaration is kept: what its size refers to is used after all.
  Uses uses = allocation.uses;
  std::string free_text;
  if (allocation.memory != nullptr) {
    auto text =
        ExpandMemoryTemplate(*allocation.memory, "free", allocation, uses);
    if (!text.ok()) return text.status();
    free_text = *std::move(text);
  }
  // -Wunused-but-set-variable flags a local that is only stored to.
  if (!binding.read) {
    AddLine(depth, absl::StrCat("(void)", binding.c_name, ";"), {});
  }
  Scope::Commit(uses, needs_);
  if (!free_text.empty()) AddLine(depth, free_text, {});
  return absl::OkStatus();
}

absl::Status ProcEmitter::Assign(const Sexpr& stmt, int depth) {
  if (stmt.size() != 3) {
    return ErrorAt(stmt.loc(),
                   absl::StrCat("expected (", stmt.head(), " LHS EXPR)"));
  }
  auto target = expr_.AssignTarget(stmt[1]);
  if (!target.ok()) return target.status();
  auto value = expr_.Data(stmt[2], target->elem);
  if (!value.ok()) return value.status();
  Uses uses = target->lvalue.uses;
  uses.Merge(value->uses);
  AddLine(
      depth,
      absl::StrCat(target->lvalue.text, stmt.is_form("reduce") ? " += " : " = ",
                   value->text, ";"),
      uses);
  return absl::OkStatus();
}

absl::Status ProcEmitter::Let(const Sexpr& stmt) {
  if (stmt.size() != 3 || !stmt[1].is_symbol()) {
    return ErrorAt(stmt.loc(), "expected (let NAME WINDOW)");
  }
  auto view = expr_.WindowOf(stmt[2]);
  if (!view.ok()) return view.status();
  // A let declares nothing: accesses through the window are written
  // through its base, with the window's offsets folded in.
  Binding binding;
  binding.kind = BindingKind::kBuffer;
  binding.elem = view->root->elem;
  binding.memory = view->root->memory;
  binding.read_only = view->root->read_only;
  binding.view = *std::move(view);
  scope_.BindAlias(stmt[1].text(), std::move(binding));
  return absl::OkStatus();
}

absl::StatusOr<CExpr> ProcEmitter::Argument(const Procedure& callee,
                                            const Param& param,
                                            const Sexpr& arg,
                                            ArgumentMode mode) {
  auto mismatch = [&](absl::string_view what) {
    return ErrorAt(arg.loc(), absl::StrCat("argument '", PrintFlat(arg),
                                           "' of ", callee.name, " ", what));
  };
  if (!param.is_data()) {
    if (arg.is_symbol()) {
      Binding* binding = scope_.Lookup(arg.text());
      if (binding != nullptr && binding->kind != BindingKind::kControl) {
        return mismatch(absl::StrCat("is data but parameter '", param.name,
                                     "' is a ",
                                     ControlTypeName(param.control)));
      }
    }
    return expr_.Control(arg);
  }
  Binding* root = nullptr;
  int rank = 0;
  std::optional<View> view;
  if (param.type.is_scalar()) {
    root = arg.is_symbol() ? scope_.Lookup(arg.text()) : nullptr;
    if (root == nullptr || root->kind != BindingKind::kScalar) {
      return mismatch(absl::StrCat("must name a scalar: parameter '",
                                   param.name, "' is one"));
    }
  } else {
    auto window = expr_.WindowOf(arg);
    if (!window.ok()) return window.status();
    view = *std::move(window);
    root = view->root;
    rank = view->rank();
  }
  if (root->elem != param.type.elem) {
    return mismatch(absl::StrCat("is ", ElemTypeName(root->elem),
                                 " but parameter '", param.name, "' is ",
                                 ElemTypeName(param.type.elem)));
  }
  if (rank != param.type.rank()) {
    return mismatch(absl::StrCat("has ", rank, " dimensions but parameter '",
                                 param.name, "' has ", param.type.rank()));
  }
  if (root->memory != param.memory) {
    return mismatch(absl::StrCat("is in ", root->memory, " but parameter '",
                                 param.name, "' is in ", param.memory));
  }
  if (root->read_only && param.is_written()) {
    return mismatch(absl::StrCat("is read-only but parameter '", param.name,
                                 "' is written"));
  }
  if (!view) {
    return mode == ArgumentMode::kTemplateValue ? expr_.ScalarValue(arg)
                                                : expr_.ScalarAddress(arg);
  }
  if (mode == ArgumentMode::kTemplatePointer) {
    return ExprEmitter::FirstElement(*view);
  }
  if (mode == ArgumentMode::kCall && !param.type.is_window) {
    Binding* binding = arg.is_symbol() ? scope_.Lookup(arg.text()) : nullptr;
    if (binding == nullptr || !binding->is_tensor) {
      return mismatch(absl::StrCat("must name a whole tensor: parameter '",
                                   param.name, "' is a tensor, not a window"));
    }
    return ExprEmitter::FirstElement(*view);
  }
  return ExprEmitter::WindowValue(
      *view, WindowType{param.type.elem, rank, param.kind == ParamKind::kIn});
}

absl::Status ProcEmitter::Call(const Sexpr& stmt, int depth) {
  const Procedure* callee = stmt.size() >= 2 && stmt[1].is_symbol()
                                ? module_.FindProcedure(stmt[1].text())
                                : nullptr;
  if (callee == nullptr) {
    return ErrorAt(stmt.size() >= 2 ? stmt[1].loc() : stmt.loc(),
                   "expected (call @PROC ARG...) naming a proc or instr");
  }
  if (stmt.size() - 2 != callee->params.size()) {
    return ErrorAt(stmt.loc(),
                   absl::StrCat(callee->name, " takes ", callee->params.size(),
                                " arguments, not ", stmt.size() - 2));
  }
  Uses uses;
  if (!callee->is_instr) {
    std::vector<CExpr> args;
    for (size_t i = 0; i < callee->params.size(); ++i) {
      auto arg = Argument(*callee, callee->params[i], stmt[i + 2],
                          ArgumentMode::kCall);
      if (!arg.ok()) return arg.status();
      args.push_back(*std::move(arg));
    }
    CExpr call = emitc::Call(globals_.procedures.at(callee->name), args);
    AddLine(depth, call.text + ";", call.uses);
    return absl::OkStatus();
  }
  auto text = ExpandTemplate(
      callee->c_template, (*callee->form)[3][1].loc(),
      absl::StrCat("the template of ", callee->name),
      [&](absl::string_view name) -> absl::StatusOr<std::optional<CExpr>> {
        ArgumentMode mode = ArgumentMode::kTemplateValue;
        const Param* param = callee->FindParam(name);
        if (param == nullptr && absl::EndsWith(name, "_data")) {
          param = callee->FindParam(name.substr(0, name.size() - 5));
          if (param == nullptr || !param->is_data()) return std::nullopt;
          mode = ArgumentMode::kTemplatePointer;
        }
        if (param == nullptr) return std::nullopt;
        const Sexpr& arg = stmt[2 + (param - callee->params.data())];
        auto value = Argument(*callee, *param, arg, mode);
        if (!value.ok()) return value.status();
        uses.Merge(value->uses);
        return *value;
      });
  if (!text.ok()) return text.status();
  // An empty template (an instruction with no C effect) writes nothing.
  if (!text->empty()) AddLine(depth, *text, uses);
  return absl::OkStatus();
}

absl::Status ProcEmitter::WriteConfig(const Sexpr& stmt, int depth) {
  const Config* config = stmt.size() == 4 && stmt[1].is_symbol()
                             ? module_.FindConfig(stmt[1].text())
                             : nullptr;
  if (config == nullptr) {
    return ErrorAt(stmt.loc(),
                   "expected (write-config @CFG FIELD EXPR) "
                   "naming a config");
  }
  const ConfigField* field =
      stmt[2].is_symbol() ? config->FindField(stmt[2].text()) : nullptr;
  if (field == nullptr) {
    return ErrorAt(stmt[2].loc(), absl::StrCat(config->name, " has no field '",
                                               PrintFlat(stmt[2]), "'"));
  }
  FieldType type = ConfigFieldType(*field);
  auto value =
      type.control ? expr_.Control(stmt[3]) : expr_.Data(stmt[3], type.elem);
  if (!value.ok()) return value.status();
  CExpr target = Member(Primary(globals_.configs.at(config->name)),
                        globals_.fields.at(config->name).at(field->name));
  Uses uses = value->uses;
  uses.needs.configs.insert(config->name);
  AddLine(depth, absl::StrCat(target.text, " = ", value->text, ";"), uses);
  return absl::OkStatus();
}

}  // namespace

WindowType WindowTypeOf(const Param& param) {
  return WindowType{param.type.elem, param.type.rank(),
                    param.kind == ParamKind::kIn};
}

std::string ParameterCType(const Param& param, Needs& needs) {
  if (!param.is_data()) return std::string(ControlCType(param.control));
  if (param.type.is_window) {
    WindowType type = WindowTypeOf(param);
    needs.windows.insert(type);
    return WindowTypeName(type);
  }
  return absl::StrCat(param.kind == ParamKind::kIn ? "const " : "",
                      ElemTypeCName(param.type.elem), " *");
}

absl::StatusOr<std::vector<Binding*>> BindParameters(const Procedure& proc,
                                                     Scope& scope,
                                                     const ExprEmitter& expr) {
  std::vector<Binding*> bindings;
  for (const Param& param : proc.params) {
    Binding binding;
    if (!param.is_data()) {
      binding.kind = BindingKind::kControl;
      binding.non_negative = param.control == ControlType::kSize;
      bindings.push_back(scope.Bind(param.name, binding));
      continue;
    }
    binding.elem = param.type.elem;
    binding.memory = param.memory;
    binding.read_only = param.kind == ParamKind::kIn;
    binding.by_pointer = true;
    if (param.type.is_scalar()) {
      binding.kind = BindingKind::kScalar;
      bindings.push_back(scope.Bind(param.name, binding));
      continue;
    }
    binding.kind = BindingKind::kBuffer;
    // Dimensions refer to the sizes bound so far.
    auto dims = Dimensions(param.type, expr);
    if (!dims.ok()) return dims.status();
    Binding* bound = scope.Bind(param.name, binding);
    CExpr name = Primary(bound->c_name);
    if (param.type.is_window) {
      bound->window_param = WindowTypeOf(param);
      name.uses.reads.push_back(bound);
      std::vector<CExpr> strides;
      for (int k = 0; k < param.type.rank(); ++k) {
        strides.push_back(MemberElement(name, "strides", k));
      }
      bound->view = WholeView(Member(name, "data"), std::move(strides), bound);
    } else {
      bound->is_tensor = true;
      bound->view = WholeView(name, RowMajorStrides(*dims), bound);
    }
    bindings.push_back(bound);
  }
  return bindings;
}

absl::StatusOr<std::string> EmitProcedure(const Module& module,
                                          const GlobalNames& globals,
                                          const Procedure& proc, Needs& needs) {
  return ProcEmitter(module, globals, proc, needs).Emit();
}

}  // namespace tessel::emitc
