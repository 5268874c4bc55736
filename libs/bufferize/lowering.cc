#include "libs/bufferize/lowering.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/bufferize/eval_order.h"
#include "libs/bufferize/in_place.h"
#include "libs/bufferize/lib_call.h"
#include "libs/bufferize/view.h"
#include "libs/ir/keywords.h"
#include "libs/ir/library.h"
#include "libs/ir/op.h"
#include "libs/ir/syntax.h"
#include "libs/ir/type.h"
#include "libs/ir/types.h"
#include "libs/sexpr/printer.h"

namespace tessel::bufferize {
namespace {

using ir::Node;
using ir::Op;

// What a term evaluates to at the loop level.
struct Value {
  enum class Kind { kControl, kScalar, kTensor, kTuple };
  Kind kind = Kind::kScalar;
  std::string expr;  // a control or data expression
  View view;         // a tensor
  std::shared_ptr<Value> first, second;

  static Value Expr(Kind kind, std::string expr) {
    Value value;
    value.kind = kind;
    value.expr = std::move(expr);
    return value;
  }
  static Value Tensor(View view) {
    Value value;
    value.kind = Kind::kTensor;
    value.view = std::move(view);
    return value;
  }
  static Value Tuple(Value first, Value second) {
    Value value;
    value.kind = Kind::kTuple;
    value.first = std::make_shared<Value>(std::move(first));
    value.second = std::make_shared<Value>(std::move(second));
    return value;
  }
};

struct Buffer {
  ElemType elem;
  // An alloc of the rewrite's own, or an argument marked writable.
  bool writable = false;
  bool written = false;  // an argument written in place (made `inout`)
  int loop_depth = 0;     // how many loops enclose it
  // The binders (`lam`s, parameters) of the values that live in it.
  std::vector<const Node*> binders;
};

std::vector<int64_t> DimsOf(const ir::Type& type) {
  std::vector<int64_t> dims;
  if (type.is_shaped()) {
    for (const ir::Dim& dim : type.dims()) dims.push_back(dim.value);
  }
  return dims;
}

std::vector<int64_t> Ints(const Node& list) {
  std::vector<int64_t> ints;
  for (const Node* item : list.operands()) ints.push_back(item->int_value());
  return ints;
}

int64_t Count(const std::vector<int64_t>& dims) {
  int64_t count = 1;
  for (int64_t dim : dims) count *= dim;
  return count;
}

std::string TypeText(ElemType elem, const std::vector<int64_t>& dims) {
  if (dims.empty()) return ir::TypeText(ir::Type::Elem(elem));
  return absl::StrCat("(", ir::TypeText(ir::Type::Elem(elem)), " ",
                      absl::StrJoin(dims, " "), ")");
}

std::string Where(const Node* node) {
  if (node == nullptr || !node->loc().known()) return "a copy";
  return absl::StrCat(node->loc().line, ":", node->loc().col);
}

// Where `term` returns the value of the variable `depth` binders above it
// as a part of its result: the path through its tuples (0 the first part,
// 1 the second), looking through the bodies of `app`s; nullopt when it
// returns no such part.
std::optional<std::vector<int>> ReturnedAt(const Node& term, int64_t depth) {
  if (term.is(Op::kVar)) {
    if (term.int_value() != depth) return std::nullopt;
    return std::vector<int>();
  }
  if (term.is(Op::kApp)) {
    return ReturnedAt(*term.operand(0)->operand(0), depth + 1);
  }
  if (term.is(Op::kTuple)) {
    for (int part = 0; part < 2; ++part) {
      if (auto path = ReturnedAt(*term.operand(part), depth)) {
        path->insert(path->begin(), part);
        return path;
      }
    }
  }
  return std::nullopt;
}

class Lowering {
 public:
  Lowering(const Node& func, const absl::flat_hash_set<std::string>& writable)
      : func_(func), order_(func), writable_args_(writable) {}

  absl::StatusOr<LoweredFunc> Run();

 private:
  using Block = std::vector<std::string>;

  // Emission.
  void Emit(std::string statement) { block_->push_back(std::move(statement)); }
  std::string Fresh(absl::string_view prefix);
  View Alloc(ElemType elem, const std::vector<int64_t>& dims);
  // A loop nest over `dims`, `body` emitting the statements of one point.
  void Nest(const std::vector<int64_t>& dims,
            const std::function<absl::Status(const Indices&)>& body,
            absl::Status* status);
  absl::Status Loop(int64_t extent,
                    const std::function<absl::Status(const std::string&)>& body);
  // Writes `source` into `dest` element by element.
  absl::Status Copy(const View& source, const View& dest, bool counted);
  std::string Read(const View& view, const Indices& indices, const Node* at);

  // Terms.
  absl::StatusOr<Value> Eval(const Node& term);
  absl::StatusOr<std::string> Scalar(const Node& term);
  absl::Status EmitInto(const Node& term, const Value& dest);
  absl::Status EmitElement(const Node& term, const View& dest);
  absl::StatusOr<Value> Materialize(const Node& term);
  absl::Status EmitFold(const Node& fold, const View& acc);
  absl::Status EmitCompute(const Node& compute, const View& dest);
  absl::StatusOr<Value> View_(const Node& term);

