#include "libs/bufferize/lowering.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/bufferize/lowering_state.h"
#include "libs/ir/op.h"
#include "libs/ir/types.h"

namespace tessel::bufferize {
namespace lowering {

using ir::Op;

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
      buffer.writable = std::find(writable_args_.begin(), writable_args_.end(),
                                  decl->name()) != writable_args_.end();
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


}  // namespace lowering

absl::StatusOr<LoweredFunc> LowerFunc(
    const ir::Node& func, const std::vector<std::string>& writable_args) {
  return lowering::Lowering(func, writable_args).Run();
}

}  // namespace tessel::bufferize
