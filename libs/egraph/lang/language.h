// The symbolic test languages of egg's benchmarks (math.h, lambda.h) behind
// one interface, so that the benchmark and its tests run either the same
// way: a rule binding for their files, and e-graphs with the language's
// analysis attached.
#ifndef TESSEL_LIBS_EGRAPH_LANG_LANGUAGE_H_
#define TESSEL_LIBS_EGRAPH_LANG_LANGUAGE_H_

#include <cstdlib>
#include <memory>
#include <string>

#include "absl/strings/string_view.h"
#include "libs/egraph/analysis.h"
#include "libs/egraph/egraph.h"
#include "libs/egraph/rules/symbolic_binding.h"
#include "libs/egraph/symbolic.h"
#include "libs/egraph/symbols.h"

namespace tessel::egraph::lang {

// An e-graph and the analysis attached to it (declared first, so that it
// outlives the e-graph).
struct AnalyzedEGraph {
  std::unique_ptr<Analysis> analysis;
  std::unique_ptr<EGraph> egraph;
};

class Language {
 public:
  virtual ~Language() = default;

  virtual absl::string_view name() const = 0;
  virtual const rules::SymbolicBinding& binding() const = 0;
  const SymbolicLanguage& symbolic() const { return binding().language(); }

  // A new empty e-graph, with the language's analysis unless `analysis` is
  // false (egg's tests that use the `()` analysis; conditions that read the
  // analysis must not run on such an e-graph).
  virtual AnalyzedEGraph NewEGraph(bool explanations = false,
                                   bool analysis = true) const = 0;
  // Merges of two classes with different constants seen by the analysis of
  // `g` (egg aborts on the first one; here the run goes on and reports
  // them, since one means the rules are unsound).
  size_t ConstantConflicts(const AnalyzedEGraph& g) const {
    return g.analysis == nullptr ? 0 : Conflicts(*g.analysis);
  }

 protected:
  // The conflicts an analysis of this language counted.
  virtual size_t Conflicts(const Analysis& analysis) const = 0;
};

// The analysis of type A attached to `g`, for conditions and appliers that
// read it (a rule compiled once runs on many e-graphs).
template <typename A>
const A& AnalysisIn(const EGraph& g) {
  for (const Analysis* analysis : g.analyses()) {
    if (auto* found = dynamic_cast<const A*>(analysis)) return *found;
  }
  // Only a rule of one language applied to another's e-graph gets here.
  std::abort();
}

}  // namespace tessel::egraph::lang

#endif  // TESSEL_LIBS_EGRAPH_LANG_LANGUAGE_H_
