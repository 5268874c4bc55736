// The equality-saturation loop (egg's Runner): each iteration runs the hooks,
// searches every rule on the clean e-graph, applies the matches rule by rule,
// then rebuilds; it stops when nothing changed (saturated), or at the
// iteration, node or time limit, or when a hook says so. Limits are checked
// where egg checks them (before an iteration, after each rule's search and
// apply, after an iteration), so runs with egg's limits do egg's work; the
// node limit also after every match applied unless NodeCheck::kEveryRule
// asks for egg's checks alone.
#ifndef TESSEL_LIBS_EGRAPH_RUNNER_H_
#define TESSEL_LIBS_EGRAPH_RUNNER_H_

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "libs/egraph/egraph.h"
#include "libs/egraph/rewrite.h"
#include "libs/egraph/scheduler.h"

namespace tessel::egraph {

enum class StopReason {
  kNone,  // still running
  kSaturated,
  kIterationLimit,
  kNodeLimit,
  kTimeLimit,
  kOther,  // a hook stopped the run (goal reached, error), see stop_message
};
const char* StopReasonName(StopReason reason);

// Where the node limit is checked.
enum class NodeCheck {
  // After every match applied too: a run stops within what one match adds
  // (its right side, or what a custom applier or a condition builds) past
  // the limit, which then bounds the e-graph's memory.
  kEveryMatch,
  // egg's checks alone, after each rule's search and apply: one rule's
  // matches may add any number of e-nodes past the limit (six times it for
  // associativity on a 14-term sum). For runs that must do egg's work.
  kEveryRule,
};

// egg's Runner defaults, with the node limit checked after every match.
struct RunnerLimits {
  size_t iterations = 30;
  size_t nodes = 10'000;  // compared with EGraph::HashconsSize
  double seconds = 5;
  NodeCheck node_check = NodeCheck::kEveryMatch;
};

struct Iteration {
  // Sizes at the start of the iteration (hash-cons entries, as egg records
  // them) and after its rebuild.
  size_t hashcons_before = 0;
  size_t classes_before = 0;
  size_t nodes = 0;  // EGraph::NumNodes
  size_t classes = 0;
  size_t hashcons = 0;
  // (rule index, applications that changed the e-graph), for the rules
  // that changed it, in rule order.
  std::vector<std::pair<size_t, size_t>> applied;
  // Matches found by the rules that ran (banned ones excluded), including
  // those not applied again (see Rewrite::ApplyOnce).
  size_t matches = 0;
  size_t rebuild_unions = 0;
  double hook_seconds = 0;
  double search_seconds = 0;
  double apply_seconds = 0;
  double rebuild_seconds = 0;
  double total_seconds = 0;
  StopReason stop = StopReason::kNone;
};

class Runner {
 public:
  // A hook runs at the start of every iteration (before the search, as in
  // egg) and may stop the run by returning a message (StopReason::kOther).
  using Hook = std::function<std::optional<std::string>(Runner&)>;

  // `egraph`, the rules and the scheduler outlive the runner. With no
  // scheduler, a BackoffScheduler with egg's defaults is used.
  Runner(EGraph* egraph, absl::Span<const Rewrite> rules,
         RunnerLimits limits = {}, Scheduler* scheduler = nullptr);
  ~Runner();

  void AddHook(Hook hook) { hooks_.push_back(std::move(hook)); }

  // Runs to a stop; may be called once.
  StopReason Run();

  EGraph& egraph() { return *egraph_; }
  absl::Span<const Rewrite> rules() const { return rules_; }
  const std::vector<Iteration>& iterations() const { return iterations_; }
  StopReason stop_reason() const { return stop_; }
  const std::string& stop_message() const { return stop_message_; }
  double elapsed_seconds() const;

  // Totals over the iterations.
  struct Report {
    size_t iterations = 0;
    size_t nodes = 0;
    size_t classes = 0;
    size_t hashcons = 0;
    size_t rebuild_unions = 0;
    double search_seconds = 0;
    double apply_seconds = 0;
    double rebuild_seconds = 0;
    double total_seconds = 0;
  };
  Report Totals() const;

 private:
  // The limit that is hit now, if any (egg's check_limits).
  StopReason CheckLimits() const;
  Iteration RunOne();

  EGraph* egraph_;
  absl::Span<const Rewrite> rules_;
  RunnerLimits limits_;
  Scheduler* scheduler_;
  std::unique_ptr<Scheduler> owned_scheduler_;
  std::vector<ReasonId> reasons_;
  std::vector<Hook> hooks_;
  std::vector<Iteration> iterations_;
  std::vector<Matches> matches_;  // per rule, reused across iterations
  // Per rule: the epoch of its last search whose matches were all applied
  // (0: none); only for rules that apply once (Rewrite::ApplyOnce).
  std::vector<uint32_t> applied_epoch_;
  // Per rule with conditions that applies once: the matches of its last
  // search whose conditions failed, which its next search returns again.
  std::vector<RetrySet> failed_;
  StopReason stop_ = StopReason::kNone;
  std::string stop_message_;
  std::optional<std::chrono::steady_clock::time_point> start_;
  double coarse_start_ = 0;  // start_ on the coarse clock (runner.cc)
};

}  // namespace tessel::egraph

#endif  // TESSEL_LIBS_EGRAPH_RUNNER_H_
