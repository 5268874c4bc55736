#include "libs/egraph/lang/language.h"

#include "absl/container/flat_hash_map.h"

namespace tessel::egraph::lang {

Language::Language(absl::Span<const std::pair<const char*, size_t>> ops,
                   SymbolicLanguage::Numbers numbers,
                   rules::SymbolicBinding::LeafCheck check_leaf)
    : ops_(std::make_unique<OpTable>()),
      payloads_(std::make_unique<PayloadTable>()) {
  symbolic_ =
      std::make_unique<SymbolicLanguage>(ops_.get(), payloads_.get(), numbers);
  absl::flat_hash_map<std::string, size_t> arities;
  for (const auto& [name, arity] : ops) {
    ops_->Intern(name);
    arities[name] = arity;
  }
  binding_ = std::make_unique<rules::SymbolicBinding>(
      symbolic_.get(), std::move(arities), std::move(check_leaf));
}

Language::~Language() = default;

AnalyzedEGraph Language::NewEGraph(bool explanations, bool analysis) const {
  AnalyzedEGraph result;
  result.egraph = std::make_unique<EGraph>(ops_.get(), payloads_.get());
  if (analysis) {
    result.analysis = NewAnalysis();
    result.egraph->AddAnalysis(result.analysis.get());
  }
  if (explanations) result.egraph->EnableExplanations();
  return result;
}

}  // namespace tessel::egraph::lang
