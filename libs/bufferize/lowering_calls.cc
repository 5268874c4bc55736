// Named library calls in bufferize's rewrite, kept as calls of their
// instrs (lib_call.h) with their operands bufferized (lowering_state.h).
#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/bufferize/lib_call.h"
#include "libs/bufferize/lowering_state.h"
#include "libs/ir/library.h"
#include "libs/ir/types.h"

namespace tessel::bufferize::lowering {

absl::StatusOr<std::string> Lowering::ScalarName(const Value& value,
                                                 ElemType elem) {
  // A data argument is a name: a parameter's or a scalar of the rewrite's
  // (a literal or an expression is computed into one). `inf` and `nan` are
  // float literals that look like names.
  const std::string& expr = value.expr;
  if (!expr.empty() && (absl::ascii_isalpha(expr[0]) || expr[0] == '_') &&
      expr.find_first_of(" ()") == std::string::npos && expr != "inf" &&
      expr != "nan") {
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

}  // namespace tessel::bufferize::lowering
