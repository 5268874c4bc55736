// E-matching: a pattern compiled into a program for a backtracking matcher
// (egg's abstract machine, section 5 of its paper), run over a clean
// e-graph's flat node store. See matcher.cc for the instruction set and the
// measurements that chose it.
#ifndef TESSEL_LIBS_EGRAPH_MATCHER_H_
#define TESSEL_LIBS_EGRAPH_MATCHER_H_

#include <cstdint>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/types/span.h"
#include "libs/egraph/egraph.h"
#include "libs/egraph/big_vector.h"
#include "libs/egraph/ids.h"
#include "libs/egraph/pattern.h"

namespace tessel::egraph {

// The matches of one pattern, stored flat: per match the root class and the
// class of every variable (VarId-indexed, kNoId for ids the pattern does not
// use). Each (root, substitution) pair occurs once.
class Matches {
 public:
  explicit Matches(uint32_t num_vars = 0) : num_vars_(num_vars) {}

  size_t size() const { return data_.size() / (num_vars_ + 1); }
  bool empty() const { return data_.empty(); }
  ClassId root(size_t i) const { return data_[i * (num_vars_ + 1)]; }
  Subst subst(size_t i) const {
    return Subst({data_.data() + i * (num_vars_ + 1) + 1, num_vars_});
  }
  uint32_t num_vars() const { return num_vars_; }

  void Reset(uint32_t num_vars) {
    num_vars_ = num_vars;
    data_.clear();
  }
  void Clear() { data_.clear(); }
  void Append(ClassId root, absl::Span<const ClassId> subst) {
    data_.push_back(root);
    for (ClassId c : subst) data_.push_back(c);
  }

 private:
  uint32_t num_vars_;
  BigVector<ClassId> data_;
};

// The matches of a conditional rule whose conditions failed when they were
// applied, to be tried again by the next search (see CompiledPattern::Search),
// as hashes of (root, substitution) (MatchHash). A collision only makes a
// match that held be applied again, which changes nothing.
using RetrySet = absl::flat_hash_set<uint64_t>;
// `subst` holds the pattern's variables (CompiledPattern::num_vars of them);
// kNoId for those it does not use.
uint64_t MatchHash(ClassId root, absl::Span<const ClassId> subst);

// The bookkeeping of one search under CompiledPattern::Search's contract,
// shared by the matchers (this one and relational.h): every match counts
// towards the limit; new ones are appended, old ones only if retried.
class MatchSink {
 public:
  MatchSink(size_t limit, uint32_t old_before, const RetrySet* retry,
            Matches* out)
      : limit_(limit),
        old_before_(old_before),
        retry_(retry != nullptr && !retry->empty() ? retry : nullptr),
        root_moves_(retry != nullptr),
        out_(out) {}

  // The stamp of the e-node at the root of a match (see Search: with a
  // retry set, a root that moved makes the match new).
  uint32_t RootStamp(const EGraph& g, NodeId n) const {
    return root_moves_ ? g.Stamp(n) : g.RootStamp(n);
  }
  // Whether a match with `stamp` may be appended; if so the caller fills in
  // its substitution and offers it.
  bool MayAppend(uint32_t stamp) const {
    return stamp >= old_before_ || retry_ != nullptr;
  }
  // Appends the match if it is new or retried. `subst` has the output's
  // slots, the first `num_vars` of them the pattern's.
  void Offer(ClassId root, absl::Span<const ClassId> subst, uint32_t num_vars,
             uint32_t stamp) {
    if (stamp >= old_before_ ||
        retry_->contains(MatchHash(root, subst.first(num_vars)))) {
      out_->Append(root, subst);
    }
  }
  // Counts a match; true once the limit is reached.
  bool Count() { return ++found_ >= limit_; }
  size_t found() const { return found_; }

 private:
  size_t limit_;
  uint32_t old_before_;
  const RetrySet* retry_;  // null if empty
  bool root_moves_;
  Matches* out_;
  size_t found_ = 0;
};

class CompiledPattern {
 public:
  CompiledPattern() = default;
  explicit CompiledPattern(const Pattern& pattern, bool allow_blocks = true);

  // Appends to `out` (whose num_vars must be at least VarBound()) the matches
  // in the whole e-graph, at most `limit` of them; returns how many it found.
  // The e-graph must be clean. Matches whose e-nodes all have stamps older
  // than `old_before` (EGraph::Stamp) are counted but not appended: a caller
  // that applied every match found at epoch E passes E to get only the
  // matches that are new since.
  // With `retry` (for rules with conditions): old matches that are in it are
  // appended too, and a match whose root e-node moved to another class is
  // new (EGraph::Stamp, not RootStamp), so that an old match has the same
  // (root, substitution) as when it was applied.
  size_t Search(const EGraph& g, size_t limit, Matches* out,
                uint32_t old_before = 0, const RetrySet* retry = nullptr) const;
  // The same, for matches rooted at class `root` only.
  size_t SearchClass(const EGraph& g, ClassId root, size_t limit,
                     Matches* out) const;

  uint32_t num_vars() const { return num_vars_; }

 private:
  friend class MatchMachine;
  // One instruction of the program; matcher.cc documents the set.
  struct Instr {
    enum class Kind : uint8_t { kBind, kCompare, kLookup, kGround, kBlock };
    Kind kind;
    uint32_t reg;    // the register (class) the instruction works on
    uint32_t other;  // kCompare: the register to compare with;
                     // kBind: the first output register;
                     // kLookup/kGround: the pattern node to look up;
                     // kBlock: the index of the block in blocks_
    OpId op = 0;     // kBind, kLookup and kBlock: the op at the top
    PayloadId payload = 0;
    uint32_t arity = 0;
    // kBind: the first `prefix` children are variables bound already, in
    // registers bound_regs_[prefix_regs...]; the run of e-nodes, sorted by
    // children, is searched for them instead of scanned.
    // kBlock: the block's variables are block_vars_[prefix_regs...], `prefix`
    // of them.
    uint32_t prefix = 0;
    uint32_t prefix_regs = 0;
  };
  // A variable of a block: its register in this program, and whether it was
  // bound before the block (then the block's value must equal it).
  struct BlockVar {
    VarId var;
    uint32_t reg;
    bool check;
  };

  OpId root_op_ = 0;
  bool root_is_var_ = false;
  uint32_t num_regs_ = 0;
  uint32_t num_vars_ = 0;
  std::vector<Instr> program_;
  std::vector<uint32_t> bound_regs_;  // see Instr::prefix
  // Subpatterns under the root matched on their own, once per class and
  // search (see matcher.cc), and their variables, by VarId per block.
  std::vector<CompiledPattern> blocks_;
  std::vector<BlockVar> block_vars_;
  std::vector<uint32_t> var_reg_;  // register of each variable, or kNoId
  // The maximal ground subpatterns (of Ground operands and inside Lookup
  // terms), looked up once per search, and each pattern node's index in it
  // or kNoId.
  std::vector<uint32_t> ground_;
  std::vector<uint32_t> ground_slot_;
  Pattern pattern_;  // for Lookup instructions
};

}  // namespace tessel::egraph

#endif  // TESSEL_LIBS_EGRAPH_MATCHER_H_
