// Sums written out term by term, as folds: `t0 + t1 + t2` where the terms
// differ only in their indices, `x[i] * y[0] + x[i + 1] * y[1] + ...`, is
// the fold `ifold 3 0 (λλ %0 + f(%1))` of the step `f(k) = x[i + k] *
// y[k]`, the form the front end writes for a reduction and the idioms
// match. The rules (formats/tir/rules/tensor.rules, set liar-sums) find
// the step of two terms by anti-unification (Generalize: f with f(0) = a
// and f(1) = b) and extend a fold by the next term (IsInstance: f(n) is t).
//
// A step differs from one term to the next only in index expressions
// (`(index x I)`'s I), each by a constant: the position becomes `I + c *
// k`. Index expressions are compared as affine functions of the De Bruijn
// variables, so `%0 + 2` matches `2 + %0`. Data parts must agree: a term
// of the class of the second term is looked for node by node, so that
// the commuted forms the rules add are found.
//
// Both work on a step placed under `bound` lams of its own context as
// well (the bodies of two folds over the same extent, `bound` = 2, which
// make a fold of folds: the 2-D window of a stencil written out), and on
// the classes as they are between rebuilds.
#ifndef TESSEL_LIBS_SATURATE_SUM_FOLDS_H_
#define TESSEL_LIBS_SATURATE_SUM_FOLDS_H_

#include <cstdint>
#include <optional>

#include "libs/egraph/egraph.h"
#include "libs/egraph/term.h"
#include "libs/saturate/de_bruijn_terms.h"
#include "libs/saturate/tir_encoding.h"

namespace tessel::saturate {

// The step f of a fold whose first two steps are the classes `a` and `b`
// (under `bound` lams of their own: %0 ... %(bound - 1) are theirs), as
// the body it has under the fold's two lams: the fold's index is %(bound +
// 1), its accumulator %bound, which f does not use. nullopt if the two
// differ other than in index expressions by constants, or not at all.
std::optional<egraph::Term> Generalize(const egraph::EGraph& g,
                                       TirEncoding& encoding,
                                       AvoidingTerms& avoiding,
                                       egraph::ClassId a, egraph::ClassId b,
                                       int64_t bound);

// Whether the step `f` (a class of fold bodies, as Generalize makes them)
// at index `n` is the class `t`.
bool IsInstance(const egraph::EGraph& g, const TirEncoding& encoding,
                AvoidingTerms& avoiding, egraph::ClassId f, int64_t n,
                egraph::ClassId t, int64_t bound);

}  // namespace tessel::saturate

#endif  // TESSEL_LIBS_SATURATE_SUM_FOLDS_H_
