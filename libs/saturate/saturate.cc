#include "libs/saturate/saturate.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <memory>
#include <optional>
#include <utility>

#include "absl/algorithm/container.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "libs/cli/command_line.h"
#include "libs/egraph/cost.h"
#include "libs/egraph/dot.h"
#include "libs/egraph/egraph.h"
#include "libs/egraph/extract.h"
#include "libs/egraph/rules/compile.h"
#include "libs/egraph/scheduler.h"
#include "libs/ir/op.h"
#include "libs/ir/share.h"
#include "libs/ir/syntax.h"
#include "libs/verify/read.h"
#include "libs/verify/verifier.h"
#include "libs/saturate/builtin_rules.h"
#include "libs/saturate/cost_model.h"
#include "libs/saturate/tir_analysis.h"
#include "libs/saturate/tir_binding.h"
#include "libs/saturate/tir_encoding.h"
#include "libs/sexpr/printer.h"

namespace tessel::saturate {
namespace {

constexpr absl::string_view kTensorRules = "formats/tir/rules/tensor.rules";
constexpr absl::string_view kTensorCosts = "formats/tir/rules/tensor.costs";
// The cost model without a target: LIAR's base (Listing 6).
constexpr absl::string_view kBaseCostModel = "liar";

std::optional<SourceRef> Builtin(absl::string_view path) {
  for (const EmbeddedFile& file : BuiltinRuleFiles()) {
    if (file.path == path) return MakeSource(file.path, file.text);
  }
  return std::nullopt;
}

std::string TargetRules(absl::string_view target) {
  return absl::StrCat("targets/", target, "/idioms.rules");
}

// Which rule sets and cost model a run uses, and the files they come from.
struct Rules {
  egraph::rules::RuleLibrary library;
  CostModelLibrary costs;
  std::vector<std::string> sets;
  std::string cost_model;
  // The name and set of each compiled rule, once known (SaturateFunc).
  std::shared_ptr<const std::vector<std::string>> rule_names;
  std::shared_ptr<const std::vector<std::string>> rule_sets;
};

// A usage error if the values of the repeatable flag --`flag` name one
// thing twice (a rule set would be loaded twice).
absl::Status CheckGivenOnce(absl::string_view flag,
                            absl::Span<const std::string> values) {
  for (size_t i = 0; i < values.size(); ++i) {
    if (absl::c_linear_search(values.first(i), values[i])) {
      return UsageError(
          absl::StrCat("--", flag, " ", values[i], " is given more than once"));
    }
  }
  return absl::OkStatus();
}

// The rule sets and cost models the command line chose, before any input is
// read: the builtin files, every target's idioms and cost model, the cost
// model to extract with. A target that does not exist or is named twice, a
// rule file named twice and an unknown cost model are usage errors.
absl::StatusOr<Rules> ChooseRules(const SaturateOptions& options) {
  Rules rules;
  for (absl::string_view path : {kTensorRules, kTensorCosts}) {
    std::optional<SourceRef> source = Builtin(path);
    if (!source) return absl::InternalError(absl::StrCat(path, " is missing"));
    absl::Status status = path == kTensorRules
                              ? rules.library.AddSource(*source)
                              : rules.costs.AddSource(*source);
    if (!status.ok()) return status;
  }
  for (auto [flag, values] : {std::pair{"target", &options.targets},
                              std::pair{"rules", &options.rule_files}}) {
    if (auto status = CheckGivenOnce(flag, *values); !status.ok()) {
      return status;
    }
  }
  rules.cost_model = std::string(kBaseCostModel);
  for (const std::string& target : options.targets) {
    std::optional<SourceRef> idioms = Builtin(TargetRules(target));
    if (!idioms) {
      return UsageError(absl::StrCat(
          "unknown target '", target,
          "' (known: ", absl::StrJoin(BuiltinTargets(), ", "), ")"));
    }
    if (auto status = rules.library.AddSource(*idioms); !status.ok()) {
      return status;
    }
    rules.sets.push_back(target);
    if (std::optional<SourceRef> costs =
            Builtin(absl::StrCat("targets/", target, "/cost.costs"))) {
      if (auto status = rules.costs.AddSource(*costs); !status.ok()) {
        return status;
      }
      rules.cost_model = target;
    }
  }
  if (!options.cost_model.empty()) {
    std::vector<std::string> models = rules.costs.Names();
    if (!absl::c_linear_search(models, options.cost_model)) {
      return UsageError(
          absl::StrCat("--cost: no cost model named '", options.cost_model,
                       "' (known: ", absl::StrJoin(models, ", "), ")"));
    }
    rules.cost_model = options.cost_model;
  }
  return rules;
}

// The rules a run uses: those chosen, after the target-independent sets of
// the input's level, and every rule set of the rule files.
absl::StatusOr<Rules> LoadRules(const SaturateOptions& options, bool has_terms,
                                bool has_access) {
  auto rules = ChooseRules(options);
  if (!rules.ok()) return rules.status();
  std::vector<std::string> level_sets;
  if (has_terms) {
    level_sets.push_back("liar-core");
    level_sets.push_back("liar-scalar");
    level_sets.push_back("normal-forms");
  }
  if (has_access) level_sets.push_back("glenside");
  rules->sets.insert(rules->sets.begin(), level_sets.begin(), level_sets.end());
  for (const std::string& path : options.rule_files) {
    auto source = ReadSource(path);
    if (!source.ok()) return source.status();
    size_t before = rules->library.sets().size();
    if (auto status = rules->library.AddSource(*source); !status.ok()) {
      return status;
    }
    for (size_t i = before; i < rules->library.sets().size(); ++i) {
      rules->sets.push_back(rules->library.sets()[i].name);
    }
  }
  return rules;
}

// What kinds of terms a module's funcs have: access patterns (Glenside's
// level) or build/ifold terms, which a func without access patterns is even
// when it has no lam (its arithmetic is LIAR's scalar rules' business).
void Survey(const ir::Module& module, bool* has_terms, bool* has_access) {
  for (const ir::Node* form : module.forms()) {
    if (!form->is(ir::Op::kFunc)) continue;
    bool access = false;
    bool lam = false;
    std::vector<const ir::Node*> stack = {form};
    while (!stack.empty()) {
      const ir::Node* node = stack.back();
      stack.pop_back();
      if (node->info().op_class == ir::OpClass::kAccess) access = true;
      if (node->is(ir::Op::kLam)) lam = true;
      for (const ir::Node* operand : node->operands()) stack.push_back(operand);
    }
    *has_access = *has_access || access;
    *has_terms = *has_terms || lam || !access;
  }
}

// A term as TIR text on one line, for explanations.
std::string TermText(const TirEncoding& encoding, const egraph::Term& term,
                     const ir::Node& func) {
  ir::Module scratch;
  auto node = encoding.ToNode(term, func, scratch);
  if (!node.ok()) return std::string(node.status().message());
  return PrintFlat(ir::WriteNode(**node));
}

// Saturates `func` and adds it to `out` (a module of its own), its term
// replaced by the cheapest one found.
absl::StatusOr<FuncReport> SaturateFunc(const ir::Node& func, Rules& rules,
                                        const SaturateOptions& options,
                                        ir::Module& out) {
  FuncReport report;
  report.name = func.name();
  TirEncoding encoding;
  absl::flat_hash_map<std::string, ir::Type> params;
  for (const ir::Node* decl : func.operands()) {
    if (decl->is(ir::Op::kValue) && decl->param_kind() == ir::ParamKind::kIn) {
      params.emplace(decl->name(), decl->declared_type());
    }
  }
  TirAnalysis analysis(&encoding, std::move(params));
  egraph::EGraph g(&encoding.ops(), &encoding.payloads());
  g.AddAnalysis(&analysis);
  if (options.explain) g.EnableExplanations();
  egraph::Term input = encoding.ToTerm(*func.operands().back());
  egraph::ClassId root = g.AddTerm(input);
  g.Rebuild();

  TirBinding binding(&encoding, &analysis);
  auto rewrites = rules.library.Compile(rules.sets, binding);
  if (!rewrites.ok()) return rewrites.status();
  if (rules.rule_names == nullptr) {
    auto names = std::make_shared<std::vector<std::string>>();
    for (const egraph::Rewrite& rewrite : *rewrites) {
      names->push_back(rewrite.name);
    }
    // Compile keeps the sets' order and every rule of each.
    auto sets = std::make_shared<std::vector<std::string>>();
    for (const std::string& set : rules.sets) {
      sets->insert(sets->end(), rules.library.Find(set)->rules.size(), set);
    }
    rules.rule_names = std::move(names);
    rules.rule_sets = std::move(sets);
  }
  report.rule_names = rules.rule_names;
  report.rule_sets = rules.rule_sets;
  auto model = rules.costs.Compile(rules.cost_model, encoding, analysis);
  if (!model.ok()) return model.status();

  egraph::SimpleScheduler simple;
  egraph::BackoffScheduler backoff;
  egraph::Scheduler* scheduler =
      options.backoff ? static_cast<egraph::Scheduler*>(&backoff) : &simple;
  egraph::Runner runner(&g, *rewrites, options.limits, scheduler);
  if (options.progress) {
    std::function<double()> clock = options.clock;
    if (!clock) {
      clock = [start = std::chrono::steady_clock::now()] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                             start)
            .count();
      };
    }
    double begin = clock();
    runner.AddHook([&, clock, begin, last = begin](egraph::Runner& r) mutable
                   -> std::optional<std::string> {
      double now = clock();
      if (now - last < 1) return std::nullopt;
      last = now;
      std::optional<double> best;
      if (auto extractor = egraph::GreedyExtractor::Create(g, **model);
          extractor.ok() && extractor->HasTerm(root)) {
        best = extractor->Cost(root);
      }
      options.progress(ProgressLine(func.name(), r.iterations().size(),
                                    g.NumNodes(), g.NumClasses(), best,
                                    now - begin));
      return std::nullopt;
    });
  }
  runner.Run();
  if (!g.clean()) g.Rebuild();
  report.iterations = runner.iterations();
  report.stop = runner.stop_reason();
  report.stop_message = runner.stop_message();
  report.nodes = g.NumNodes();
  report.classes = g.NumClasses();

