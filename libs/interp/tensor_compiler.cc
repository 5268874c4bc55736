#include "libs/interp/tensor_compiler.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/sexpr/printer.h"

namespace tessel {
namespace tensor {

Type Type::Elem(ElemType elem) {
  Type type;
  type.kind = Kind::kElem;
  type.elem = elem;
  return type;
}

Type Type::Of(Kind kind) {
  Type type;
  type.kind = kind;
  return type;
}

Type Type::Array(ElemType elem, std::vector<int64_t> shape) {
  if (shape.empty()) return Elem(elem);
  Type type;
  type.kind = Kind::kArray;
  type.elem = elem;
  type.shape = std::move(shape);
  return type;
}

Type Type::Tuple(Type first, Type second) {
  Type type;
  type.kind = Kind::kTuple;
  type.first = std::make_shared<const Type>(std::move(first));
  type.second = std::make_shared<const Type>(std::move(second));
  return type;
}

Type Type::Element() const {
  return Array(elem, std::vector<int64_t>(shape.begin() + 1, shape.end()));
}

bool operator==(const Type& a, const Type& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case Type::Kind::kElem:
      return a.elem == b.elem;
    case Type::Kind::kArray:
      return a.elem == b.elem && a.shape == b.shape;
    case Type::Kind::kTuple:
      return *a.first == *b.first && *a.second == *b.second;
    default:
      return true;
  }
}

std::string TypeText(const Type& type) {
  switch (type.kind) {
    case Type::Kind::kElem:
      return std::string(ElemTypeName(type.elem));
    case Type::Kind::kIndex:
      return "index";
    case Type::Kind::kBool:
      return "bool";
    case Type::Kind::kArray:
      return absl::StrCat("(", ElemTypeName(type.elem), " ",
                          absl::StrJoin(type.shape, " "), ")");
    case Type::Kind::kTuple:
      return absl::StrCat("(tuple ", TypeText(*type.first), " ",
                          TypeText(*type.second), ")");
  }
  return "?";
}

namespace {

// Literals take the type their context gives them, and that context may be
// far away: `(app (lam (+ (index %0 1) x)) (build 4 (lam 2.5)))` makes 2.5
// an f32 because x is one. So types are inferred first, with a variable for
// the type of every scalar that unification refines, and the tree is built
// once they are known. A variable no context settles takes the type C gives
// a constant: f64 for float literals, i32 for integer ones.
class ScalarVars {
 public:
  enum class Kind {
    kAnyInt,    // integer literals: any element type or an index
    kAnyFloat,  // float literals: a float type
    kElem,
    kIndex,
  };

  int New(Kind kind, ElemType elem = ElemType::kF32) {
    parent_.push_back(static_cast<int>(parent_.size()));
    states_.push_back(State{kind, elem, false});
    return parent_.back();
  }

  int Find(int var) {
    while (parent_[var] != var) var = parent_[var] = parent_[parent_[var]];
    return var;
  }

  // Makes `a` and `b` one type; false when they cannot be.
  bool Unify(int a, int b) {
    a = Find(a);
    b = Find(b);
    if (a == b) return true;
    State merged = states_[a];
    const State& other = states_[b];
    merged.element_only |= other.element_only;
    if (merged.kind == Kind::kAnyInt ||
        (merged.kind == Kind::kAnyFloat && other.kind != Kind::kAnyInt)) {
      if (merged.kind == Kind::kAnyFloat &&
          (other.kind == Kind::kIndex ||
           (other.kind == Kind::kElem && !IsFloat(other.elem)))) {
        return false;
      }
      merged.kind = other.kind;
      merged.elem = other.elem;
    } else if (other.kind == Kind::kAnyFloat) {
      if (merged.kind == Kind::kIndex || !IsFloat(merged.elem)) return false;
    } else if (other.kind != Kind::kAnyInt &&
               (merged.kind != other.kind || merged.elem != other.elem)) {
      return false;
    }
    if (merged.element_only && merged.kind == Kind::kIndex) return false;
    parent_[b] = a;
    states_[a] = merged;
    return true;
  }

