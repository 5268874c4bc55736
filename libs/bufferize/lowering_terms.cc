// The terms of bufferize's rewrite: evaluation, views, materialization
// and emission into destinations (lowering_state.h).
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/bufferize/lowering_state.h"
#include "libs/ir/de_bruijn.h"
#include "libs/ir/keywords.h"
#include "libs/ir/op.h"
#include "libs/ir/syntax.h"
#include "libs/ir/types.h"
#include "libs/sexpr/printer.h"

namespace tessel::bufferize::lowering {
namespace {

using ir::Op;

// Where `term` returns the value of the variable `depth` binders above it
// as a part of its result: the path through its tuples (0 the first part,
// 1 the second), looking through the bodies of `app`s, and, with
// `updated`, through what updates a tensor in its destination: the init
// of an `ifold` with a tensor accumulator, the last operand of a library
// call; nullopt when it returns no such part.
std::optional<std::vector<int>> ReturnedAt(const Node& term, int64_t depth,
                                           bool updated) {
  if (term.is(Op::kVar)) {
    if (term.int_value() != depth) return std::nullopt;
    return std::vector<int>();
  }
  if (term.is(Op::kApp)) {
    return ReturnedAt(*term.operand(0)->operand(0), depth + 1, updated);
  }
  if (updated && !term.type().is_elem()) {
    if (term.is(Op::kIfold)) return ReturnedAt(*term.operand(1), depth, true);
    if (term.is(Op::kLibCall)) {
      return ReturnedAt(*term.operand(term.num_operands() - 1), depth, true);
    }
  }
  if (term.is(Op::kTuple)) {
    for (int part = 0; part < 2; ++part) {
      if (auto path = ReturnedAt(*term.operand(part), depth, updated)) {
        path->insert(path->begin(), part);
        return path;
      }
    }
  }
  return std::nullopt;
}

}  // namespace

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
    // the writable arguments in the order they were listed.
    std::vector<Value> candidates(env_.rbegin(), env_.rend());
    for (const std::string& name : writable_args_) {
      for (const Node* decl : func_.operands()) {
        if (decl->is(Op::kValue) && decl->name() == name) {
          candidates.push_back(params_.at(decl));
        }
      }
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
      // value stays as computed while the body reads it. So is one that an
      // ifold or a library call updates into the result where that is its
      // only use: the update then starts from its destination as it is,
      // and nothing reads the value it overwrites.
      const Node& body = *lam.operand(0);
      std::optional<std::vector<int>> path = ReturnedAt(body, 0, false);
      if (!path.has_value() && ir::Uses(body) == 1) {
        path = ReturnedAt(body, 0, true);
      }
      if (path.has_value() && !term.operand(1)->type().is_elem()) {
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

}  // namespace tessel::bufferize::lowering
