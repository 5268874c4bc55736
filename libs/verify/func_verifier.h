// The walk behind VerifyFunc (func.h), private to it. Its parts live in
// files by concern:
//   func.cc        declarations, dispatch, lams and their binders, and the
//                  types given to nodes at the end;
//   func_terms.cc  build, ifold, app, index, tuples, scalar operations and
//                  conditions;
//   func_index.cc  index expressions and their bounds;
//   libcall.cc     named library calls, typed as their definitions.
#ifndef TESSEL_LIBS_VERIFY_FUNC_VERIFIER_H_
#define TESSEL_LIBS_VERIFY_FUNC_VERIFIER_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "libs/ir/node.h"
#include "libs/verify/scalar.h"
#include "libs/verify/term_type.h"
#include "libs/poly/poly.h"

namespace tessel::ir {

// An index expression as the bounds check sees it, an affine function of
// the indices of the enclosing builds and ifolds: a literal, the index
// bound at a depth (0 outermost), the sum or difference of two, or a
// multiple of one by a literal. Shared, since an app's argument is used
// wherever its variable is.
struct IndexTerm;
using IndexForm = std::shared_ptr<const IndexTerm>;
struct IndexTerm {
  enum class Kind { kLiteral, kIndex, kAdd, kSub, kScale };
  Kind kind;
  int64_t value = 0;  // the literal, the depth, or the factor
  IndexForm a, b;
};

// The index bound at `depth`.
IndexForm IndexAt(size_t depth);

class FuncVerifier {
 public:
  FuncVerifier(Node& func, poly::Context& ctx) : func_(func), ctx_(ctx) {}
  absl::Status Verify();
  // InferTermType (func.h).
  absl::StatusOr<Type> InferAlone(Node& term);

 private:
  // What a lam binds: the index of a build or ifold (0 <= %k < extent, a
  // dimension of the isl domain), or a value (ifold's accumulator, app's
  // argument). An app argument that is an index expression can be used as
  // an index too; an integer literal argument as both.
  struct Binder {
    IndexForm index;     // null when not an index
    int64_t extent = 0;  // > 0 for build and ifold indices
    std::optional<TermType> value;
    bool used_as_value = false;
  };

  // func.cc
  absl::Status CheckDeclarations(bool results, std::vector<std::string>& seen);
  // Types `term` where `expected` (when given) is needed and records the
  // type for the node.
  absl::StatusOr<TermType> Infer(Node& term, const TermType* expected);
  absl::StatusOr<TermType> Dispatch(Node& term, const TermType* expected);
  absl::StatusOr<TermType> InferVariable(Node& var);
  absl::StatusOr<TermType> InferAccess(Node& term);
  // The body of `lam` with `binders` bound (the last one by `lam` itself,
  // those before by the enclosing lams that are not terms of their own).
  // Their state after the body is written back.
  absl::StatusOr<TermType> InferLam(Node& lam, std::vector<Binder>& binders,
                                    const TermType* expected);
  // The binder `var` (a Var) refers to, or an error.
  absl::StatusOr<Binder*> FindBinder(const Node& var);
  void Record(const Node& node, TermType type);
  // Records Control(kIndex) for a literal, and for an index expression
  // (IsIndexExpression) and everything in it.
  void RecordIndex(const Node& node);

  // func_terms.cc
  absl::StatusOr<TermType> InferApp(Node& term, const TermType* expected);
  absl::StatusOr<TermType> InferBuild(Node& term, const TermType* expected);
  absl::StatusOr<TermType> InferIfold(Node& term, const TermType* expected);
  absl::StatusOr<TermType> InferIndex(Node& term);
  absl::StatusOr<TermType> InferTuple(Node& term, const TermType* expected);
  absl::StatusOr<TermType> InferScalar(Node& term, const TermType* expected);
  absl::Status CheckCondition(Node& cond);
  // Both operands of a comparison of data have one type.
  absl::Status CheckComparedData(Node& cond);
  // Types `operand` of a scalar operation or comparison (`what`, for the
  // message when it is not a scalar), of element type `elem` when given.
  absl::StatusOr<ScalarType> InferScalarOperand(Node& operand,
                                                std::optional<ElemType> elem,
                                                absl::string_view what);
  absl::StatusOr<int64_t> Length(const Node& length, absl::string_view of);

  // libcall.cc
  // A named call is typed as its definition's body (library.h) with the
  // call's value operands, typed first, bound by lams around it.
  absl::StatusOr<TermType> InferLibCall(Node& call);

  // func_index.cc
  // Is `term` an index expression: integer literals and indices combined
  // with +, - and * (by a literal)?
  bool IsIndexExpression(const Node& term);
  // The form of the index expression `term`; records its types.
  absl::StatusOr<IndexForm> IndexExpression(const Node& term);
  absl::Status CheckIndexInBounds(const Node& index, const IndexForm& form,
                                  int64_t extent, const Node& array);

  Node& func_;
  poly::Context& ctx_;
  std::vector<Binder> binders_;
  LiteralGroups groups_;
  // The literal group of each Const, created once: a term is typed again
  // when its context fixes the type of its literals (scalar.h).
  absl::flat_hash_map<const Node*, int> const_groups_;
  absl::flat_hash_map<const Node*, TermType> types_;
  // The instances of named calls' definitions, typed and dropped, and how
  // deeply they nest.
  Module instances_;
  int instance_depth_ = 0;
};

}  // namespace tessel::ir

#endif  // TESSEL_LIBS_VERIFY_FUNC_VERIFIER_H_
