// The symbolic test languages of egg's benchmarks (math.h, lambda.h) behind
// one interface, so that the benchmark and its tests run either the same
// way: a rule binding for their files, and e-graphs with the language's
// analysis attached.
#ifndef TESSEL_LIBS_EGRAPH_LANG_LANGUAGE_H_
#define TESSEL_LIBS_EGRAPH_LANG_LANGUAGE_H_

#include <cstdlib>
#include <memory>
#include <string>
#include <utility>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
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

// A language: its ops and payloads, the symbolic reading of its terms,
// and the rule binding its rule files compile with. A subclass defines its
// conditions and appliers on binding() and gives its analysis.
class Language {
 public:
  virtual ~Language();

  virtual absl::string_view name() const = 0;
  const rules::SymbolicBinding& binding() const { return *binding_; }
  const SymbolicLanguage& symbolic() const { return *symbolic_; }

  // A new empty e-graph, with the language's analysis unless `analysis` is
  // false (egg's tests that use the `()` analysis; conditions that read the
  // analysis must not run on such an e-graph).
  AnalyzedEGraph NewEGraph(bool explanations = false,
                           bool analysis = true) const;
  // Merges of two classes with different constants seen by the analysis of
  // `g` (egg aborts on the first one; here the run goes on and reports
  // them, since one means the rules are unsound).
  size_t ConstantConflicts(const AnalyzedEGraph& g) const {
    return g.analysis == nullptr ? 0 : Conflicts(*g.analysis);
  }

 protected:
  // The language of the ops `ops` (name, arity), with numbers read as
  // `numbers` and leaves checked by `check_leaf`.
  Language(absl::Span<const std::pair<const char*, size_t>> ops,
           SymbolicLanguage::Numbers numbers,
           rules::SymbolicBinding::LeafCheck check_leaf);

  const OpTable& ops() const { return *ops_; }
  rules::SymbolicBinding& mutable_binding() { return *binding_; }

  // The language's analysis, for a new e-graph.
  virtual std::unique_ptr<Analysis> NewAnalysis() const = 0;
  // The conflicts an analysis of this language counted.
  virtual size_t Conflicts(const Analysis& analysis) const = 0;

 private:
  std::unique_ptr<OpTable> ops_;
  std::unique_ptr<PayloadTable> payloads_;
  std::unique_ptr<SymbolicLanguage> symbolic_;
  std::unique_ptr<rules::SymbolicBinding> binding_;
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
