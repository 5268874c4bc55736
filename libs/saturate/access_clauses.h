// The conditions and lets of Glenside's rules (formats/tir/rules/
// tensor.rules, set `glenside`; targets/gemmini/idioms.rules): they read
// the shapes the e-class analysis gives access patterns and compute the
// shapes, dimension numbers and bounds right sides need. The first argument
// of each is a ?variable bound to an access pattern (or to any value with a
// shape, or to a literal (shape N...), whose extents are its dimensions);
// an integer argument N, K or D is an integer or a ?variable bound to an
// integer literal.
//
// Conditions:
//   (access-pattern ?a)       ?a is an access pattern
//   (access-rank ?a N)        ... with N access dimensions
//   (rank-above ?a N)         ?a has more than N dimensions
//   (dim-at-most ?a K N)      extent K of ?a is at most N
//   (access-dim ?a D)         D is an access dimension of ?a
//   (compute-dim ?a D)        D is a compute dimension of ?a
//   (summed-dim ?a D)         D is a compute dimension of ?a after the
//                             first (the tuple dimension dotProd multiplies
//                             across): one that dotProd sums over
//   (same-compute-shape ?a ?b)  ?a and ?b have equal compute dimensions
//   (has-shape ?a ?s ?t)      ?a's access and compute dimensions are the
//                             literal shapes ?s and ?t
//   (operand-of ?a OP [I])    ?a's class is an operand of an e-node of op
//                             OP (`cartProd`), its operand I if given:
//                             exploratory rules explore only where the
//                             rewrites they enable can follow
// Lets (each yields integer literals or literal shapes):
//   (dim ?a K)                extent K of ?a
//   (access-rank ?a)          the number of access dimensions of ?a
//   (split-point ?a D N)      where to cut dimension D of ?a into blocks of
//                             N: the first multiple of N at or past its
//                             middle, N * ceil(extent / 2N) (so repeated
//                             cuts leave blocks of N and one remainder);
//                             none for an extent of at most N
//   (sum N...)                the sum
//   (access-shape ?a)         (shape A...) of ?a's access dimensions
//   (compute-shape ?a)        (shape C...) of its compute dimensions
//   (shape-concat S...)       the concatenation of shapes, each a ?variable
//                             bound to a literal shape or a literal
//                             (shape N...)
#ifndef TESSEL_LIBS_SATURATE_ACCESS_CLAUSES_H_
#define TESSEL_LIBS_SATURATE_ACCESS_CLAUSES_H_

#include "libs/egraph/rules/binding.h"
#include "libs/saturate/tir_analysis.h"
#include "libs/saturate/tir_encoding.h"

namespace tessel::saturate {

// Defines the conditions and lets above on `binding`; they read `analysis`
// and build literals with `encoding`.
void DefineAccessClauses(egraph::rules::Binding& binding, TirEncoding* encoding,
                         const TirAnalysis* analysis);

}  // namespace tessel::saturate

#endif  // TESSEL_LIBS_SATURATE_ACCESS_CLAUSES_H_
