#include "libs/interp/tensor_lowering.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/interp/diagnostics.h"
#include "libs/interp/loop_plan.h"

namespace tessel {
namespace tensor {
namespace {

using loop::CompiledParam;
using loop::CompiledProc;
using loop::Expr;
using loop::ExprOp;
using loop::Stmt;
using loop::StmtOp;

// What a term evaluates to in the lowered program.
struct Value {
  enum class Kind : uint8_t { kData, kControl, kArray, kTuple };
  Kind kind = Kind::kData;
  Expr expr;          // data or control: an expression computing it
  int32_t view = -1;  // an array: the view holding it
  std::shared_ptr<const std::pair<Value, Value>> tuple;

  static Value Of(Kind kind, Expr expr) {
    Value value;
    value.kind = kind;
    value.expr = std::move(expr);
    return value;
  }
  static Value Array(int32_t view) {
    Value value;
    value.kind = Kind::kArray;
    value.view = view;
    return value;
  }
  static Value Tuple(Value first, Value second) {
    Value value;
    value.kind = Kind::kTuple;
    value.tuple = std::make_shared<const std::pair<Value, Value>>(
        std::move(first), std::move(second));
    return value;
  }
};

Expr Leaf(ExprOp op, const ir::Node* where) {
  Expr e;
  e.op = op;
  e.where = where;
  return e;
}

Expr IntConst(int64_t value, const ir::Node* where) {
  Expr e = Leaf(ExprOp::kIntConst, where);
  e.value = value;
  return e;
}

Expr ControlVar(int32_t slot, const ir::Node* where) {
  Expr e = Leaf(ExprOp::kControlVar, where);
  e.slot = slot;
  return e;
}

Expr Load(int32_t view, ElemType elem, std::vector<Expr> indices,
          const ir::Node* where) {
  Expr e = Leaf(ExprOp::kLoad, where);
  e.slot = view;
  e.type = elem;
  e.args = std::move(indices);
  return e;
}

Expr Combine(ExprOp op, std::vector<Expr> args, const ir::Node* where) {
  Expr e = Leaf(op, where);
  e.args = std::move(args);
  return e;
}

// A value that costs nothing to compute again and cannot fail.
bool IsTrivial(const Value& value) {
  switch (value.kind) {
    case Value::Kind::kData:
    case Value::Kind::kControl:
      return value.expr.op == ExprOp::kIntConst ||
             value.expr.op == ExprOp::kDataConst ||
             value.expr.op == ExprOp::kControlVar;
    case Value::Kind::kArray:
      return true;
    case Value::Kind::kTuple:
      return IsTrivial(value.tuple->first) && IsTrivial(value.tuple->second);
  }
  return false;
}

// Whether `term` reads the De Bruijn variable `index` (of its scope).
bool UsesVar(const Term& term, int64_t index) {
  switch (term.op) {
    case TermOp::kVar:
      return term.value == index;
    case TermOp::kBuild:
      return UsesVar(term.args[0], index + 1);
    case TermOp::kIfold:
      return UsesVar(term.args[0], index) || UsesVar(term.args[1], index + 2);
    case TermOp::kApp:
      return UsesVar(term.args[0], index + 1) || UsesVar(term.args[1], index);
    default:
      for (const Term& arg : term.args) {
        if (UsesVar(arg, index)) return true;
      }
      return false;
  }
}

class Lowering {
 public:
  Lowering(const CompiledFunction& function, CompiledProc& proc)
      : function_(function), proc_(proc), block_(&proc.body) {}

  absl::Status Lower();

 private:
  int32_t NewControl(const std::string& name) {
    proc_.control_names.push_back(name);
    return static_cast<int32_t>(proc_.control_names.size() - 1);
  }
  int32_t NewView(const std::string& name) {
    proc_.view_names.push_back(name);
    return static_cast<int32_t>(proc_.view_names.size() - 1);
  }
  void Emit(Stmt stmt) { block_->push_back(std::move(stmt)); }
  // A buffer of `type` (an array, or a scalar of rank 0), allocated here.
  int32_t Temporary(const Type& type, const ir::Node* where);
  // Assigns `value` to the element of `view` at `indices`.
  void Assign(int32_t view, ElemType elem, std::vector<Expr> indices,
              Expr value, const ir::Node* where);

