// The tensor-level checks of verifier.h for one `func`: the term is typed
// against the declared results, De Bruijn variables are bound, every
// `index` is within bounds (checked with isl over the ranges of the
// enclosing build and ifold indices) and access patterns have valid shapes.
#ifndef TESSEL_LIBS_IR_VERIFY_FUNC_H_
#define TESSEL_LIBS_IR_VERIFY_FUNC_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "libs/ir/module.h"
#include "libs/ir/verify_domain.h"
#include "libs/ir/verify_term.h"
#include "libs/poly/poly.h"
#include "libs/sexpr/sexpr.h"

namespace tessel {

class FuncVerifier {
 public:
  FuncVerifier(const Function& func, poly::Context& ctx);
  absl::Status Verify();

 private:
  // What a `lam` binds: the index of a build or ifold (0 <= %k < extent,
  // a dimension of the isl domain), or a value (ifold's accumulator, app's
  // argument). An app argument that is an index expression can be used as
  // an index too.
  struct Binder {
    std::optional<std::string> index;  // its isl form
    int64_t extent = 0;                // > 0 for build and ifold indices
    std::optional<TermType> value;
  };

  absl::StatusOr<TermType> Infer(const Sexpr& term, const TermType* expected);
  absl::StatusOr<TermType> InferVariable(const Sexpr& term);
  absl::StatusOr<TermType> InferApp(const Sexpr& term,
                                    const TermType* expected);
  absl::StatusOr<TermType> InferBuild(const Sexpr& term,
                                      const TermType* expected);
  absl::StatusOr<TermType> InferIfold(const Sexpr& term,
                                      const TermType* expected);
  absl::StatusOr<TermType> InferIndex(const Sexpr& term);
  absl::StatusOr<TermType> InferTuple(const Sexpr& term,
                                      const TermType* expected);
  absl::StatusOr<TermType> InferScalar(const Sexpr& term,
                                       const TermType* expected);
  absl::Status CheckCondition(const Sexpr& cond);
  // Types `operand` of a scalar operation or comparison (`what`, for the
  // message when it is not a scalar), of element type `elem` when given.
  absl::StatusOr<ScalarType> InferScalarOperand(const Sexpr& operand,
                                                std::optional<ElemType> elem,
                                                absl::string_view what);

  // The body of `(lam BODY)` with `binders` bound, innermost last.
  absl::StatusOr<TermType> InferLam(const Sexpr& lam,
                                    std::vector<Binder> binders,
                                    const TermType* expected);
  absl::StatusOr<int64_t> Length(const Sexpr& length, absl::string_view of);
  // The binder `%K` names, or an error.
  absl::StatusOr<const Binder*> FindBinder(const Sexpr& var) const;
  // Is `term` an index expression: integer literals and indices combined
  // with +, - and * (by a literal)?
  bool IsIndexExpression(const Sexpr& term) const;
  absl::StatusOr<std::string> IndexExpression(const Sexpr& term) const;
  absl::Status CheckIndexInBounds(const Sexpr& index, const std::string& isl,
                                  int64_t extent, const Sexpr& array);

  const Function& func_;
  poly::Context& ctx_;
  std::vector<Binder> binders_;
};

}  // namespace tessel

#endif  // TESSEL_LIBS_IR_VERIFY_FUNC_H_
