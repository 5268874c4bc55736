// The TIR tensor level as a rule language (formats/rules/README.md, "TIR
// rules"): patterns are tensor-level terms with ?variables, read by the IR's
// own reader; rules move terms across lams as De Bruijn indices require;
// literals match by value and take their types where they are built; the
// conditions, lets and appliers of the LIAR and Glenside rule sets.
#ifndef TESSEL_LIBS_SATURATE_TIR_BINDING_H_
#define TESSEL_LIBS_SATURATE_TIR_BINDING_H_

#include <memory>

#include "libs/egraph/rules/binding.h"
#include "libs/ir/node.h"
#include "libs/saturate/de_bruijn_terms.h"
#include "libs/saturate/tir_analysis.h"
#include "libs/saturate/tir_encoding.h"

namespace tessel::saturate {

class TirBinding : public egraph::rules::Binding {
 public:
  // Patterns are encoded with `encoding`; conditions and appliers read
  // `analysis`, which must be attached to the e-graph the rules run on.
  TirBinding(TirEncoding* encoding, const TirAnalysis* analysis);
  ~TirBinding() override;

  absl::StatusOr<egraph::Pattern> CompilePattern(
      const Sexpr& form, egraph::VarTable* vars) const override;
  absl::StatusOr<egraph::Pattern> CompileLeft(
      const Sexpr& form, egraph::VarTable* vars,
      std::vector<egraph::Condition>* implied) const override;
  absl::StatusOr<std::shared_ptr<const egraph::Applier>> CompileRight(
      const egraph::rules::RuleDecl& rule,
      egraph::rules::RuleScope& scope) const override;

 private:
  // Reads `form` as a pattern into the binding's module.
  absl::StatusOr<const ir::Node*> ReadPattern(const Sexpr& form) const;
  absl::StatusOr<egraph::Pattern> Encode(
      const ir::Node& pattern, egraph::VarTable* vars,
      std::vector<egraph::Condition>* implied) const;
  void DefineConditions();
  // The let `generalize` and the condition `instance` of the rules that
  // make folds of sums written term by term (sum_folds.h).
  void DefineSumFolds();
  void DefineAppliers();

  TirEncoding* encoding_;
  const TirAnalysis* analysis_;
  // Holds the patterns read; rules keep pointers into it.
  std::unique_ptr<ir::Module> patterns_;
  // Shared by the appliers that move terms across lams (de_bruijn_terms.h).
  std::shared_ptr<AvoidingTerms> avoiding_terms_;
};

}  // namespace tessel::saturate

#endif  // TESSEL_LIBS_SATURATE_TIR_BINDING_H_
