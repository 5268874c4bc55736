#include "libs/interp/tensor_evaluator.h"

#include <cstring>
#include <memory>
#include <string>
#include <utility>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "libs/interp/access_evaluator.h"

namespace tessel {
namespace tensor {
namespace {

// The storage of a dense array, shared by every view into it.
struct ArrayStorage {
  HostTensor tensor;
  std::vector<int64_t> strides;  // row-major, in elements
};

// A run-time value; its static type says which members are meaningful.
struct Value {
  Scalar scalar;        // an element
  int64_t integer = 0;  // an index or a bool
  // An array: the storage's dimensions from `dropped` on, starting at
  // element `offset`. Views are always contiguous.
  std::shared_ptr<const ArrayStorage> array;
  int64_t offset = 0;
  int dropped = 0;
  std::shared_ptr<const std::pair<Value, Value>> tuple;
};

std::shared_ptr<ArrayStorage> NewStorage(HostTensor tensor) {
  auto storage = std::make_shared<ArrayStorage>();
  storage->strides.resize(tensor.shape.size());
  int64_t stride = 1;
  for (size_t k = tensor.shape.size(); k-- > 0;) {
    storage->strides[k] = stride;
    stride *= tensor.shape[k];
  }
  storage->tensor = std::move(tensor);
  return storage;
}

int64_t ElementCount(const std::vector<int64_t>& shape, size_t from) {
  int64_t count = 1;
  for (size_t k = from; k < shape.size(); ++k) count *= shape[k];
  return count;
}

// The bytes of an array value (contiguous, `count` elements).
const uint8_t* ArrayBytes(const Value& value) {
  const HostTensor& tensor = value.array->tensor;
  return tensor.bytes.data() + value.offset * ElemTypeBytes(tensor.elem);
}

class Evaluator {
 public:
  explicit Evaluator(std::vector<Value> params) : params_(std::move(params)) {}

  bool Eval(const Term& term, Value& out);
  const absl::Status& status() const { return status_; }

 private:
  bool Fail(const Term& term, absl::string_view message) {
    status_ = ErrorAt(term.where->loc(), message);
    return false;
  }
  bool Check(ScalarError error, const Term& term, const Scalar& operand);
  // A parameter or variable without copying it; anything else evaluated
  // into `scratch`.
  const Value* Ref(const Term& term, Value& scratch);
  bool Build(const Term& term, Value& out);
  bool Ifold(const Term& term, Value& out);
  bool Index(const Term& term, Value& out);
  bool IndexArith(const Term& term, Value& out);
  bool AccessPattern(const Term& term, Value& out);

