// Helpers for saturate's unit tests: a verified func read from text, and an
// e-graph over its tensor-level term with saturate's encoding and analysis.
#ifndef TESSEL_LIBS_SATURATE_TESTING_H_
#define TESSEL_LIBS_SATURATE_TESTING_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "gtest/gtest.h"
#include "libs/egraph/egraph.h"
#include "libs/egraph/rewrite.h"
#include "libs/egraph/rules/compile.h"
#include "libs/egraph/runner.h"
#include "libs/egraph/scheduler.h"
#include "libs/ir/node.h"
#include "libs/ir/syntax.h"
#include "libs/verify/read.h"
#include "libs/saturate/tir_analysis.h"
#include "libs/saturate/tir_binding.h"
#include "libs/saturate/tir_encoding.h"
#include "libs/sexpr/printer.h"
#include "libs/support/source.h"

namespace tessel::saturate::testing {

// The module of `text`, read and verified (a test failure if it is not).
inline ir::Module ReadVerified(absl::string_view text) {
  auto module = ir::ReadModule(MakeSource("test.tir", std::string(text)));
  EXPECT_TRUE(module.ok()) << module.status();
  return module.ok() ? *std::move(module) : ir::Module();
}

// The first func of `module`.
inline ir::Node* FirstFunc(const ir::Module& module) {
  for (ir::Node* form : module.forms()) {
    if (form->is(ir::Op::kFunc)) return form;
  }
  ADD_FAILURE() << "no func";
  return nullptr;
}

// A node on one line, as saturate's explanations print it.
inline std::string Flat(const ir::Node& node) {
  return PrintFlat(ir::WriteNode(node));
}

// The e-graph of one func's term, with the analysis saturate attaches.
class FuncGraph {
 public:
  explicit FuncGraph(absl::string_view text)
      : module_(ReadVerified(text)),
        func_(FirstFunc(module_)),
        analysis_(&encoding_, Params(*func_)),
        g_(&encoding_.ops(), &encoding_.payloads()) {
    g_.AddAnalysis(&analysis_);
    input_ = encoding_.ToTerm(body());
    root_ = g_.AddTerm(input_);
    g_.Rebuild();
  }

  const ir::Node& func() const { return *func_; }
  ir::Node& body() const { return *func_->operands().back(); }
  ir::Module& module() { return module_; }
  TirEncoding& encoding() { return encoding_; }
  TirAnalysis& analysis() { return analysis_; }
  egraph::EGraph& g() { return g_; }
  const egraph::Term& input() const { return input_; }
  egraph::ClassId root() const { return root_; }

  // `term` as TIR text on one line, its references bound to the func's
  // parameters.
  std::string Text(const egraph::Term& term) {
    ir::Module scratch;
    auto node = encoding_.ToNode(term, *func_, scratch);
    EXPECT_TRUE(node.ok()) << node.status();
    return node.ok() ? Flat(**node) : "";
  }

 private:
  static absl::flat_hash_map<std::string, ir::Type> Params(
      const ir::Node& func) {
    absl::flat_hash_map<std::string, ir::Type> params;
    for (const ir::Node* decl : func.operands()) {
      if (decl->is(ir::Op::kValue) &&
          decl->param_kind() == ir::ParamKind::kIn) {
        params.emplace(decl->name(), decl->declared_type());
      }
    }
    return params;
  }

  ir::Module module_;
  ir::Node* func_;
  TirEncoding encoding_;
  TirAnalysis analysis_;
  egraph::EGraph g_;
  egraph::Term input_;
  egraph::ClassId root_ = 0;
};

// A fixture for tests of rules in the TIR rule language: the rule set `t`
// of a rule text, compiled with saturate's binding for one FuncGraph, and
// run on it.
class RulesTest : public ::testing::Test {
 protected:
  // The rewrites of rule set `t` of `rules`, for `f`.
  absl::StatusOr<std::vector<egraph::Rewrite>> Compile(
      FuncGraph& f, const std::string& rules) {
    binding_ = std::make_unique<TirBinding>(&f.encoding(), &f.analysis());
    library_ = std::make_unique<egraph::rules::RuleLibrary>();
    if (auto status = library_->AddSource(MakeSource("test.rules", rules));
        !status.ok()) {
      return status;
    }
    return library_->Compile({"t"}, *binding_);
  }

  // Runs rule set `t` of `rules` on `f` for at most `iterations`; the
  // e-graph stays valid.
  void Run(FuncGraph& f, const std::string& rules, size_t iterations) {
    auto rewrites = Compile(f, rules);
    ASSERT_TRUE(rewrites.ok()) << rewrites.status();
    egraph::SimpleScheduler scheduler;
    egraph::Runner runner(&f.g(), *rewrites, {iterations, 10'000, 10},
                          &scheduler);
    runner.Run();
    f.g().Rebuild();
    absl::Status valid = f.g().Verify();
    EXPECT_TRUE(valid.ok()) << valid;
  }

  // The error compiling `rules` for a func of text `func`.
  std::string CompileError(const std::string& func, const std::string& rules) {
    FuncGraph f(func);
    auto rewrites = Compile(f, rules);
    EXPECT_FALSE(rewrites.ok()) << rules;
    return rewrites.ok() ? "" : std::string(rewrites.status().message());
  }

 private:
  std::unique_ptr<TirBinding> binding_;
  std::unique_ptr<egraph::rules::RuleLibrary> library_;
};

}  // namespace tessel::saturate::testing

#endif  // TESSEL_LIBS_SATURATE_TESTING_H_
