#include "libs/interp/loop_executor.h"

#include <memory>
#include <string>
#include <utility>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/interp/diagnostics.h"
#include "libs/interp/loop_executor_internal.h"

namespace tessel {
namespace loop {
namespace {

std::string ElementText(absl::string_view name,
                        const absl::InlinedVector<int64_t, 4>& indices) {
  if (indices.empty()) return std::string(name);
  return absl::StrCat(name, "[", absl::StrJoin(indices, ", "), "]");
}

std::string ShapeText(const absl::InlinedVector<int64_t, 4>& dims) {
  return absl::StrCat("(", absl::StrJoin(dims, ", "), ")");
}

bool IsDense(const View& view) {
  int64_t expected = 1;
  for (size_t k = view.dims.size(); k-- > 0;) {
    if (view.dims[k] != 1 && view.strides[k] != expected) return false;
    expected *= view.dims[k];
  }
  return true;
}

}  // namespace

// A dimension as its declaration writes it: "(+ n 1)", "4".
std::string DimText(const Expr& dim) {
  return dim.op == ExprOp::kIntConst ? absl::StrCat(dim.value)
                                     : NodeText(*dim.where);
}

Frame NewFrame(const CompiledProc& proc) {
  Frame frame;
  frame.proc = &proc;
  frame.controls.assign(proc.control_names.size(), 0);
  frame.views.resize(proc.view_names.size());
  frame.owned.resize(proc.view_names.size());
  return frame;
}

// Makes `buffer` a fresh, unwritten tensor of `shape`, reusing its storage
// when the shape is unchanged (an alloc inside a loop runs every iteration).
absl::Status ResetBuffer(ElemType elem, const std::vector<int64_t>& shape,
                         std::unique_ptr<Buffer>& buffer) {
  if (buffer == nullptr || buffer->tensor.elem != elem ||
      buffer->tensor.shape != shape) {
    auto tensor = MakeHostTensor(elem, shape);
    if (!tensor.ok()) return tensor.status();
    buffer = std::make_unique<Buffer>();
    buffer->tensor = *std::move(tensor);
  }
  buffer->written.assign(buffer->tensor.num_elements(), 0);
  return absl::OkStatus();
}

View WholeView(Buffer& buffer) {
  View view;
  view.buffer = &buffer;
  const std::vector<int64_t>& shape = buffer.tensor.shape;
  view.dims.assign(shape.begin(), shape.end());
  view.strides.resize(shape.size());
  int64_t stride = 1;
  for (size_t k = shape.size(); k-- > 0;) {
    view.strides[k] = stride;
    stride *= shape[k];
  }
  return view;
}

absl::StatusOr<std::vector<HostTensor>> Executor::Run(
    std::vector<EntryArgument> args) {
  const CompiledProc& entry = *program_.entry;
  if (args.size() != entry.params.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat(entry.proc->name(), " takes ", entry.params.size(),
                     " arguments, ", args.size(), " are given"));
  }
  Frame frame = EntryFrame(args);
  if (!CheckSizes(entry, frame, nullptr)) return status_;
  for (size_t i = 0; i < entry.params.size(); ++i) {
    const CompiledParam& param = entry.params[i];
    if (!param.is_data()) continue;
    auto shape = ParamShape(param, frame);
    if (!shape.ok()) return shape.status();
    auto& buffer = frame.owned[param.slot];
    if (param.is_read()) {
      HostTensor& tensor = args[i].tensor;
      if (tensor.elem != param.elem || tensor.shape != *shape) {
        return ErrorAt(
            param.decl->loc(),
            absl::StrCat(
                "argument '", param.name(), "' is ", ElemTypeName(tensor.elem),
                " ", NumpyShapeText(tensor.shape), " but the parameter is ",
                ElemTypeName(param.elem), " ", NumpyShapeText(*shape)));
      }
      buffer = std::make_unique<Buffer>();
      buffer->tensor = std::move(tensor);
      buffer->written.assign(buffer->tensor.num_elements(), 1);
    } else if (auto status = ResetBuffer(param.elem, *shape, buffer);
               !status.ok()) {
      return ErrorAt(param.decl->loc(), status.message());
    }
    frame.views[param.slot] = WholeView(*buffer);
  }
  if (CheckAsserts(entry, frame, nullptr)) Exec(entry.body, frame);
  if (failed_) return status_;

