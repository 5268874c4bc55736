#include "scripts/bench/egg/suite.h"

#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/egraph/matcher.h"
#include "libs/egraph/relational.h"
#include "libs/egraph/scheduler.h"
#include "libs/sexpr/reader.h"

namespace tessel::egraph::bench {
namespace {

// egg's POPL'21 evaluation limits; the time limit only guards against a
// runaway run (egg's figures were taken with EGG_TIME_LIMIT=1000).
constexpr RunnerLimits kPoplLimits = {100, 1'000'000, 1000};

absl::StatusOr<size_t> Count(const Sexpr& field) {
  if (field.size() != 2 || !field[1].is_int() || field[1].int_value() < 0) {
    return ErrorAt(field.loc(),
                   absl::StrCat("expected (", field.head(), " COUNT)"));
  }
  return static_cast<size_t>(field[1].int_value());
}

absl::StatusOr<double> Seconds(const Sexpr& field) {
  if (field.size() != 2 || !field[1].is_number()) {
    return ErrorAt(field.loc(), "expected (seconds NUMBER)");
  }
  return field[1].is_int() ? static_cast<double>(field[1].int_value())
                           : field[1].float_value();
}

absl::StatusOr<EggFigures> ParseFigures(const Sexpr& form) {
  EggFigures figures;
  for (size_t i = 1; i < form.size(); ++i) {
    const Sexpr& field = form[i];
    absl::string_view head = field.head();
    if (head == "stop" && field.size() == 2 && field[1].is_symbol()) {
      figures.stop = field[1].text();
      continue;
    }
    if (head == "seconds") {
      auto seconds = Seconds(field);
      if (!seconds.ok()) return seconds.status();
      figures.seconds = *seconds;
      continue;
    }
    size_t* slot = head == "iterations" ? &figures.iterations
                   : head == "nodes"    ? &figures.nodes
                   : head == "classes"  ? &figures.classes
                   : head == "memo"     ? &figures.memo
                                        : nullptr;
    if (slot == nullptr) {
      return ErrorAt(field.loc(),
                     "expected (stop REASON), (iterations N), (nodes N), "
                     "(classes N), (memo N) or (seconds S)");
    }
    auto count = Count(field);
    if (!count.ok()) return count.status();
    *slot = *count;
  }
  if (figures.stop.empty()) return ErrorAt(form.loc(), "missing (stop ...)");
  return figures;
}

absl::Status ParseRunner(const Sexpr& form, EggTest* test) {
  for (size_t i = 1; i < form.size(); ++i) {
    const Sexpr& field = form[i];
    absl::string_view head = field.head();
    if (head == "iterations" || head == "nodes") {
      auto count = Count(field);
      if (!count.ok()) return count.status();
      (head == "nodes" ? test->limits.nodes : test->limits.iterations) = *count;
    } else if (head == "seconds") {
      auto seconds = Seconds(field);
      if (!seconds.ok()) return seconds.status();
      test->limits.seconds = *seconds;
    } else if (head == "scheduler" && field.size() == 2 &&
               (field[1].is_symbol("simple") ||
                field[1].is_symbol("backoff"))) {
      test->simple_scheduler = field[1].is_symbol("simple");
    } else if (field.is_form("explanations") && field.size() == 1) {
      test->explanations = true;
    } else if (field.is_form("no-goal-stop") && field.size() == 1) {
      test->goal_stop = false;
    } else if (field.is_form("no-analysis") && field.size() == 1) {
      test->analysis = false;
    } else {
      return ErrorAt(field.loc(),
                     "expected (iterations N), (nodes N), (seconds S), "
                     "(scheduler simple|backoff), (explanations), "
                     "(no-goal-stop) or (no-analysis)");
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<EggTest> ParseTest(const Sexpr& form) {
  if (!form.is_form("test") || form.size() < 2 || !form[1].is_symbol()) {
    return ErrorAt(form.loc(), "expected (test NAME FIELD...)");
  }
  EggTest test;
  test.name = form[1].text();
  test.loc = form[1].loc();
  bool has_start = false;
  for (size_t i = 2; i < form.size(); ++i) {
    const Sexpr& field = form[i];
    absl::string_view head = field.head();
    std::vector<Sexpr> args;
    if (!head.empty()) {
      args.assign(field.items().begin() + 1, field.items().end());
    }
    if (head == "rules" && !args.empty()) {
      for (const Sexpr& set : args) {
        if (!set.is_symbol()) return ErrorAt(set.loc(), "expected a set name");
        test.rule_sets.push_back(set.text());
      }
    } else if (head == "start" && args.size() == 1) {
      test.start = args[0];
      has_start = true;
    } else if (head == "extra") {
      test.extra = std::move(args);
    } else if (head == "goals" && !args.empty()) {
      test.goals = std::move(args);
    } else if (head == "expect" && args.size() == 1 &&
               (args[0].is_symbol("proved") || args[0].is_symbol("unproved"))) {
      test.expect_proved = args[0].is_symbol("proved");
    } else if (head == "runner") {
      if (absl::Status s = ParseRunner(field, &test); !s.ok()) return s;
    } else if (head == "egg-test" || head == "egg-popl") {
      auto figures = ParseFigures(field);
      if (!figures.ok()) return figures.status();
      (head == "egg-test" ? test.egg_test : test.egg_popl) = *figures;
    } else {
      return ErrorAt(field.loc(),
                     "expected (rules SET...), (start TERM), (extra TERM...), "
                     "(goals PATTERN...), (expect proved|unproved), "
                     "(runner ...), (egg-test ...) or (egg-popl ...)");
    }
  }
  if (test.rule_sets.empty() || !has_start || test.goals.empty()) {
    return ErrorAt(form.loc(),
                   "a test needs (rules ...), (start ...) and "
                   "(goals ...)");
  }
  return test;
}

}  // namespace

absl::StatusOr<std::vector<EggTest>> ReadTests(const std::string& path) {
  auto source = ReadSource(path);
  if (!source.ok()) return source.status();
  return ParseTests(*source);
}

absl::StatusOr<std::vector<EggTest>> ParseTests(const SourceRef& source) {
  auto forms = ReadSexprs(source);
  if (!forms.ok()) return forms.status();
  std::vector<EggTest> tests;
  for (const Sexpr& form : *forms) {
    auto test = ParseTest(form);
    if (!test.ok()) return test.status();
    tests.push_back(*std::move(test));
  }
  return tests;
}

std::string StopName(const Outcome& outcome) {
  switch (outcome.stop) {
    case StopReason::kSaturated:
      return "saturated";
    case StopReason::kIterationLimit:
      return "iteration-limit";
    case StopReason::kNodeLimit:
      return "node-limit";
    case StopReason::kTimeLimit:
      return "time-limit";
    case StopReason::kOther:
      return outcome.stopped_proved ? "proved" : "other";
    case StopReason::kNone:
      break;
  }
  return "none";
}

absl::StatusOr<Outcome> RunTest(
    const EggTest& test, Mode mode, const lang::Language& language,
    const rules::RuleLibrary& library,
    const std::function<void(const Runner&)>& progress, Matcher matcher) {
  const rules::SymbolicBinding& binding = language.binding();
  auto rewrites = library.Compile(test.rule_sets, binding);
  if (!rewrites.ok()) return rewrites.status();
  if (matcher == Matcher::kRelational) {
    for (Rewrite& rule : *rewrites) {
      rule.relational = std::make_shared<RelationalPattern>(rule.lhs);
    }
  }
  std::vector<CompiledPattern> goals;
  for (const Sexpr& goal : test.goals) {
    VarTable vars;
    auto pattern = binding.CompilePattern(goal, &vars);
    if (!pattern.ok()) return pattern.status();
    goals.emplace_back(*pattern);
  }

  lang::AnalyzedEGraph analyzed =
      language.NewEGraph(test.explanations, test.analysis);
  EGraph& g = *analyzed.egraph;
  for (const Sexpr& extra : test.extra) {
    auto term = binding.CompileTerm(extra);
    if (!term.ok()) return term.status();
    g.AddTerm(*term);
  }
  auto start = binding.CompileTerm(test.start);
  if (!start.ok()) return start.status();
  const ClassId root = g.AddTerm(*start);

  auto all_proved = [&goals, &g, root] {
    Matches matches(64);
    for (const CompiledPattern& goal : goals) {
      matches.Reset(goal.num_vars());
      if (goal.SearchClass(g, g.Find(root), 1, &matches) == 0) return false;
    }
    return true;
  };

  std::unique_ptr<Scheduler> scheduler;
  if (test.simple_scheduler) scheduler = std::make_unique<SimpleScheduler>();
  RunnerLimits limits = mode == Mode::kPopl ? kPoplLimits : test.limits;
  // egg checks the node limit between rules only (math_simplify_root's
  // last rule takes it from below 1,000,000 hash-cons entries to 1,344,857).
  limits.node_check = NodeCheck::kEveryRule;
  Runner runner(&g, *rewrites, limits, scheduler.get());
  const std::string kProved = "Proved all goals";
  if (mode == Mode::kTest && test.goal_stop) {
    runner.AddHook([&](Runner&) -> std::optional<std::string> {
      if (all_proved()) return kProved;
      return std::nullopt;
    });
  }
  if (progress) {
    runner.AddHook([&](Runner& r) -> std::optional<std::string> {
      progress(r);
      return std::nullopt;
    });
  }

  Outcome outcome;
  outcome.stop = runner.Run();
  outcome.stopped_proved =
      outcome.stop == StopReason::kOther && runner.stop_message() == kProved;
  outcome.totals = runner.Totals();
  if (!g.clean()) g.Rebuild();
  outcome.proved = all_proved();
  outcome.conflicts = language.ConstantConflicts(analyzed);
  return outcome;
}

std::string CompareWithEgg(const Outcome& outcome, const EggFigures& egg) {
  std::vector<std::string> diffs;
  if (StopName(outcome) != egg.stop) {
    diffs.push_back(
        absl::StrCat("stop ", StopName(outcome), " (egg ", egg.stop, ")"));
  }
  auto check = [&](absl::string_view what, size_t ours, size_t eggs) {
    if (ours != eggs) {
      diffs.push_back(absl::StrCat(what, " ", ours, " (egg ", eggs, ")"));
    }
  };
  check("iterations", outcome.totals.iterations, egg.iterations);
  check("nodes", outcome.totals.nodes, egg.nodes);
  check("classes", outcome.totals.classes, egg.classes);
  return absl::StrJoin(diffs, ", ");
}

}  // namespace tessel::egraph::bench
