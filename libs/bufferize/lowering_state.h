// The state of bufferize's rewrite (lowering.h), shared by the files
// that emit its parts: lowering.cc (emission, binders, in-place
// decisions), lowering_terms.cc (terms) and lowering_calls.cc (named
// library calls kept as calls).
#ifndef TESSEL_LIBS_BUFFERIZE_LOWERING_STATE_H_
#define TESSEL_LIBS_BUFFERIZE_LOWERING_STATE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "libs/bufferize/eval_order.h"
#include "libs/bufferize/in_place.h"
#include "libs/bufferize/lowering.h"
#include "libs/bufferize/view.h"
#include "libs/ir/node.h"
#include "libs/ir/type.h"

namespace tessel::bufferize::lowering {

using ir::Node;

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

std::vector<int64_t> DimsOf(const ir::Type& type);
std::vector<int64_t> Ints(const Node& list);
int64_t Count(const std::vector<int64_t>& dims);
std::string TypeText(ElemType elem, const std::vector<int64_t>& dims);
// A term's line and column, for conflict messages ("a copy" for none).
std::string Where(const Node* node);

class Lowering {
 public:
  Lowering(const Node& func, const std::vector<std::string>& writable)
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

  // Terms (lowering_terms.cc).
  absl::StatusOr<Value> Eval(const Node& term);
  absl::StatusOr<std::string> Scalar(const Node& term);
  absl::Status EmitInto(const Node& term, const Value& dest);
  absl::Status EmitElement(const Node& term, const View& dest);
  absl::StatusOr<Value> Materialize(const Node& term);
  absl::Status EmitFold(const Node& fold, const View& acc);
  absl::Status EmitCompute(const Node& compute, const View& dest);
  absl::StatusOr<Value> View_(const Node& term);

  // Named calls kept as calls of their instrs (lib_call.h;
  // lowering_calls.cc).
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
  const std::vector<std::string>& writable_args_;  // in preference order
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

}  // namespace tessel::bufferize::lowering

#endif  // TESSEL_LIBS_BUFFERIZE_LOWERING_STATE_H_
