// LIAR's shift and substitution (formats/tir/README.md, "build/ifold
// terms") on terms taken out of the e-graph. An e-class stands for many
// terms, and shifting or substituting is defined on one term, so the rules
// that need them work as LIAR does: take one term out of the class (the
// smallest that qualifies), transform it, add the result back.
//
// These mirror libs/ir/de_bruijn.h (Shift, Instantiate) on egraph::Term,
// which appliers build thousands of times per second;
// de_bruijn_terms_test.cc checks that the two agree.
#ifndef TESSEL_LIBS_SATURATE_DE_BRUIJN_TERMS_H_
#define TESSEL_LIBS_SATURATE_DE_BRUIJN_TERMS_H_

#include <cstdint>
#include <optional>
#include <utility>

#include "absl/container/node_hash_map.h"
#include "libs/egraph/egraph.h"
#include "libs/egraph/term.h"
#include "libs/saturate/avoiding_extractor.h"
#include "libs/saturate/tir_encoding.h"

namespace tessel::saturate {

// The smallest term of class `id` in which no variable refers to one of the
// `bound` lams around it (every free %K has K >= bound), or nullopt if the
// class has none. Classes are read as they are between rebuilds (children
// through Find).
std::optional<egraph::Term> ExtractAvoiding(const egraph::EGraph& g,
                                            const TirEncoding& encoding,
                                            egraph::ClassId id, int64_t bound);

// ExtractAvoiding's terms, kept while one e-graph stays in one epoch (one
// iteration of the runner): a rule applied to thousands of matches asks
// for the same few classes again and again (LIAR's kernels: four times
// each, on average), and one AvoidingExtractor answers them all, walking
// each class once. A term taken out of a class stays equal to it, so a
// kept term is always right; rules that add e-nodes later in the epoch
// may only have made a smaller one.
class AvoidingTerms {
 public:
  // ExtractAvoiding(g, encoding, id, bound), or the term it gave for the
  // same class and bound earlier in this epoch. The reference is valid
  // until a call for another e-graph or epoch.
  const std::optional<egraph::Term>& Get(const egraph::EGraph& g,
                                         const TirEncoding& encoding,
                                         egraph::ClassId id, int64_t bound);

 private:
  uint64_t graph_ = 0;  // EGraph::serial
  uint32_t epoch_ = 0;
  absl::node_hash_map<std::pair<egraph::ClassId, int64_t>,
                      std::optional<egraph::Term>>
      terms_;
  std::optional<AvoidingExtractor> extractor_;  // for this graph and epoch
};

// Adds `by` to every variable of `term` that refers at least `cutoff` lams
// out of it. `by` may be negative when no such variable refers to one of
// the -by lams that go away (ExtractAvoiding finds such a term).
egraph::Term ShiftTerm(const egraph::Term& term, TirEncoding& encoding,
                       int64_t by, int64_t cutoff = 0);

// Beta reduction: `body` (the body of a lam) with its argument (%0 at the
// top, %1 under one more lam, ...) replaced by `value`, shifted to each
// use's depth, and the variables that referred past the lam decremented.
egraph::Term SubstituteTerm(const egraph::Term& body, const egraph::Term& value,
                            TirEncoding& encoding);

}  // namespace tessel::saturate

#endif  // TESSEL_LIBS_SATURATE_DE_BRUIJN_TERMS_H_
