#include "libs/ir/reader.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "libs/ir/syntax.h"
#include "libs/sexpr/printer.h"
#include "libs/sexpr/reader.h"

namespace tessel::ir {
namespace syntax_internal {
namespace {

// A dimension is arithmetic on sizes and literals; any other form in it is
// reported as such rather than as whatever it would be elsewhere.
absl::Status CheckDimensionOperators(const Sexpr& dim) {
  if (!dim.is_list()) return absl::OkStatus();
  std::optional<Op> op = FindOp(dim.head());
  if (!op || !IsDimensionOperator(*op)) {
    return ErrorAt(dim.loc(), absl::StrCat("a dimension may only use "
                                           "sizes, literals and "
                                           "arithmetic, not '",
                                           PrintFlat(dim), "'"));
  }
  for (size_t i = 1; i < dim.size(); ++i) {
    if (auto status = CheckDimensionOperators(dim[i]); !status.ok()) {
      return status;
    }
  }
  return absl::OkStatus();
}

std::optional<ParamKind> ParseParamKind(absl::string_view word) {
  if (word == "size") return ParamKind::kSize;
  if (word == "index") return ParamKind::kIndex;
  if (word == "bool") return ParamKind::kBool;
  if (word == "stride") return ParamKind::kStride;
  if (word == "in") return ParamKind::kIn;
  if (word == "out") return ParamKind::kOut;
  if (word == "inout") return ParamKind::kInOut;
  return std::nullopt;
}

ControlType ControlOf(ParamKind kind) {
  switch (kind) {
    case ParamKind::kSize:
      return ControlType::kSize;
    case ParamKind::kBool:
      return ControlType::kBool;
    case ParamKind::kStride:
      return ControlType::kStride;
    default:
      return ControlType::kIndex;
  }
}

}  // namespace

bool IsGlobalName(const Sexpr& s) {
  return s.is_symbol() && s.text().size() > 1 && s.text()[0] == '@';
}

bool IsLocalName(const Sexpr& s) {
  return s.is_symbol() && !s.text().empty() && s.text()[0] != '@' &&
         s.text()[0] != '%' && s.text()[0] != ':';
}

absl::StatusOr<Node*> Reader::ReadPattern(const Sexpr& term) {
  pattern_ = true;
  return ReadValue(term);
}

absl::Status Reader::Read(const std::vector<Sexpr>& forms) {
  for (const Sexpr& form : forms) {
    if (auto status = ReadForm(form); !status.ok()) return status;
  }
  return Finish();
}

absl::Status Reader::ReadForm(const Sexpr& form) {
  auto node = ReadTop(form);
  if (!node.ok()) return node.status();
  if (module_.Find((*node)->name()) != nullptr) {
    return ErrorAt(form[1].loc(),
                   absl::StrCat("'", (*node)->name(), "' is defined twice"));
  }
  module_.AddForm(*node);
  return absl::OkStatus();
}

absl::Status Reader::Finish() {
  for (const GlobalUse& use : globals_) {
    Node* form = module_.Find(use.name);
    if (form == nullptr) {
      absl::string_view what = use.node->is(Op::kCall) ? "procedure"
                               : use.node->is(Op::kParam) ||
                                       use.node->is(Op::kAlloc) ||
                                       use.node->is(Op::kLocal)
                                   ? "memory"
                                   : "config";
      return ErrorAt(use.loc,
                     absl::StrCat("unknown ", what, " '", use.name, "'"));
    }
    use.node->set_def(form);
  }
  return absl::OkStatus();
}

absl::StatusOr<Node*> Reader::ReadTop(const Sexpr& form) {
  std::optional<Op> op = FindOp(form.head());
  if (!op || Info(*op).op_class != OpClass::kTop) {
    return ErrorAt(form.loc(),
                   "expected a top-level form: func, proc, instr, memory, "
                   "config or pe-program");
  }
  absl::string_view what = form.head();
  if (form.size() < 2 || !IsGlobalName(form[1])) {
    return ErrorAt(form.size() < 2 ? form.loc() : form[1].loc(),
                   absl::StrCat("expected the name of the ", what,
                                " (a symbol starting with '@')"));
  }
  scope_.clear();
  form_ = *op;
  switch (*op) {
    case Op::kFunc:
      return ReadFunc(form);
    case Op::kProc:
    case Op::kInstr:
      return ReadProcedure(form, *op);
    case Op::kMemory:
      return ReadMemory(form);
    case Op::kPeProgram:
      return ReadPeProgram(form);
    default:
      return ReadConfig(form);
  }
}

absl::StatusOr<Node*> Reader::ReadFunc(const Sexpr& form) {
  if (form.size() != 5) {
    return ErrorAt(form.loc(),
                   "expected (func @NAME (PARAM...) (RESULT...) TERM)");
  }
  Node* func = Create(Op::kFunc, form);
  func->set_name(form[1].text());
  func->set_name_loc(form[1].loc());
  if (auto status = ReadValueDecls(form[2], "parameters", ParamKind::kIn, func);
      !status.ok()) {
    return status;
  }
  size_t params = func->num_operands();
  if (auto status = ReadValueDecls(form[3], "results", ParamKind::kOut, func);
      !status.ok()) {
    return status;
  }
  if (func->num_operands() == params) {
    return ErrorAt(form[3].loc(), "a function needs at least one result");
  }
  for (size_t i = 0; i < params; ++i) {
    Bind(func->operand(i)->name(), func->operand(i));
  }
  auto term = ReadValue(form[4]);
  if (!term.ok()) return term.status();
  module_.Append(func, *term);
  return func;
}

absl::Status Reader::ReadValueDecls(const Sexpr& list, absl::string_view what,
                                    ParamKind kind, Node* func) {
  if (!list.is_list() || !list.head().empty()) {
    return ErrorAt(list.loc(), absl::StrCat("expected a list of ", what,
                                            ": ((NAME TYPE)...)"));
  }
  for (const Sexpr& decl : list.items()) {
    if (!decl.is_list() || decl.size() != 2 || !IsLocalName(decl[0])) {
      return ErrorAt(decl.loc(),
                     absl::StrCat("expected (NAME TYPE) in the ", what));
    }
    auto type = ReadType(decl[1]);
    if (!type.ok()) return type.status();
    if (type->kind() == TypeKind::kWindow || type->is_vector()) {
      return ErrorAt(decl[1].loc(),
                     absl::StrCat(type->is_vector() ? "vectors" : "windows",
                                  " exist only at the loop level"));
    }
    Node* value = Create(Op::kValue, decl);
    value->set_name(decl[0].text());
    value->set_name_loc(decl[0].loc());
    value->set_param_kind(kind);
    value->set_declared_type(*std::move(type));
    module_.Append(func, value);
  }
  return absl::OkStatus();
}

absl::StatusOr<Node*> Reader::ReadProcedure(const Sexpr& form, Op op) {
  if (form.size() < 3) {
    return ErrorAt(form.loc(), absl::StrCat("expected (", form.head(),
                                            " @NAME (PARAM...) ...)"));
  }
  Node* proc = Create(op, form);
  proc->set_name(form[1].text());
  proc->set_name_loc(form[1].loc());
  if (auto status = ReadParams(form[2], proc); !status.ok()) return status;
  size_t next = 3;
  if (op == Op::kInstr) {
    if (form.size() < 4 || !form[3].is_form("c") || form[3].size() != 2 ||
        !form[3][1].is_string()) {
      return ErrorAt(form.size() < 4 ? form.loc() : form[3].loc(),
                     "an instr needs its C template: (c \"...\")");
    }
    Node* templ = Create(Op::kTemplate, form[3]);
    templ->set_text(form[3][1].text());
    module_.Append(proc, templ);
    next = 4;
    // The headers that declare what the template calls (<cblas.h>).
    for (; next < form.size() && form[next].is_form("include"); ++next) {
      if (form[next].size() != 2 || !form[next][1].is_string()) {
        return ErrorAt(form[next].loc(), "expected (include \"HEADER\")");
      }
      Node* include = Create(Op::kClause, form[next]);
      include->set_name("include");
      include->set_text(form[next][1].text());
      module_.Append(proc, include);
    }
  }
  // (clobbers ...) declarations first, then (assert ...) preconditions.
  bool in_clobbers = true;
  for (size_t i = next; i < form.size(); ++i) {
    if (!form[i].is_form("clobbers")) {
      in_clobbers = false;
      continue;
    }
    if (op != Op::kProc || !in_clobbers) {
      return ErrorAt(form[i].loc(),
                     op != Op::kProc
                         ? "only a proc declares what it clobbers"
                         : "clobbers is a declaration: it must come before "
                           "the assertions and statements");
    }
    if (form[i].size() != 3) {
      return ErrorAt(form[i].loc(), "expected (clobbers @CONFIG FIELD)");
    }
  }
  bool in_preamble = true;
  for (size_t i = next; i < form.size(); ++i) {
    if (form[i].is_form("clobbers")) continue;
    bool is_assert = form[i].is_form("assert");
    if (is_assert && !in_preamble) {
      return ErrorAt(form[i].loc(),
                     "assert is a precondition: it must come before the "
                     "other statements");
    }
    if (is_assert && form[i].size() != 2) {
      return ErrorAt(form[i].loc(), "expected (assert COND)");
    }
    in_preamble &= is_assert;
  }
  if (auto status = ReadStmts(form, next, proc); !status.ok()) return status;
  return proc;
}

absl::Status Reader::ReadParams(const Sexpr& params, Node* form) {
  if (!params.is_list() || !params.head().empty()) {
    return ErrorAt(params.loc(), "expected a parameter list");
  }
  for (const Sexpr& decl : params.items()) {
    auto param = ReadParam(decl);
    if (!param.ok()) return param.status();
    for (const Node* earlier : form->operands()) {
      if (earlier->name() == (*param)->name()) {
        return ErrorAt(decl.loc(), absl::StrCat("parameter '", earlier->name(),
                                                "' is declared twice"));
      }
    }
    module_.Append(form, *param);
    Bind((*param)->name(), *param);
  }
  return absl::OkStatus();
}

absl::StatusOr<Node*> Reader::ReadParam(const Sexpr& decl) {
  if (!decl.is_list() || decl.size() < 2 || !decl[0].is_symbol() ||
      !IsLocalName(decl[1])) {
    return ErrorAt(decl.loc(),
                   "expected a parameter: (size N), (index N), (bool N), "
                   "(stride N) or (in|out|inout NAME TYPE [@MEM])");
  }
  absl::string_view word = decl[0].text();
  std::optional<ParamKind> kind = ParseParamKind(word);
  if (!kind) {
    return ErrorAt(decl[0].loc(),
                   absl::StrCat("unknown parameter kind '", word,
                                "'; expected size, index, bool, stride, in, "
                                "out or inout"));
  }
  Node* param = Create(Op::kParam, decl);
  param->set_name(decl[1].text());
  param->set_name_loc(decl[1].loc());
  param->set_param_kind(*kind);
  if (*kind < ParamKind::kIn) {
    if (decl.size() != 2) {
      return ErrorAt(decl[2].loc(),
                     absl::StrCat("a ", word, " parameter takes only a name"));
    }
    param->set_declared_type(Type::Control(ControlOf(*kind)));
    return param;
  }
  if (decl.size() < 3 || decl.size() > 4) {
    return ErrorAt(decl.loc(),
                   absl::StrCat("expected (", word, " NAME TYPE [@MEM])"));
  }
  auto type = ReadType(decl[2]);
  if (!type.ok()) return type.status();
  param->set_declared_type(*std::move(type));
  if (decl.size() == 4) {
    if (auto status = ReadMemoryOperand(decl[3], param); !status.ok()) {
      return status;
    }
  }
  return param;
}

absl::Status Reader::ReadMemoryOperand(const Sexpr& at, Node* node) {
  if (!IsGlobalName(at) && node->is(Op::kAlloc)) {
    return ErrorAt(at.loc(),
                   absl::StrCat("unknown memory '", PrintFlat(at), "'"));
  }
  if (!IsGlobalName(at)) {
    return ErrorAt(at.loc(), "expected a memory name such as @DRAM");
  }
  // The node's name_loc stays its name's: the verifier finds the memory's
  // location when it needs it.
  globals_.push_back({node, at.text(), at.loc()});
  return absl::OkStatus();
}

absl::StatusOr<Node*> Reader::ReadMemory(const Sexpr& form) {
  Node* memory = Create(Op::kMemory, form);
  memory->set_name(form[1].text());
  memory->set_name_loc(form[1].loc());
  bool seen_alloc = false;
  bool seen_register = false;
  bool not_addressable = false;
  for (size_t i = 2; i < form.size(); ++i) {
    const Sexpr& clause = form[i];
    bool is_text = (clause.is_form("alloc") || clause.is_form("free") ||
                    clause.is_form("include")) &&
                   clause.size() == 2 && clause[1].is_string();
    bool is_flag =
        clause.is_form("addressable") && clause.size() == 2 &&
        (clause[1].is_symbol("true") || clause[1].is_symbol("false"));
    bool is_register = clause.is_form("register") && clause.size() == 3 &&
                       clause[1].is_string() && clause[2].is_int() &&
                       clause[2].int_value() > 0;
    if (!is_text && !is_flag && !is_register) {
      return ErrorAt(clause.loc(),
                     "expected (alloc \"...\"), (free \"...\"), "
                     "(addressable true|false), (register \"CTYPE\" LANES) "
                     "or (include \"HEADER\")");
    }
    Node* node = Create(Op::kClause, clause);
    node->set_name(std::string(clause.head()));
    node->set_text(clause[1].text());
    if (is_register) node->set_int(clause[2].int_value());
    module_.Append(memory, node);
    seen_alloc |= clause.is_form("alloc");
    seen_register |= is_register;
    not_addressable |= is_flag && clause[1].is_symbol("false");
  }
  if (!seen_alloc) {
    return ErrorAt(form.loc(), "a memory needs an (alloc \"...\") template");
  }
  // C cannot index a register's lanes, so only instructions may touch them.
  if (seen_register && !not_addressable) {
    return ErrorAt(form.loc(),
                   "a memory of registers must be (addressable false)");
  }
  return memory;
}

absl::StatusOr<Node*> Reader::ReadConfig(const Sexpr& form) {
  Node* config = Create(Op::kConfig, form);
  config->set_name(form[1].text());
  config->set_name_loc(form[1].loc());
  for (size_t i = 2; i < form.size(); ++i) {
    const Sexpr& field = form[i];
    std::optional<Type> type;
    if (field.is_list() && field.size() == 2 && IsLocalName(field[0]) &&
        field[1].is_symbol()) {
      if (auto control = ParseControlType(field[1].text())) {
        type = Type::Control(*control);
      } else if (auto elem = ParseElemType(field[1].text())) {
        type = Type::Elem(*elem);
      }
    }
    if (!type) {
      return ErrorAt(field.loc(),
                     "expected a field (NAME TYPE) with a control or element "
                     "type");
    }
    for (const Node* earlier : config->operands()) {
      if (earlier->name() == field[0].text()) {
        return ErrorAt(field.loc(), absl::StrCat("field '", field[0].text(),
                                                 "' is declared twice"));
      }
    }
    Node* node = Create(Op::kField, field);
    node->set_name(field[0].text());
    node->set_name_loc(field[0].loc());
    node->set_declared_type(*std::move(type));
    module_.Append(config, node);
  }
  return config;
}

absl::StatusOr<Type> Reader::ReadType(const Sexpr& type) {
  if (type.is_symbol()) {
    auto elem = ParseElemType(type.text());
    if (!elem) {
      return ErrorAt(type.loc(),
                     absl::StrCat("unknown element type '", type.text(), "'"));
    }
    return Type::Elem(*elem);
  }
  if (!type.is_list() || type.size() == 0 || !type[0].is_symbol()) {
    return ErrorAt(type.loc(), absl::StrCat("expected a type, found '",
                                            PrintFlat(type), "'"));
  }
  if (type[0].is_symbol("vector")) return ReadVectorType(type);
  bool is_window = type[0].is_symbol("window");
  size_t first = is_window ? 1 : 0;
  if (is_window && (type.size() < 2 || !type[1].is_symbol())) {
    return ErrorAt(type.loc(), "expected (window ELEM DIM...)");
  }
  auto elem = ParseElemType(type[first].text());
  if (!elem) {
    return ErrorAt(
        type[first].loc(),
        absl::StrCat("unknown element type '", PrintFlat(type[first]), "'"));
  }
  std::vector<Dim> dims;
  for (size_t i = first + 1; i < type.size(); ++i) {
    const Sexpr& dim = type[i];
    if (dim.is_float() || dim.is_string()) {
      return ErrorAt(dim.loc(), "a dimension must be an integer expression");
    }
    if (dim.is_int()) {
      if (dim.int_value() <= 0) {
        return ErrorAt(dim.loc(), absl::StrCat("dimension ", dim.int_value(),
                                               " is not positive"));
      }
      dims.push_back(Dim::Constant(dim.int_value()));
      continue;
    }
    if (form_ == Op::kFunc) {
      // A func is fully specialised and binds no sizes: the dimension is
      // kept unresolved, for the verifier to report in declaration order.
      Node* unresolved = Create(Op::kRef, dim);
      unresolved->set_name(PrintFlat(dim));
      dims.push_back(Dim::Symbolic(unresolved));
      continue;
    }
    if (auto status = CheckDimensionOperators(dim); !status.ok()) {
      return status;
    }
    auto expr = ReadValue(dim);
    if (!expr.ok()) return expr.status();
    dims.push_back(Dim::Symbolic(*expr));
  }
  if (is_window) {
    if (dims.empty()) {
      return ErrorAt(type.loc(), "a window needs at least one dimension");
    }
    return Type::Window(*elem, std::move(dims));
  }
  if (dims.empty()) return Type::Elem(*elem);
  return Type::Tensor(*elem, std::move(dims));
}

absl::StatusOr<Type> Reader::ReadVectorType(const Sexpr& type) {
  if (type.size() < 3 || !type[1].is_symbol()) {
    return ErrorAt(type.loc(),
                   "expected (vector ELEM D...) with at least one "
                   "dimension");
  }
  auto elem = ParseElemType(type[1].text());
  if (!elem) {
    return ErrorAt(type[1].loc(), absl::StrCat("unknown element type '",
                                               PrintFlat(type[1]), "'"));
  }
  std::vector<int64_t> dims;
  for (size_t i = 2; i < type.size(); ++i) {
    // Vector shapes are static: a lane is a register position, not an
    // index into memory.
    if (!type[i].is_int() || type[i].int_value() <= 0) {
      return ErrorAt(type[i].loc(),
                     absl::StrCat("a vector dimension must be an integer "
                                  "literal > 0, found '",
                                  PrintFlat(type[i]), "'"));
    }
    dims.push_back(type[i].int_value());
  }
  return Type::Vector(*elem, std::move(dims));
}

}  // namespace syntax_internal

absl::StatusOr<Node*> ReadPattern(const Sexpr& term, Module& module) {
  return syntax_internal::Reader(module).ReadPattern(term);
}

absl::StatusOr<Module> ReadForms(const std::vector<Sexpr>& forms,
                                 SourceRef source) {
  Module module;
  module.set_source(std::move(source));
  if (auto status = syntax_internal::Reader(module).Read(forms); !status.ok())
    return status;
  return module;
}

absl::Status AppendForms(Module& module, const std::vector<Sexpr>& forms) {
  syntax_internal::Reader reader(module);
  size_t before = module.forms().size();
  absl::Status status;
  for (const Sexpr& form : forms) {
    status = reader.ReadForm(form);
    if (!status.ok()) break;
  }
  if (status.ok()) status = reader.Finish();
  if (!status.ok()) {
    while (module.forms().size() > before) {
      module.Detach(module.forms().back());
    }
  }
  return status;
}

absl::StatusOr<Module> ReadText(const SourceRef& source) {
  // Form by form: the S-expressions of one form at a time, never the
  // file's. An error in the text anywhere comes first, as when the text is
  // read whole before its forms.
  Module module;
  module.set_source(source);
  syntax_internal::Reader reader(module);
  reader.set_forms_from_text(true);
  SexprReader text(source);
  absl::Status status;
  bool empty = true;
  while (true) {
    auto form = text.Next();
    if (!form.ok()) return form.status();
    if (!form->has_value()) break;
    empty = false;
    if (status.ok()) status = reader.ReadForm(**form);
  }
  if (empty) return ErrorAt(Location{source, 0, 0}, "the module is empty");
  if (status.ok()) status = reader.Finish();
  if (!status.ok()) return status;
  return module;
}

}  // namespace tessel::ir
