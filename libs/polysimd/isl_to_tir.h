// isl's answers as TIR: quasi-affine expressions and conditions of
// parameters as control expressions, and the loops, conditions and blocks
// of isl's AST builder as loop-level statements, as S-expressions that the
// IR reader reads (formats/tir/README.md, "Expressions"). isl writes only
// what TIR's control expressions have (sums, products by literals, floor
// division and modulo by positive literals, min, max, comparisons and
// logic); anything else (a conditional expression) is an error, so that a
// generated program never computes what isl did not mean.
#ifndef TESSEL_LIBS_POLYSIMD_ISL_TO_TIR_H_
#define TESSEL_LIBS_POLYSIMD_ISL_TO_TIR_H_

#include <functional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "isl/cpp.h"
#include "libs/sexpr/sexpr.h"

namespace tessel::polysimd {

// What each isl identifier (a parameter, an iterator of the AST) stands for
// in TIR.
using IslNames = absl::flat_hash_map<std::string, Sexpr>;

// The identifiers `names` for the dimensions of the tuple `tuple` (to bind
// them to parameters of those names).
isl::multi_id NamedIds(const isl::space& tuple,
                       const std::vector<std::string>& names);

// The AST build for `context` (a parameter set) that TIR is written from:
// it writes a piecewise minimum or maximum as TIR's min and max, not as the
// conditional expression TIR's control expressions lack.
isl::ast_build BuildFrom(const isl::set& context);

// `expr` with its identifiers replaced by `names` (all must be there).
absl::StatusOr<Sexpr> ControlExpr(const isl::ast_expr& expr,
                                  const IslNames& names);

// The value of `value`, a function of parameters only, where `context`
// (a parameter set) holds.
absl::StatusOr<Sexpr> ParamExpr(const isl::pw_aff& value,
                                const isl::set& context,
                                const IslNames& names);

// The condition that `set` (of parameters) holds, where `context` holds.
absl::StatusOr<Sexpr> ParamCondition(const isl::set& set,
                                     const isl::set& context,
                                     const IslNames& names);

// The statements of a user node of the AST: its statement's name and its
// arguments (the coordinates of the instance, as TIR).
using UserStatement = std::function<absl::StatusOr<std::vector<Sexpr>>(
    const std::vector<Sexpr>& coordinates)>;

// The statements that run `tree`: a `for` per loop (of step 1), an `if`
// per condition; its iterators are named `iterator` followed by their
// depth (i0, i1, ...; the names must be free in `names`, to which they are
// added).
absl::StatusOr<std::vector<Sexpr>> AstStatements(
    const isl::ast_node& tree, const std::string& iterator, IslNames& names,
    const UserStatement& user);

}  // namespace tessel::polysimd

#endif  // TESSEL_LIBS_POLYSIMD_ISL_TO_TIR_H_
