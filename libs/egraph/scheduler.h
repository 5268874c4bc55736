// Rule schedulers: which rules search in an iteration and which of their
// matches are applied. SimpleScheduler runs every rule every iteration;
// BackoffScheduler is egg's: a rule that finds more matches than its limit
// is banned for a while, and each ban doubles its limit and ban length.
#ifndef TESSEL_LIBS_EGRAPH_SCHEDULER_H_
#define TESSEL_LIBS_EGRAPH_SCHEDULER_H_

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/types/span.h"
#include "libs/egraph/egraph.h"
#include "libs/egraph/matcher.h"
#include "libs/egraph/rewrite.h"

namespace tessel::egraph {

class Scheduler {
 public:
  virtual ~Scheduler() = default;
  // Called once by the runner, before the run, with the rules it will ask
  // about by index.
  virtual void Prepare(absl::Span<const Rewrite> /*rules*/) {}
  // Called when an iteration changed nothing: may the run stop as saturated?
  // (Egg's backoff scheduler says no while rules are banned, and
  // fast-forwards the bans.)
  virtual bool CanStop(size_t /*iteration*/) { return true; }
  // What a search leaves out: matches older than `old_before`, except those
  // in `retry` (see CompiledPattern::Search).
  struct Since {
    uint32_t old_before = 0;
    const RetrySet* retry = nullptr;
  };
  // Searches rule number `index` in `iteration`, leaving in `out` the
  // matches to apply, except the old ones `since` says. Returns the number
  // of matches found, counting the old ones, or nullopt if the rule did not
  // run (banned; `out` empty). A count means `out` holds every new match:
  // the runner will not apply the rule's current matches again.
  virtual std::optional<size_t> Search(size_t iteration, const EGraph& g,
                                       size_t index, const Rewrite& rule,
                                       Since since, Matches* out) = 0;
};

class SimpleScheduler : public Scheduler {
 public:
  std::optional<size_t> Search(size_t iteration, const EGraph& g, size_t index,
                               const Rewrite& rule, Since since,
                               Matches* out) override;
};

class BackoffScheduler : public Scheduler {
 public:
  // egg's defaults.
  static constexpr size_t kDefaultMatchLimit = 1000;
  static constexpr size_t kDefaultBanLength = 5;

  explicit BackoffScheduler(size_t match_limit = kDefaultMatchLimit,
                            size_t ban_length = kDefaultBanLength)
      : match_limit_(match_limit), ban_length_(ban_length) {}

  // Per-rule settings, by rule name (before the run).
  void SetMatchLimit(const std::string& rule, size_t limit);
  void SetBanLength(const std::string& rule, size_t length);
  void DoNotBan(const std::string& rule);

  void Prepare(absl::Span<const Rewrite> rules) override;
  bool CanStop(size_t iteration) override;
  std::optional<size_t> Search(size_t iteration, const EGraph& g, size_t index,
                               const Rewrite& rule, Since since,
                               Matches* out) override;

  // For reports and tests.
  struct RuleStats {
    size_t times_applied = 0;  // searches that were not banned
    size_t banned_until = 0;
    size_t times_banned = 0;
    size_t match_limit = 0;
    size_t ban_length = 0;
  };
  const RuleStats* Stats(const std::string& rule) const;

 private:
  RuleStats& StatsFor(const std::string& rule);
  RuleStats& StatsFor(size_t index, const std::string& rule);

  size_t match_limit_;
  size_t ban_length_;
  // Keyed by name as egg's are, so rules that share a name share stats; in
  // order of first use.
  std::vector<RuleStats> stats_;
  absl::flat_hash_map<std::string, size_t> by_name_;
  std::vector<size_t> by_index_;  // rule index -> stats_ index, or kNoId
};

}  // namespace tessel::egraph

#endif  // TESSEL_LIBS_EGRAPH_SCHEDULER_H_