  // Arrays hold elements, and casts take them: never indices.
  bool RequireElement(int var) {
    State& state = states_[Find(var)];
    state.element_only = true;
    return state.kind != Kind::kIndex;
  }

  bool IsLiteral(int var) {
    const Kind kind = states_[Find(var)].kind;
    return kind == Kind::kAnyInt || kind == Kind::kAnyFloat;
  }

  // The final type: an index, or an element type (with the defaults).
  Type Resolve(int var) {
    const State& state = states_[Find(var)];
    switch (state.kind) {
      case Kind::kAnyInt:
        return Type::Elem(DefaultLiteralType(false));
      case Kind::kAnyFloat:
        return Type::Elem(DefaultLiteralType(true));
      case Kind::kElem:
        return Type::Elem(state.elem);
      case Kind::kIndex:
        return Type::Of(Type::Kind::kIndex);
    }
    return Type();
  }

  std::string Describe(int var) {
    const State& state = states_[Find(var)];
    switch (state.kind) {
      case Kind::kAnyInt:
        return "an integer literal";
      case Kind::kAnyFloat:
        return "a float literal";
      case Kind::kElem:
        return std::string(ElemTypeName(state.elem));
      case Kind::kIndex:
        return "index";
    }
    return "?";
  }

 private:
  struct State {
    Kind kind;
    ElemType elem;
    bool element_only;
  };
  std::vector<int> parent_;
  std::vector<State> states_;
};

// A type during inference: scalars and array elements are variables.
struct Ty {
  enum class Kind { kScalar, kBool, kArray, kTuple };
  Kind kind = Kind::kScalar;
  int var = -1;  // kScalar, kArray
  std::vector<int64_t> shape;
  std::shared_ptr<const Ty> first;
  std::shared_ptr<const Ty> second;
};

// The inferred tree, before its types are final.
struct Node {
  enum class Op {
    kParam,
    kVar,
    kIntLiteral,
    kFloatLiteral,
    kBool,
    kBuild,
    kIfold,
    kApp,
    kIndex,
    kTuple,
    kFst,
    kSnd,
    kArith,
    kNegate,
    kCompare,
    kSelect,
    kCast,
    kAnd,
    kOr,
    kNot,
  };
  Op op = Op::kParam;
  Ty ty;
  const Sexpr* where = nullptr;
  int64_t value = 0;
  double real = 0;
  ArithOp arith = ArithOp::kAdd;
  CompareOp compare = CompareOp::kEq;
  std::vector<Node> args;
};

bool IsAccessPatternForm(absl::string_view head) {
  for (absl::string_view form :
       {"access", "transpose", "cartProd", "windows", "slice", "squeeze",
        "flatten", "reshape", "pair", "concat", "compute"}) {
    if (head == form) return true;
  }
  return false;
}

std::string Quote(const Sexpr& e) {
  return absl::StrCat("'", PrintFlat(e), "'");
}

class Compiler {
 public:
  explicit Compiler(const CompiledFunction& function);

  absl::StatusOr<Node> Infer(const Sexpr& e);
  Ty ResultTy() { return TyOf(function_.result_type); }
  bool UnifyTypes(const Ty& a, const Ty& b);
  std::string Describe(const Ty& ty);
  absl::StatusOr<Term> Finalize(const Node& node);

 private:
  Ty TyOf(const Type& type);
  Ty Scalar(int var) {
    Ty ty;
    ty.var = var;
    return ty;
  }
  Ty Bool() {
    Ty ty;
    ty.kind = Ty::Kind::kBool;
    return ty;
  }
  Type Resolve(const Ty& ty);

