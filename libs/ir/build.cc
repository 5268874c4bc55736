#include "libs/ir/build.h"

#include <cassert>
#include <utility>
#include <vector>

namespace tessel::ir {
namespace {

// Whether `count` operand nodes fit `op`'s row of the op table: its items
// but the attributes (a name, an @form, a keyword, an element type, a
// type), which the node holds apart from its operands. Only asserts use
// it.
[[maybe_unused]] bool FitsOperandCount(Op op, size_t count) {
  const OpInfo& info = Info(op);
  if (info.custom) return true;
  size_t least = 0;
  size_t most = 0;
  bool variadic = false;
  for (OperandKind kind : info.operands) {
    switch (kind) {
      case OperandKind::kName:
      case OperandKind::kGlobal:
      case OperandKind::kKey:
      case OperandKind::kElem:
      case OperandKind::kType:
        break;
      case OperandKind::kValues:
      case OperandKind::kStmts:
      case OperandKind::kInts:
        variadic = true;
        break;
      case OperandKind::kValuesPlus:
        variadic = true;
        ++least;
        ++most;
        break;
      case OperandKind::kElseOpt:
        ++most;
        break;
      default:
        ++least;
        ++most;
    }
  }
  return count >= least && (variadic || count <= most);
}

Node* WithOperands(Module& module, Node* node,
                   absl::Span<Node* const> operands) {
  for (Node* operand : operands) module.Append(node, operand);
  return node;
}

// The type of a reference to `binder`, as the verifier gives it.
Type RefType(const Node& binder) {
  switch (binder.op()) {
    case Op::kFor:
    case Op::kCoord:
      return Type::Control(ControlType::kIndex);
    case Op::kLet:
      return binder.num_operands() > 0 ? binder.operand(0)->type() : Type();
    default:  // Param, Value, Alloc, Local, Recv
      return binder.declared_type();
  }
}

// The dimension `dim` stands for: a positive literal's value, else the
// expression.
Dim DimOf(Node* dim) {
  if (dim->is(Op::kConst) && !dim->is_float_literal() && dim->int_value() > 0) {
    return Dim::Constant(dim->int_value());
  }
  return Dim::Symbolic(dim);
}

std::vector<Dim> DimsOf(absl::Span<Node* const> dims) {
  std::vector<Dim> result;
  for (Node* dim : dims) result.push_back(DimOf(dim));
  return result;
}

Node* Named(Module& module, Op op, absl::string_view name) {
  Node* node = module.Create(op);
  node->set_name(name);
  return node;
}

}  // namespace

Node* Build::Form(Module& module, Op op, absl::Span<Node* const> operands) {
  assert(FitsOperandCount(op, operands.size()));
  return WithOperands(module, module.Create(op), operands);
}

Node* Build::Proc(Module& module, absl::string_view name,
                  absl::Span<Node* const> params,
                  absl::Span<Node* const> asserts,
                  absl::Span<Node* const> body) {
  Node* proc = Named(module, Op::kProc, name);
  WithOperands(module, proc, params);
  WithOperands(module, proc, asserts);
  return WithOperands(module, proc, body);
}

Node* Build::ControlParam(Module& module, ParamKind kind,
                          absl::string_view name) {
  static constexpr ControlType kControls[] = {
      ControlType::kSize, ControlType::kIndex, ControlType::kBool,
      ControlType::kStride};
  assert(kind < ParamKind::kIn);
  Node* param = Named(module, Op::kParam, name);
  param->set_param_kind(kind);
  param->set_declared_type(Type::Control(kControls[static_cast<int>(kind)]));
  return param;
}

Node* Build::DataParam(Module& module, ParamKind kind, absl::string_view name,
                       const Type& type, const Node* memory) {
  assert(kind >= ParamKind::kIn);
  Node* param = Named(module, Op::kParam, name);
  param->set_param_kind(kind);
  param->set_declared_type(type);
  if (memory != nullptr) param->set_def(const_cast<Node*>(memory));
  return param;
}

Type Build::Tensor(ElemType elem, absl::Span<Node* const> dims) {
  if (dims.empty()) return Type::Elem(elem);
  return Type::Tensor(elem, DimsOf(dims));
}

Type Build::Window(ElemType elem, absl::Span<Node* const> dims) {
  return Type::Window(elem, DimsOf(dims));
}

Node* Build::Assert(Module& module, Node* condition) {
  return Form(module, Op::kAssert, {condition});
}

Node* Build::For(Module& module, absl::string_view var, Node* lo, Node* hi,
                 absl::Span<Node* const> body) {
  Node* loop = Named(module, Op::kFor, var);
  WithOperands(module, loop, {lo, hi});
  return WithOperands(module, loop, body);
}

Node* Build::If(Module& module, Node* condition, absl::Span<Node* const> then,
                absl::Span<Node* const> orelse) {
  std::vector<Node*> operands = {condition, Form(module, Op::kThen, then)};
  if (!orelse.empty()) operands.push_back(Form(module, Op::kElse, orelse));
  return Form(module, Op::kIf, operands);
}

Node* Build::Alloc(Module& module, absl::string_view name, const Type& type,
                   const Node* memory) {
  Node* alloc = Named(module, Op::kAlloc, name);
  alloc->set_declared_type(type);
  if (memory != nullptr) alloc->set_def(const_cast<Node*>(memory));
  return alloc;
}

Node* Build::Assign(Module& module, Node* location, Node* value) {
  return Form(module, Op::kAssign, {location, value});
}

Node* Build::Reduce(Module& module, Node* location, Node* value) {
  return Form(module, Op::kReduce, {location, value});
}

Node* Build::Let(Module& module, absl::string_view name, Node* window) {
  Node* let = Named(module, Op::kLet, name);
  return WithOperands(module, let, {window});
}

Node* Build::Call(Module& module, const Node& callee,
                  absl::Span<Node* const> args) {
  Node* call = Form(module, Op::kCall, args);
  call->set_def(const_cast<Node*>(&callee));
  return call;
}

Node* Build::WriteConfig(Module& module, const Node& config,
                         absl::string_view field, Node* value) {
  Node* write = Named(module, Op::kWriteConfig, field);
  write->set_def(const_cast<Node*>(&config));
  return WithOperands(module, write, {value});
}

Node* Build::Clobbers(Module& module, const Node& config,
                      absl::string_view field) {
  Node* clobbers = Named(module, Op::kClobbers, field);
  clobbers->set_def(const_cast<Node*>(&config));
  return clobbers;
}

Node* Build::Int(Module& module, int64_t value) {
  Node* node = module.Create(Op::kConst);
  node->set_int(value);
  return node;
}

Node* Build::Float(Module& module, double value) {
  Node* node = module.Create(Op::kConst);
  node->set_float(value);
  return node;
}

Node* Build::Ref(Module& module, const Node& binder) {
  Node* ref = Named(module, Op::kRef, binder.name());
  ref->set_def(const_cast<Node*>(&binder));
  ref->set_type(RefType(binder));
  return ref;
}

Node* Build::Load(Module& module, const Node& tensor,
                  absl::Span<Node* const> indices) {
  Node* load = module.Create(Op::kLoad);
  module.Append(load, Ref(module, tensor));
  WithOperands(module, load, indices);
  Type type = RefType(tensor);
  if (type.is_shaped() && static_cast<size_t>(type.rank()) == indices.size()) {
    load->set_type(Type::Elem(type.elem()));
  }
  return load;
}

Node* Build::Window(Module& module, const Node& tensor,
                    absl::Span<Node* const> selectors,
                    absl::Span<const int> order) {
  // The op table's count is of all operands: the reference and at least
  // one selector.
  std::vector<Node*> operands = {Ref(module, tensor)};
  operands.insert(operands.end(), selectors.begin(), selectors.end());
  if (!order.empty()) operands.push_back(Permutation(module, order));
  return Form(module, Op::kWindow, operands);
}

Node* Build::Interval(Module& module, Node* lo, Node* hi, int64_t step) {
  if (step == 1) return Form(module, Op::kInterval, {lo, hi});
  return Form(module, Op::kInterval, {lo, hi, Int(module, step)});
}

Node* Build::Split(Module& module, int64_t lo, int64_t hi, int64_t n) {
  return Form(module, Op::kSplit,
              {Int(module, lo), Int(module, hi), Int(module, n)});
}

Node* Build::List(Module& module, absl::Span<const int64_t> values) {
  std::vector<Node*> entries;
  for (int64_t value : values) entries.push_back(Int(module, value));
  return Form(module, Op::kList, entries);
}

Node* Build::Permutation(Module& module, absl::Span<const int> order) {
  std::vector<Node*> entries;
  for (int entry : order) entries.push_back(Int(module, entry));
  return Form(module, Op::kPermutation, entries);
}

Node* Build::Stride(Module& module, const Node& tensor, int64_t dim) {
  Node* stride =
      Form(module, Op::kStride, {Ref(module, tensor), Int(module, dim)});
  stride->set_type(Type::Control(ControlType::kStride));
  return stride;
}

Node* Build::ReadConfig(Module& module, const Node& config,
                        absl::string_view field) {
  Node* read = Named(module, Op::kReadConfig, field);
  read->set_def(const_cast<Node*>(&config));
  return read;
}

Node* Build::Binary(Module& module, Op op, Node* a, Node* b) {
  assert(Info(op).operands.size() == 2 && Info(op).op_class == OpClass::kExpr);
  Node* node = Form(module, op, {a, b});
  if (IsCondition(op)) {
    node->set_type(Type::Control(ControlType::kBool));
  } else if (!a->type().is_none() && a->type() == b->type()) {
    node->set_type(a->type());
  }
  return node;
}

Node* Build::Unary(Module& module, Op op, Node* a) {
  assert(op == Op::kNeg || op == Op::kNot);
  Node* node = Form(module, op, {a});
  node->set_type(a->type());
  return node;
}

Node* Build::Select(Module& module, Node* condition, Node* a, Node* b) {
  Node* node = Form(module, Op::kSelect, {condition, a, b});
  if (a->type() == b->type()) node->set_type(a->type());
  return node;
}

Node* Build::Cast(Module& module, ElemType elem, Node* value) {
  Node* cast = Form(module, Op::kCast, {value});
  cast->set_declared_type(Type::Elem(elem));
  cast->set_type(Type::Elem(elem));
  return cast;
}

Node* Build::TransferRead(Module& module, const Type& vector,
                          const Node& tensor, absl::Span<Node* const> indices,
                          Node* pad) {
  std::vector<Node*> operands = {Ref(module, tensor)};
  operands.insert(operands.end(), indices.begin(), indices.end());
  operands.push_back(pad);
  Node* read = Form(module, Op::kTransferRead, operands);
  read->set_declared_type(vector);
  read->set_type(vector);
  return read;
}

Node* Build::TransferWrite(Module& module, Node* vector, const Node& tensor,
                           absl::Span<Node* const> indices) {
  std::vector<Node*> operands = {vector, Ref(module, tensor)};
  operands.insert(operands.end(), indices.begin(), indices.end());
  return Form(module, Op::kTransferWrite, operands);
}

Node* Build::Prefetch(Module& module, const Node& tensor,
                      absl::Span<Node* const> indices) {
  std::vector<Node*> operands = {Ref(module, tensor)};
  operands.insert(operands.end(), indices.begin(), indices.end());
  return Form(module, Op::kPrefetch, operands);
}

Node* Build::Broadcast(Module& module, const Type& vector, Node* value) {
  Node* broadcast = Form(module, Op::kBroadcast, {value});
  broadcast->set_declared_type(vector);
  broadcast->set_type(vector);
  return broadcast;
}

Node* Build::ShapeCast(Module& module, const Type& vector, Node* value) {
  Node* cast = Form(module, Op::kShapeCast, {value});
  cast->set_declared_type(vector);
  cast->set_type(vector);
  return cast;
}

Node* Build::Fma(Module& module, Node* a, Node* b, Node* c) {
  Node* fma = Form(module, Op::kFma, {a, b, c});
  fma->set_type(c->type());
  return fma;
}

Node* Build::Reduction(Module& module, absl::string_view kind, Node* vector) {
  Node* reduction = Form(module, Op::kReduction, {vector});
  reduction->set_name(kind);
  if (vector->type().is_vector()) {
    reduction->set_type(Type::Elem(vector->type().elem()));
  }
  return reduction;
}

Node* Build::Var(Module& module, int64_t index) {
  Node* var = module.Create(Op::kVar);
  var->set_int(index);
  return var;
}

Node* Build::Lam(Module& module, Node* body) {
  return Form(module, Op::kLam, {body});
}

Node* Build::App(Module& module, Node* lam, Node* value) {
  return Form(module, Op::kApp, {lam, value});
}

Node* Build::Tabulate(Module& module, int64_t n, Node* lam) {
  return Form(module, Op::kBuild, {Int(module, n), lam});
}

Node* Build::Ifold(Module& module, int64_t n, Node* init, Node* lam) {
  return Form(module, Op::kIfold, {Int(module, n), init, lam});
}

Node* Build::Index(Module& module, Node* tensor, Node* index) {
  return Form(module, Op::kIndex, {tensor, index});
}

}  // namespace tessel::ir