  std::vector<HostTensor> outputs;
  for (const CompiledParam& param : entry.params) {
    if (!param.is_written()) continue;
    Buffer& buffer = *frame.owned[param.slot];
    for (size_t e = 0; e < buffer.written.size(); ++e) {
      if (buffer.written[e]) continue;
      absl::InlinedVector<int64_t, 4> index(buffer.tensor.shape.size());
      int64_t rest = static_cast<int64_t>(e);
      for (size_t k = index.size(); k-- > 0;) {
        index[k] = rest % buffer.tensor.shape[k];
        rest /= buffer.tensor.shape[k];
      }
      return ErrorAt(param.decl->loc(),
                     absl::StrCat(entry.proc->name(), " never writes ",
                                  ElementText(param.name(), index),
                                  " (an out parameter must be written "
                                  "completely)"));
    }
    outputs.push_back(std::move(buffer.tensor));
  }
  return outputs;
}

bool Executor::CheckSizes(const CompiledProc& proc, const Frame& frame,
                          const Stmt* call) {
  for (size_t i = 0; i < proc.params.size(); ++i) {
    const CompiledParam& param = proc.params[i];
    if (param.kind != ir::ParamKind::kSize) continue;
    int64_t value = frame.controls[param.slot];
    if (value > 0) continue;
    const ir::Node* where =
        call != nullptr ? call->args[i].control.where : param.decl;
    Fail(where, absl::StrCat("size '", param.name(), "' of ", proc.proc->name(),
                             " must be positive, not ", value));
    return false;
  }
  return true;
}

bool Executor::CheckAsserts(const CompiledProc& proc, Frame& frame,
                            const Stmt* call) {
  for (size_t i = 0; i < proc.asserts.size(); ++i) {
    int64_t holds = Control(proc.asserts[i], frame);
    if (failed_) return false;
    if (holds) continue;
    const ir::Node& assertion = *proc.assert_stmts[i];
    if (call != nullptr) {
      Fail(call->where, absl::StrCat("the call violates the assertion ",
                                     NodeText(*assertion.operand(0)), " of ",
                                     proc.proc->name()));
    } else {
      Fail(&assertion, absl::StrCat("the arguments violate the assertion ",
                                    NodeText(*assertion.operand(0)), " of ",
                                    proc.proc->name()));
    }
    return false;
  }
  return true;
}

void Executor::Exec(const std::vector<Stmt>& block, Frame& frame) {
  for (const Stmt& stmt : block) {
    ExecStmt(stmt, frame);
    if (failed_) return;
  }
}

void Executor::ExecStmt(const Stmt& stmt, Frame& frame) {
  switch (stmt.op) {
    case StmtOp::kFor: {
      const int64_t lo = Control(stmt.exprs[0], frame);
      const int64_t hi = Control(stmt.exprs[1], frame);
      for (int64_t i = lo; i < hi && !failed_; ++i) {
        frame.controls[stmt.slot] = i;
        Exec(stmt.body, frame);
      }
      return;
    }
    case StmtOp::kIf: {
      const int64_t cond = Control(stmt.exprs[0], frame);
      if (failed_) return;
      Exec(cond ? stmt.body : stmt.orelse, frame);
      return;
    }
    case StmtOp::kAlloc:
      Alloc(stmt, frame);
      return;
    case StmtOp::kAssign:
    case StmtOp::kReduce: {
      const View& view = frame.views[stmt.slot];
      const size_t rank = stmt.exprs.size() - 1;
      Scalar value = Data(stmt.exprs[rank], frame);
      int64_t offset = 0;
      if (!Locate(view, stmt.exprs.data(), rank, stmt.slot, frame, offset)) {
        return;
      }
      if (failed_) return;
      Buffer& buffer = *view.buffer;
      uint8_t* address =
          buffer.tensor.bytes.data() + offset * ElemTypeBytes(stmt.elem);
      if (stmt.op == StmtOp::kReduce) {
        if (!buffer.written[offset]) {
          Fail(stmt.where,
               absl::StrCat(
                   "reduces into ",
                   ElementText(frame.proc->view_names[stmt.slot],
                               IndexValues(stmt.exprs.data(), rank, frame)),
                   " before it is written"));
          return;
        }
        Scalar sum;
        Arith(ArithOp::kAdd, LoadScalar(stmt.elem, address), value, sum);
        value = sum;
      }
      StoreScalar(value, address);
      buffer.written[offset] = 1;
      return;
    }
    case StmtOp::kLet: {
      View view;
      if (MakeView(stmt.window, frame, view)) {
        frame.views[stmt.slot] = std::move(view);
      }
      return;
    }
    case StmtOp::kCall:
      Call(stmt, frame);
      return;
    case StmtOp::kWriteConfig: {
      const ConfigSlot& slot = program_.config_slots[stmt.slot];
      ConfigValue& value = config_[stmt.slot];
      if (slot.is_data) {
        value.data = Data(stmt.exprs[0], frame);
      } else {
        value.control = Control(stmt.exprs[0], frame);
      }
      value.set = !failed_;
      return;
    }
    case StmtOp::kAssignVector:
      AssignVector(stmt, frame);
      return;
    case StmtOp::kTransferWrite:
      TransferWrite(stmt, frame);
      return;
  }
}

void Executor::Alloc(const Stmt& stmt, Frame& frame) {
  std::vector<int64_t> shape;
  for (const Expr& dim : stmt.exprs) {
    int64_t value = Control(dim, frame);
    if (failed_) return;
    if (value <= 0) {
      Fail(dim.where, absl::StrCat("dimension ", DimText(dim), " of '",
                                   frame.proc->view_names[stmt.slot], "' is ",
                                   value, ", not positive"));
      return;
    }
    shape.push_back(value);
  }
  auto& buffer = frame.owned[stmt.slot];
  if (auto status = ResetBuffer(stmt.elem, shape, buffer); !status.ok()) {
    Fail(stmt.where, status.message());
    return;
  }
  frame.views[stmt.slot] = WholeView(*buffer);
}

void Executor::Call(const Stmt& stmt, Frame& caller) {
  const CompiledProc& callee = *stmt.callee;
  Frame frame = NewFrame(callee);
  for (size_t i = 0; i < callee.params.size(); ++i) {
    if (!stmt.args[i].is_data) {
      frame.controls[callee.params[i].slot] =
          Control(stmt.args[i].control, caller);
    }
  }
  if (failed_) return;
  if (!CheckSizes(callee, frame, &stmt)) return;
  for (size_t i = 0; i < callee.params.size(); ++i) {
    if (!stmt.args[i].is_data) continue;
    const CompiledParam& param = callee.params[i];
    View view;
    if (!MakeView(stmt.args[i].window, caller, view)) return;
    auto shape = ParamShape(param, frame);
    if (!shape.ok()) return;
    const ir::Node* where = stmt.args[i].window.where;
    if (!std::equal(view.dims.begin(), view.dims.end(), shape->begin(),
                    shape->end())) {
      Fail(where, absl::StrCat("argument '", param.name(), "' of ",
                               callee.proc->name(), " has shape ",
                               ShapeText(view.dims), ", expected ",
                               NumpyShapeText(*shape)));
      return;
    }
    if (!param.is_window && !IsDense(view)) {
      Fail(where, absl::StrCat("argument '", param.name(), "' of ",
                               callee.proc->name(),
                               " is a strided window, but the parameter is "
                               "a dense tensor"));
      return;
    }
    frame.views[param.slot] = std::move(view);
  }
  if (!CheckAsserts(callee, frame, &stmt)) return;
  Exec(callee.body, frame);
  if (failed_) {
    // Errors inside a callee name the calls that led there, innermost first.
    AddNote(*stmt.where, absl::StrCat("in the call to ", callee.proc->name()));
  }
}

void Executor::AddNote(const ir::Node& where, absl::string_view note) {
  const Location& loc = where.loc();
  status_ = absl::Status(
      status_.code(),
      absl::StrCat(status_.message(), "\n",
                   loc.known() ? absl::StrCat(loc.source->name(), ":", loc.line,
                                              ":", loc.col, ": ")
                               : "",
                   "note: ", note));
}

bool Executor::MakeView(const WindowRef& ref, Frame& frame, View& view) {
  if (ref.is_descriptor) return DescriptorView(ref, frame, view);
  const View& base = frame.views[ref.base];
  if (ref.selectors.empty()) {
    view = base;
    return true;
  }
  view.buffer = base.buffer;
  view.offset = base.offset;
  view.dims.clear();
  view.strides.clear();
  const std::string& name = frame.proc->view_names[ref.base];
  for (size_t k = 0; k < ref.selectors.size(); ++k) {
    const Selector& selector = ref.selectors[k];
    const int64_t lo = Control(selector.lo, frame);
    if (selector.point) {
      if (failed_) return false;
      if (lo < 0 || lo >= base.dims[k]) {
        Fail(selector.where,
             absl::StrCat("index ", lo, " is out of bounds for dimension ", k,
                          " of '", name, "' (size ", base.dims[k], ")"));
        return false;
      }
      view.offset += lo * base.strides[k];
      continue;
    }
    const int64_t hi = Control(selector.hi, frame);
    if (failed_) return false;
    if (lo < 0 || hi > base.dims[k] || lo >= hi) {
      Fail(selector.where,
           absl::StrCat("the interval [", lo, ", ", hi, ") is ",
                        lo >= hi ? "empty" : "out of bounds", " in dimension ",
                        k, " of '", name, "' (size ", base.dims[k], ")"));
      return false;
    }
    view.offset += lo * base.strides[k];
    view.dims.push_back(hi - lo);
    view.strides.push_back(base.strides[k]);
  }
  return true;
}

absl::InlinedVector<int64_t, 4> Executor::IndexValues(const Expr* indices,
                                                      size_t count,
                                                      Frame& frame) {
  absl::InlinedVector<int64_t, 4> values;
  for (size_t k = 0; k < count; ++k) {
    values.push_back(Control(indices[k], frame));
  }
  return values;
}

bool Executor::Locate(const View& view, const Expr* indices, size_t count,
                      int32_t slot, Frame& frame, int64_t& offset) {
  offset = view.offset;
  for (size_t k = 0; k < count; ++k) {
    const int64_t index = Control(indices[k], frame);
    if (failed_) return false;
    if (index < 0 || index >= view.dims[k]) {
      Fail(indices[k].where,
           absl::StrCat("index ", index, " is out of bounds for dimension ", k,
                        " of '", frame.proc->view_names[slot], "' (size ",
                        view.dims[k], ")"));
      return false;
    }
    offset += index * view.strides[k];
  }
  return true;
}

int64_t Executor::ControlArith(const Expr& e, Frame& frame) {
  const int64_t a = Control(e.args[0], frame);
  const int64_t b = Control(e.args[1], frame);
  int64_t result = 0;
  bool ok = true;
  switch (e.op) {
    case ExprOp::kAddIndex:
      ok = AddIndex(a, b, result);
      break;
    case ExprOp::kSubIndex:
      ok = SubIndex(a, b, result);
      break;
    case ExprOp::kMulIndex:
      ok = MulIndex(a, b, result);
      break;
    case ExprOp::kFloorDiv:
    case ExprOp::kFloorMod:
      if (b <= 0) {
        if (!failed_) {
          Fail(e.args[1].where, absl::StrCat("the divisor of a control "
                                             "expression must be positive, "
                                             "not ",
                                             b));
        }
        return 0;
      }
      result = e.op == ExprOp::kFloorDiv ? FloorDiv(a, b) : FloorMod(a, b);
      break;
    default:
      break;
  }
  if (!ok) Fail(e.where, "control arithmetic overflows 64 bits");
  return result;
}

int64_t Executor::Control(const Expr& e, Frame& frame) {
  switch (e.op) {
    case ExprOp::kIntConst:
      return e.value;
    case ExprOp::kControlVar:
      return frame.controls[e.slot];
    case ExprOp::kAddIndex:
    case ExprOp::kSubIndex:
    case ExprOp::kMulIndex:
    case ExprOp::kFloorDiv:
    case ExprOp::kFloorMod:
      return ControlArith(e, frame);
    case ExprOp::kNegIndex: {
      int64_t result = 0;
      if (!SubIndex(0, Control(e.args[0], frame), result)) {
        Fail(e.where, "control arithmetic overflows 64 bits");
      }
      return result;
    }
    case ExprOp::kMinIndex:
      return std::min(Control(e.args[0], frame), Control(e.args[1], frame));
    case ExprOp::kMaxIndex:
      return std::max(Control(e.args[0], frame), Control(e.args[1], frame));
    case ExprOp::kCompareIndex:
      return CompareIntegers(e.compare, Control(e.args[0], frame),
                             Control(e.args[1], frame));
    case ExprOp::kCompareData:
      return Compare(e.compare, Data(e.args[0], frame), Data(e.args[1], frame));
    case ExprOp::kAnd:
      return Control(e.args[0], frame) && Control(e.args[1], frame);
    case ExprOp::kOr:
      return Control(e.args[0], frame) || Control(e.args[1], frame);
    case ExprOp::kNot:
      return !Control(e.args[0], frame);
    case ExprOp::kStride:
      return frame.views[e.slot].strides[e.value];
    case ExprOp::kReadControlConfig: {
      const ConfigValue& value = config_[e.slot];
      if (!value.set) {
        const ConfigSlot& slot = program_.config_slots[e.slot];
        Fail(e.where, absl::StrCat("reads ", slot.config, ".", slot.field,
                                   " before it is written"));
      }
      return value.control;
    }
    default:
      Fail(e.where, "internal error: a data expression used as control");
      return 0;
  }
}

void Executor::CheckScalar(ScalarError error, const Expr& e,
                           const Scalar& operand) {
  if (error == ScalarError::kNone) return;
  if (error == ScalarError::kOutOfRange) {
    Fail(e.where,
         absl::StrCat("cannot cast ", ScalarText(operand), " to ",
                      ElemTypeName(e.type), ": the value is out of its range"));
    return;
  }
  Fail(e.where, ScalarErrorText(error));
}

Scalar Executor::Load(const Expr& e, Frame& frame) {
  const View& view = frame.views[e.slot];
  int64_t offset = 0;
  if (!Locate(view, e.args.data(), e.args.size(), e.slot, frame, offset)) {
    return Scalar{e.type};
  }
  const Buffer& buffer = *view.buffer;
  if (!buffer.written[offset]) {
    Fail(e.where, absl::StrCat("reads ",
                               ElementText(frame.proc->view_names[e.slot],
                                           IndexValues(e.args.data(),
                                                       e.args.size(), frame)),
                               " before it is written"));
    return Scalar{e.type};
  }
  return LoadScalar(
      e.type, buffer.tensor.bytes.data() + offset * ElemTypeBytes(e.type));
}

Scalar Executor::Data(const Expr& e, Frame& frame) {
  switch (e.op) {
    case ExprOp::kDataConst:
      return e.constant;
    case ExprOp::kLoad:
      return Load(e, frame);
    case ExprOp::kArith: {
      const Scalar a = Data(e.args[0], frame);
      const Scalar b = Data(e.args[1], frame);
      Scalar result{e.type};
      CheckScalar(Arith(e.arith, a, b, result), e, a);
      return result;
    }
    case ExprOp::kNegate:
      return Negate(Data(e.args[0], frame));
    case ExprOp::kSelect:
      // Only the chosen operand is evaluated, as with C's `?:`.
      return Control(e.args[0], frame) ? Data(e.args[1], frame)
                                       : Data(e.args[2], frame);
    case ExprOp::kCast: {
      const Scalar operand = Data(e.args[0], frame);
      Scalar result{e.type};
      CheckScalar(Cast(e.type, operand, result), e, operand);
      return result;
    }
    case ExprOp::kReadDataConfig: {
      const ConfigValue& value = config_[e.slot];
      if (!value.set) {
        const ConfigSlot& slot = program_.config_slots[e.slot];
        Fail(e.where, absl::StrCat("reads ", slot.config, ".", slot.field,
                                   " before it is written"));
        return Scalar{e.type};
      }
      return value.data;
    }
    case ExprOp::kReduction:
    case ExprOp::kExtractLane:
      return VectorScalar(e, frame);
    default:
      Fail(e.where, "internal error: a control expression used as data");
      return Scalar{e.type};
  }
}

absl::StatusOr<std::vector<int64_t>> EntryParamShape(
    const LoopProgram& program, size_t index,
    const std::vector<EntryArgument>& args) {
  Executor executor(program);
  Frame frame = executor.EntryFrame(args);
  return executor.ParamShape(program.entry->params[index], frame);
}

absl::StatusOr<std::vector<HostTensor>> RunEntry(
    const LoopProgram& program, std::vector<EntryArgument> args) {
  Executor executor(program);
  return executor.Run(std::move(args));
}

}  // namespace loop
}  // namespace tessel