  // Named calls kept as calls of their instrs (lib_call.h).
  absl::StatusOr<Value> EvalCall(const Node& call);
  absl::Status EmitCall(const Node& call, const View& dest);
  // The first `count` operands of `call`, scalars named.
  absl::StatusOr<std::vector<Value>> CallOperands(const Node& call,
                                                  size_t count);
  absl::StatusOr<std::string> ScalarName(const Value& value, ElemType elem);
  // Calls `call_instr` (or its instr with other TRANS keywords) on
  // `operands` (the result's scalar last, if any).
  absl::Status EmitInstrCall(const Node& call_instr, const Node& call,
                             const std::vector<Value>& call_operands,
                             const std::string& result);

  // Binders.
  absl::Status Bind(const Node& lam, const Node& argument);
  void Push(const Node& lam, Value value);
  void Pop() { env_.pop_back(); }
  void AddBinder(const Value& value, const Node* binder);

  // In-place decisions.
  bool Candidate(const View& view, ElemType elem,
                 const std::vector<int64_t>& dims) const;
  const Node* LaterReadOf(const std::string& buffer, int after) const;
  // Emits `emit` as an in-place write into `buffer`, keeping it if no read
  // saw the write too early; returns the read that broke it otherwise.
  absl::StatusOr<std::optional<const Node*>> Try(
      const std::string& buffer, const std::function<absl::Status()>& emit);
  void NoteConflict(const Node& at, std::string message);