  absl::StatusOr<Node> Symbol(const Sexpr& e);
  absl::StatusOr<Node> List(const Sexpr& e);
  absl::StatusOr<const Sexpr*> LamBody(const Sexpr& f, int depth);
  absl::StatusOr<int64_t> Length(const Sexpr& n);
  absl::StatusOr<Node> WithBinders(std::vector<Ty> binders, const Sexpr& body);
  absl::StatusOr<Node> Build(const Sexpr& e);
  absl::StatusOr<Node> Ifold(const Sexpr& e);
  absl::StatusOr<Node> App(const Sexpr& e);
  absl::StatusOr<Node> Index(const Sexpr& e);
  absl::StatusOr<Node> Scalars(const Sexpr& e, Node::Op op, size_t arity);
  absl::StatusOr<Node> Select(const Sexpr& e);
  absl::StatusOr<Node> Cast(const Sexpr& e);
  absl::StatusOr<Node> Logic(const Sexpr& e, Node::Op op, size_t arity);
  absl::StatusOr<Node> Pair(const Sexpr& e);
  absl::StatusOr<Node> Projection(const Sexpr& e);
  absl::Status Operands(const Sexpr& e, size_t arity, Node& node);

  const CompiledFunction& function_;
  ScalarVars vars_;
  std::vector<Ty> param_tys_;
  // The types of the enclosing binders, innermost last.
  std::vector<Ty> binders_;
};

Compiler::Compiler(const CompiledFunction& function) : function_(function) {
  for (const Type& type : function.param_types) {
    param_tys_.push_back(TyOf(type));
  }
}

Ty Compiler::TyOf(const Type& type) {
  switch (type.kind) {
    case Type::Kind::kElem:
      return Scalar(vars_.New(ScalarVars::Kind::kElem, type.elem));
    case Type::Kind::kIndex:
      return Scalar(vars_.New(ScalarVars::Kind::kIndex));
    case Type::Kind::kBool:
      return Bool();
    case Type::Kind::kArray: {
      Ty ty = Scalar(vars_.New(ScalarVars::Kind::kElem, type.elem));
      ty.kind = Ty::Kind::kArray;
      ty.shape = type.shape;
      return ty;
    }
    case Type::Kind::kTuple: {
      Ty ty;
      ty.kind = Ty::Kind::kTuple;
      ty.first = std::make_shared<const Ty>(TyOf(*type.first));
      ty.second = std::make_shared<const Ty>(TyOf(*type.second));
      return ty;
    }
  }
  return Ty();
}

bool Compiler::UnifyTypes(const Ty& a, const Ty& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case Ty::Kind::kScalar:
      return vars_.Unify(a.var, b.var);
    case Ty::Kind::kBool:
      return true;
    case Ty::Kind::kArray:
      return a.shape == b.shape && vars_.Unify(a.var, b.var);
    case Ty::Kind::kTuple:
      return UnifyTypes(*a.first, *b.first) && UnifyTypes(*a.second, *b.second);
  }
  return false;
}

std::string Compiler::Describe(const Ty& ty) {
  switch (ty.kind) {
    case Ty::Kind::kScalar:
      return vars_.Describe(ty.var);
    case Ty::Kind::kBool:
      return "bool";
    case Ty::Kind::kArray:
      if (vars_.IsLiteral(ty.var)) {
        return absl::StrCat("an array (", absl::StrJoin(ty.shape, " "), ") of ",
                            vars_.Describe(ty.var), "s");
      }
      return absl::StrCat("(", vars_.Describe(ty.var), " ",
                          absl::StrJoin(ty.shape, " "), ")");
    case Ty::Kind::kTuple:
      return absl::StrCat("(tuple ", Describe(*ty.first), " ",
                          Describe(*ty.second), ")");
  }
  return "?";
}

Type Compiler::Resolve(const Ty& ty) {
  switch (ty.kind) {
    case Ty::Kind::kScalar:
      return vars_.Resolve(ty.var);
    case Ty::Kind::kBool:
      return Type::Of(Type::Kind::kBool);
    case Ty::Kind::kArray:
      return Type::Array(vars_.Resolve(ty.var).elem, ty.shape);
    case Ty::Kind::kTuple:
      return Type::Tuple(Resolve(*ty.first), Resolve(*ty.second));
  }
  return Type();
}

absl::StatusOr<Node> Compiler::Infer(const Sexpr& e) {
  Node node;
  node.where = &e;
  if (e.is_int()) {
    node.op = Node::Op::kIntLiteral;
    node.value = e.int_value();
    node.ty = Scalar(vars_.New(ScalarVars::Kind::kAnyInt));
    return node;
  }
  if (e.is_float()) {
    node.op = Node::Op::kFloatLiteral;
    node.real = e.float_value();
    node.ty = Scalar(vars_.New(ScalarVars::Kind::kAnyFloat));
    return node;
  }
  if (e.is_symbol()) return Symbol(e);
  if (e.is_list()) return List(e);
  return ErrorAt(e.loc(), absl::StrCat("expected a term, found ", Quote(e)));
}

absl::StatusOr<Node> Compiler::Symbol(const Sexpr& e) {
  Node node;
  node.where = &e;
  const std::string& name = e.text();
  if (name.size() > 1 && name[0] == '%') {
    int64_t k = 0;
    if (!absl::ascii_isdigit(name[1]) ||
        !absl::SimpleAtoi(absl::string_view(name).substr(1), &k)) {
      return ErrorAt(e.loc(),
                     absl::StrCat("malformed De Bruijn variable '", name, "'"));
    }
    if (k >= static_cast<int64_t>(binders_.size())) {
      return ErrorAt(e.loc(),
                     absl::StrCat(name, " is not bound: only ", binders_.size(),
                                  " lam binders enclose it"));
    }
    node.op = Node::Op::kVar;
    node.value = k;
    node.ty = binders_[binders_.size() - 1 - k];
    return node;
  }
  const std::vector<NamedType>& params = function_.function->params;
  for (size_t i = 0; i < params.size(); ++i) {
    if (params[i].name == name) {
      node.op = Node::Op::kParam;
      node.value = static_cast<int64_t>(i);
      node.ty = param_tys_[i];
      return node;
    }
  }
  if (name == "true" || name == "false") {
    node.op = Node::Op::kBool;
    node.value = name == "true";
    node.ty = Bool();
    return node;
  }
  return ErrorAt(e.loc(), absl::StrCat("unknown name '", name, "'"));
}

absl::StatusOr<const Sexpr*> Compiler::LamBody(const Sexpr& f, int depth) {
  const Sexpr* body = &f;
  for (int i = 0; i < depth; ++i) {
    if (!body->is_form("lam") || body->size() != 2) {
      return ErrorAt(body->loc(),
                     depth == 1 ? "expected a function (lam BODY)"
                                : "expected a function of an index and an "
                                  "accumulator (lam (lam BODY))");
    }
    body = &(*body)[1];
  }
  return body;
}

absl::StatusOr<int64_t> Compiler::Length(const Sexpr& n) {
  if (!n.is_int() || n.int_value() <= 0) {
    return ErrorAt(n.loc(), "a length must be an integer literal > 0");
  }
  return n.int_value();
}

absl::StatusOr<Node> Compiler::WithBinders(std::vector<Ty> binders,
                                           const Sexpr& body) {
  const size_t depth = binders_.size();
  binders_.insert(binders_.end(), binders.begin(), binders.end());
  auto node = Infer(body);
  binders_.resize(depth);
  return node;
}

absl::StatusOr<Node> Compiler::Build(const Sexpr& e) {
  if (e.size() != 3) return ErrorAt(e.loc(), "expected (build N (lam BODY))");
  auto n = Length(e[1]);
  if (!n.ok()) return n.status();
  auto body_form = LamBody(e[2], 1);
  if (!body_form.ok()) return body_form.status();
  auto body =
      WithBinders({Scalar(vars_.New(ScalarVars::Kind::kIndex))}, **body_form);
  if (!body.ok()) return body.status();
  const Ty& element = body->ty;
  if ((element.kind != Ty::Kind::kScalar && element.kind != Ty::Kind::kArray) ||
      !vars_.RequireElement(element.var)) {
    return ErrorAt((*body_form)->loc(),
                   absl::StrCat("a build makes arrays of elements, but its "
                                "function returns ",
                                Describe(element)));
  }
  Node node;
  node.op = Node::Op::kBuild;
  node.where = &e;
  node.value = *n;
  node.ty = Scalar(element.var);
  node.ty.kind = Ty::Kind::kArray;
  node.ty.shape = {*n};
  node.ty.shape.insert(node.ty.shape.end(), element.shape.begin(),
                       element.shape.end());
  node.args.push_back(*std::move(body));
  return node;
}

absl::StatusOr<Node> Compiler::Ifold(const Sexpr& e) {
  if (e.size() != 4) {
    return ErrorAt(e.loc(), "expected (ifold N INIT (lam (lam BODY)))");
  }
  auto n = Length(e[1]);
  if (!n.ok()) return n.status();
  auto body_form = LamBody(e[3], 2);
  if (!body_form.ok()) return body_form.status();
  auto init = Infer(e[2]);
  if (!init.ok()) return init.status();
  // %1 is the index, %0 the accumulator.
  auto body = WithBinders(
      {Scalar(vars_.New(ScalarVars::Kind::kIndex)), init->ty}, **body_form);
  if (!body.ok()) return body.status();
  if (!UnifyTypes(body->ty, init->ty)) {
    return ErrorAt(
        (*body_form)->loc(),
        absl::StrCat("the ifold's function returns ", Describe(body->ty),
                     " but its accumulator is ", Describe(init->ty)));
  }
  Node node;
  node.op = Node::Op::kIfold;
  node.where = &e;
  node.value = *n;
  node.ty = init->ty;
  node.args.push_back(*std::move(init));
  node.args.push_back(*std::move(body));
  return node;
}

absl::StatusOr<Node> Compiler::App(const Sexpr& e) {
  if (e.size() != 3) return ErrorAt(e.loc(), "expected (app (lam BODY) ARG)");
  auto body_form = LamBody(e[1], 1);
  if (!body_form.ok()) return body_form.status();
  auto arg = Infer(e[2]);
  if (!arg.ok()) return arg.status();
  auto body = WithBinders({arg->ty}, **body_form);
  if (!body.ok()) return body.status();
  Node node;
  node.op = Node::Op::kApp;
  node.where = &e;
  node.ty = body->ty;
  node.args.push_back(*std::move(body));
  node.args.push_back(*std::move(arg));
  return node;
}

absl::StatusOr<Node> Compiler::Index(const Sexpr& e) {
  if (e.size() != 3) return ErrorAt(e.loc(), "expected (index ARRAY INDEX)");
  Node node;
  node.op = Node::Op::kIndex;
  node.where = &e;
  if (auto status = Operands(e, 2, node); !status.ok()) return status;
  const Ty& array = node.args[0].ty;
  if (array.kind != Ty::Kind::kArray) {
    return ErrorAt(e[1].loc(), absl::StrCat("only arrays can be indexed; "
                                            "this is ",
                                            Describe(array)));
  }
  const Ty& index = node.args[1].ty;
  if (index.kind != Ty::Kind::kScalar ||
      !vars_.Unify(index.var, vars_.New(ScalarVars::Kind::kIndex))) {
    return ErrorAt(e[2].loc(), absl::StrCat("an index must be an index, not ",
                                            Describe(index)));
  }
  node.ty = Scalar(array.var);
  if (array.shape.size() > 1) {
    node.ty.kind = Ty::Kind::kArray;
    node.ty.shape.assign(array.shape.begin() + 1, array.shape.end());
  }
  return node;
}

absl::Status Compiler::Operands(const Sexpr& e, size_t arity, Node& node) {
  if (e.size() != arity + 1) {
    return ErrorAt(e.loc(),
                   absl::StrCat("'", e.head(), "' takes ", arity,
                                arity == 1 ? " operand" : " operands"));
  }
  for (size_t i = 1; i < e.size(); ++i) {
    auto operand = Infer(e[i]);
    if (!operand.ok()) return operand.status();
    node.args.push_back(*std::move(operand));
  }
  return absl::OkStatus();
}

// Arithmetic and comparisons: scalars of one type.
absl::StatusOr<Node> Compiler::Scalars(const Sexpr& e, Node::Op op,
                                       size_t arity) {
  Node node;
  node.op = op;
  node.where = &e;
  if (auto status = Operands(e, arity, node); !status.ok()) return status;
  for (const Node& operand : node.args) {
    if (operand.ty.kind != Ty::Kind::kScalar) {
      return ErrorAt(operand.where->loc(),
                     absl::StrCat("'", e.head(), "' takes scalars, not ",
                                  Describe(operand.ty)));
    }
  }
  if (arity == 2 && !vars_.Unify(node.args[0].ty.var, node.args[1].ty.var)) {
    return ErrorAt(e.loc(), absl::StrCat("operands of '", e.head(),
                                         "' have different types: ",
                                         Describe(node.args[0].ty), " and ",
                                         Describe(node.args[1].ty)));
  }
  node.ty = op == Node::Op::kCompare ? Bool() : node.args[0].ty;
  return node;
}

absl::StatusOr<Node> Compiler::Select(const Sexpr& e) {
  if (e.size() != 4) return ErrorAt(e.loc(), "expected (select COND A B)");
  Node node;
  node.op = Node::Op::kSelect;
  node.where = &e;
  if (auto status = Operands(e, 3, node); !status.ok()) return status;
  if (node.args[0].ty.kind != Ty::Kind::kBool) {
    return ErrorAt(e[1].loc(), absl::StrCat("a condition must be a bool, "
                                            "not ",
                                            Describe(node.args[0].ty)));
  }
  if (!UnifyTypes(node.args[1].ty, node.args[2].ty)) {
    return ErrorAt(e.loc(), absl::StrCat("the operands of 'select' have "
                                         "different types: ",
                                         Describe(node.args[1].ty), " and ",
                                         Describe(node.args[2].ty)));
  }
  node.ty = node.args[1].ty;
  return node;
}

absl::StatusOr<Node> Compiler::Cast(const Sexpr& e) {
  std::optional<ElemType> to;
  if (e.size() == 3 && e[1].is_symbol()) to = ParseElemType(e[1].text());
  if (!to) return ErrorAt(e.loc(), "expected (cast ELEM TERM)");
  auto operand = Infer(e[2]);
  if (!operand.ok()) return operand.status();
  if (operand->ty.kind != Ty::Kind::kScalar ||
      !vars_.RequireElement(operand->ty.var)) {
    return ErrorAt(e[2].loc(),
                   absl::StrCat("cannot cast ", Describe(operand->ty)));
  }
  Node node;
  node.op = Node::Op::kCast;
  node.where = &e;
  node.ty = Scalar(vars_.New(ScalarVars::Kind::kElem, *to));
  node.args.push_back(*std::move(operand));
  return node;
}

absl::StatusOr<Node> Compiler::Logic(const Sexpr& e, Node::Op op,
                                     size_t arity) {
  Node node;
  node.op = op;
  node.where = &e;
  node.ty = Bool();
  if (auto status = Operands(e, arity, node); !status.ok()) return status;
  for (const Node& operand : node.args) {
    if (operand.ty.kind != Ty::Kind::kBool) {
      return ErrorAt(operand.where->loc(),
                     absl::StrCat("'", e.head(), "' takes bools, not ",
                                  Describe(operand.ty)));
    }
  }
  return node;
}

absl::StatusOr<Node> Compiler::Pair(const Sexpr& e) {
  Node node;
  node.op = Node::Op::kTuple;
  node.where = &e;
  if (auto status = Operands(e, 2, node); !status.ok()) return status;
  node.ty.kind = Ty::Kind::kTuple;
  node.ty.first = std::make_shared<const Ty>(node.args[0].ty);
  node.ty.second = std::make_shared<const Ty>(node.args[1].ty);
  return node;
}

absl::StatusOr<Node> Compiler::Projection(const Sexpr& e) {
  Node node;
  node.op = e.is_form("fst") ? Node::Op::kFst : Node::Op::kSnd;
  node.where = &e;
  if (auto status = Operands(e, 1, node); !status.ok()) return status;
  const Ty& pair = node.args[0].ty;
  if (pair.kind != Ty::Kind::kTuple) {
    return ErrorAt(e[1].loc(), absl::StrCat("'", e.head(),
                                            "' takes a tuple, "
                                            "not ",
                                            Describe(pair)));
  }
  node.ty = node.op == Node::Op::kFst ? *pair.first : *pair.second;
  return node;
}

absl::StatusOr<Node> Compiler::List(const Sexpr& e) {
  if (e.size() == 0 || !e[0].is_symbol()) {
    return ErrorAt(e.loc(), absl::StrCat("expected a term, found ", Quote(e)));
  }
  absl::string_view head = e.head();
  if (head == "build") return Build(e);
  if (head == "ifold") return Ifold(e);
  if (head == "app") return App(e);
  if (head == "index") return Index(e);
  if (head == "tuple") return Pair(e);
  if (head == "fst" || head == "snd") return Projection(e);
  if (head == "select") return Select(e);
  if (head == "cast") return Cast(e);
  if (head == "and") return Logic(e, Node::Op::kAnd, 2);
  if (head == "or") return Logic(e, Node::Op::kOr, 2);
  if (head == "not") return Logic(e, Node::Op::kNot, 1);
  if (head == "neg") return Scalars(e, Node::Op::kNegate, 1);
  if (auto op = ParseArithOp(head)) {
    auto node = Scalars(e, Node::Op::kArith, 2);
    if (node.ok()) node->arith = *op;
    return node;
  }
  if (auto op = ParseCompareOp(head)) {
    auto node = Scalars(e, Node::Op::kCompare, 2);
    if (node.ok()) node->compare = *op;
    return node;
  }
  if (head == "lam") {
    return ErrorAt(e.loc(),
                   "a lam must be the function of build, ifold or "
                   "app");
  }
  if (IsAccessPatternForm(head)) {
    return ErrorAt(e.loc(),
                   "access patterns are not supported by run-sim "
                   "yet (they come with saturate)");
  }
  if (head.find('.') != absl::string_view::npos) {
    return ErrorAt(e.loc(), absl::StrCat("named calls such as '", head,
                                         "' are not supported by run-sim "
                                         "yet (they come with saturate)"));
  }
  return ErrorAt(e[0].loc(), absl::StrCat("unknown term '", head, "'"));
}

// Builds the executable tree once every type is known: literals become
// constants of their type, and each operation is chosen by its operands'
// type (index arithmetic or data arithmetic).
absl::StatusOr<Term> Compiler::Finalize(const Node& node) {
  Term term;
  term.where = node.where;
  term.type = Resolve(node.ty);
  for (const Node& arg : node.args) {
    auto finalized = Finalize(arg);
    if (!finalized.ok()) return finalized.status();
    term.args.push_back(*std::move(finalized));
  }
  const bool on_indices =
      !term.args.empty() && term.args[0].type.kind == Type::Kind::kIndex;
  term.value = node.value;
  switch (node.op) {
    case Node::Op::kParam:
      term.op = TermOp::kParam;
      break;
    case Node::Op::kVar:
      term.op = TermOp::kVar;
      break;
    case Node::Op::kIntLiteral:
    case Node::Op::kFloatLiteral:
      if (term.type.kind == Type::Kind::kIndex) {
        term.op = TermOp::kIntConst;
        break;
      }
      term.op = TermOp::kConst;
      // Unification lets a float literal stand only for a float type.
      if (node.op == Node::Op::kIntLiteral) {
        AdoptIntLiteral(node.value, term.type.elem, term.constant);
      } else {
        AdoptFloatLiteral(node.real, term.type.elem, term.constant);
      }
      break;
    case Node::Op::kBool:
      term.op = TermOp::kIntConst;
      break;
    case Node::Op::kBuild:
      if (auto size = CheckedElementCount(term.type.elem, term.type.shape);
          !size.ok()) {
        return ErrorAt(node.where->loc(), size.status().message());
      }
      term.op = TermOp::kBuild;
      break;
    case Node::Op::kIfold:
      term.op = TermOp::kIfold;
      break;
    case Node::Op::kApp:
      term.op = TermOp::kApp;
      break;
    case Node::Op::kIndex:
      // (index (index A i) j) becomes one node indexing A by i and j.
      if (term.args[0].op == TermOp::kIndex) {
        Term inner = std::move(term.args[0]);
        inner.args.push_back(std::move(term.args[1]));
        inner.type = std::move(term.type);
        inner.where = term.where;
        return inner;
      }
      term.op = TermOp::kIndex;
      break;
    case Node::Op::kTuple:
      term.op = TermOp::kTuple;
      break;
    case Node::Op::kFst:
      term.op = TermOp::kFst;
      break;
    case Node::Op::kSnd:
      term.op = TermOp::kSnd;
      break;
    case Node::Op::kArith:
      term.arith = node.arith;
      if (!on_indices) {
        term.op = TermOp::kArith;
      } else if (node.arith == ArithOp::kAdd) {
        term.op = TermOp::kAddIndex;
      } else if (node.arith == ArithOp::kSub) {
        term.op = TermOp::kSubIndex;
      } else if (node.arith == ArithOp::kMul) {
        term.op = TermOp::kMulIndex;
      } else {
        return ErrorAt(node.where->loc(),
                       absl::StrCat("'", node.where->head(),
                                    "' does not apply to indices (they have "
                                    "+, - and *)"));
      }
      break;
    case Node::Op::kNegate:
      term.op = on_indices ? TermOp::kNegIndex : TermOp::kNegate;
      break;
    case Node::Op::kCompare:
      term.compare = node.compare;
      term.op = on_indices ? TermOp::kCompareIndex : TermOp::kCompare;
      break;
    case Node::Op::kSelect:
      term.op = TermOp::kSelect;
      break;
    case Node::Op::kCast:
      term.op = TermOp::kCast;
      break;
    case Node::Op::kAnd:
      term.op = TermOp::kAnd;
      break;
    case Node::Op::kOr:
      term.op = TermOp::kOr;
      break;
    case Node::Op::kNot:
      term.op = TermOp::kNot;
      break;
  }
  return term;
}

}  // namespace