  auto start = std::chrono::steady_clock::now();
  auto extractor = egraph::GreedyExtractor::Create(g, **model);
  if (!extractor.ok()) return extractor.status();
  auto best = extractor->Extract(root);
  if (!best.ok()) return best.status();
  report.extract_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  auto input_cost = egraph::TermCost(g, input, **model);
  if (!input_cost.ok()) return input_cost.status();
  report.input_cost = *input_cost;
  report.output_cost = best->cost;

  if (options.explain) {
    auto steps = g.Explain(input, best->term);
    if (!steps.ok()) return steps.status();
    for (const egraph::ExplanationStep& step : *steps) {
      std::string reason = step.reason.empty() ? "input" : step.reason;
      if (step.backward) absl::StrAppend(&reason, " (backward)");
      report.explanation.push_back(
          absl::StrCat(reason, ": ", TermText(encoding, step.term, func)));
    }
  }
  if (options.dot) report.dot = egraph::ToDot(g);

  // The func's declarations are copied, its term extracted next to them.
  ir::Node* copy = out.Clone(&func);
  out.AddForm(copy);
  auto term = encoding.ToNode(best->term, *copy, out);
  if (!term.ok()) return term.status();
  out.Replace(copy->operands().back(), *term);
  return report;
}

// A JSON number; null for infinities and NaN, which JSON has not.
std::string JsonNumber(double value) {
  return std::isfinite(value) ? absl::StrCat(value) : "null";
}