  const Node& func_;
  EvalOrder order_;
  const absl::flat_hash_set<std::string>& writable_args_;
  Tracker tracker_;
  Block* block_ = nullptr;
  int loop_depth_ = 0;
  std::vector<Value> env_;
  absl::flat_hash_map<const Node*, Value> params_;
  absl::flat_hash_map<std::string, Buffer> buffers_;
  absl::flat_hash_set<std::string> names_;
  absl::flat_hash_map<std::string, int> counters_;
  LoweredFunc result_;
};

std::string Lowering::Fresh(absl::string_view prefix) {
  while (true) {
    std::string name = absl::StrCat(prefix, counters_[prefix]++);
    if (names_.insert(name).second) return name;
  }
}

View Lowering::Alloc(ElemType elem, const std::vector<int64_t>& dims) {
  std::string name = Fresh("t");
  Emit(absl::StrCat("(alloc ", name, " ", TypeText(elem, dims), ")"));
  Buffer& buffer = buffers_[name];
  buffer.elem = elem;
  buffer.writable = true;
  buffer.loop_depth = loop_depth_;
  if (!dims.empty()) {
    ++result_.stats.allocations;
    result_.stats.bytes_allocated += Count(dims) * ElemTypeBytes(elem);
  }
  return View::Whole(name, dims);
}

absl::Status Lowering::Loop(
    int64_t extent,
    const std::function<absl::Status(const std::string&)>& body) {
  std::string var = Fresh("i");
  Block inner;
  Block* outer = block_;
  block_ = &inner;
  ++loop_depth_;
  absl::Status status = body(var);
  --loop_depth_;
  block_ = outer;
  if (!status.ok()) return status;
  Emit(absl::StrCat("(for ", var, " 0 ", extent, " ", absl::StrJoin(inner, " "),
                    ")"));
  return absl::OkStatus();
}

void Lowering::Nest(const std::vector<int64_t>& dims,
                    const std::function<absl::Status(const Indices&)>& body,
                    absl::Status* status) {
  std::function<absl::Status(size_t, Indices)> level =
      [&](size_t k, Indices indices) -> absl::Status {
    if (k == dims.size()) return body(indices);
    return Loop(dims[k], [&](const std::string& var) {
      Indices more = indices;
      more.push_back(var);
      return level(k + 1, more);
    });
  };
  *status = level(0, {});
}

std::string Lowering::Read(const View& view, const Indices& indices,
                           const Node* at) {
  tracker_.Read(view.buffer, view.map(indices), at);
  return view.Element(indices);
}

absl::Status Lowering::Copy(const View& source, const View& dest,
                            bool counted) {
  if (source.SameAs(dest)) return absl::OkStatus();
  if (counted) ++result_.stats.copies;
  absl::Status status;
  Nest(
      dest.dims,
      [&](const Indices& indices) {
        auto previous = tracker_.Computing(dest.buffer, dest.map(indices));
        std::string value = Read(source, indices, nullptr);
        tracker_.Restore(std::move(previous));
        Emit(absl::StrCat("(assign ", dest.Element(indices), " ", value, ")"));
        return absl::OkStatus();
      },
      &status);
  return status;
}

void Lowering::Push(const Node& lam, Value value) {
  AddBinder(value, &lam);
  env_.push_back(std::move(value));
}

void Lowering::AddBinder(const Value& value, const Node* binder) {
  if (value.kind == Value::Kind::kTensor) {
    buffers_[value.view.buffer].binders.push_back(binder);
  } else if (value.kind == Value::Kind::kTuple) {
    AddBinder(*value.first, binder);
    AddBinder(*value.second, binder);
  }
}

absl::Status Lowering::Bind(const Node& lam, const Node& argument) {
  if (argument.type().is_elem()) {
    // Named once, in a scalar of its own: a later in-place write must not
    // change what it read.
    auto expr = Scalar(argument);
    if (!expr.ok()) return expr.status();
    std::string name = Fresh("s");
    Emit(absl::StrCat("(alloc ", name, " ",
                      ir::TypeText(ir::Type::Elem(argument.type().elem())),
                      ")"));
    Emit(absl::StrCat("(assign ", name, " ", *expr, ")"));
    Push(lam, Value::Expr(Value::Kind::kScalar, name));
    return absl::OkStatus();
  }
  auto value = Eval(argument);
  if (!value.ok()) return value.status();
  Push(lam, *std::move(value));
  return absl::OkStatus();
}

void Lowering::NoteConflict(const Node& at, std::string message) {
  result_.conflicts.push_back({at.loc(), std::move(message)});
}

const Node* Lowering::LaterReadOf(const std::string& buffer, int after) const {
  auto it = buffers_.find(buffer);
  if (it == buffers_.end()) return nullptr;
  return LaterRead(order_, it->second.binders, after);
}

bool Lowering::Candidate(const View& view, ElemType elem,
                         const std::vector<int64_t>& dims) const {
  auto it = buffers_.find(view.buffer);
  return it != buffers_.end() && it->second.writable &&
         it->second.elem == elem && it->second.loop_depth == loop_depth_ &&
         view.IsWhole() && view.dims == dims;
}

absl::StatusOr<std::optional<const Node*>> Lowering::Try(
    const std::string& buffer, const std::function<absl::Status()>& emit) {
  Block trial;
  Block* outer = block_;
  const LoweredFunc saved = result_;
  const auto snapshot = tracker_.Snapshot();
  block_ = &trial;
  int simulation = tracker_.Begin(buffer);
  absl::Status status = emit();
  std::optional<const Node*> broken = tracker_.End(simulation);
  block_ = outer;
  if (!status.ok()) return status;
  if (broken.has_value()) {
    result_ = saved;
    tracker_.Rollback(snapshot);
    return broken;
  }
  for (std::string& statement : trial) Emit(std::move(statement));
  return std::optional<const Node*>();
}

absl::StatusOr<std::string> Lowering::Scalar(const Node& term) {
  auto value = Eval(term);
  if (!value.ok()) return value.status();
  if (value->kind != Value::Kind::kScalar &&
      value->kind != Value::Kind::kControl) {
    return ErrorAt(term.loc(), "bufferize: expected a scalar here");
  }
  return value->expr;
}

absl::StatusOr<Value> Lowering::Eval(const Node& term) {
  const ir::Type& type = term.type();
  switch (term.op()) {
    case Op::kConst:
      return Value::Expr(
          type.is_control() ? Value::Kind::kControl : Value::Kind::kScalar,
          PrintFlat(ir::WriteNode(term)));
    case Op::kVar:
      return env_[env_.size() - 1 - term.int_value()];
    case Op::kRef: {
      auto it = params_.find(term.def());
      if (it == params_.end()) {
        return ErrorAt(term.loc(), absl::StrCat("bufferize: '", term.name(),
                                                "' is not a parameter"));
      }
      return it->second;
    }
    case Op::kApp: {
      const Node& lam = *term.operand(0);
      if (auto status = Bind(lam, *term.operand(1)); !status.ok()) {
        return status;
      }
      auto value = Eval(*lam.operand(0));
      Pop();
      return value;
    }
    case Op::kTuple: {
      auto first = Eval(*term.operand(0));
      if (!first.ok()) return first.status();
      auto second = Eval(*term.operand(1));
      if (!second.ok()) return second.status();
      return Value::Tuple(*std::move(first), *std::move(second));
    }
    case Op::kFst:
    case Op::kSnd: {
      auto pair = Eval(*term.operand(0));
      if (!pair.ok()) return pair.status();
      return term.is(Op::kFst) ? *pair->first : *pair->second;
    }
    case Op::kIfold:
      if (type.is_elem()) {
        std::string name = Fresh("s");
        Emit(absl::StrCat("(alloc ", name, " ",
                          ir::TypeText(ir::Type::Elem(type.elem())), ")"));
        if (auto status = EmitElement(term, View::Whole(name, {}));
            !status.ok()) {
          return status;
        }
        return Value::Expr(Value::Kind::kScalar, name);
      }
      return Materialize(term);
    case Op::kBuild:
    case Op::kCompute:
    case Op::kConcat:
    case Op::kPair:
    case Op::kCartProd:
      return Materialize(term);
    case Op::kIndex:
    case Op::kAccess:
    case Op::kTranspose:
    case Op::kSlice:
    case Op::kSqueeze:
    case Op::kFlatten:
    case Op::kReshape:
    case Op::kWindows:
      return View_(term);
    case Op::kLibCall:
      return EvalCall(term);
    default:
      break;
  }
  if (term.info().op_class != ir::OpClass::kExpr) {
    return ErrorAt(term.loc(), absl::StrCat("bufferize: cannot lower '",
                                            term.info().spelling, "'"));
  }
  // Scalar and control arithmetic: the loop level's own operators.
  std::vector<std::string> items = {std::string(term.info().spelling)};
  if (term.is(Op::kCast)) {
    items.push_back(ir::TypeText(ir::Type::Elem(type.elem())));
  }
  for (const Node* operand : term.operands()) {
    auto expr = Scalar(*operand);
    if (!expr.ok()) return expr.status();
    items.push_back(*std::move(expr));
  }
  return Value::Expr(
      type.is_control() ? Value::Kind::kControl : Value::Kind::kScalar,
      absl::StrCat("(", absl::StrJoin(items, " "), ")"));
}

absl::StatusOr<Value> Lowering::View_(const Node& term) {
  auto operand = Eval(*term.operand(0));
  if (!operand.ok()) return operand.status();
  const View& base = operand->view;
  switch (term.op()) {
    case Op::kIndex: {
      auto index = Scalar(*term.operand(1));
      if (!index.ok()) return index.status();
      View element = base.Fix(0, *index);
      if (element.rank() > 0) return Value::Tensor(element);
      return Value::Expr(Value::Kind::kScalar, Read(element, {}, &term));
    }
    case Op::kAccess:
      return *operand;
    case Op::kTranspose:
      return Value::Tensor(base.Transpose(Ints(*term.operand(1))));
    case Op::kSlice:
      return Value::Tensor(base.Slice(static_cast<int>(term.operand(1)->int_value()),
                                      term.operand(2)->int_value(),
                                      term.operand(3)->int_value()));
    case Op::kSqueeze:
      return Value::Tensor(
          base.Fix(static_cast<int>(term.operand(1)->int_value()), "0"));
    case Op::kWindows:
      return Value::Tensor(base.Windows(term.operand(0)->type().split(),
                                        Ints(*term.operand(1)),
                                        Ints(*term.operand(2))));
    default:  // flatten, reshape
      return Value::Tensor(base.Reshape(DimsOf(term.type())));
  }
}

absl::StatusOr<Value> Lowering::Materialize(const Node& term) {
  const ElemType elem = term.type().elem();
  const std::vector<int64_t> dims = DimsOf(term.type());
  const Span span = order_.SpanOf(term);
  if (term.is(Op::kIfold)) {
    // The accumulator's candidate buffer is its init's.
    auto init = Eval(*term.operand(1));
    if (!init.ok()) return init.status();
    if (Candidate(init->view, elem, dims)) {
      const Node* later = LaterReadOf(init->view.buffer,
                                      order_.SpanOf(*term.operand(1)).last);
      if (later == nullptr) {
        buffers_[init->view.buffer].written = true;
        if (auto status = EmitFold(term, init->view); !status.ok()) {
          return status;
        }
        return Value::Tensor(init->view);
      }
      NoteConflict(term, absl::StrCat("ifold does not update '",
                                      init->view.buffer,
                                      "' in place: its old value is read at ",
                                      Where(later), " (read after write)"));
    }
    View acc = Alloc(elem, dims);
    // A body that never reads its accumulator overwrites all of it: the
    // init need not be copied (an ifold runs its body at least once).
    const Node& acc_lam = *term.operand(2)->operand(0);
    if (!order_.UsesOf(acc_lam).empty()) {
      if (auto status = Copy(init->view, acc, true); !status.ok()) {
        return status;
      }
    }
    if (auto status = EmitFold(term, acc); !status.ok()) return status;
    return Value::Tensor(acc);
  }
  if (term.is(Op::kBuild)) {
    // Candidates: the values the build reads, innermost binder first, then
    // the arguments (writable ones only pass Candidate).
    std::vector<Value> candidates(env_.rbegin(), env_.rend());
    for (const Node* decl : func_.operands()) {
      auto it = params_.find(decl);
      if (it != params_.end()) candidates.push_back(it->second);
    }
    for (const Value& value : candidates) {
      if (value.kind != Value::Kind::kTensor ||
          !Candidate(value.view, elem, dims)) {
        continue;
      }
      bool read_inside = false;
      for (const Node* binder : buffers_[value.view.buffer].binders) {
        for (const Node* use : order_.UsesOf(*binder)) {
          int position = order_.SpanOf(*use).first;
          if (position >= span.first && position <= span.last) {
            read_inside = true;
          }
        }
      }
      if (!read_inside) continue;
      const std::string& buffer = value.view.buffer;
      if (const Node* later = LaterReadOf(buffer, span.last)) {
        NoteConflict(term, absl::StrCat("build does not write into '", buffer,
                                        "' in place: it is read at ",
                                        Where(later), " (read after write)"));
        continue;
      }
      View dest = value.view;
      auto broken = Try(buffer, [&] {
        return EmitInto(term, Value::Tensor(dest));
      });
      if (!broken.ok()) return broken.status();
      if (!broken->has_value()) {
        buffers_[buffer].written = true;
        return Value::Tensor(dest);
      }
      NoteConflict(term,
                   absl::StrCat("build does not write into '", buffer,
                                "' in place: ", Where(**broken),
                                " reads an element it would have overwritten"));
    }
  }
  View dest = Alloc(elem, dims);
  if (auto status = EmitInto(term, Value::Tensor(dest)); !status.ok()) {
    return status;
  }
  return Value::Tensor(dest);
}

absl::Status Lowering::EmitFold(const Node& fold, const View& acc) {
  const Node& outer = *fold.operand(2);
  const Node& inner = *outer.operand(0);
  const Node& body = *inner.operand(0);
  auto loop = [&](const std::optional<View>& scratch) {
    return Loop(fold.operand(0)->int_value(), [&](const std::string& var) {
      Push(outer, Value::Expr(Value::Kind::kControl, var));
      Push(inner, Value::Tensor(acc));
      absl::Status status;
      if (scratch.has_value()) {
        status = EmitInto(body, Value::Tensor(*scratch));
        if (status.ok()) status = Copy(*scratch, acc, true);
      } else {
        status = EmitInto(body, Value::Tensor(acc));
      }
      Pop();
      Pop();
      return status;
    });
  };
  auto broken = Try(acc.buffer, [&] { return loop(std::nullopt); });
  if (!broken.ok()) return broken.status();
  if (!broken->has_value()) return absl::OkStatus();
  NoteConflict(fold, absl::StrCat("ifold computes each new accumulator out "
                                  "of place: ",
                                  Where(**broken),
                                  " reads an element of the old one that "
                                  "it would have overwritten"));
  View scratch = Alloc(fold.type().elem(), acc.dims);
  return loop(scratch);
}

absl::Status Lowering::EmitElement(const Node& term, const View& dest) {
  const Indices element = dest.map({});
  if (term.is(Op::kIfold) && !tracker_.Simulating(dest.buffer)) {
    // A scalar fold accumulates in its destination.
    if (auto status = EmitElement(*term.operand(1), dest); !status.ok()) {
      return status;
    }
    const Node& outer = *term.operand(2);
    const Node& inner = *outer.operand(0);
    return Loop(term.operand(0)->int_value(), [&](const std::string& var) {
      Push(outer, Value::Expr(Value::Kind::kControl, var));
      Push(inner, Value::Expr(Value::Kind::kScalar, dest.Element({})));
      absl::Status status = EmitElement(*inner.operand(0), dest);
      Pop();
      Pop();
      return status;
    });
  }
  if (term.is(Op::kIfold)) {
    // In a buffer written in place, the old element is read by the body:
    // accumulate in a scalar of its own.
    auto value = Eval(term);
    if (!value.ok()) return value.status();
    Emit(absl::StrCat("(assign ", dest.Element({}), " ", value->expr, ")"));
    return absl::OkStatus();
  }
  if (term.is(Op::kApp)) {
    const Node& lam = *term.operand(0);
    if (auto status = Bind(lam, *term.operand(1)); !status.ok()) return status;
    absl::Status status = EmitElement(*lam.operand(0), dest);
    Pop();
    return status;
  }
  auto previous = tracker_.Computing(dest.buffer, element);
  auto value = Scalar(term);
  tracker_.Restore(std::move(previous));
  if (!value.ok()) return value.status();
  Emit(absl::StrCat("(assign ", dest.Element({}), " ", *value, ")"));
  return absl::OkStatus();
}

absl::Status Lowering::EmitInto(const Node& term, const Value& dest) {
  if (dest.kind == Value::Kind::kTuple) {
    if (term.is(Op::kTuple)) {
      if (auto status = EmitInto(*term.operand(0), *dest.first); !status.ok()) {
        return status;
      }
      return EmitInto(*term.operand(1), *dest.second);
    }
  } else if (dest.view.rank() == 0) {
    return EmitElement(term, dest.view);
  }
  switch (term.op()) {
    case Op::kApp: {
      const Node& lam = *term.operand(0);
      // A bound tensor that is returned is computed in its result's
      // buffer (MLIR's empty-tensor elimination): no buffer of its own and
      // no copy. Nothing else is written into a result's buffer, so the
      // value stays as computed while the body reads it.
      if (auto path = ReturnedAt(*lam.operand(0), 0);
          path.has_value() && !term.operand(1)->type().is_elem()) {
        const Value* slot = &dest;
        for (int part : *path) {
          if (slot->kind != Value::Kind::kTuple) {
            slot = nullptr;
            break;
          }
          slot = part == 0 ? slot->first.get() : slot->second.get();
        }
        if (slot != nullptr && slot->kind == Value::Kind::kTensor) {
          if (auto status = EmitInto(*term.operand(1), *slot); !status.ok()) {
            return status;
          }
          Push(lam, *slot);
          absl::Status status = EmitInto(*lam.operand(0), dest);
          Pop();
          return status;
        }
      }
      if (auto status = Bind(lam, *term.operand(1)); !status.ok()) {
        return status;
      }
      absl::Status status = EmitInto(*lam.operand(0), dest);
      Pop();
      return status;
    }
    case Op::kBuild: {
      const Node& lam = *term.operand(1);
      return Loop(term.operand(0)->int_value(), [&](const std::string& var) {
        Push(lam, Value::Expr(Value::Kind::kControl, var));
        absl::Status status =
            EmitInto(*lam.operand(0), Value::Tensor(dest.view.Fix(0, var)));
        Pop();
        return status;
      });
    }
    case Op::kIfold:
      if (auto status = EmitInto(*term.operand(1), dest); !status.ok()) {
        return status;
      }
      return EmitFold(term, dest.view);
    case Op::kConcat: {
      const int dim = static_cast<int>(term.operand(2)->int_value());
      const int64_t split = DimsOf(term.operand(0)->type())[dim];
      if (auto status = EmitInto(*term.operand(0),
                                 Value::Tensor(dest.view.Slice(dim, 0, split)));
          !status.ok()) {
        return status;
      }
      return EmitInto(*term.operand(1),
                      Value::Tensor(dest.view.Slice(dim, split,
                                                    dest.view.dims[dim])));
    }
    case Op::kPair:
    case Op::kCartProd: {
      // Element 0 of the tuple dimension is the first operand, 1 the
      // second; cartProd pairs every access position of one with every
      // one of the other.
      const int left = term.operand(0)->type().split();
      const int right = term.is(Op::kPair) ? 0 : term.operand(1)->type().split();
      const std::vector<int64_t> left_dims = DimsOf(term.operand(0)->type());
      const std::vector<int64_t> right_dims = DimsOf(term.operand(1)->type());
      auto first = Eval(*term.operand(0));
      if (!first.ok()) return first.status();
      auto second = Eval(*term.operand(1));
      if (!second.ok()) return second.status();
      View first_view = first->view;
      View second_view = second->view;
      if (term.is(Op::kCartProd)) {
        first_view = first_view.Broadcast(
            left, std::vector<int64_t>(right_dims.begin(),
                                       right_dims.begin() + right));
        second_view = second_view.Broadcast(
            0, std::vector<int64_t>(left_dims.begin(), left_dims.begin() + left));
      }
      const int tuple_dim = left + right;
      if (auto status = Copy(first_view, dest.view.Fix(tuple_dim, "0"), false);
          !status.ok()) {
        return status;
      }
      return Copy(second_view, dest.view.Fix(tuple_dim, "1"), false);
    }
    case Op::kCompute:
      return EmitCompute(term, dest.view);
    case Op::kLibCall:
      if (dest.kind == Value::Kind::kTensor) return EmitCall(term, dest.view);
      break;
    default:
      break;
  }
  auto value = Eval(term);
  if (!value.ok()) return value.status();
  if (dest.kind == Value::Kind::kTuple) {
    if (value->kind != Value::Kind::kTuple) {
      return ErrorAt(term.loc(), "bufferize: expected a tuple here");
    }
    // Each part copied into its destination.
    if (auto status = Copy(value->first->view, dest.first->view, true);
        !status.ok()) {
      return status;
    }
    return Copy(value->second->view, dest.second->view, true);
  }
  return Copy(value->view, dest.view, true);
}

absl::Status Lowering::EmitCompute(const Node& compute, const View& dest) {
  auto operand = Eval(*compute.operand(0));
  if (!operand.ok()) return operand.status();
  const View& source = operand->view;
  const int split = compute.operand(0)->type().split();
  const std::vector<int64_t> access(source.dims.begin(),
                                    source.dims.begin() + split);
  const std::vector<int64_t> inner(source.dims.begin() + split,
                                   source.dims.end());
  auto op = ir::FindComputeOp(compute.name());
  if (!op.has_value()) {
    return ErrorAt(compute.loc(), "bufferize: unknown compute operator");
  }
  auto join = [](const Indices& a, const Indices& b) {
    Indices all = a;
    all.insert(all.end(), b.begin(), b.end());
    return all;
  };
  absl::Status status;
  switch (*op) {
    case ir::ComputeOp::kRelu:
      Nest(
          source.dims,
          [&](const Indices& at) {
            auto previous = tracker_.Computing(dest.buffer, dest.map(at));
            std::string x = Read(source, at, &compute);
            tracker_.Restore(std::move(previous));
            Emit(absl::StrCat("(assign ", dest.Element(at), " (select (< ", x,
                              " 0) 0 ", x, "))"));
            return absl::OkStatus();
          },
          &status);
      return status;
    case ir::ComputeOp::kElementwiseAdd:
    case ir::ComputeOp::kElementwiseMul: {
      const char* sign = *op == ir::ComputeOp::kElementwiseAdd ? "+" : "*";
      const std::vector<int64_t> rest(inner.begin() + 1, inner.end());
      Nest(
          access,
          [&](const Indices& a) {
            absl::Status each;
            Nest(
                rest,
                [&](const Indices& c) {
                  auto previous =
                      tracker_.Computing(dest.buffer, dest.map(join(a, c)));
                  std::string sum;
                  for (int64_t t = 0; t < inner[0]; ++t) {
                    std::string x = Read(
                        source, join(join(a, {absl::StrCat(t)}), c), &compute);
                    sum = t == 0 ? x : absl::StrCat("(", sign, " ", sum, " ", x, ")");
                  }
                  tracker_.Restore(std::move(previous));
                  Emit(absl::StrCat("(assign ", dest.Element(join(a, c)), " ",
                                    sum, ")"));
                  return absl::OkStatus();
                },
                &each);
            return each;
          },
          &status);
      return status;
    }
    case ir::ComputeOp::kReduceSum:
    case ir::ComputeOp::kReduceMax:
    case ir::ComputeOp::kDotProd: {
      const bool dot = *op == ir::ComputeOp::kDotProd;
      const std::vector<int64_t> summed =
          dot ? std::vector<int64_t>(inner.begin() + 1, inner.end()) : inner;
      Nest(
          access,
          [&](const Indices& a) {
            const std::string target = dest.Element(a);
            if (*op == ir::ComputeOp::kReduceMax) {
              Indices first = a;
              first.resize(a.size() + inner.size(), "0");
              Emit(absl::StrCat("(assign ", target, " ",
                                Read(source, first, &compute), ")"));
            } else {
              Emit(absl::StrCat("(assign ", target, " 0)"));
            }
            absl::Status each;
            Nest(
                summed,
                [&](const Indices& c) {
                  std::string x;
                  if (dot) {
                    for (int64_t t = 0; t < inner[0]; ++t) {
                      std::string factor = Read(
                          source, join(join(a, {absl::StrCat(t)}), c), &compute);
                      x = t == 0 ? factor
                                 : absl::StrCat("(* ", x, " ", factor, ")");
                    }
                  } else {
                    x = Read(source, join(a, c), &compute);
                  }
                  Emit(absl::StrCat(
                      "(assign ", target, " (",
                      *op == ir::ComputeOp::kReduceMax ? "max" : "+", " ",
                      target, " ", x, "))"));
                  return absl::OkStatus();
                },
                &each);
            return each;
          },
          &status);
      return status;
    }
  }
  return status;
}

absl::StatusOr<std::string> Lowering::ScalarName(const Value& value,
                                                 ElemType elem) {
  // A data argument is a name: a parameter's or a scalar of the rewrite's
  // (a literal or an expression is computed into one).
  const std::string& expr = value.expr;
  if (!expr.empty() && (absl::ascii_isalpha(expr[0]) || expr[0] == '_') &&
      expr.find_first_of(" ()") == std::string::npos) {
    return expr;
  }
  std::string name = Fresh("s");
  Emit(absl::StrCat("(alloc ", name, " ", ir::TypeText(ir::Type::Elem(elem)),
                    ")"));
  Emit(absl::StrCat("(assign ", name, " ", expr, ")"));
  return name;
}

absl::StatusOr<std::vector<Value>> Lowering::CallOperands(const Node& call,
                                                          size_t count) {
  std::vector<Value> operands;
  for (size_t i = 0; i < count; ++i) {
    const Node& operand = *call.operand(i);
    auto value = Eval(operand);
    if (!value.ok()) return value.status();
    if (value->kind == Value::Kind::kScalar) {
      // Named now, before a write in place could change what it reads.
      auto name = ScalarName(*value, operand.type().elem());
      if (!name.ok()) return name.status();
      value->expr = *std::move(name);
    } else if (value->kind != Value::Kind::kTensor) {
      return ErrorAt(operand.loc(),
                     "bufferize: a library call's operand is a scalar or a "
                     "tensor");
    }
    operands.push_back(*std::move(value));
  }
  return operands;
}

absl::Status Lowering::EmitInstrCall(const Node& call_instr, const Node& call,
                                     const std::vector<Value>& call_operands,
                                     const std::string& result) {
  // A matrix operand that is the transpose of a window is passed as that
  // window, to the instr with the other TRANS keyword (BLAS's transpose
  // flag): no copy.
  const size_t written =
      result.empty() ? call_operands.size() - 1 : call_operands.size();
  const std::vector<std::string> call_keys = ir::Keywords(call);
  std::vector<std::string> keys = call_keys;
  std::vector<Value> operands = call_operands;
  size_t key = 0;
  for (size_t i = 0; i < written && key < keys.size(); ++i) {
    Value& operand = operands[i];
    if (operand.kind != Value::Kind::kTensor || operand.view.rank() != 2) {
      continue;
    }
    View flipped = operand.view.Transpose({1, 0});
    if (!operand.view.WindowText(true).has_value() &&
        flipped.WindowText(true).has_value()) {
      operand.view = std::move(flipped);
      static const std::string kNoTrans = "N", kTrans = "T";
      keys[key] = keys[key] == kNoTrans ? kTrans : kNoTrans;
    }
    ++key;
  }
  const Node* chosen = &call_instr;
  if (keys != call_keys) chosen = InstrWithKeys(call, keys);
  if (chosen == nullptr) {
    chosen = &call_instr;
    operands = call_operands;
  }
  const Node& instr = *chosen;
  std::vector<std::vector<int64_t>> extents;
  for (const Value& operand : operands) {
    extents.push_back(operand.kind == Value::Kind::kTensor
                          ? operand.view.dims
                          : std::vector<int64_t>());
  }
  auto sizes = InstrSizes(instr, extents);
  if (!sizes.ok()) {
    return ErrorAt(call.loc(),
                   absl::StrCat("bufferize: ", sizes.status().message()));
  }
  std::vector<std::string> args = {std::string(instr.name())};
  for (int64_t size : *sizes) args.push_back(absl::StrCat(size));
  for (size_t i = 0; i < operands.size(); ++i) {
    const Value& operand = operands[i];
    if (operand.kind != Value::Kind::kTensor) {
      args.push_back(operand.expr);
      continue;
    }
    std::optional<std::string> window = operand.view.WindowText(true);
    if (i != written) {
      // The call reads any element of its operands: no write in place
      // into their buffers may be under way.
      tracker_.Read(operand.view.buffer, {"*"}, &call);
      if (!window.has_value()) {
        // A view no window expresses (a transpose, a reshape): its
        // elements in a buffer of their own.
        View copy = Alloc(call.operand(i)->type().elem(), operand.view.dims);
        if (auto status = Copy(operand.view, copy, true); !status.ok()) {
          return status;
        }
        window = copy.WindowText(true);
      }
    }
    if (!window.has_value()) {
      return absl::InternalError(absl::StrCat(
          "bufferize: no window for the destination of ", instr.name()));
    }
    args.push_back(*std::move(window));
  }
  if (!result.empty()) args.push_back(result);
  Emit(absl::StrCat("(call ", absl::StrJoin(args, " "), ")"));
  if (std::find(result_.instrs.begin(), result_.instrs.end(), &instr) ==
      result_.instrs.end()) {
    result_.instrs.push_back(&instr);
  }
  return absl::OkStatus();
}

absl::StatusOr<Value> Lowering::EvalCall(const Node& call) {
  const Node* instr = InstrForCall(call);
  if (instr == nullptr) {
    return ErrorAt(call.loc(), "bufferize: a named call without an instr "
                               "is expanded first");
  }
  const size_t count = call.num_operands();
  if (ReturnsScalar(*instr)) {
    auto operands = CallOperands(call, count);
    if (!operands.ok()) return operands.status();
    std::string name = Fresh("s");
    Emit(absl::StrCat("(alloc ", name, " ",
                      ir::TypeText(ir::Type::Elem(call.type().elem())), ")"));
    if (auto status = EmitInstrCall(*instr, call, *operands, name);
        !status.ok()) {
      return status;
    }
    return Value::Expr(Value::Kind::kScalar, name);
  }
  // The result is the last operand updated: in its own buffer when the
  // analysis allows it (as an ifold's init), else in a copy.
  auto operands = CallOperands(call, count);
  if (!operands.ok()) return operands.status();
  const View init = operands->back().view;
  const ElemType elem = call.type().elem();
  const std::vector<int64_t> dims = DimsOf(call.type());
  if (Candidate(init, elem, dims)) {
    bool aliased = false;
    for (size_t i = 0; i + 1 < operands->size(); ++i) {
      const Value& operand = (*operands)[i];
      aliased |= operand.kind == Value::Kind::kTensor &&
                 operand.view.buffer == init.buffer;
    }
    const Node* later =
        LaterReadOf(init.buffer, order_.SpanOf(*call.operand(count - 1)).last);
    if (!aliased && later == nullptr) {
      buffers_[init.buffer].written = true;
      if (auto status = EmitInstrCall(*instr, call, *operands, "");
          !status.ok()) {
        return status;
      }
      return Value::Tensor(init);
    }
    NoteConflict(call,
                 absl::StrCat(call.name(), " does not update '", init.buffer,
                              "' in place: ",
                              aliased ? "another operand of the call is in it"
                                      : absl::StrCat("its old value is read "
                                                     "at ",
                                                     Where(later),
                                                     " (read after write)")));
  }
  View acc = Alloc(elem, dims);
  if (auto status = Copy(init, acc, true); !status.ok()) return status;
  operands->back() = Value::Tensor(acc);
  if (auto status = EmitInstrCall(*instr, call, *operands, ""); !status.ok()) {
    return status;
  }
  return Value::Tensor(acc);
}

absl::Status Lowering::EmitCall(const Node& call, const View& dest) {
  const Node* instr = InstrForCall(call);
  if (instr == nullptr || ReturnsScalar(*instr)) {
    return ErrorAt(call.loc(), "bufferize: expected a library call with an "
                               "instr and a tensor result");
  }
  const size_t count = call.num_operands();
  auto operands = CallOperands(call, count - 1);
  if (!operands.ok()) return operands.status();
  // The last operand is written into the destination, which the call then
  // updates: unless an operand is in the destination's buffer (writing it
  // would change the operand), or no window reaches the destination.
  bool aliased = false;
  for (const Value& operand : *operands) {
    aliased |= operand.kind == Value::Kind::kTensor &&
               operand.view.buffer == dest.buffer;
  }
  View target = dest;
  if (aliased || !dest.WindowText(true).has_value()) {
    target = Alloc(call.type().elem(), dest.dims);
  }
  if (auto status = EmitInto(*call.operand(count - 1), Value::Tensor(target));
      !status.ok()) {
    return status;
  }
  operands->push_back(Value::Tensor(target));
  if (auto status = EmitInstrCall(*instr, call, *operands, ""); !status.ok()) {
    return status;
  }
  return target.buffer == dest.buffer ? absl::OkStatus()
                                      : Copy(target, dest, true);
}

absl::StatusOr<LoweredFunc> Lowering::Run() {
  std::vector<View> results;
  for (const Node* decl : func_.operands()) {
    if (!decl->is(Op::kValue)) continue;
    names_.insert(decl->name());
  }
  for (const Node* decl : func_.operands()) {
    if (!decl->is(Op::kValue)) continue;
    const ir::Type& type = decl->declared_type();
    const bool result = decl->param_kind() == ir::ParamKind::kOut;
    View view = View::Whole(decl->name(), DimsOf(type));
    buffers_[decl->name()].elem = type.elem();
    if (result) {
      results.push_back(view);
    } else if (type.is_elem()) {
      params_[decl] = Value::Expr(Value::Kind::kScalar, decl->name());
    } else {
      Buffer& buffer = buffers_[decl->name()];
      buffer.binders.push_back(decl);
      buffer.writable = writable_args_.contains(decl->name());
      params_[decl] = Value::Tensor(view);
    }
  }
  // The results' destinations, nested as the term's tuples are.
  Value dest = Value::Tensor(results.back());
  for (size_t i = results.size() - 1; i-- > 0;) {
    dest = Value::Tuple(Value::Tensor(results[i]), dest);
  }
  Block body;
  block_ = &body;
  if (auto status = EmitInto(*func_.operand(func_.num_operands() - 1), dest);
      !status.ok()) {
    return status;
  }
  // A writable argument the proc writes is `inout`: the caller's tensor
  // is changed (MLIR's writable function arguments).
  std::vector<std::string> params;
  for (const Node* decl : func_.operands()) {
    if (!decl->is(Op::kValue)) continue;
    const char* kind = decl->param_kind() == ir::ParamKind::kOut ? "out"
                       : buffers_[decl->name()].written      ? "inout"
                                                              : "in";
    params.push_back(absl::StrCat("(", kind, " ", decl->name(), " ",
                                  ir::TypeText(decl->declared_type()), ")"));
  }
  result_.proc = absl::StrCat("(proc ", func_.name(), " (",
                              absl::StrJoin(params, " "), ") ",
                              absl::StrJoin(body, " "), ")");
  return result_;
}

}  // namespace

absl::StatusOr<LoweredFunc> LowerFunc(
    const ir::Node& func,
    const absl::flat_hash_set<std::string>& writable_args) {
  return Lowering(func, writable_args).Run();
}

}  // namespace tessel::bufferize
