#include "libs/interp/loop_compiler.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "libs/sexpr/printer.h"

namespace tessel {
namespace loop {
namespace {

// What a name in scope stands for.
struct Binding {
  std::string name;
  bool is_data = false;
  int32_t slot = -1;
  ElemType elem = ElemType::kF32;  // data
  int rank = 0;                    // data
  bool writable = false;           // data
};

// Whether an expression is control or data can be told from its leaves: a
// data name, an element read, a float literal, a cast or select make data;
// a control name makes control; integer literals alone could be either.
enum class Sort { kControl, kData, kLiteral };

std::string Quote(const Sexpr& e) {
  return absl::StrCat("'", PrintFlat(e), "'");
}

bool HasFloatLiteral(const Sexpr& e) {
  if (e.is_float()) return true;
  for (const Sexpr& item : e.items()) {
    if (HasFloatLiteral(item)) return true;
  }
  return false;
}

class ModuleCompiler;

// Compiles the body of one procedure.
class ProcCompiler {
 public:
  ProcCompiler(ModuleCompiler& module, CompiledProc& out)
      : module_(module), out_(out) {}

  absl::Status Compile();

 private:
  // Scope.
  const Binding* Lookup(absl::string_view name) const;
  int32_t DeclareControl(const std::string& name);
  int32_t DeclareData(const std::string& name, ElemType elem, int rank,
                      bool writable);
  absl::StatusOr<const Binding*> LookupData(const Sexpr& name) const;

  Sort SortOf(const Sexpr& e) const;

  // Expressions.
  absl::StatusOr<Expr> Control(const Sexpr& e);
  absl::StatusOr<Expr> ControlOperands(const Sexpr& e, ExprOp op, size_t arity);
  absl::StatusOr<Expr> Comparison(const Sexpr& e, CompareOp op);
  absl::StatusOr<std::optional<Expr>> DataMaybe(
      const Sexpr& e, std::optional<ElemType> expected);
  absl::StatusOr<Expr> Data(const Sexpr& e, ElemType expected);
  absl::Status DataPair(const Sexpr& form, const Sexpr& a, const Sexpr& b,
                        std::optional<ElemType> expected,
                        std::optional<Expr>& ea, std::optional<Expr>& eb);
  absl::StatusOr<Expr> Literal(const Sexpr& e, ElemType type) const;
  absl::StatusOr<Expr> ElementRead(const Sexpr& e, const Binding& data);
  absl::StatusOr<std::vector<Expr>> Indices(const Sexpr& form, size_t first,
                                            const Binding& data);
  absl::StatusOr<const ConfigSlot*> LookupConfigField(const Sexpr& config,
                                                      const Sexpr& field,
                                                      int32_t& slot);

  // Statements.
  absl::Status Block(const std::vector<const Sexpr*>& stmts,
                     std::vector<Stmt>& out);
  absl::StatusOr<Stmt> Statement(const Sexpr& s);
  absl::StatusOr<Stmt> For(const Sexpr& s);
  absl::StatusOr<Stmt> If(const Sexpr& s);
  absl::StatusOr<Stmt> Alloc(const Sexpr& s);
  absl::StatusOr<Stmt> Update(const Sexpr& s);
  absl::StatusOr<Stmt> Let(const Sexpr& s);
  absl::StatusOr<Stmt> Call(const Sexpr& s);
  absl::StatusOr<Stmt> WriteConfig(const Sexpr& s);
  absl::StatusOr<WindowRef> Window(const Sexpr& e, ElemType& elem, int& rank,
                                   bool& writable);

  ModuleCompiler& module_;
  CompiledProc& out_;
  std::vector<Binding> scope_;
};

// Compiles procedures on demand, each once, and detects recursion.
class ModuleCompiler {
 public:
  ModuleCompiler(const Module& module, LoopProgram& program)
      : module_(module), program_(program) {
    for (const Config& config : module.configs()) {
      for (const ConfigField& field : config.fields) {
        ConfigSlot slot;
        slot.config = config.name;
        slot.field = field.name;
        if (auto elem = ParseElemType(field.type->text())) {
          slot.is_data = true;
          slot.elem = *elem;
        } else {
          slot.control = *ParseControlType(field.type->text());
        }
        config_index_[absl::StrCat(config.name, ".", field.name)] =
            static_cast<int32_t>(program.config_slots.size());
        program.config_slots.push_back(slot);
      }
    }
  }