  std::vector<Value> params_;
  // The values bound by the enclosing lams, innermost last.
  std::vector<Value> env_;
  absl::Status status_;
};

bool Evaluator::Check(ScalarError error, const Term& term,
                      const Scalar& operand) {
  if (error == ScalarError::kNone) return true;
  if (error == ScalarError::kOutOfRange) {
    return Fail(term, absl::StrCat("cannot cast ", ScalarText(operand), " to ",
                                   TypeText(term.type),
                                   ": the value is out of its range"));
  }
  return Fail(term, ScalarErrorText(error));
}

const Value* Evaluator::Ref(const Term& term, Value& scratch) {
  if (term.op == TermOp::kParam) return &params_[term.value];
  if (term.op == TermOp::kVar) return &env_[env_.size() - 1 - term.value];
  return Eval(term, scratch) ? &scratch : nullptr;
}

bool Evaluator::Build(const Term& term, Value& out) {
  auto tensor = MakeHostTensor(term.type.elem, term.type.shape);
  if (!tensor.ok()) return Fail(term, tensor.status().message());
  std::shared_ptr<ArrayStorage> storage = NewStorage(*std::move(tensor));
  const int width = ElemTypeBytes(term.type.elem);
  const int64_t inner = ElementCount(term.type.shape, 1);
  uint8_t* data = storage->tensor.bytes.data();
  for (int64_t i = 0; i < term.value; ++i) {
    Value element;
    env_.emplace_back().integer = i;
    const bool ok = Eval(term.args[0], element);
    env_.pop_back();
    if (!ok) return false;
    uint8_t* target = data + i * inner * width;
    if (term.type.shape.size() == 1) {
      StoreScalar(element.scalar, target);
    } else {
      std::memcpy(target, ArrayBytes(element), inner * width);
    }
  }
  out.array = std::move(storage);
  out.offset = 0;
  out.dropped = 0;
  return true;
}

bool Evaluator::Ifold(const Term& term, Value& out) {
  Value accumulator;
  if (!Eval(term.args[0], accumulator)) return false;
  for (int64_t i = 0; i < term.value; ++i) {
    env_.emplace_back().integer = i;
    env_.push_back(std::move(accumulator));
    accumulator = Value();
    const bool ok = Eval(term.args[1], accumulator);
    env_.pop_back();
    env_.pop_back();
    if (!ok) return false;
  }
  out = std::move(accumulator);
  return true;
}

bool Evaluator::Index(const Term& term, Value& out) {
  // The indices first: evaluating them may grow env_, which would move a
  // referenced variable.
  absl::InlinedVector<int64_t, 4> indices;
  for (size_t k = 1; k < term.args.size(); ++k) {
    Value index;
    if (!Eval(term.args[k], index)) return false;
    indices.push_back(index.integer);
  }
  Value scratch;
  const Value* base = Ref(term.args[0], scratch);
  if (base == nullptr) return false;
  const ArrayStorage& storage = *base->array;
  const std::vector<int64_t>& shape = storage.tensor.shape;
  int64_t offset = base->offset;
  for (size_t k = 0; k < indices.size(); ++k) {
    const size_t dim = base->dropped + k;
    if (indices[k] < 0 || indices[k] >= shape[dim]) {
      return Fail(term.args[k + 1],
                  absl::StrCat("index ", indices[k],
                               " is out of bounds for an array of ", shape[dim],
                               " elements"));
    }
    offset += indices[k] * storage.strides[dim];
  }
  const size_t dropped = base->dropped + indices.size();
  if (dropped == shape.size()) {
    out.scalar = LoadScalar(storage.tensor.elem,
                            storage.tensor.bytes.data() +
                                offset * ElemTypeBytes(storage.tensor.elem));
    return true;
  }
  out.array = base->array;
  out.offset = offset;
  out.dropped = static_cast<int>(dropped);
  return true;
}

bool Evaluator::IndexArith(const Term& term, Value& out) {
  Value a, b;
  if (!Eval(term.args[0], a) || !Eval(term.args[1], b)) return false;
  bool ok = term.op == TermOp::kAddIndex
                ? AddIndex(a.integer, b.integer, out.integer)
            : term.op == TermOp::kSubIndex
                ? SubIndex(a.integer, b.integer, out.integer)
                : MulIndex(a.integer, b.integer, out.integer);
  return ok || Fail(term, "index arithmetic overflows 64 bits");
}

bool Evaluator::AccessPattern(const Term& term, Value& out) {
  std::vector<Value> values(term.args.size());
  // Scalars (access patterns of rank 0) are laid out here.
  std::vector<HostTensor> scalars(term.args.size());
  std::vector<DenseArray> args(term.args.size());
  for (size_t i = 0; i < term.args.size(); ++i) {
    const Term& arg = term.args[i];
    if (!Eval(arg, values[i])) return false;
    args[i].elem = arg.type.elem;
    args[i].shape = &arg.type.shape;
    if (arg.type.kind == Type::Kind::kElem) {
      scalars[i] = *MakeHostTensor(arg.type.elem, {});
      StoreScalar(values[i].scalar, scalars[i].bytes.data());
      args[i].data = scalars[i].bytes.data();
    } else {
      args[i].data = ArrayBytes(values[i]);
    }
  }
  auto tensor = MakeHostTensor(term.type.elem, term.type.shape);
  if (!tensor.ok()) return Fail(term, tensor.status().message());
  EvaluateAccessPattern(term, args, tensor->bytes.data());
  if (term.type.kind == Type::Kind::kElem) {
    out.scalar = LoadScalar(term.type.elem, tensor->bytes.data());
    return true;
  }
  out.array = NewStorage(*std::move(tensor));
  out.offset = 0;
  out.dropped = 0;
  return true;
}

bool Evaluator::Eval(const Term& term, Value& out) {
  switch (term.op) {
    case TermOp::kParam:
    case TermOp::kVar: {
      Value scratch;
      out = *Ref(term, scratch);
      return true;
    }
    case TermOp::kConst:
      out.scalar = term.constant;
      return true;
    case TermOp::kIntConst:
      out.integer = term.value;
      return true;
    case TermOp::kBuild:
      return Build(term, out);
    case TermOp::kIfold:
      return Ifold(term, out);
    case TermOp::kApp: {
      Value arg;
      if (!Eval(term.args[1], arg)) return false;
      env_.push_back(std::move(arg));
      const bool ok = Eval(term.args[0], out);
      env_.pop_back();
      return ok;
    }
    case TermOp::kIndex:
      return Index(term, out);
    case TermOp::kTuple: {
      Value first, second;
      if (!Eval(term.args[0], first) || !Eval(term.args[1], second)) {
        return false;
      }
      out.tuple = std::make_shared<const std::pair<Value, Value>>(
          std::move(first), std::move(second));
      return true;
    }
    case TermOp::kFst:
    case TermOp::kSnd: {
      Value pair;
      if (!Eval(term.args[0], pair)) return false;
      out = term.op == TermOp::kFst ? pair.tuple->first : pair.tuple->second;
      return true;
    }
    case TermOp::kArith: {
      Value a, b;
      if (!Eval(term.args[0], a) || !Eval(term.args[1], b)) return false;
      return Check(Arith(term.arith, a.scalar, b.scalar, out.scalar), term,
                   a.scalar);
    }
    case TermOp::kNegate: {
      Value a;
      if (!Eval(term.args[0], a)) return false;
      out.scalar = Negate(a.scalar);
      return true;
    }
    case TermOp::kCompare: {
      Value a, b;
      if (!Eval(term.args[0], a) || !Eval(term.args[1], b)) return false;
      out.integer = Compare(term.compare, a.scalar, b.scalar);
      return true;
    }
    case TermOp::kSelect: {
      Value cond;
      if (!Eval(term.args[0], cond)) return false;
      return Eval(term.args[cond.integer ? 1 : 2], out);
    }
    case TermOp::kCast: {
      Value a;
      if (!Eval(term.args[0], a)) return false;
      return Check(Cast(term.type.elem, a.scalar, out.scalar), term, a.scalar);
    }
    case TermOp::kAddIndex:
    case TermOp::kSubIndex:
    case TermOp::kMulIndex:
      return IndexArith(term, out);
    case TermOp::kNegIndex: {
      Value a;
      if (!Eval(term.args[0], a)) return false;
      return SubIndex(0, a.integer, out.integer) ||
             Fail(term, "index arithmetic overflows 64 bits");
    }
    case TermOp::kCompareIndex: {
      Value a, b;
      if (!Eval(term.args[0], a) || !Eval(term.args[1], b)) return false;
      out.integer = CompareIntegers(term.compare, a.integer, b.integer);
      return true;
    }
    case TermOp::kAnd:
    case TermOp::kOr: {
      Value a;
      if (!Eval(term.args[0], a)) return false;
      // Short-circuit as C does.
      if ((term.op == TermOp::kAnd) != (a.integer != 0)) {
        out.integer = a.integer != 0;
        return true;
      }
      Value b;
      if (!Eval(term.args[1], b)) return false;
      out.integer = b.integer != 0;
      return true;
    }
    case TermOp::kNot: {
      Value a;
      if (!Eval(term.args[0], a)) return false;
      out.integer = a.integer == 0;
      return true;
    }
    case TermOp::kAccessPattern:
      return AccessPattern(term, out);
  }
  return Fail(term, "internal error: unknown term");
}

HostTensor ToHostTensor(const Value& value, const Type& type) {
  if (type.kind == Type::Kind::kElem) {
    HostTensor tensor = *MakeHostTensor(type.elem, {});
    StoreScalar(value.scalar, tensor.bytes.data());
    return tensor;
  }
  HostTensor tensor = *MakeHostTensor(type.elem, type.shape);
  std::memcpy(tensor.bytes.data(), ArrayBytes(value), tensor.bytes.size());
  return tensor;
}

}  // namespace

absl::StatusOr<std::vector<HostTensor>> EvaluateFunction(
    const CompiledFunction& function, const std::vector<HostTensor>& args) {
  const std::vector<const ir::Node*>& params = function.params;
  if (args.size() != params.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat(function.function->name(), " takes ", params.size(),
                     " arguments, ", args.size(), " are given"));
  }
  std::vector<Value> values(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    const Type& type = function.param_types[i];
    const HostTensor& arg = args[i];
    if (arg.elem != type.elem || arg.shape != type.shape) {
      return ErrorAt(
          params[i]->loc(),
          absl::StrCat("argument '", params[i]->name(), "' is ",
                       ElemTypeName(arg.elem), " ", NumpyShapeText(arg.shape),
                       " but the parameter is ", TypeText(type)));
    }
    if (type.kind == Type::Kind::kElem) {
      values[i].scalar = LoadScalar(arg.elem, arg.bytes.data());
    } else {
      values[i].array = NewStorage(arg);
    }
  }
  Evaluator evaluator(std::move(values));
  Value result;
  if (!evaluator.Eval(function.term, result)) return evaluator.status();
  std::vector<HostTensor> outputs;
  const Value* rest = &result;
  const Type* rest_type = &function.result_type;
  for (size_t i = 0; i + 1 < function.results.size(); ++i) {
    outputs.push_back(ToHostTensor(rest->tuple->first, *rest_type->first));
    rest_type = rest_type->second.get();
    rest = &rest->tuple->second;
  }
  outputs.push_back(ToHostTensor(*rest, *rest_type));
  return outputs;
}

}  // namespace tensor
}  // namespace tessel