// A JSON string.
std::string JsonString(absl::string_view text) {
  std::string json = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      absl::StrAppend(&json, "\\", std::string(1, c));
    } else if (static_cast<unsigned char>(c) < 0x20) {
      absl::StrAppend(&json, absl::StrFormat("\\u%04x", c));
    } else {
      json.push_back(c);
    }
  }
  return json + "\"";
}

}  // namespace

std::vector<std::string> BuiltinTargets() {
  std::vector<std::string> targets;
  for (const EmbeddedFile& file : BuiltinRuleFiles()) {
    absl::string_view path = file.path;
    if (absl::ConsumePrefix(&path, "targets/") &&
        absl::ConsumeSuffix(&path, "/idioms.rules")) {
      targets.emplace_back(path);
    }
  }
  return targets;
}

absl::Status CheckOptions(const SaturateOptions& options) {
  return ChooseRules(options).status();
}

absl::Status Saturate(const ir::Module& module, const SaturateOptions& options,
                      ir::TextSink write,
                      absl::FunctionRef<void(FuncReport)> report) {
  bool has_terms = false;
  bool has_access = false;
  Survey(module, &has_terms, &has_access);
  auto rules = LoadRules(options, has_terms, has_access);
  if (!rules.ok()) return rules.status();

  for (size_t i = 0; i < module.forms().size(); ++i) {
    const ir::Node& form = *module.forms()[i];
    if (!form.is(ir::Op::kFunc)) {
      if (auto status = write(ir::PrintForm(module, i)); !status.ok()) {
        return status;
      }
      continue;
    }
    ir::Module out;
    auto func = SaturateFunc(form, *rules, options, out);
    if (!func.ok()) return func.status();
    // Every tool verifies its output: an extracted term that does not
    // verify is saturate's bug, and is reported, not written. The extracted
    // term is typed in place, then shared (it is a tree: a value it uses
    // twice is computed once), then verified again from its text.
    auto bug = [](const absl::Status& status, absl::string_view text) {
      return absl::InternalError(absl::StrCat(
          "saturate extracted a module that does not verify (a bug): ",
          status.message(), "\n", text));
    };
    if (auto status = ir::VerifyModule(out); !status.ok()) {
      return bug(status, ir::PrintModule(out));
    }
    ir::Node* extracted = out.forms().back();
    ir::ShareRepeatedValues(out, extracted->operands().back());
    SourceRef text = MakeSource("<saturate output>", ir::PrintModule(out));
    if (auto shared = ir::ReadModule(text); !shared.ok()) {
      return bug(shared.status(), text->text());
    }
    if (auto status = write(i > 0 ? "\n" : ""); !status.ok()) return status;
    if (auto status = write(text->text()); !status.ok()) return status;
    report(*std::move(func));
  }
  return absl::OkStatus();
}