  absl::StatusOr<Value> Eval(const Term& term);
  // `term` lowered into `block`: the statements it needs, and its value.
  absl::StatusOr<Value> EvalIn(const Term& term, std::vector<Stmt>& block);
  // The values of `terms`, evaluated in order: when one needs statements,
  // those before it are computed first.
  absl::StatusOr<std::vector<Value>> EvalOperands(
      const std::vector<const Term*>& terms);
  // `term`'s value (an array) written into `dest` at the leading indices
  // `prefix`; a build writes its elements there directly.
  absl::Status EvalInto(const Term& term, int32_t dest,
                        std::vector<Expr> prefix);
  void CopyInto(const Value& value, const Type& type, int32_t dest,
                std::vector<Expr> prefix, const ir::Node* where);
  // `value` computed now, into a temporary, unless it is trivial.
  Value Materialize(const Value& value, const Type& type,
                    const ir::Node* where);
  // Storage for a value of `type` that statements update (an ifold's
  // accumulator, a select's result), and an update of it.
  Value NewStorage(const Type& type, const ir::Node* where);
  void Store(const Value& storage, const Value& value, const Type& type,
             const ir::Node* where);
  // A loop over [0, n) whose body Lower() fills, with its variable.
  Stmt Loop(int64_t n, const ir::Node* where, int32_t& var);

  absl::StatusOr<Value> Build(const Term& term);
  absl::StatusOr<Value> Ifold(const Term& term);
  // The loop of the ifold `term`, updating `storage`, which holds its
  // initial value.
  absl::Status FoldInto(const Term& term, const Value& storage);
  absl::StatusOr<Value> App(const Term& term);
  absl::StatusOr<Value> Index(const Term& term);
  absl::StatusOr<Value> Select(const Term& term);
  absl::StatusOr<Value> Logic(const Term& term);
  absl::StatusOr<Value> Pattern(const Term& term);
  absl::StatusOr<Value> Operation(const Term& term);

