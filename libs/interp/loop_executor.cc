#include "libs/interp/loop_executor.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <utility>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/interp/access_evaluator.h"
#include "libs/interp/diagnostics.h"
#include "libs/interp/loop_executor_internal.h"

namespace tessel {
namespace loop {
namespace {

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

// The least and greatest element offsets of a view (its elements lie
// between them).
std::pair<int64_t, int64_t> Extent(const View& view) {
  int64_t least = view.offset;
  int64_t greatest = view.offset;
  for (size_t k = 0; k < view.dims.size(); ++k) {
    const int64_t span = (view.dims[k] - 1) * view.strides[k];
    (span < 0 ? least : greatest) += span;
  }
  return {least, greatest};
}

}  // namespace

void Buffer::MarkWritten(int64_t offset, int64_t count) {
  uint8_t* flags = written.data() + offset;
  int64_t fresh = 0;
  for (int64_t i = 0; i < count; ++i) fresh += flags[i] == 0;
  std::memset(flags, 1, count);
  unwritten -= fresh;
}

void Buffer::SetWritten(bool all) {
  written.assign(tensor.num_elements(), all ? 1 : 0);
  unwritten = all ? 0 : tensor.num_elements();
}

std::string DimText(const Expr& dim) {
  return dim.op == ExprOp::kIntConst ? absl::StrCat(dim.value)
                                     : NodeText(*dim.where);
}

std::string ElementText(absl::string_view name,
                        absl::Span<const int64_t> indices) {
  if (indices.empty()) return std::string(name);
  return absl::StrCat(name, "[", absl::StrJoin(indices, ", "), "]");
}

std::unique_ptr<Frame> NewFrame(const CompiledProc& proc) {
  auto frame = std::make_unique<Frame>();
  frame->proc = &proc;
  frame->controls.assign(proc.control_names.size(), 0);
  frame->views.resize(proc.view_names.size());
  frame->owned.resize(proc.view_names.size());
  frame->arena.assign(proc.arena_words, 0);
  frame->region_bounds.resize(proc.regions);
  // A literal's column holds it on every lane it may be read on.
  for (const auto& [constant, lanes] : proc.constants) {
    uint64_t* column = frame->arena.data() + constant->column;
    if (constant->op == ExprOp::kIntConst) {
      std::fill_n(reinterpret_cast<int64_t*>(column), lanes, constant->value);
      continue;
    }
    element::WithElemType(constant->type, [&]<ElemType E>() {
      const auto value = static_cast<element::Repr<E>>(
          element::kIsFloat<E> ? constant->constant.f : constant->constant.i);
      std::fill_n(reinterpret_cast<element::Repr<E>*>(column), lanes, value);
    });
  }
  return frame;
}

absl::Status ResetBuffer(ElemType elem, const std::vector<int64_t>& shape,
                         std::unique_ptr<Buffer>& buffer) {
  if (buffer == nullptr || buffer->tensor.elem != elem ||
      buffer->tensor.shape != shape) {
    auto tensor = MakeHostTensor(elem, shape);
    if (!tensor.ok()) return tensor.status();
    buffer = std::make_unique<Buffer>();
    buffer->tensor = *std::move(tensor);
  }
  buffer->SetWritten(false);
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

Executor::Executor(const LoopProgram& program, bool batching)
    : program_(program),
      batching_(batching),
      // The procedures, and a pe-program's own frame after them.
      frames_(program.procs.size() + 1),
      config_(program.config_slots.size()),
      offsets_(kBatchLanes) {}

Frame& Executor::FrameOf(const CompiledProc& proc) {
  std::unique_ptr<Frame>& frame = frames_[proc.index];
  if (frame == nullptr) frame = NewFrame(proc);
  return *frame;
}

bool Executor::ParamDims(const CompiledParam& param, Frame& frame,
                         absl::InlinedVector<int64_t, 4>& shape) {
  for (const Expr& dim : param.dims) {
    const int64_t value = ControlValue(dim, frame);
    if (!failed_ && value <= 0) {
      Fail(dim.where, absl::StrCat("dimension ", DimText(dim), " of '",
                                   param.name(), "' is ", value,
                                   ", not positive"));
    }
    if (failed_) return false;
    shape.push_back(value);
  }
  return true;
}

absl::StatusOr<std::vector<int64_t>> Executor::ParamShape(
    const CompiledParam& param, Frame& frame) {
  absl::InlinedVector<int64_t, 4> shape;
  if (!ParamDims(param, frame, shape)) return status_;
  return std::vector<int64_t>(shape.begin(), shape.end());
}

absl::StatusOr<std::vector<HostTensor>> Executor::Run(
    const std::vector<EntryArgument>& args) {
  const CompiledProc& entry = *program_.entry;
  if (args.size() != entry.params.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat(entry.proc->name(), " takes ", entry.params.size(),
                     " arguments, ", args.size(), " are given"));
  }
  Frame& frame = FrameOf(entry);
  for (size_t i = 0; i < entry.params.size(); ++i) {
    if (!entry.params[i].is_data()) {
      frame.controls[entry.params[i].slot] = args[i].control;
    }
  }
  if (!CheckSizes(entry, frame, nullptr)) return status_;
  for (size_t i = 0; i < entry.params.size(); ++i) {
    const CompiledParam& param = entry.params[i];
    if (!param.is_data()) continue;
    auto shape = ParamShape(param, frame);
    if (!shape.ok()) return shape.status();
    auto& buffer = frame.owned[param.slot];
    if (param.is_read()) {
      const HostTensor& tensor = *args[i].tensor;
      if (tensor.elem != param.elem || tensor.shape != *shape) {
        return ErrorAt(
            param.decl->loc(),
            absl::StrCat(
                "argument '", param.name(), "' is ", ElemTypeName(tensor.elem),
                " ", NumpyShapeText(tensor.shape), " but the parameter is ",
                ElemTypeName(param.elem), " ", NumpyShapeText(*shape)));
      }
      buffer = std::make_unique<Buffer>();
      buffer->tensor = tensor;
      buffer->SetWritten(true);
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
    for (size_t e = 0; buffer.unwritten > 0 && e < buffer.written.size();
         ++e) {
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
    const int64_t value = frame.controls[param.slot];
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
    const int64_t holds = ControlValue(proc.asserts[i], frame);
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
    case StmtOp::kFor:
      if (batching_ && stmt.region != nullptr) {
        RunRegion(stmt, frame);
      } else {
        For(stmt, frame);
      }
      return;
    case StmtOp::kIf: {
      const int64_t cond = ControlValue(stmt.exprs[0], frame);
      if (failed_) return;
      Exec(cond ? stmt.body : stmt.orelse, frame);
      return;
    }
    case StmtOp::kAlloc:
      Alloc(stmt, frame);
      return;
    case StmtOp::kAssign:
    case StmtOp::kReduce:
      Update(stmt, frame, LaneSet::Dense(1));
      return;
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
        const void* data = Data(stmt.exprs[0], frame, LaneSet::Dense(1));
        value.data = element::WithElemType(slot.elem, [&]<ElemType E>() {
          const auto lane = *static_cast<const element::Repr<E>*>(data);
          return element::kIsFloat<E> ? Scalar::Float(E, lane)
                                      : Scalar::Int(E, static_cast<int32_t>(lane));
        });
      } else {
        value.control = ControlValue(stmt.exprs[0], frame);
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
    case StmtOp::kSetControl:
      frame.controls[stmt.slot] = ControlValue(stmt.exprs[0], frame);
      return;
    case StmtOp::kAccessPattern:
      AccessPattern(stmt, frame);
      return;
  }
}

void Executor::AccessPattern(const Stmt& stmt, Frame& frame) {
  const tensor::Term& term = *stmt.access;
  std::vector<tensor::DenseArray> args(stmt.args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    // Lowering gives every operand a dense view of a complete buffer.
    const View& view = frame.views[stmt.args[i].window.base];
    args[i].elem = term.args[i].type.elem;
    args[i].shape = &term.args[i].type.shape;
    args[i].data = view.buffer->tensor.bytes.data() +
                   view.offset * ElemTypeBytes(args[i].elem);
  }
  Buffer& out = *frame.views[stmt.slot].buffer;
  tensor::EvaluateAccessPattern(term, args, out.tensor.bytes.data());
  out.SetWritten(true);
}

void Executor::For(const Stmt& stmt, Frame& frame) {
  const int64_t lo = ControlValue(stmt.exprs[0], frame);
  const int64_t hi = ControlValue(stmt.exprs[1], frame);
  // A region's variables are read from their columns (loop_plan.h).
  int64_t* column = stmt.var_column >= 0
                        ? reinterpret_cast<int64_t*>(frame.arena.data() +
                                                     stmt.var_column)
                        : &frame.controls[stmt.slot];
  if (stmt.region_index >= 0) frame.region_bounds[stmt.region_index].clear();
  for (int64_t i = lo; i < hi && !failed_; ++i) {
    frame.controls[stmt.slot] = i;
    *column = i;
    Exec(stmt.body, frame);
  }
}

bool Executor::ViewsShareElements(const Region& region,
                                  const Frame& frame) const {
  for (size_t a = 0; a < region.views.size(); ++a) {
    for (size_t b = a + 1; b < region.views.size(); ++b) {
      if (!region.written[a] && !region.written[b]) continue;
      const View& first = frame.views[region.views[a]];
      const View& second = frame.views[region.views[b]];
      if (first.buffer != second.buffer) continue;
      auto [first_least, first_greatest] = Extent(first);
      auto [second_least, second_greatest] = Extent(second);
      if (first_least <= second_greatest && second_least <= first_greatest) {
        return true;
      }
    }
  }
  return false;
}

void Executor::RunRegion(const Stmt& loop, Frame& frame) {
  const Region& region = *loop.region;
  const size_t depth = region.loops.size();
  // The bounds, outermost first, as the iterations would compute them (an
  // inner loop's only when the outer ones run), kept for Range and
  // LocateAffine.
  region_lo_.resize(depth);
  region_hi_.resize(depth);
  int64_t* lo = region_lo_.data();
  int64_t* hi = region_hi_.data();
  // How many iterations, when they fit in one batch; else more.
  int64_t iterations = 1;
  for (size_t k = 0; k < depth; ++k) {
    lo[k] = ControlValue(region.loops[k]->exprs[0], frame);
    hi[k] = ControlValue(region.loops[k]->exprs[1], frame);
    if (failed_ || lo[k] >= hi[k]) return;
    int64_t extent;
    if (__builtin_sub_overflow(hi[k], lo[k], &extent) ||
        extent > kBatchLanes) {
      extent = kBatchLanes + 1;
    }
    iterations = std::min<int64_t>(iterations * extent, kBatchLanes + 1);
  }
  if (ViewsShareElements(region, frame)) {
    For(loop, frame);
    return;
  }
  region_vars_.resize(depth);
  int64_t* const* vars = region_vars_.data();
  for (size_t k = 0; k < depth; ++k) {
    region_vars_.data()[k] =
        reinterpret_cast<int64_t*>(frame.arena.data() + region.var_columns[k]);
  }
  const std::vector<Stmt>& body = region.loops.back()->body;
  // A nest of one batch whose bounds are those of its last run has its
  // iterations in the columns already.
  absl::InlinedVector<int64_t, 8>& cached = frame.region_bounds[region.index];
  if (cached.size() == 2 * depth && std::equal(lo, lo + depth, cached.data()) &&
      std::equal(hi, hi + depth, cached.data() + depth)) {
    BatchBlock(body, frame, LaneSet::Dense(static_cast<int32_t>(iterations)));
    return;
  }
  cached.clear();
  // The iterations in order, as an odometer over the loops: the innermost
  // loop of more than one iteration runs through its values, the others
  // hold theirs over each run.
  absl::InlinedVector<int64_t, 4> at(lo, lo + depth);
  size_t inner = depth - 1;
  while (inner > 0 && lo[inner] + 1 == hi[inner]) --inner;
  // The loops that move, but the innermost; a loop of one iteration holds
  // its value in every lane of every batch.
  absl::InlinedVector<size_t, 4> moving;
  const int32_t most = static_cast<int32_t>(
      std::min<int64_t>(iterations, kBatchLanes));
  for (size_t k = 0; k < depth; ++k) {
    if (k == inner) continue;
    if (lo[k] + 1 < hi[k]) {
      moving.push_back(k);
    } else {
      std::fill(vars[k], vars[k] + most, lo[k]);
    }
  }
  bool done = false;
  while (!done && !failed_) {
    int32_t lanes = 0;
    while (lanes < kBatchLanes && !done) {
      const int32_t run = static_cast<int32_t>(
          std::min<int64_t>(hi[inner] - at[inner], kBatchLanes - lanes));
      for (size_t k : moving) {
        int64_t* column = vars[k] + lanes;
        for (int32_t l = 0; l < run; ++l) column[l] = at[k];
      }
      int64_t* column = vars[inner] + lanes;
      for (int32_t l = 0; l < run; ++l) column[l] = at[inner] + l;
      lanes += run;
      at[inner] += run;
      for (size_t k = inner + 1; k-- > 0 && at[k] == hi[k];) {
        if (k == 0) {
          done = true;
          break;
        }
        at[k] = lo[k];
        ++at[k - 1];
      }
    }
    if (done && iterations <= kBatchLanes) {
      cached.assign(lo, lo + depth);
      cached.insert(cached.end(), hi, hi + depth);
    }
    BatchBlock(body, frame, LaneSet::Dense(lanes));
  }
}

void Executor::BatchBlock(const std::vector<Stmt>& block, Frame& frame,
                          LaneSet lanes) {
  for (const Stmt& stmt : block) {
    if (failed_) return;
    if (stmt.op != StmtOp::kIf) {
      if (stmt.accumulates >= 0) {
        Accumulate(stmt, frame, lanes);
      } else {
        Update(stmt, frame, lanes);
      }
      continue;
    }
    const int64_t* cond = Control(stmt.exprs[0], frame, lanes);
    if (failed_) return;
    for (bool holds : {true, false}) {
      const std::vector<Stmt>& branch = holds ? stmt.body : stmt.orelse;
      if (branch.empty()) continue;
      const LaneSet chosen = Choose(cond, holds, lanes);
      if (!chosen.empty()) BatchBlock(branch, frame, chosen);
      Release(chosen);
    }
  }
}

LaneSet Executor::Choose(const int64_t* cond, bool holds, LaneSet lanes) {
  if (selections_used_ == selections_.size()) {
    selections_.emplace_back(kBatchLanes);
  }
  int32_t* sel = selections_[selections_used_++].data();
  int32_t count = 0;
  ForEachLane(lanes, [&](int32_t l) {
    sel[count] = l;
    count += (cond[l] != 0) == holds;
  });
  return LaneSet{sel, count};
}

void Executor::Release(LaneSet) { --selections_used_; }

void Executor::Alloc(const Stmt& stmt, Frame& frame) {
  std::vector<int64_t> shape;
  for (const Expr& dim : stmt.exprs) {
    const int64_t value = ControlValue(dim, frame);
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
  if (!EnterCall(stmt, caller)) return;
  const CompiledProc& callee = *stmt.callee;
  Exec(callee.body, FrameOf(callee));
  if (failed_) {
    // Errors inside a callee name the calls that led there, innermost first.
    AddNote(*stmt.where, absl::StrCat("in the call to ", callee.proc->name()));
  }
}

bool Executor::EnterCall(const Stmt& stmt, Frame& caller) {
  const CompiledProc& callee = *stmt.callee;
  Frame& frame = FrameOf(callee);
  for (size_t i = 0; i < callee.params.size(); ++i) {
    if (!stmt.args[i].is_data) {
      frame.controls[callee.params[i].slot] =
          ControlValue(stmt.args[i].control, caller);
    }
  }
  if (failed_) return false;
  if (!CheckSizes(callee, frame, &stmt)) return false;
  for (size_t i = 0; i < callee.params.size(); ++i) {
    if (!stmt.args[i].is_data) continue;
    const CompiledParam& param = callee.params[i];
    View& view = frame.views[param.slot];
    if (!MakeView(stmt.args[i].window, caller, view)) return false;
    if (!ShapeMatches(param, frame, view, stmt, stmt.args[i].window)) {
      return false;
    }
  }
  return CheckAsserts(callee, frame, &stmt);
}

bool Executor::ShapeMatches(const CompiledParam& param, Frame& frame,
                            const View& view, const Stmt& call,
                            const WindowRef& arg) {
  // Most often the shape matches: compare dimension by dimension first.
  bool same = view.dims.size() == param.dims.size();
  for (size_t k = 0; same && k < param.dims.size(); ++k) {
    const int64_t extent = ControlValue(param.dims[k], frame);
    same = !failed_ && extent > 0 && view.dims.data()[k] == extent;
  }
  if (same && (param.is_window || IsDense(view))) return true;
  absl::InlinedVector<int64_t, 4> shape;
  if (!ParamDims(param, frame, shape)) return false;
  const CompiledProc& callee = *call.callee;
  if (view.dims != shape) {
    Fail(arg.where, absl::StrCat("argument '", param.name(), "' of ",
                                 callee.proc->name(), " has shape ",
                                 ShapeText(view.dims), ", expected ",
                                 NumpyShapeText(std::vector<int64_t>(
                                     shape.begin(), shape.end()))));
    return false;
  }
  Fail(arg.where, absl::StrCat("argument '", param.name(), "' of ",
                               callee.proc->name(),
                               " is a strided window, but the parameter is "
                               "a dense tensor"));
  return false;
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
  // `view` may be `base` itself (a let of a window of its own name in a
  // loop): build apart.
  View result;
  result.buffer = base.buffer;
  result.offset = base.offset;
  for (size_t k = 0; k < ref.selectors.size(); ++k) {
    const Selector& selector = ref.selectors[k];
    const int64_t lo = ControlValue(selector.lo, frame);
    if (selector.point) {
      if (failed_) return false;
      if (lo < 0 || lo >= base.dims[k]) {
        OutOfBounds(selector.lo, k, lo, base.dims[k], ref.base, frame);
        return false;
      }
      result.offset += lo * base.strides[k];
      continue;
    }
    const int64_t hi = ControlValue(selector.hi, frame);
    if (failed_) return false;
    if (lo < 0 || hi > base.dims[k] || lo >= hi) {
      Fail(selector.where,
           absl::StrCat("the interval [", lo, ", ", hi, ") is ",
                        lo >= hi ? "empty" : "out of bounds", " in dimension ",
                        k, " of '", frame.proc->view_names[ref.base],
                        "' (size ", base.dims[k], ")"));
      return false;
    }
    result.offset += lo * base.strides[k];
    if (selector.row != 0) {
      result.dims.push_back((hi - lo) / selector.row);
      result.strides.push_back(base.strides[k] * selector.row);
      result.dims.push_back(selector.row);
      result.strides.push_back(base.strides[k]);
      continue;
    }
    result.dims.push_back((hi - lo + selector.step - 1) / selector.step);
    result.strides.push_back(base.strides[k] * selector.step);
  }
  if (!ref.order.empty()) {
    View natural = result;
    for (size_t k = 0; k < ref.order.size(); ++k) {
      result.dims[k] = natural.dims[ref.order[k]];
      result.strides[k] = natural.strides[ref.order[k]];
    }
  }
  view = std::move(result);
  return true;
}

absl::StatusOr<std::vector<int64_t>> EntryParamShape(
    const LoopProgram& program, size_t index,
    const std::vector<EntryArgument>& args) {
  Executor executor(program, /*batching=*/false);
  Frame& frame = executor.FrameOf(*program.entry);
  const CompiledProc& entry = *program.entry;
  for (size_t i = 0; i < entry.params.size() && i < args.size(); ++i) {
    if (!entry.params[i].is_data()) {
      frame.controls[entry.params[i].slot] = args[i].control;
    }
  }
  return executor.ParamShape(entry.params[index], frame);
}

absl::StatusOr<std::vector<HostTensor>> RunEntry(
    const LoopProgram& program, const std::vector<EntryArgument>& args,
    bool batching) {
  return RunWithFirstError(batching, [&](bool batch) {
    return Executor(program, batch).Run(args);
  });
}

}  // namespace loop
}  // namespace tessel