absl::StatusOr<SaturateResult> Saturate(const ir::Module& module,
                                        const SaturateOptions& options) {
  SaturateResult result;
  auto status = Saturate(
      module, options,
      [&](absl::string_view text) {
        result.text.append(text.data(), text.size());
        return absl::OkStatus();
      },
      [&](FuncReport report) { result.funcs.push_back(std::move(report)); });
  if (!status.ok()) return status;
  return result;
}

std::string StatsJson(const std::vector<FuncReport>& funcs) {
  std::string json = "{\"funcs\": [";
  for (size_t f = 0; f < funcs.size(); ++f) {
    const FuncReport& report = funcs[f];
    absl::StrAppend(
        &json, f ? ", " : "", "{\"name\": ", JsonString(report.name),
        ", \"stop\": ", JsonString(egraph::StopReasonName(report.stop)),
        ", \"e_nodes\": ", report.nodes, ", \"e_classes\": ", report.classes,
        ", \"input_cost\": ", JsonNumber(report.input_cost),
        ", \"output_cost\": ", JsonNumber(report.output_cost),
        ", \"extract_seconds\": ", report.extract_seconds,
        ", \"iterations\": [");
    for (size_t i = 0; i < report.iterations.size(); ++i) {
      const egraph::Iteration& it = report.iterations[i];
      absl::StrAppend(
          &json, i ? ", " : "", "{\"e_nodes\": ", it.nodes,
          ", \"e_classes\": ", it.classes, ", \"matches\": ", it.matches,
          ", \"search_seconds\": ", it.search_seconds,
          ", \"apply_seconds\": ", it.apply_seconds,
          ", \"rebuild_seconds\": ", it.rebuild_seconds, ", \"applied\": {");
      for (size_t a = 0; a < it.applied.size(); ++a) {
        absl::StrAppend(&json, a ? ", " : "",
                        JsonString((*report.rule_names)[it.applied[a].first]),
                        ": ", it.applied[a].second);
      }
      absl::StrAppend(&json, "}}");
    }
    absl::StrAppend(&json, "]}");
  }
  absl::StrAppend(&json, "]}\n");
  return json;
}

