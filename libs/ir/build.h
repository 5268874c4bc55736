// Builders: every op's nodes made in memory, as the reader makes them from
// text (names resolved, binders and callees as `def`, attributes where the
// printer looks for them), so that what a rewrite builds prints, reads back
// and verifies like what was read. Values are typed where their type
// follows from their operands (a reference has its binder's type, a load
// its tensor's element type, arithmetic its operands' type, a comparison
// `bool`); the verifier types the rest (a literal's type is its context's)
// and checks all of it.
//
//   Node* i_loop = Build::For(module, "i", Build::Int(module, 0),
//                             Build::Ref(module, *n), {});
//   Node* load = Build::Load(module, *a, {Build::Ref(module, *i_loop)});
//   module.Append(i_loop, Build::Assign(module,
//       Build::Load(module, *b, {Build::Ref(module, *i_loop)}), load));
//
// Operands are detached trees, which the built node adopts; binders,
// memories, callees and configs are nodes of the module, referred to.
#ifndef TESSEL_LIBS_IR_BUILD_H_
#define TESSEL_LIBS_IR_BUILD_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "libs/ir/node.h"

namespace tessel::ir {

class Build {
 public:
  Build() = delete;

  // Any op from its operands, checked against the op table's count (the
  // ops without a builder of their own: contract, extract, insert, tuples,
  // access patterns); attributes are then set on the node.
  static Node* Form(Module& module, Op op, absl::Span<Node* const> operands);

  // Top-level forms and declarations. A proc's operands are its
  // parameters, assertions and statements, in that order.
  static Node* Proc(Module& module, absl::string_view name,
                    absl::Span<Node* const> params,
                    absl::Span<Node* const> asserts,
                    absl::Span<Node* const> body);
  // A control parameter (size, index, bool, stride).
  static Node* ControlParam(Module& module, ParamKind kind,
                            absl::string_view name);
  // A data parameter (in, out, inout) of `type`, in `memory` (null: @DRAM).
  static Node* DataParam(Module& module, ParamKind kind,
                         absl::string_view name, const Type& type,
                         const Node* memory = nullptr);
  // The type `(ELEM D...)` of dimensions that are literals or detached
  // control expressions of sizes (a declaration owns them).
  static Type Tensor(ElemType elem, absl::Span<Node* const> dims);
  static Type Window(ElemType elem, absl::Span<Node* const> dims);

  // Statements.
  static Node* Assert(Module& module, Node* condition);
  static Node* For(Module& module, absl::string_view var, Node* lo, Node* hi,
                   absl::Span<Node* const> body);
  // An else-branch only when `orelse` is not empty.
  static Node* If(Module& module, Node* condition,
                  absl::Span<Node* const> then,
                  absl::Span<Node* const> orelse = {});
  static Node* Alloc(Module& module, absl::string_view name, const Type& type,
                     const Node* memory = nullptr);
  // `location` is a scalar's Ref or an element's Load.
  static Node* Assign(Module& module, Node* location, Node* value);
  static Node* Reduce(Module& module, Node* location, Node* value);
  static Node* Let(Module& module, absl::string_view name, Node* window);
  static Node* Call(Module& module, const Node& callee,
                    absl::Span<Node* const> args);
  static Node* WriteConfig(Module& module, const Node& config,
                           absl::string_view field, Node* value);
  // A proc's declaration (formats/tir/README.md, "Target level").
  static Node* Clobbers(Module& module, const Node& config,
                        absl::string_view field);

  // Leaves.
  static Node* Int(Module& module, int64_t value);
  static Node* Float(Module& module, double value);
  // A reference to `binder` (a parameter, loop, alloc, let, or a CS-1
  // coordinate, local or recv).
  static Node* Ref(Module& module, const Node& binder);

  // Expressions.
  static Node* Load(Module& module, const Node& tensor,
                    absl::Span<Node* const> indices);
  // A selector is an index (a point), an Interval or a Split. With
  // `order`, a trailing (perm P...) (formats/tir/README.md, "window"):
  // dimension k of the window is its natural dimension order[k].
  static Node* Window(Module& module, const Node& tensor,
                      absl::Span<Node* const> selectors,
                      absl::Span<const int> order = {});
  // (: LO HI [STEP]): LO, LO + STEP, ... below HI; a step of 1 is left
  // out, as the reader leaves it.
  static Node* Interval(Module& module, Node* lo, Node* hi, int64_t step = 1);
  // (split LO HI N): elements LO to HI - 1 as (HI - LO) / N rows of N.
  static Node* Split(Module& module, int64_t lo, int64_t hi, int64_t n);
  // (perm P...): a window's permutation of its natural dimensions.
  static Node* Permutation(Module& module, absl::Span<const int> order);
  // (list V...): a literal list (a contract's maps, a transpose's order).
  static Node* List(Module& module, absl::Span<const int64_t> values);
  static Node* Stride(Module& module, const Node& tensor, int64_t dim);
  static Node* ReadConfig(Module& module, const Node& config,
                          absl::string_view field);
  // Binary operators: + - * / % max min < <= > >= == != and or.
  static Node* Binary(Module& module, Op op, Node* a, Node* b);
  static Node* Add(Module& m, Node* a, Node* b) { return Binary(m, Op::kAdd, a, b); }
  static Node* Sub(Module& m, Node* a, Node* b) { return Binary(m, Op::kSub, a, b); }
  static Node* Mul(Module& m, Node* a, Node* b) { return Binary(m, Op::kMul, a, b); }
  static Node* Div(Module& m, Node* a, Node* b) { return Binary(m, Op::kDiv, a, b); }
  static Node* Mod(Module& m, Node* a, Node* b) { return Binary(m, Op::kFloorMod, a, b); }
  static Node* Lt(Module& m, Node* a, Node* b) { return Binary(m, Op::kLt, a, b); }
  static Node* Eq(Module& m, Node* a, Node* b) { return Binary(m, Op::kEq, a, b); }
  // Unary operators: neg, not.
  static Node* Unary(Module& module, Op op, Node* a);
  static Node* Select(Module& module, Node* condition, Node* a, Node* b);
  static Node* Cast(Module& module, ElemType elem, Node* value);

  // The vector level.
  static Node* TransferRead(Module& module, const Type& vector,
                            const Node& tensor,
                            absl::Span<Node* const> indices, Node* pad);
  static Node* TransferWrite(Module& module, Node* vector, const Node& tensor,
                             absl::Span<Node* const> indices);
  // (prefetch TENSOR INDICES...): a hint, at the loop level.
  static Node* Prefetch(Module& module, const Node& tensor,
                        absl::Span<Node* const> indices);
  static Node* Broadcast(Module& module, const Type& vector, Node* value);
  static Node* ShapeCast(Module& module, const Type& vector, Node* value);
  static Node* Fma(Module& module, Node* a, Node* b, Node* c);
  static Node* Reduction(Module& module, absl::string_view kind, Node* vector);

  // The tensor level.
  static Node* Var(Module& module, int64_t index);
  static Node* Lam(Module& module, Node* body);
  static Node* App(Module& module, Node* lam, Node* value);
  // (build N F), (ifold N INIT F), (index A I).
  static Node* Tabulate(Module& module, int64_t n, Node* lam);
  static Node* Ifold(Module& module, int64_t n, Node* init, Node* lam);
  static Node* Index(Module& module, Node* tensor, Node* index);
};

}  // namespace tessel::ir

#endif  // TESSEL_LIBS_IR_BUILD_H_
