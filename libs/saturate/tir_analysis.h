// What saturate knows about each e-class of a tensor-level term, kept by one
// e-class analysis (egg's Analysis; Glenside's shape analysis, LIAR's free
// variables):
//   - its type, when the class's terms alone fix it (a term whose type
//     depends on a free De Bruijn variable's has none until another term of
//     the class gives it);
//   - its value, when it is an integer literal (lengths, dimensions, slice
//     bounds: the conditions of Glenside's rules read them);
//   - its free De Bruijn variables.
#ifndef TESSEL_LIBS_SATURATE_TIR_ANALYSIS_H_
#define TESSEL_LIBS_SATURATE_TIR_ANALYSIS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "libs/egraph/analysis.h"
#include "libs/ir/type.h"
#include "libs/saturate/access_shapes.h"
#include "libs/saturate/call_types.h"
#include "libs/saturate/tir_encoding.h"

namespace tessel::saturate {

// A set of De Bruijn indices relative to a class: bit K is %K; indices of
// 63 and more share bit 63.
using VarSet = uint64_t;

struct TirData {
  std::optional<ir::Type> type;
  std::optional<int64_t> integer;
  // The free variables every term of the class has (an intersection: a
  // class that holds both `(* 0 %0)`'s equal and `0` has none). Rewrites
  // that move a term across lams check the term they actually move.
  VarSet free = 0;
};

class TirAnalysis : public egraph::AnalysisOf<TirData> {
 public:
  // `params`: the types of the function's parameters, by name.
  TirAnalysis(const TirEncoding* encoding,
              absl::flat_hash_map<std::string, ir::Type> params)
      : encoding_(encoding), params_(std::move(params)) {}

  TirData Make(const egraph::EGraph& g, const egraph::ENodeRef& node) override;
  egraph::DidMerge Merge(TirData& into, TirData from) override;

  // The free variables of `node` from its children's.
  VarSet FreeOf(const egraph::EGraph& g, const egraph::ENodeRef& node) const;

  // The items of a literal list of op `list` (`(shape 3 3)`, `(list 1 0)`)
  // in class `id`, if it holds one whose items are integer literals.
  std::optional<std::vector<int64_t>> ListOf(const egraph::EGraph& g,
                                             egraph::ClassId id,
                                             ir::Op list) const;

 private:
  std::optional<ir::Type> TypeOf(const egraph::EGraph& g,
                                 const egraph::ENodeRef& node) const;

  std::optional<ir::Type> CallTypeOf(const egraph::EGraph& g,
                                     const egraph::ENodeRef& node) const;

  // An access pattern's type, from its operands' and the verifier's rules.
  std::optional<ir::Type> AccessTypeOf(const egraph::EGraph& g,
                                       const egraph::ENodeRef& node) const;

  const TirEncoding* encoding_;
  absl::flat_hash_map<std::string, ir::Type> params_;
  mutable CallTypes calls_;
  mutable AccessShapes access_;
};

// The free variables of a term under one more lam: %0 is bound, %K+1
// becomes %K.
inline VarSet UnderLam(VarSet free) {
  VarSet shifted = free >> 1;
  if (free >> 63) shifted |= VarSet{1} << 63;
  return shifted;
}

}  // namespace tessel::saturate

#endif  // TESSEL_LIBS_SATURATE_TIR_ANALYSIS_H_