  const Module& module() const { return module_; }
  const LoopProgram& program() const { return program_; }

  int32_t FindConfigSlot(absl::string_view config,
                         absl::string_view field) const {
    auto it = config_index_.find(absl::StrCat(config, ".", field));
    return it == config_index_.end() ? -1 : it->second;
  }

  absl::StatusOr<const CompiledProc*> Get(const Procedure& proc,
                                          const Sexpr* call) {
    if (auto it = done_.find(&proc); it != done_.end()) return it->second;
    if (in_progress_.contains(&proc)) {
      return ErrorAt(call->loc(), absl::StrCat("recursive call to ", proc.name,
                                               " (recursion is not allowed)"));
    }
    in_progress_.insert(&proc);
    auto compiled = std::make_unique<CompiledProc>();
    compiled->proc = &proc;
    ProcCompiler compiler(*this, *compiled);
    if (auto status = compiler.Compile(); !status.ok()) return status;
    in_progress_.erase(&proc);
    const CompiledProc* result = compiled.get();
    program_.procs.push_back(std::move(compiled));
    done_[&proc] = result;
    return result;
  }

 private:
  const Module& module_;
  LoopProgram& program_;
  absl::flat_hash_map<const Procedure*, const CompiledProc*> done_;
  absl::flat_hash_set<const Procedure*> in_progress_;
  absl::flat_hash_map<std::string, int32_t> config_index_;
};

const Binding* ProcCompiler::Lookup(absl::string_view name) const {
  for (auto it = scope_.rbegin(); it != scope_.rend(); ++it) {
    if (it->name == name) return &*it;
  }
  return nullptr;
}

int32_t ProcCompiler::DeclareControl(const std::string& name) {
  Binding binding;
  binding.name = name;
  binding.slot = static_cast<int32_t>(out_.control_names.size());
  out_.control_names.push_back(name);
  scope_.push_back(binding);
  return binding.slot;
}

int32_t ProcCompiler::DeclareData(const std::string& name, ElemType elem,
                                  int rank, bool writable) {
  Binding binding;
  binding.name = name;
  binding.is_data = true;
  binding.slot = static_cast<int32_t>(out_.view_names.size());
  binding.elem = elem;
  binding.rank = rank;
  binding.writable = writable;
  out_.view_names.push_back(name);
  scope_.push_back(binding);
  return binding.slot;
}

absl::StatusOr<const Binding*> ProcCompiler::LookupData(
    const Sexpr& name) const {
  const Binding* binding = name.is_symbol() ? Lookup(name.text()) : nullptr;
  if (binding == nullptr || !binding->is_data) {
    return ErrorAt(name.loc(), absl::StrCat("expected the name of a tensor, "
                                            "window or scalar, found ",
                                            Quote(name)));
  }
  return binding;
}

Sort ProcCompiler::SortOf(const Sexpr& e) const {
  if (e.is_int()) return Sort::kLiteral;
  if (e.is_float()) return Sort::kData;
  if (e.is_symbol()) {
    const Binding* binding = Lookup(e.text());
    return binding != nullptr && binding->is_data ? Sort::kData
                                                  : Sort::kControl;
  }
  if (!e.is_list() || e.size() == 0) return Sort::kControl;
  absl::string_view head = e.head();
  if (const Binding* binding = Lookup(head);
      binding != nullptr && binding->is_data) {
    return Sort::kData;
  }
  if (head == "cast" || head == "select") return Sort::kData;
  if (head == "read-config" && e.size() == 3 && e[1].is_symbol() &&
      e[2].is_symbol()) {
    int32_t slot = module_.FindConfigSlot(e[1].text(), e[2].text());
    return slot >= 0 && module_.program().config_slots[slot].is_data
               ? Sort::kData
               : Sort::kControl;
  }
  if (ParseArithOp(head) || head == "neg" || head == "%") {
    Sort sort = Sort::kLiteral;
    for (size_t i = 1; i < e.size(); ++i) {
      Sort operand = SortOf(e[i]);
      if (operand == Sort::kData) return Sort::kData;
      if (operand == Sort::kControl) sort = Sort::kControl;
    }
    return sort;
  }
  return Sort::kControl;
}

absl::StatusOr<Expr> ProcCompiler::ControlOperands(const Sexpr& e, ExprOp op,
                                                   size_t arity) {
  if (e.size() != arity + 1) {
    return ErrorAt(e.loc(),
                   absl::StrCat("'", e.head(), "' takes ", arity,
                                arity == 1 ? " operand" : " operands"));
  }
  Expr expr;
  expr.op = op;
  expr.where = &e;
  for (size_t i = 1; i < e.size(); ++i) {
    auto operand = Control(e[i]);
    if (!operand.ok()) return operand.status();
    expr.args.push_back(*std::move(operand));
  }
  return expr;
}

absl::StatusOr<Expr> ProcCompiler::Comparison(const Sexpr& e, CompareOp op) {
  if (e.size() != 3) {
    return ErrorAt(e.loc(), absl::StrCat("'", e.head(), "' takes 2 operands"));
  }
  if (SortOf(e[1]) != Sort::kData && SortOf(e[2]) != Sort::kData) {
    auto expr = ControlOperands(e, ExprOp::kCompareIndex, 2);
    if (expr.ok()) expr->compare = op;
    return expr;
  }
  std::optional<Expr> a, b;
  if (auto status = DataPair(e, e[1], e[2], std::nullopt, a, b); !status.ok()) {
    return status;
  }
  if (!a) {
    // Both operands are made of literals.
    if (auto status = DataPair(e, e[1], e[2],
                               DefaultLiteralType(HasFloatLiteral(e)), a, b);
        !status.ok()) {
      return status;
    }
  }
  Expr expr;
  expr.op = ExprOp::kCompareData;
  expr.compare = op;
  expr.type = a->type;
  expr.where = &e;
  expr.args.push_back(*std::move(a));
  expr.args.push_back(*std::move(b));
  return expr;
}

absl::StatusOr<Expr> ProcCompiler::Control(const Sexpr& e) {
  Expr expr;
  expr.where = &e;
  if (e.is_int()) {
    expr.op = ExprOp::kIntConst;
    expr.value = e.int_value();
    return expr;
  }
  if (e.is_symbol()) {
    const Binding* binding = Lookup(e.text());
    if (binding == nullptr && (e.is_symbol("true") || e.is_symbol("false"))) {
      expr.op = ExprOp::kIntConst;
      expr.value = e.is_symbol("true") ? 1 : 0;
      return expr;
    }
    if (binding == nullptr) {
      return ErrorAt(e.loc(), absl::StrCat("unknown name '", e.text(), "'"));
    }
    if (binding->is_data) {
      return ErrorAt(e.loc(), absl::StrCat("'", e.text(),
                                           "' is data; control expressions "
                                           "cannot depend on data"));
    }
    expr.op = ExprOp::kControlVar;
    expr.slot = binding->slot;
    return expr;
  }
  if (!e.is_list() || e.size() == 0 || !e[0].is_symbol()) {
    return ErrorAt(e.loc(), absl::StrCat("expected a control expression, "
                                         "found ",
                                         Quote(e)));
  }
  absl::string_view head = e.head();
  if (head == "+") return ControlOperands(e, ExprOp::kAddIndex, 2);
  if (head == "-") return ControlOperands(e, ExprOp::kSubIndex, 2);
  if (head == "*") return ControlOperands(e, ExprOp::kMulIndex, 2);
  if (head == "/") return ControlOperands(e, ExprOp::kFloorDiv, 2);
  if (head == "%") return ControlOperands(e, ExprOp::kFloorMod, 2);
  if (head == "min") return ControlOperands(e, ExprOp::kMinIndex, 2);
  if (head == "max") return ControlOperands(e, ExprOp::kMaxIndex, 2);
  if (head == "neg") return ControlOperands(e, ExprOp::kNegIndex, 1);
  if (head == "and") return ControlOperands(e, ExprOp::kAnd, 2);
  if (head == "or") return ControlOperands(e, ExprOp::kOr, 2);
  if (head == "not") return ControlOperands(e, ExprOp::kNot, 1);
  if (auto op = ParseCompareOp(head)) return Comparison(e, *op);
  if (head == "stride") {
    if (e.size() != 3 || !e[2].is_int()) {
      return ErrorAt(e.loc(), "expected (stride NAME DIM)");
    }
    auto data = LookupData(e[1]);
    if (!data.ok()) return data.status();
    if (e[2].int_value() < 0 || e[2].int_value() >= (*data)->rank) {
      return ErrorAt(e[2].loc(), absl::StrCat("'", e[1].text(),
                                              "' has no "
                                              "dimension ",
                                              e[2].int_value()));
    }
    expr.op = ExprOp::kStride;
    expr.slot = (*data)->slot;
    expr.value = e[2].int_value();
    return expr;
  }
  if (head == "read-config") {
    if (e.size() != 3) {
      return ErrorAt(e.loc(), "expected (read-config @CONFIG FIELD)");
    }
    auto slot = LookupConfigField(e[1], e[2], expr.slot);
    if (!slot.ok()) return slot.status();
    if ((*slot)->is_data) {
      return ErrorAt(e.loc(),
                     "this configuration field is data; control "
                     "expressions cannot depend on data");
    }
    expr.op = ExprOp::kReadControlConfig;
    return expr;
  }
  if (SortOf(e) == Sort::kData) {
    return ErrorAt(e.loc(), absl::StrCat(Quote(e),
                                         " is data; control "
                                         "expressions cannot depend on data"));
  }
  return ErrorAt(e[0].loc(),
                 absl::StrCat("unknown control operation '", head, "'"));
}

absl::StatusOr<Expr> ProcCompiler::Literal(const Sexpr& e,
                                           ElemType type) const {
  Expr expr;
  expr.op = ExprOp::kDataConst;
  expr.type = type;
  expr.where = &e;
  ScalarError error =
      e.is_int() ? AdoptIntLiteral(e.int_value(), type, expr.constant)
                 : AdoptFloatLiteral(e.float_value(), type, expr.constant);
  if (error != ScalarError::kNone) {
    return ErrorAt(e.loc(), absl::StrCat("a float literal cannot stand for "
                                         "a value of type ",
                                         ElemTypeName(type)));
  }
  return expr;
}

absl::StatusOr<std::vector<Expr>> ProcCompiler::Indices(const Sexpr& form,
                                                        size_t first,
                                                        const Binding& data) {
  if (form.size() - first != static_cast<size_t>(data.rank)) {
    return ErrorAt(
        form.loc(),
        absl::StrCat("'", data.name, "' has rank ", data.rank, " but ",
                     form.size() - first, " indices are given"));
  }
  std::vector<Expr> indices;
  for (size_t i = first; i < form.size(); ++i) {
    auto index = Control(form[i]);
    if (!index.ok()) return index.status();
    indices.push_back(*std::move(index));
  }
  return indices;
}

absl::StatusOr<Expr> ProcCompiler::ElementRead(const Sexpr& e,
                                               const Binding& data) {
  Expr expr;
  expr.op = ExprOp::kLoad;
  expr.type = data.elem;
  expr.slot = data.slot;
  expr.where = &e;
  if (e.is_list()) {
    auto indices = Indices(e, 1, data);
    if (!indices.ok()) return indices.status();
    expr.args = *std::move(indices);
  } else if (data.rank != 0) {
    return ErrorAt(e.loc(),
                   absl::StrCat("'", data.name, "' has rank ", data.rank,
                                "; read an element as (", data.name, " I...)"));
  }
  return expr;
}

absl::StatusOr<const ConfigSlot*> ProcCompiler::LookupConfigField(
    const Sexpr& config, const Sexpr& field, int32_t& slot) {
  if (!config.is_symbol() ||
      module_.module().FindConfig(config.text()) == nullptr) {
    return ErrorAt(config.loc(),
                   absl::StrCat("unknown configuration ", Quote(config)));
  }
  slot = field.is_symbol() ? module_.FindConfigSlot(config.text(), field.text())
                           : -1;
  if (slot < 0) {
    return ErrorAt(field.loc(),
                   absl::StrCat(config.text(), " has no field ", Quote(field)));
  }
  return &module_.program().config_slots[slot];
}

absl::Status ProcCompiler::DataPair(const Sexpr& form, const Sexpr& a,
                                    const Sexpr& b,
                                    std::optional<ElemType> expected,
                                    std::optional<Expr>& ea,
                                    std::optional<Expr>& eb) {
  auto first = DataMaybe(a, expected);
  if (!first.ok()) return first.status();
  auto second = DataMaybe(b, expected);
  if (!second.ok()) return second.status();
  ea = *std::move(first);
  eb = *std::move(second);
  // An operand made only of literals takes the other operand's type.
  if (!ea && eb) {
    auto retyped = DataMaybe(a, eb->type);
    if (!retyped.ok()) return retyped.status();
    ea = *std::move(retyped);
  } else if (ea && !eb) {
    auto retyped = DataMaybe(b, ea->type);
    if (!retyped.ok()) return retyped.status();
    eb = *std::move(retyped);
  }
  if (ea && eb && ea->type != eb->type) {
    return ErrorAt(
        form.loc(),
        absl::StrCat("operands of '", form.head(), "' have different types ",
                     ElemTypeName(ea->type), " and ", ElemTypeName(eb->type),
                     "; convert one with a cast"));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::optional<Expr>> ProcCompiler::DataMaybe(
    const Sexpr& e, std::optional<ElemType> expected) {
  if (e.is_number()) {
    if (!expected) return std::optional<Expr>();
    auto literal = Literal(e, *expected);
    if (!literal.ok()) return literal.status();
    return std::optional<Expr>(*std::move(literal));
  }
  if (e.is_symbol()) {
    const Binding* binding = Lookup(e.text());
    if (binding == nullptr) {
      return ErrorAt(e.loc(), absl::StrCat("unknown name '", e.text(), "'"));
    }
    if (!binding->is_data) {
      return ErrorAt(e.loc(), absl::StrCat("'", e.text(),
                                           "' is a control value, not data"));
    }
    auto read = ElementRead(e, *binding);
    if (!read.ok()) return read.status();
    return std::optional<Expr>(*std::move(read));
  }
  if (!e.is_list() || e.size() == 0 || !e[0].is_symbol()) {
    return ErrorAt(
        e.loc(), absl::StrCat("expected a data expression, found ", Quote(e)));
  }
  absl::string_view head = e.head();
  Expr expr;
  expr.where = &e;
  if (const Binding* binding = Lookup(head);
      binding != nullptr && binding->is_data) {
    auto read = ElementRead(e, *binding);
    if (!read.ok()) return read.status();
    return std::optional<Expr>(*std::move(read));
  }
  if (auto op = ParseArithOp(head)) {
    if (e.size() != 3) {
      return ErrorAt(e.loc(), absl::StrCat("'", head, "' takes 2 operands"));
    }
    std::optional<Expr> a, b;
    if (auto status = DataPair(e, e[1], e[2], expected, a, b); !status.ok()) {
      return status;
    }
    if (!a) return std::optional<Expr>();
    expr.op = ExprOp::kArith;
    expr.arith = *op;
    expr.type = a->type;
    expr.args.push_back(*std::move(a));
    expr.args.push_back(*std::move(b));
    return std::optional<Expr>(std::move(expr));
  }
  if (head == "neg") {
    if (e.size() != 2) return ErrorAt(e.loc(), "'neg' takes 1 operand");
    auto operand = DataMaybe(e[1], expected);
    if (!operand.ok() || !*operand) return operand;
    expr.op = ExprOp::kNegate;
    expr.type = (*operand)->type;
    expr.args.push_back(**std::move(operand));
    return std::optional<Expr>(std::move(expr));
  }
  if (head == "select") {
    if (e.size() != 4) return ErrorAt(e.loc(), "expected (select COND A B)");
    auto cond = Control(e[1]);
    if (!cond.ok()) return cond.status();
    std::optional<Expr> a, b;
    if (auto status = DataPair(e, e[2], e[3], expected, a, b); !status.ok()) {
      return status;
    }
    if (!a) return std::optional<Expr>();
    expr.op = ExprOp::kSelect;
    expr.type = a->type;
    expr.args.push_back(*std::move(cond));
    expr.args.push_back(*std::move(a));
    expr.args.push_back(*std::move(b));
    return std::optional<Expr>(std::move(expr));
  }
  if (head == "cast") {
    std::optional<ElemType> to;
    if (e.size() == 3 && e[1].is_symbol()) to = ParseElemType(e[1].text());
    if (!to) return ErrorAt(e.loc(), "expected (cast ELEM EXPR)");
    expr.type = *to;
    auto operand = DataMaybe(e[2], std::nullopt);
    if (!operand.ok()) return operand.status();
    if (!*operand) {
      operand = DataMaybe(e[2], DefaultLiteralType(HasFloatLiteral(e[2])));
      if (!operand.ok()) return operand.status();
    }
    expr.op = ExprOp::kCast;
    expr.args.push_back(**std::move(operand));
    return std::optional<Expr>(std::move(expr));
  }
  if (head == "read-config") {
    if (e.size() != 3) {
      return ErrorAt(e.loc(), "expected (read-config @CONFIG FIELD)");
    }
    auto slot = LookupConfigField(e[1], e[2], expr.slot);
    if (!slot.ok()) return slot.status();
    if (!(*slot)->is_data) {
      return ErrorAt(e.loc(),
                     "this configuration field is a control value, "
                     "not data");
    }
    expr.op = ExprOp::kReadDataConfig;
    expr.type = (*slot)->elem;
    return std::optional<Expr>(std::move(expr));
  }
  if (const Binding* binding = Lookup(head); binding != nullptr) {
    return ErrorAt(e.loc(), absl::StrCat("'", head,
                                         "' is a control value, "
                                         "not a tensor"));
  }
  return ErrorAt(e[0].loc(),
                 absl::StrCat("unknown data operation '", head, "'"));
}

absl::StatusOr<Expr> ProcCompiler::Data(const Sexpr& e, ElemType expected) {
  auto expr = DataMaybe(e, expected);
  if (!expr.ok()) return expr.status();
  if (!*expr) {
    return ErrorAt(e.loc(), "the type of this expression is not known");
  }
  if ((*expr)->type != expected) {
    return ErrorAt(e.loc(), absl::StrCat("expected a value of type ",
                                         ElemTypeName(expected), ", found ",
                                         ElemTypeName((*expr)->type),
                                         "; convert it with a cast"));
  }
  return **std::move(expr);
}

absl::StatusOr<WindowRef> ProcCompiler::Window(const Sexpr& e, ElemType& elem,
                                               int& rank, bool& writable) {
  WindowRef ref;
  ref.where = &e;
  const Sexpr& name = e.is_form("window") && e.size() >= 2 ? e[1] : e;
  auto base = LookupData(name);
  if (!base.ok()) return base.status();
  ref.base = (*base)->slot;
  elem = (*base)->elem;
  rank = (*base)->rank;
  writable = (*base)->writable;
  if (!e.is_form("window")) return ref;
  if (e.size() - 2 != static_cast<size_t>(rank)) {
    return ErrorAt(e.loc(), absl::StrCat("'", name.text(), "' has rank ", rank,
                                         " but the window has ", e.size() - 2,
                                         " selectors"));
  }
  rank = 0;
  for (size_t i = 2; i < e.size(); ++i) {
    Selector selector;
    selector.where = &e[i];
    if (e[i].is_form(":")) {
      if (e[i].size() != 3) return ErrorAt(e[i].loc(), "expected (: LO HI)");
      auto lo = Control(e[i][1]);
      if (!lo.ok()) return lo.status();
      auto hi = Control(e[i][2]);
      if (!hi.ok()) return hi.status();
      selector.point = false;
      selector.lo = *std::move(lo);
      selector.hi = *std::move(hi);
      ++rank;
    } else {
      auto index = Control(e[i]);
      if (!index.ok()) return index.status();
      selector.lo = *std::move(index);
    }
    ref.selectors.push_back(std::move(selector));
  }
  return ref;
}

absl::Status ProcCompiler::Block(const std::vector<const Sexpr*>& stmts,
                                 std::vector<Stmt>& out) {
  const size_t scope_size = scope_.size();
  for (const Sexpr* s : stmts) {
    auto stmt = Statement(*s);
    if (!stmt.ok()) return stmt.status();
    out.push_back(*std::move(stmt));
  }
  scope_.resize(scope_size);
  return absl::OkStatus();
}

absl::StatusOr<Stmt> ProcCompiler::Statement(const Sexpr& s) {
  absl::string_view head = s.head();
  if (head == "for") return For(s);
  if (head == "if") return If(s);
  if (head == "alloc") return Alloc(s);
  if (head == "assign" || head == "reduce") return Update(s);
  if (head == "let") return Let(s);
  if (head == "call") return Call(s);
  if (head == "write-config") return WriteConfig(s);
  if (head == "assert") {
    return ErrorAt(s.loc(),
                   "assert is a precondition: it must come before "
                   "the other statements of a proc or instr");
  }
  return ErrorAt(s.loc(), absl::StrCat("expected a statement (for, if, "
                                       "alloc, assign, reduce, let, call, "
                                       "write-config), found ",
                                       Quote(s)));
}

std::vector<const Sexpr*> Items(const Sexpr& list, size_t first) {
  std::vector<const Sexpr*> items;
  for (size_t i = first; i < list.size(); ++i) items.push_back(&list[i]);
  return items;
}

absl::StatusOr<Stmt> ProcCompiler::For(const Sexpr& s) {
  if (s.size() < 4 || !s[1].is_symbol()) {
    return ErrorAt(s.loc(), "expected (for VAR LO HI STMT...)");
  }
  Stmt stmt;
  stmt.op = StmtOp::kFor;
  stmt.where = &s;
  for (size_t i : {2, 3}) {
    auto bound = Control(s[i]);
    if (!bound.ok()) return bound.status();
    stmt.exprs.push_back(*std::move(bound));
  }
  const size_t scope_size = scope_.size();
  stmt.slot = DeclareControl(s[1].text());
  if (auto status = Block(Items(s, 4), stmt.body); !status.ok()) {
    return status;
  }
  scope_.resize(scope_size);
  return stmt;
}

absl::StatusOr<Stmt> ProcCompiler::If(const Sexpr& s) {
  if (s.size() < 3 || s.size() > 4 || !s[2].is_form("then") ||
      (s.size() == 4 && !s[3].is_form("else"))) {
    return ErrorAt(s.loc(),
                   "expected (if COND (then STMT...) "
                   "[(else STMT...)])");
  }
  Stmt stmt;
  stmt.op = StmtOp::kIf;
  stmt.where = &s;
  auto cond = Control(s[1]);
  if (!cond.ok()) return cond.status();
  stmt.exprs.push_back(*std::move(cond));
  if (auto status = Block(Items(s[2], 1), stmt.body); !status.ok()) {
    return status;
  }
  if (s.size() == 4) {
    if (auto status = Block(Items(s[3], 1), stmt.orelse); !status.ok()) {
      return status;
    }
  }
  return stmt;
}

absl::StatusOr<Stmt> ProcCompiler::Alloc(const Sexpr& s) {
  if (s.size() < 3 || s.size() > 4 || !s[1].is_symbol()) {
    return ErrorAt(s.loc(), "expected (alloc NAME TYPE [@MEM])");
  }
  auto type = ParseDataType(s[2]);
  if (!type.ok()) return type.status();
  if (type->is_window) {
    return ErrorAt(s[2].loc(), "an alloc is a tensor or scalar, not a window");
  }
  Stmt stmt;
  stmt.op = StmtOp::kAlloc;
  stmt.where = &s;
  stmt.elem = type->elem;
  for (const Sexpr& dim : type->dims) {
    auto expr = Control(dim);
    if (!expr.ok()) return expr.status();
    stmt.exprs.push_back(*std::move(expr));
  }
  stmt.slot = DeclareData(s[1].text(), type->elem, type->rank(), true);
  return stmt;
}

absl::StatusOr<Stmt> ProcCompiler::Update(const Sexpr& s) {
  if (s.size() != 3) {
    return ErrorAt(s.loc(), absl::StrCat("expected (", s.head(), " LHS EXPR)"));
  }
  const Sexpr& lhs = s[1];
  const Sexpr& name = lhs.is_list() && lhs.size() > 0 ? lhs[0] : lhs;
  auto data = LookupData(name);
  if (!data.ok()) return data.status();
  if (!(*data)->writable) {
    return ErrorAt(lhs.loc(), absl::StrCat("'", name.text(),
                                           "' is an in parameter (or a "
                                           "window of one) and cannot be "
                                           "written"));
  }
  Stmt stmt;
  stmt.op = s.is_form("assign") ? StmtOp::kAssign : StmtOp::kReduce;
  stmt.where = &s;
  stmt.slot = (*data)->slot;
  stmt.elem = (*data)->elem;
  if (lhs.is_list()) {
    auto indices = Indices(lhs, 1, **data);
    if (!indices.ok()) return indices.status();
    stmt.exprs = *std::move(indices);
  } else if ((*data)->rank != 0) {
    return ErrorAt(
        lhs.loc(),
        absl::StrCat("'", name.text(), "' has rank ", (*data)->rank,
                     "; write an element as (", name.text(), " I...)"));
  }
  auto value = Data(s[2], (*data)->elem);
  if (!value.ok()) return value.status();
  stmt.exprs.push_back(*std::move(value));
  return stmt;
}

absl::StatusOr<Stmt> ProcCompiler::Let(const Sexpr& s) {
  if (s.size() != 3 || !s[1].is_symbol()) {
    return ErrorAt(s.loc(), "expected (let NAME WINDOW)");
  }
  Stmt stmt;
  stmt.op = StmtOp::kLet;
  stmt.where = &s;
  ElemType elem;
  int rank = 0;
  bool writable = false;
  auto window = Window(s[2], elem, rank, writable);
  if (!window.ok()) return window.status();
  stmt.window = *std::move(window);
  stmt.slot = DeclareData(s[1].text(), elem, rank, writable);
  return stmt;
}

absl::StatusOr<Stmt> ProcCompiler::Call(const Sexpr& s) {
  if (s.size() < 2 || !s[1].is_symbol()) {
    return ErrorAt(s.loc(), "expected (call @NAME ARG...)");
  }
  const Procedure* callee = module_.module().FindProcedure(s[1].text());
  if (callee == nullptr) {
    return ErrorAt(s[1].loc(),
                   absl::StrCat("no proc or instr named '", s[1].text(), "'"));
  }
  if (s.size() - 2 != callee->params.size()) {
    return ErrorAt(s.loc(),
                   absl::StrCat(callee->name, " takes ", callee->params.size(),
                                " arguments, ", s.size() - 2, " are given"));
  }
  Stmt stmt;
  stmt.op = StmtOp::kCall;
  stmt.where = &s;
  for (size_t i = 0; i < callee->params.size(); ++i) {
    const Param& param = callee->params[i];
    const Sexpr& arg = s[i + 2];
    CallArg compiled;
    compiled.is_data = param.is_data();
    if (!param.is_data()) {
      auto control = Control(arg);
      if (!control.ok()) return control.status();
      compiled.control = *std::move(control);
      stmt.args.push_back(std::move(compiled));
      continue;
    }
    ElemType elem;
    int rank = 0;
    bool writable = false;
    auto window = Window(arg, elem, rank, writable);
    if (!window.ok()) return window.status();
    if (elem != param.type.elem || rank != param.type.rank()) {
      return ErrorAt(
          arg.loc(),
          absl::StrCat("parameter '", param.name, "' of ", callee->name, " is ",
                       PrintFlat(DataTypeToSexpr(param.type)),
                       " but the argument is ", ElemTypeName(elem), " of rank ",
                       rank));
    }
    if (param.is_written() && !writable) {
      return ErrorAt(
          arg.loc(),
          absl::StrCat("parameter '", param.name, "' of ", callee->name,
                       " is written, but the argument is an in parameter"));
    }
    compiled.window = *std::move(window);
    stmt.args.push_back(std::move(compiled));
  }
  auto compiled = module_.Get(*callee, &s);
  if (!compiled.ok()) return compiled.status();
  stmt.callee = *compiled;
  return stmt;
}

absl::StatusOr<Stmt> ProcCompiler::WriteConfig(const Sexpr& s) {
  if (s.size() != 4) {
    return ErrorAt(s.loc(), "expected (write-config @CONFIG FIELD EXPR)");
  }
  Stmt stmt;
  stmt.op = StmtOp::kWriteConfig;
  stmt.where = &s;
  auto slot = LookupConfigField(s[1], s[2], stmt.slot);
  if (!slot.ok()) return slot.status();
  auto value = (*slot)->is_data ? Data(s[3], (*slot)->elem) : Control(s[3]);
  if (!value.ok()) return value.status();
  stmt.exprs.push_back(*std::move(value));
  return stmt;
}

absl::Status ProcCompiler::Compile() {
  const Procedure& proc = *out_.proc;
  for (const Param& param : proc.params) {
    CompiledParam compiled;
    compiled.param = &param;
    if (!param.is_data()) {
      compiled.slot = DeclareControl(param.name);
      out_.params.push_back(std::move(compiled));
      continue;
    }
    for (const Sexpr& dim : param.type.dims) {
      auto expr = Control(dim);
      if (!expr.ok()) return expr.status();
      compiled.dims.push_back(*std::move(expr));
    }
    compiled.slot = DeclareData(param.name, param.type.elem, param.type.rank(),
                                param.is_written());
    out_.params.push_back(std::move(compiled));
  }
  for (const Sexpr* assertion : proc.asserts) {
    auto cond = Control((*assertion)[1]);
    if (!cond.ok()) return cond.status();
    out_.asserts.push_back(*std::move(cond));
  }
  return Block(proc.body, out_.body);
}

}  // namespace

absl::StatusOr<std::unique_ptr<LoopProgram>> CompileLoopProgram(
    const Module& module, const Procedure& entry) {
  auto program = std::make_unique<LoopProgram>();
  ModuleCompiler compiler(module, *program);
  auto compiled = compiler.Get(entry, entry.form);
  if (!compiled.ok()) return compiled.status();
  program->entry = *compiled;
  return program;
}

}  // namespace loop
}  // namespace tessel
