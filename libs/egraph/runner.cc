#include "libs/egraph/runner.h"

#include <time.h>

#include <limits>
#include <utility>

namespace tessel::egraph {

namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point since) {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

// The limits are checked after every rule's search and apply; the coarse
// clock (a few milliseconds' resolution, plenty for a time limit) costs a
// fraction of a precise read, which took a quarter of small runs.
double CoarseNow() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC_COARSE, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

}  // namespace

const char* StopReasonName(StopReason reason) {
  switch (reason) {
    case StopReason::kNone:
      return "running";
    case StopReason::kSaturated:
      return "saturated";
    case StopReason::kIterationLimit:
      return "iteration limit";
    case StopReason::kNodeLimit:
      return "node limit";
    case StopReason::kTimeLimit:
      return "time limit";
    case StopReason::kOther:
      return "stopped";
  }
  return "?";
}

Runner::Runner(EGraph* egraph, absl::Span<const Rewrite> rules,
               RunnerLimits limits, Scheduler* scheduler)
    : egraph_(egraph), rules_(rules), limits_(limits), scheduler_(scheduler) {
  if (scheduler_ == nullptr) {
    owned_scheduler_ = std::make_unique<BackoffScheduler>();
    scheduler_ = owned_scheduler_.get();
  }
  for (const Rewrite& rule : rules_) {
    reasons_.push_back(egraph_->InternReason(rule.name));
    matches_.emplace_back(rule.num_vars());
  }
  scheduler_->Prepare(rules_);
  applied_epoch_.assign(rules_.size(), 0);
  failed_.resize(rules_.size());
}

Runner::~Runner() = default;

double Runner::elapsed_seconds() const { return start_ ? Seconds(*start_) : 0; }

StopReason Runner::CheckLimits() const {
  // At least, not more than: the coarse clock reads the same for its first
  // few milliseconds, and a limit of 0 must stop before any rule runs.
  if (start_ && CoarseNow() - coarse_start_ >= limits_.seconds) {
    return StopReason::kTimeLimit;
  }
  if (egraph_->HashconsSize() > limits_.nodes) return StopReason::kNodeLimit;
  if (iterations_.size() >= limits_.iterations) {
    return StopReason::kIterationLimit;
  }
  return StopReason::kNone;
}

StopReason Runner::Run() {
  egraph_->Rebuild();
  while (stop_ == StopReason::kNone) {
    iterations_.push_back(RunOne());
    StopReason stop = iterations_.back().stop;
    // The iteration limit is checked after the iteration is complete.
    if (stop == StopReason::kNone) stop = CheckLimits();
    stop_ = stop;
  }
  return stop_;
}

Iteration Runner::RunOne() {
  if (!start_) {
    start_ = Clock::now();
    coarse_start_ = CoarseNow();
  }
  const size_t index = iterations_.size();
  EGraph& g = *egraph_;
  g.AdvanceEpoch();
  const uint32_t epoch = g.epoch();
  Iteration it;
  StopReason result = CheckLimits();
  it.hashcons_before = g.HashconsSize();
  it.classes_before = g.NumClasses();

  Clock::time_point hook_start = Clock::now();
  for (Hook& hook : hooks_) {
    if (result != StopReason::kNone) break;
    if (std::optional<std::string> message = hook(*this)) {
      result = StopReason::kOther;
      stop_message_ = *message;
    }
  }
  it.hook_seconds = Seconds(hook_start);
  const size_t nodes_after_hooks = g.HashconsSize();
  const size_t classes_after_hooks = g.NumClasses();

  // Search every rule on the clean e-graph, then apply them in order, as
  // egg does; a limit hit in between skips the rest.
  Clock::time_point search_start = Clock::now();
  for (Matches& m : matches_) m.Clear();
  std::vector<bool> searched(rules_.size(), false);
  if (result == StopReason::kNone) {
    for (size_t r = 0; r < rules_.size(); ++r) {
      // Semi-naive application: a rule that applies once skips the matches
      // that already existed when all its matches were last applied; they
      // still count for the scheduler, so bans are egg's.
      const bool retries =
          rules_[r].ApplyOnce() && !rules_[r].conditions.empty();
      std::optional<size_t> found = scheduler_->Search(
          index, g, r, rules_[r],
          {applied_epoch_[r], retries ? &failed_[r] : nullptr}, &matches_[r]);
      searched[r] = found.has_value();
      if (found) {
        it.matches += *found;
        if (rules_[r].ApplyOnce()) applied_epoch_[r] = epoch;
      }
      result = CheckLimits();
      if (result != StopReason::kNone) break;
    }
  }
  it.search_seconds = Seconds(search_start);

  Clock::time_point apply_start = Clock::now();
  if (result == StopReason::kNone) {
    for (size_t r = 0; r < rules_.size(); ++r) {
      // A rule that searched records the matches whose conditions fail, for
      // its next search to retry (they are all in matches_[r] now).
      RetrySet* failed = nullptr;
      if (searched[r] && rules_[r].ApplyOnce() &&
          !rules_[r].conditions.empty()) {
        failed = &failed_[r];
        failed->clear();
      }
      size_t applied = ApplyMatches(
          g, rules_[r], reasons_[r], matches_[r], failed,
          limits_.node_check == NodeCheck::kEveryMatch
              ? limits_.nodes
              : std::numeric_limits<size_t>::max());
      if (applied > 0) it.applied.push_back({r, applied});
      result = CheckLimits();
      if (result != StopReason::kNone) break;
    }
  }
  it.apply_seconds = Seconds(apply_start);

  Clock::time_point rebuild_start = Clock::now();
  it.rebuild_unions = g.Rebuild();
  it.rebuild_seconds = Seconds(rebuild_start);

  // Saturated: no rule changed anything, no rule is waiting out a ban, and
  // neither the hooks nor conditions added e-nodes.
  bool saturated = it.applied.empty() && scheduler_->CanStop(index) &&
                   it.hashcons_before == nodes_after_hooks &&
                   it.classes_before == classes_after_hooks &&
                   it.hashcons_before == g.HashconsSize() &&
                   it.classes_before == g.NumClasses();
  if (saturated && result == StopReason::kNone) result = StopReason::kSaturated;

  it.nodes = g.NumNodes();
  it.classes = g.NumClasses();
  it.hashcons = g.HashconsSize();
  it.total_seconds = Seconds(search_start);
  it.stop = result;
  return it;
}

Runner::Report Runner::Totals() const {
  Report r;
  r.iterations = iterations_.size();
  r.nodes = egraph_->NumNodes();
  r.classes = egraph_->NumClasses();
  r.hashcons = egraph_->HashconsSize();
  for (const Iteration& it : iterations_) {
    r.rebuild_unions += it.rebuild_unions;
    r.search_seconds += it.search_seconds;
    r.apply_seconds += it.apply_seconds;
    r.rebuild_seconds += it.rebuild_seconds;
    r.total_seconds += it.total_seconds;
  }
  return r;
}

}  // namespace tessel::egraph