absl::StatusOr<Type> NamedTypeToType(const NamedType& named) {
  auto dims = ConstantDims(named.type);
  if (!dims) {
    return ErrorAt(named.decl->loc(),
                   absl::StrCat("the dimensions of '", named.name,
                                "' must be integer literals: a func is "
                                "fully specialised"));
  }
  return Type::Array(named.type.elem, *std::move(dims));
}

absl::StatusOr<CompiledFunction> CompileFunction(const Function& function) {
  CompiledFunction compiled;
  compiled.function = &function;
  for (const NamedType& param : function.params) {
    auto type = NamedTypeToType(param);
    if (!type.ok()) return type.status();
    compiled.param_types.push_back(*std::move(type));
  }
  for (size_t i = function.results.size(); i-- > 0;) {
    auto type = NamedTypeToType(function.results[i]);
    if (!type.ok()) return type.status();
    compiled.result_type =
        i + 1 == function.results.size()
            ? *std::move(type)
            : Type::Tuple(*std::move(type), compiled.result_type);
  }
  Compiler compiler(compiled);
  auto node = compiler.Infer(*function.term);
  if (!node.ok()) return node.status();
  const Ty results = compiler.ResultTy();
  if (!compiler.UnifyTypes(node->ty, results)) {
    return ErrorAt(
        function.term->loc(),
        absl::StrCat("the term computes ", compiler.Describe(node->ty),
                     " but the results of ", function.name, " are ",
                     TypeText(compiled.result_type)));
  }
  auto term = compiler.Finalize(*node);
  if (!term.ok()) return term.status();
  compiled.term = *std::move(term);
  return compiled;
}

}  // namespace tensor
}  // namespace tessel