std::string ProgressLine(absl::string_view func, size_t iteration, size_t nodes,
                         size_t classes, std::optional<double> best_cost,
                         double seconds) {
  return absl::StrCat(
      "saturate: ", func, ": iteration ", iteration, ", ", nodes, " e-nodes, ",
      classes, " e-classes, best cost ",
      best_cost ? JsonNumber(*best_cost) : std::string("none yet"), " (",
      absl::StrFormat("%.1f", seconds), " s)");
}

std::string IdleTargetNote(const FuncReport& report,
                           absl::Span<const std::string> targets) {
  std::vector<std::string> idle;
  for (const std::string& target : targets) {
    bool applied = false;
    for (const egraph::Iteration& iteration : report.iterations) {
      for (const auto& [rule, count] : iteration.applied) {
        applied = applied || (*report.rule_sets)[rule] == target;
      }
    }
    if (!applied) idle.push_back(target);
  }
  if (idle.empty()) return "";
  return absl::StrCat(
      "saturate: note: ", report.name, ": no rule of target ",
      absl::StrJoin(idle, ", "),
      " applied, so the output calls none of its functions (each target's "
      "rules are written for one level of TIR: docs/saturate.md, \"Rules "
      "and cost models\")");
}

std::vector<std::string> LevelNotes(const ir::Module& module) {
  struct Level {
    ir::Op op;
    const char* one;  // "a loop-level proc"
    const char* many;
    std::vector<std::string> names;
  };
  std::vector<Level> levels = {
      {ir::Op::kProc, "a loop-level proc", "loop-level procs", {}},
      {ir::Op::kPeProgram, "a CS-1 pe-program", "CS-1 pe-programs", {}}};
  for (const ir::Node* form : module.forms()) {
    for (Level& level : levels) {
      if (form->is(level.op)) level.names.push_back(form->name());
    }
  }
  std::vector<std::string> notes;
  for (const Level& level : levels) {
    if (level.names.empty()) continue;
    // A few names say which; a module may have thousands.
    constexpr size_t kNamed = 3;
    std::string names = absl::StrJoin(
        level.names.begin(),
        level.names.begin() + std::min(level.names.size(), kNamed), ", ");
    if (level.names.size() > kNamed) absl::StrAppend(&names, ", ...");
    notes.push_back(absl::StrCat(
        "saturate: note: ",
        level.names.size() == 1
            ? absl::StrCat(names, " is ", level.one, ", left as it is")
            : absl::StrCat(level.names.size(), " ", level.many, " (", names,
                           ") are left as they are"),
        ": saturate's rules are for the tensor level (funcs, which parse "
        "--emit=terms writes)"));
  }
  return notes;
}

std::string LimitMessage(const FuncReport& report,
                         const egraph::RunnerLimits& limits) {
  std::string limit;
  switch (report.stop) {
    case egraph::StopReason::kIterationLimit:
      limit = absl::StrCat("the iteration limit (--iter-limit ",
                           limits.iterations, ")");
      break;
    case egraph::StopReason::kNodeLimit:
      limit = absl::StrCat("the node limit (--node-limit ", limits.nodes, ")");
      break;
    case egraph::StopReason::kTimeLimit:
      limit =
          absl::StrCat("the time limit (--time-limit ", limits.seconds, ")");
      break;
    case egraph::StopReason::kOther:
      limit = absl::StrCat("'", report.stop_message, "'");
      break;
    case egraph::StopReason::kNone:
    case egraph::StopReason::kSaturated:
      return "";
  }
  // The iteration that hit a limit in its course is not counted.
  size_t full = 0;
  for (const egraph::Iteration& iteration : report.iterations) {
    if (iteration.stop == egraph::StopReason::kNone) ++full;
  }
  return absl::StrCat(
      "saturate: ", report.name, ": stopped by ", limit, " after ", full,
      " full iteration(s), ", report.nodes, " e-nodes, ", report.classes,
      " e-classes, before saturation: the output is the cheapest equal "
      "program found by then");
}

}  // namespace tessel::saturate
