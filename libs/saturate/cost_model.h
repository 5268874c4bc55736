// Cost models as data (formats/rules/README.md, "Cost models"): LIAR's
// Listings 6-8 and every target's model are files of
//
//   (costmodel NAME [(extends BASE)]
//     (cost (HEAD [KEYWORD...] ?child...) EXPR)...
//     [(default EXPR)])
//
// where HEAD is an op of the e-graph (a TIR head such as `build`, or a named
// call such as `blas.gemv`, whose keywords, when given, must be the call's:
// `(blas.gemm N T ?alpha ...)`; keywords are not children), and EXPR prices a
// term headed by that e-node from its children's costs and what the
// analysis knows of them:
//
//   NUMBER                     a constant
//   (+ E...) (* E...)          sum, product
//   (cost ?c)                  the cost of a child's term
//   (children)                 the sum of every child's cost
//   (value ?c)                 a child's integer literal (a length)
//   (dim ?c K)                 extent K of a child's type
//   (elements ?c)              the product of a child's extents (1 for a
//                              scalar): N*M of a polymorphic call
//
// A model's own rules come before those of the model it extends; a term
// no rule prices costs its `default`, or one more than its children. A
// named call that no rule prices (a call with other keywords or operands,
// or of another target's library: `--target blas --target pytorch` with
// the pytorch model) costs +infinity, and so does a term whose price needs
// what the analysis does not know (a dimension of a value whose type no
// term fixes): it is never chosen.
#ifndef TESSEL_LIBS_SATURATE_COST_MODEL_H_
#define TESSEL_LIBS_SATURATE_COST_MODEL_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "libs/egraph/cost.h"
#include "libs/saturate/tir_analysis.h"
#include "libs/saturate/tir_encoding.h"
#include "libs/sexpr/sexpr.h"
#include "libs/support/source.h"

namespace tessel::saturate {

// The cost models of one or more files, by name, as read.
class CostModelLibrary {
 public:
  absl::Status AddSource(const SourceRef& source);
  // The names of the models, in file order.
  std::vector<std::string> Names() const;

  // The model `name` compiled for `encoding` and `analysis`; an unknown
  // name, an unknown base, an unknown op or a malformed expression is an
  // error at its location.
  absl::StatusOr<std::unique_ptr<egraph::CostModel>> Compile(
      absl::string_view name, TirEncoding& encoding,
      const TirAnalysis& analysis) const;

 private:
  struct Decl {
    std::string name;
    Location loc;
    std::string base;  // empty: none
    Location base_loc;
    std::vector<Sexpr> rules;  // (cost ...) and (default ...) forms
  };
  const Decl* Find(absl::string_view name) const;

  std::vector<Decl> models_;
};

}  // namespace tessel::saturate

#endif  // TESSEL_LIBS_SATURATE_COST_MODEL_H_
