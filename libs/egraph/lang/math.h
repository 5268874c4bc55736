// egg's math language (egg 0.9.5, tests/math.rs), for the benchmarks: ops
// d i + - * / pow ln sqrt sin cos, float constants and symbols; constant
// folding with egg's semantics (a class with a constant keeps only its
// leaves); the conditions its rules use. The rules themselves are in
// scripts/bench/egg/math.rules.
#ifndef TESSEL_LIBS_EGRAPH_LANG_MATH_H_
#define TESSEL_LIBS_EGRAPH_LANG_MATH_H_

#include <memory>
#include <optional>

#include "libs/egraph/analysis.h"
#include "libs/egraph/lang/language.h"

namespace tessel::egraph::lang {

// The constant value of a class, if it has one (egg's ConstantFold; the
// pattern egg keeps beside the value is only for its explanations).
class ConstantFold : public AnalysisOf<std::optional<double>> {
 public:
  ConstantFold(OpId number_op, const OpTable& ops);

  std::optional<double> Make(const EGraph& g, const ENodeRef& node) override;
  DidMerge Merge(std::optional<double>& into,
                 std::optional<double> from) override;
  // Adds the constant to the class, then removes every e-node but the
  // leaves, as egg's math does.
  void Modify(EGraph& g, ClassId id) override;

  size_t conflicts() const { return conflicts_; }

 private:
  enum class Fold { kNone, kAdd, kSub, kMul, kDiv };
  OpId number_op_;
  std::vector<Fold> fold_;  // by op
  ReasonId reason_ = kNoId;
  size_t conflicts_ = 0;
};

class MathLanguage : public Language {
 public:
  MathLanguage();

  absl::string_view name() const override { return "math"; }

 protected:
  std::unique_ptr<Analysis> NewAnalysis() const override;
  size_t Conflicts(const Analysis& analysis) const override;
};

}  // namespace tessel::egraph::lang

#endif  // TESSEL_LIBS_EGRAPH_LANG_MATH_H_