  const CompiledFunction& function_;
  CompiledProc& proc_;
  std::vector<Stmt>* block_;
  // The values bound by the enclosing lams, innermost last.
  std::vector<Value> env_;
  std::vector<Value> params_;
};

int32_t Lowering::Temporary(const Type& type, const ir::Node* where) {
  Stmt alloc;
  alloc.op = StmtOp::kAlloc;
  alloc.where = where;
  alloc.elem = type.elem;
  for (int64_t extent : type.shape) alloc.exprs.push_back(IntConst(extent, where));
  alloc.slot = NewView(type.kind == Type::Kind::kArray ? "array" : "scalar");
  const int32_t view = alloc.slot;
  Emit(std::move(alloc));
  return view;
}

void Lowering::Assign(int32_t view, ElemType elem, std::vector<Expr> indices,
                      Expr value, const ir::Node* where) {
  Stmt assign;
  assign.op = StmtOp::kAssign;
  assign.where = where;
  assign.slot = view;
  assign.elem = elem;
  assign.exprs = std::move(indices);
  assign.exprs.push_back(std::move(value));
  Emit(std::move(assign));
}

Stmt Lowering::Loop(int64_t n, const ir::Node* where, int32_t& var) {
  Stmt loop;
  loop.op = StmtOp::kFor;
  loop.where = where;
  loop.exprs = {IntConst(0, where), IntConst(n, where)};
  var = NewControl("i");
  loop.slot = var;
  return loop;
}

absl::StatusOr<Value> Lowering::EvalIn(const Term& term,
                                       std::vector<Stmt>& block) {
  std::vector<Stmt>* outer = block_;
  block_ = &block;
  auto value = Eval(term);
  block_ = outer;
  return value;
}

absl::StatusOr<std::vector<Value>> Lowering::EvalOperands(
    const std::vector<const Term*>& terms) {
  std::vector<Value> values;
  for (const Term* term : terms) {
    std::vector<Stmt> stmts;
    auto value = EvalIn(*term, stmts);
    if (!value.ok()) return value.status();
    if (!stmts.empty()) {
      for (size_t i = 0; i < values.size(); ++i) {
        values[i] = Materialize(values[i], terms[i]->type, terms[i]->where);
      }
      for (Stmt& stmt : stmts) Emit(std::move(stmt));
    }
    values.push_back(*std::move(value));
  }
  return values;
}

Value Lowering::Materialize(const Value& value, const Type& type,
                            const ir::Node* where) {
  if (IsTrivial(value)) return value;
  switch (value.kind) {
    case Value::Kind::kData: {
      const int32_t view = Temporary(type, where);
      Assign(view, type.elem, {}, value.expr, where);
      return Value::Of(Value::Kind::kData, Load(view, type.elem, {}, where));
    }
    case Value::Kind::kControl: {
      Stmt set;
      set.op = StmtOp::kSetControl;
      set.where = where;
      set.slot = NewControl("value");
      set.exprs.push_back(value.expr);
      const int32_t slot = set.slot;
      Emit(std::move(set));
      return Value::Of(Value::Kind::kControl, ControlVar(slot, where));
    }
    case Value::Kind::kTuple:
      return Value::Tuple(Materialize(value.tuple->first, *type.first, where),
                          Materialize(value.tuple->second, *type.second,
                                      where));
    case Value::Kind::kArray:
      break;
  }
  return value;
}

Value Lowering::NewStorage(const Type& type, const ir::Node* where) {
  switch (type.kind) {
    case Type::Kind::kElem: {
      const int32_t view = Temporary(type, where);
      return Value::Of(Value::Kind::kData, Load(view, type.elem, {}, where));
    }
    case Type::Kind::kIndex:
    case Type::Kind::kBool:
      return Value::Of(Value::Kind::kControl,
                       ControlVar(NewControl("value"), where));
    case Type::Kind::kArray:
      return Value::Array(Temporary(type, where));
    case Type::Kind::kTuple:
      break;
  }
  return Value::Tuple(NewStorage(*type.first, where),
                      NewStorage(*type.second, where));
}

void Lowering::Store(const Value& storage, const Value& value,
                     const Type& type, const ir::Node* where) {
  switch (storage.kind) {
    case Value::Kind::kData:
      Assign(storage.expr.slot, type.elem, {}, value.expr, where);
      return;
    case Value::Kind::kControl: {
      Stmt set;
      set.op = StmtOp::kSetControl;
      set.where = where;
      set.slot = storage.expr.slot;
      set.exprs.push_back(value.expr);
      Emit(std::move(set));
      return;
    }
    case Value::Kind::kArray:
      CopyInto(value, type, storage.view, {}, where);
      return;
    case Value::Kind::kTuple: {
      // Every part of the new value is computed before any is stored: the
      // parts may read the old ones.
      const Value parts = Materialize(value, type, where);
      Store(storage.tuple->first, parts.tuple->first, *type.first, where);
      Store(storage.tuple->second, parts.tuple->second, *type.second, where);
      return;
    }
  }
}

void Lowering::CopyInto(const Value& value, const Type& type, int32_t dest,
                        std::vector<Expr> prefix, const ir::Node* where) {
  if (value.kind == Value::Kind::kData) {
    Assign(dest, type.elem, std::move(prefix), value.expr, where);
    return;
  }
  // A nest over the array's dimensions copying element by element.
  std::vector<Expr> indices;
  std::vector<Stmt>* outer = block_;
  for (size_t k = 0; k < type.shape.size(); ++k) {
    int32_t var = -1;
    Stmt loop = Loop(type.shape[k], where, var);
    indices.push_back(ControlVar(var, where));
    block_->push_back(std::move(loop));
    block_ = &block_->back().body;
  }
  std::vector<Expr> target = std::move(prefix);
  target.insert(target.end(), indices.begin(), indices.end());
  Assign(dest, type.elem, std::move(target),
         Load(value.view, type.elem, indices, where), where);
  block_ = outer;
}

absl::Status Lowering::EvalInto(const Term& term, int32_t dest,
                                std::vector<Expr> prefix) {
  if (term.op == TermOp::kBuild) {
    int32_t var = -1;
    Stmt loop = Loop(term.value, term.where, var);
    std::vector<Stmt>* outer = block_;
    block_ = &loop.body;
    env_.push_back(Value::Of(Value::Kind::kControl, ControlVar(var, term.where)));
    prefix.push_back(ControlVar(var, term.where));
    const Term& body = term.args[0];
    absl::Status status;
    if (body.type.kind == Type::Kind::kElem) {
      auto value = Eval(body);
      if (value.ok()) {
        Assign(dest, body.type.elem, std::move(prefix), value->expr,
               body.where);
      }
      status = value.status();
    } else {
      status = EvalInto(body, dest, std::move(prefix));
    }
    env_.pop_back();
    block_ = outer;
    if (!status.ok()) return status;
    Emit(std::move(loop));
    return absl::OkStatus();
  }
  auto value = Eval(term);
  if (!value.ok()) return value.status();
  CopyInto(*value, term.type, dest, std::move(prefix), term.where);
  return absl::OkStatus();
}

absl::StatusOr<Value> Lowering::Build(const Term& term) {
  const int32_t view = Temporary(term.type, term.where);
  if (auto status = EvalInto(term, view, {}); !status.ok()) return status;
  return Value::Array(view);
}

absl::StatusOr<Value> Lowering::Ifold(const Term& term) {
  auto init = Eval(term.args[0]);
  if (!init.ok()) return init.status();
  const Value storage = NewStorage(term.type, term.where);
  Store(storage, *init, term.type, term.where);
  if (auto status = FoldInto(term, storage); !status.ok()) return status;
  return storage;
}

absl::Status Lowering::FoldInto(const Term& term, const Value& storage) {
  int32_t var = -1;
  Stmt loop = Loop(term.value, term.where, var);
  std::vector<Stmt>* outer = block_;
  block_ = &loop.body;
  // (ifold N INIT (lam (lam BODY))): %1 is the index, %0 the accumulator.
  env_.push_back(Value::Of(Value::Kind::kControl, ControlVar(var, term.where)));
  env_.push_back(storage);
  const Term& body = term.args[1];
  absl::Status status;
  if (body.op == TermOp::kIfold && body.args[0].op == TermOp::kVar &&
      body.args[0].value == 0 && !UsesVar(body.args[1], 2)) {
    // (ifold M %0 F) starts from the accumulator and becomes its next
    // value; F does not read the accumulator it started from (%2 under
    // F's lams): it may update the same storage, in a loop nested in this
    // one (a sum over several dimensions is one loop nest).
    status = FoldInto(body, storage);
  } else {
    auto value = Eval(body);
    if (value.ok()) Store(storage, *value, term.type, body.where);
    status = value.status();
  }
  env_.pop_back();
  env_.pop_back();
  block_ = outer;
  if (!status.ok()) return status;
  Emit(std::move(loop));
  return absl::OkStatus();
}

absl::StatusOr<Value> Lowering::App(const Term& term) {
  // (app (lam BODY) ARG): ARG first, once.
  const Term& arg = term.args[1];
  auto value = Eval(arg);
  if (!value.ok()) return value.status();
  env_.push_back(Materialize(*value, arg.type, arg.where));
  auto result = Eval(term.args[0]);
  env_.pop_back();
  return result;
}

absl::StatusOr<Value> Lowering::Index(const Term& term) {
  // The indices first, then the array, as the tensor level evaluates them.
  std::vector<const Term*> order;
  for (size_t k = 1; k < term.args.size(); ++k) order.push_back(&term.args[k]);
  order.push_back(&term.args[0]);
  auto values = EvalOperands(order);
  if (!values.ok()) return values.status();
  const Value& base = values->back();
  const Type& array = term.args[0].type;
  std::vector<Expr> indices;
  for (size_t k = 0; k + 1 < values->size(); ++k) {
    Expr index = (*values)[k].expr;
    index.where = term.args[k + 1].where;  // errors name the index
    index.tensor_level = true;
    indices.push_back(std::move(index));
  }
  if (indices.size() == array.shape.size()) {
    return Value::Of(Value::Kind::kData,
                     Load(base.view, array.elem, std::move(indices),
                          term.where));
  }
  // A view of the rest of the dimensions.
  Stmt let;
  let.op = StmtOp::kLet;
  let.where = term.where;
  let.window.base = base.view;
  let.window.where = term.where;
  for (size_t k = 0; k < array.shape.size(); ++k) {
    loop::Selector selector;
    if (k < indices.size()) {
      selector.where = indices[k].where;
      selector.lo = std::move(indices[k]);
    } else {
      selector.where = term.where;
      selector.point = false;
      selector.lo = IntConst(0, term.where);
      selector.hi = IntConst(array.shape[k], term.where);
    }
    let.window.selectors.push_back(std::move(selector));
  }
  let.slot = NewView("array");
  const int32_t view = let.slot;
  Emit(std::move(let));
  return Value::Array(view);
}

absl::StatusOr<Value> Lowering::Select(const Term& term) {
  auto cond = Eval(term.args[0]);
  if (!cond.ok()) return cond.status();
  // Only the chosen operand is evaluated.
  std::vector<Stmt> branches[2];
  std::vector<Value> values;
  for (int k = 0; k < 2; ++k) {
    auto value = EvalIn(term.args[1 + k], branches[k]);
    if (!value.ok()) return value.status();
    values.push_back(*std::move(value));
  }
  if (term.type.kind == Type::Kind::kElem && branches[0].empty() &&
      branches[1].empty()) {
    Expr select = Combine(ExprOp::kSelect,
                            {cond->expr, values[0].expr, values[1].expr},
                            term.where);
    select.type = term.type.elem;
    return Value::Of(Value::Kind::kData, std::move(select));
  }
  const Value storage = NewStorage(term.type, term.where);
  Stmt choice;
  choice.op = StmtOp::kIf;
  choice.where = term.where;
  choice.exprs.push_back(cond->expr);
  std::vector<Stmt>* outer = block_;
  for (int k = 0; k < 2; ++k) {
    block_ = &branches[k];
    Store(storage, values[k], term.type, term.args[1 + k].where);
  }
  block_ = outer;
  choice.body = std::move(branches[0]);
  choice.orelse = std::move(branches[1]);
  Emit(std::move(choice));
  return storage;
}

absl::StatusOr<Value> Lowering::Logic(const Term& term) {
  const ExprOp op = term.op == TermOp::kAnd ? ExprOp::kAnd : ExprOp::kOr;
  auto first = Eval(term.args[0]);
  if (!first.ok()) return first.status();
  std::vector<Stmt> stmts;
  auto second = EvalIn(term.args[1], stmts);
  if (!second.ok()) return second.status();
  if (stmts.empty()) {
    return Value::Of(Value::Kind::kControl,
                     Combine(op, {first->expr, second->expr}, term.where));
  }
  // The second operand only where the first does not decide, as C does.
  const Value result = Materialize(
      Value::Of(Value::Kind::kControl,
                Combine(ExprOp::kNot,
                          {Combine(ExprOp::kNot, {first->expr}, term.where)},
                          term.where)),
      Type::Of(Type::Kind::kBool), term.where);
  Stmt choice;
  choice.op = StmtOp::kIf;
  choice.where = term.where;
  choice.exprs.push_back(op == ExprOp::kAnd
                             ? result.expr
                             : Combine(ExprOp::kNot, {result.expr},
                                         term.where));
  std::vector<Stmt>* outer = block_;
  block_ = &stmts;
  Store(result,
        Value::Of(Value::Kind::kControl,
                  Combine(ExprOp::kNot,
                            {Combine(ExprOp::kNot, {second->expr},
                                       term.where)},
                            term.where)),
        Type::Of(Type::Kind::kBool), term.where);
  block_ = outer;
  choice.body = std::move(stmts);
  Emit(std::move(choice));
  return result;
}

absl::StatusOr<Value> Lowering::Pattern(const Term& term) {
  std::vector<const Term*> operands;
  for (const Term& arg : term.args) operands.push_back(&arg);
  auto values = EvalOperands(operands);
  if (!values.ok()) return values.status();
  Stmt stmt;
  stmt.op = StmtOp::kAccessPattern;
  stmt.where = term.where;
  stmt.access = &term;
  for (size_t i = 0; i < values->size(); ++i) {
    Value& value = (*values)[i];
    loop::CallArg arg;
    arg.is_data = true;
    if (value.kind == Value::Kind::kData) {
      // A scalar operand is read from memory, as a rank-0 array.
      arg.window.base = Temporary(term.args[i].type, term.args[i].where);
      Assign(arg.window.base, term.args[i].type.elem, {}, value.expr,
             term.args[i].where);
    } else {
      arg.window.base = value.view;
    }
    stmt.args.push_back(std::move(arg));
  }
  stmt.slot = Temporary(term.type, term.where);
  const int32_t view = stmt.slot;
  Emit(std::move(stmt));
  if (term.type.kind == Type::Kind::kElem) {
    return Value::Of(Value::Kind::kData,
                     Load(view, term.type.elem, {}, term.where));
  }
  return Value::Array(view);
}

absl::StatusOr<Value> Lowering::Operation(const Term& term) {
  std::vector<const Term*> operands;
  for (const Term& arg : term.args) operands.push_back(&arg);
  auto values = EvalOperands(operands);
  if (!values.ok()) return values.status();
  std::vector<Expr> args;
  for (Value& value : *values) args.push_back(std::move(value.expr));
  Expr e = Combine(ExprOp::kIntConst, std::move(args), term.where);
  Value::Kind kind = Value::Kind::kControl;
  switch (term.op) {
    case TermOp::kArith:
      e.op = ExprOp::kArith;
      e.arith = term.arith;
      e.type = term.type.elem;
      kind = Value::Kind::kData;
      break;
    case TermOp::kNegate:
      e.op = ExprOp::kNegate;
      e.type = term.type.elem;
      kind = Value::Kind::kData;
      break;
    case TermOp::kCast:
      e.op = ExprOp::kCast;
      e.type = term.type.elem;
      kind = Value::Kind::kData;
      break;
    case TermOp::kCompare:
      e.op = ExprOp::kCompareData;
      e.compare = term.compare;
      e.type = term.args[0].type.elem;
      break;
    case TermOp::kAddIndex:
      e.op = ExprOp::kAddIndex;
      break;
    case TermOp::kSubIndex:
      e.op = ExprOp::kSubIndex;
      break;
    case TermOp::kMulIndex:
      e.op = ExprOp::kMulIndex;
      break;
    case TermOp::kNegIndex:
      e.op = ExprOp::kNegIndex;
      break;
    case TermOp::kCompareIndex:
      e.op = ExprOp::kCompareIndex;
      e.compare = term.compare;
      break;
    case TermOp::kNot:
      e.op = ExprOp::kNot;
      break;
    default:
      return NotVerified(*term.where, "not an operation of the tensor level");
  }
  e.tensor_level = true;
  return Value::Of(kind, std::move(e));
}

absl::StatusOr<Value> Lowering::Eval(const Term& term) {
  switch (term.op) {
    case TermOp::kParam:
      return params_[term.value];
    case TermOp::kVar:
      return env_[env_.size() - 1 - term.value];
    case TermOp::kConst: {
      Expr e = Leaf(ExprOp::kDataConst, term.where);
      e.type = term.type.elem;
      e.constant = term.constant;
      return Value::Of(Value::Kind::kData, std::move(e));
    }
    case TermOp::kIntConst:
      return Value::Of(Value::Kind::kControl,
                       IntConst(term.value, term.where));
    case TermOp::kBuild:
      return Build(term);
    case TermOp::kIfold:
      return Ifold(term);
    case TermOp::kApp:
      return App(term);
    case TermOp::kIndex:
      return Index(term);
    case TermOp::kTuple: {
      auto values = EvalOperands({&term.args[0], &term.args[1]});
      if (!values.ok()) return values.status();
      return Value::Tuple((*values)[0], (*values)[1]);
    }
    case TermOp::kFst:
    case TermOp::kSnd: {
      auto pair = Eval(term.args[0]);
      if (!pair.ok()) return pair.status();
      return term.op == TermOp::kFst ? pair->tuple->first
                                     : pair->tuple->second;
    }
    case TermOp::kSelect:
      return Select(term);
    case TermOp::kAnd:
    case TermOp::kOr:
      return Logic(term);
    case TermOp::kAccessPattern:
      return Pattern(term);
    default:
      return Operation(term);
  }
}

absl::Status Lowering::Lower() {
  proc_.proc = function_.function;
  auto declare = [&](const ir::Node& decl, const Type& type,
                     ir::ParamKind kind) -> absl::StatusOr<int32_t> {
    if (type.kind != Type::Kind::kElem && type.kind != Type::Kind::kArray) {
      return NotVerified(decl, "a parameter or result that is not data");
    }
    CompiledParam param;
    param.decl = &decl;
    param.kind = kind;
    param.elem = type.elem;
    for (int64_t extent : type.shape) {
      param.dims.push_back(IntConst(extent, &decl));
    }
    param.slot = NewView(decl.name());
    proc_.params.push_back(std::move(param));
    return proc_.params.back().slot;
  };
  for (size_t i = 0; i < function_.params.size(); ++i) {
    const Type& type = function_.param_types[i];
    auto view = declare(*function_.params[i], type, ir::ParamKind::kIn);
    if (!view.ok()) return view.status();
    params_.push_back(type.kind == Type::Kind::kElem
                          ? Value::Of(Value::Kind::kData,
                                      Load(*view, type.elem, {},
                                           function_.params[i]))
                          : Value::Array(*view));
  }
  // The results, and their types, out of the right-nested tuple.
  std::vector<int32_t> results;
  std::vector<const Type*> types;
  const Type* rest = &function_.result_type;
  for (size_t i = 0; i < function_.results.size(); ++i) {
    const bool last = i + 1 == function_.results.size();
    types.push_back(last ? rest : rest->first.get());
    auto view = declare(*function_.results[i], *types.back(),
                        ir::ParamKind::kOut);
    if (!view.ok()) return view.status();
    results.push_back(*view);
    if (!last) rest = rest->second.get();
  }
  const Term& term = function_.term;
  if (results.size() == 1 && term.type.kind == Type::Kind::kArray) {
    return EvalInto(term, results[0], {});
  }
  auto value = Eval(term);
  if (!value.ok()) return value.status();
  const Value* part = &*value;
  for (size_t i = 0; i < results.size(); ++i) {
    const bool last = i + 1 == results.size();
    CopyInto(last ? *part : part->tuple->first, *types[i], results[i], {},
             term.where);
    if (!last) part = &part->tuple->second;
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::unique_ptr<loop::LoopProgram>> LowerFunction(
    const CompiledFunction& function) {
  auto program = std::make_unique<loop::LoopProgram>();
  auto proc = std::make_unique<CompiledProc>();
  Lowering lowering(function, *proc);
  if (auto status = lowering.Lower(); !status.ok()) return status;
  program->entry = proc.get();
  program->procs.push_back(std::move(proc));
  loop::PlanLoopProgram(*program);
  return program;
}

}  // namespace tensor
}  // namespace tessel
