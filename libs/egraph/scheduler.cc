#include "libs/egraph/scheduler.h"

#include <algorithm>
#include <limits>

namespace tessel::egraph {

namespace {

constexpr size_t kUnlimited = std::numeric_limits<size_t>::max();

// value << shift without wrapping (egg's checked_shl would panic where this
// saturates; neither happens with sane limits).
size_t SaturatingShift(size_t value, size_t shift) {
  if (value == 0) return 0;
  if (shift >= std::numeric_limits<size_t>::digits ||
      value > (kUnlimited >> shift)) {
    return kUnlimited;
  }
  return value << shift;
}

}  // namespace

std::optional<size_t> SimpleScheduler::Search(size_t, const EGraph& g, size_t,
                                              const Rewrite& rule, Since since,
                                              Matches* out) {
  out->Clear();
  return rule.Search(g, kUnlimited, out, since.old_before, since.retry);
}

BackoffScheduler::RuleStats& BackoffScheduler::StatsFor(
    const std::string& rule) {
  auto [it, inserted] = by_name_.try_emplace(rule, stats_.size());
  if (inserted) {
    RuleStats s;
    s.match_limit = match_limit_;
    s.ban_length = ban_length_;
    stats_.push_back(s);
  }
  return stats_[it->second];
}

BackoffScheduler::RuleStats& BackoffScheduler::StatsFor(
    size_t index, const std::string& rule) {
  if (index >= by_index_.size()) by_index_.resize(index + 1, kNoId);
  if (by_index_[index] == kNoId) {
    StatsFor(rule);
    by_index_[index] = by_name_.at(rule);
  }
  return stats_[by_index_[index]];
}

void BackoffScheduler::SetMatchLimit(const std::string& rule, size_t limit) {
  StatsFor(rule).match_limit = limit;
}

void BackoffScheduler::SetBanLength(const std::string& rule, size_t length) {
  StatsFor(rule).ban_length = length;
}

void BackoffScheduler::DoNotBan(const std::string& rule) {
  StatsFor(rule).match_limit = kUnlimited;
}

const BackoffScheduler::RuleStats* BackoffScheduler::Stats(
    const std::string& rule) const {
  auto it = by_name_.find(rule);
  return it == by_name_.end() ? nullptr : &stats_[it->second];
}

void BackoffScheduler::Prepare(absl::Span<const Rewrite> rules) {
  // Look the names up now rather than in the run's first iteration.
  for (size_t i = 0; i < rules.size(); ++i) StatsFor(i, rules[i].name);
}

bool BackoffScheduler::CanStop(size_t iteration) {
  // Nothing changed: if rules are banned, fast-forward to the end of the
  // shortest ban instead of stopping (egg's semantics).
  size_t min_ban = kUnlimited;
  for (const RuleStats& s : stats_) {
    if (s.banned_until > iteration) min_ban = std::min(min_ban, s.banned_until);
  }
  if (min_ban == kUnlimited) return true;
  size_t delta = min_ban - iteration;
  for (RuleStats& s : stats_) {
    if (s.banned_until > iteration) s.banned_until -= delta;
  }
  return false;
}

std::optional<size_t> BackoffScheduler::Search(size_t iteration,
                                               const EGraph& g, size_t index,
                                               const Rewrite& rule, Since since,
                                               Matches* out) {
  out->Clear();
  RuleStats& s = StatsFor(index, rule.name);
  if (iteration < s.banned_until) return std::nullopt;
  size_t threshold = SaturatingShift(s.match_limit, s.times_banned);
  size_t limit = threshold == kUnlimited ? kUnlimited : threshold + 1;
  size_t found = rule.Search(g, limit, out, since.old_before, since.retry);
  if (found > threshold) {
    size_t ban = SaturatingShift(s.ban_length, s.times_banned);
    ++s.times_banned;
    s.banned_until =
        ban > kUnlimited - iteration ? kUnlimited : iteration + ban;
    out->Clear();
    return std::nullopt;
  }
  ++s.times_applied;
  return found;
}

}  // namespace tessel::egraph
