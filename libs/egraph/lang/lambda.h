// egg's lambda language (egg 0.9.5, tests/lambda.rs), for the benchmarks:
// ops var + = app lam let fix if, 32-bit integers, the booleans true and
// false, and symbols (variable names); its analysis (free variables and
// constant folding, with egg's semantics) and the capture-avoiding
// substitution applier of its let-lam-diff rule. The rules are in
// scripts/bench/egg/lambda.rules.
#ifndef TESSEL_LIBS_EGRAPH_LANG_LAMBDA_H_
#define TESSEL_LIBS_EGRAPH_LANG_LAMBDA_H_

#include <memory>
#include <optional>
#include <vector>

#include "libs/egraph/analysis.h"
#include "libs/egraph/lang/language.h"

namespace tessel::egraph::lang {

// A constant of the language: a leaf e-node (an integer or true/false).
struct LambdaConstant {
  OpId op;
  PayloadId payload;
  friend bool operator==(const LambdaConstant& a, const LambdaConstant& b) {
    return a.op == b.op && a.payload == b.payload;
  }
};

struct LambdaData {
  // The classes of the symbols that occur free, sorted. As in egg, merging
  // two classes keeps the intersection.
  std::vector<ClassId> free;
  std::optional<LambdaConstant> constant;
};

class LambdaAnalysis : public AnalysisOf<LambdaData> {
 public:
  // The ops of the language must be interned in `ops` already.
  LambdaAnalysis(const OpTable& ops, const SymbolicLanguage& symbolic);

  LambdaData Make(const EGraph& g, const ENodeRef& node) override;
  DidMerge Merge(LambdaData& into, LambdaData from) override;
  // Adds the constant to its class (no pruning, as in egg's lambda).
  void Modify(EGraph& g, ClassId id) override;

  size_t conflicts() const { return conflicts_; }

 private:
  std::optional<LambdaConstant> Eval(const EGraph& g,
                                     const ENodeRef& node) const;

  OpId var_, add_, eq_, lam_, let_, fix_;
  OpId number_op_, symbol_op_;
  PayloadId true_, false_;
  ReasonId reason_ = kNoId;
  size_t conflicts_ = 0;
};

class LambdaLanguage : public Language {
 public:
  LambdaLanguage();

  absl::string_view name() const override { return "lambda"; }

 protected:
  std::unique_ptr<Analysis> NewAnalysis() const override;
  size_t Conflicts(const Analysis& analysis) const override;
};

}  // namespace tessel::egraph::lang

#endif  // TESSEL_LIBS_EGRAPH_LANG_LAMBDA_H_
