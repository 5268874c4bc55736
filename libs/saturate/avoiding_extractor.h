// The smallest term of an e-class whose variables avoid a window of De
// Bruijn indices: what LIAR's rules that move a term across lams take out
// of a class (de_bruijn_terms.h, ExtractAvoiding). Under `depth` lams of
// the term being extracted, the variables that refer to the `bound` lams
// around it are %depth ... %(depth + bound - 1): the window [lo, hi).
//
// Sizes are settled smallest first over every (class, window) pair
// reachable from the one asked for (Knuth's generalization of Dijkstra's
// algorithm to grammars: a term's size is one more than its children's),
// so that a class whose smallest term goes through a cycle of the e-graph
// gets it whatever the order of the walk. (A depth-first search that cut
// cycles where it met them kept, for a class first reached inside a cycle,
// what it found without the class it came from: sometimes nothing.)
//
// An extractor answers many questions about one e-graph: what it has
// walked and settled stays for the next question, which only walks the
// pairs not seen yet and settles until its own is settled. Between
// questions the e-graph may grow (appliers add e-nodes and unions between
// two extractions); what the extractor saw stays a term of its class, so
// an answer is always right, and may only miss a smaller term added after
// the classes it goes through were walked. New variables may make a window
// matter that did not before: MaxVar tells when a new extractor is needed.
#ifndef TESSEL_LIBS_SATURATE_AVOIDING_EXTRACTOR_H_
#define TESSEL_LIBS_SATURATE_AVOIDING_EXTRACTOR_H_

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <queue>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "libs/egraph/egraph.h"
#include "libs/egraph/term.h"
#include "libs/saturate/tir_encoding.h"

namespace tessel::saturate {

class AvoidingExtractor {
 public:
  AvoidingExtractor(const egraph::EGraph& g, const TirEncoding& encoding);

  // The largest De Bruijn index of a variable e-node of `g` (-1 if none).
  static int64_t MaxVar(const egraph::EGraph& g, const TirEncoding& encoding);
  // MaxVar when this extractor was made; windows above it forbid nothing.
  int64_t max_var() const { return max_var_; }

  // The smallest term of class `id` with no variable in [0, bound), or
  // nullopt if it has none.
  std::optional<egraph::Term> Extract(egraph::ClassId id, int64_t bound);

 private:
  static constexpr uint64_t kNone = std::numeric_limits<uint64_t>::max();
  static constexpr uint32_t kNoUser = std::numeric_limits<uint32_t>::max();

  struct Key {
    egraph::ClassId id;
    int64_t lo;
    int64_t hi;
    bool operator==(const Key& o) const {
      return id == o.id && lo == o.lo && hi == o.hi;
    }
    template <typename H>
    friend H AbslHashValue(H h, const Key& k) {
      return H::combine(std::move(h), k.id, k.lo, k.hi);
    }
  };
  // An e-node of a key's class: its children's keys are
  // children_[first_child, first_child + arity).
  struct Option {
    uint32_t key;
    egraph::NodeId node;
    uint32_t first_child;
    uint32_t arity;
    bool forbidden;  // a variable in the window
  };
  // (size, key, option), smallest first; ties go to the lower key and
  // option, so that terms do not depend on the heap's internals.
  using Candidate = std::tuple<uint64_t, uint32_t, uint32_t>;

  Key KeyOf(egraph::ClassId id, int64_t lo, int64_t hi) const;
  uint32_t IndexOf(const Key& key);
  // Walks the keys not seen before, from keys_[first] on, and records their
  // options; then makes each option a candidate, or waits for its children.
  void Discover(uint32_t first);
  // Settles keys in order of size until `root` is settled or nothing is
  // left to settle.
  void Settle(uint32_t root);
  // Adds the term chosen for key `k` to `term`; returns its root index.
  uint32_t Build(uint32_t k, egraph::Term& term) const;

  const egraph::EGraph& g_;
  const TirEncoding& encoding_;
  int64_t max_var_;
  absl::flat_hash_map<Key, uint32_t> index_;
  std::vector<Key> keys_;  // by key index
  std::vector<Option> options_;
  std::vector<uint32_t> children_;  // key indices, sliced by the options
  // By key index: the settled size (kNone until then), the option chosen,
  // and the first of the options waiting for it (a list through
  // next_user_).
  std::vector<uint64_t> size_;
  std::vector<uint32_t> choice_;
  std::vector<uint32_t> first_user_;
  // One entry per child of a waiting option: the option, and the next
  // entry for the same child.
  std::vector<uint32_t> user_option_;
  std::vector<uint32_t> next_user_;
  // By option: its children not yet settled, and one more than the sum of
  // the sizes of those that are.
  std::vector<uint32_t> unsettled_;
  std::vector<uint64_t> sum_;
  std::priority_queue<Candidate, std::vector<Candidate>,
                      std::greater<Candidate>>
      candidates_;
};

}  // namespace tessel::saturate

#endif  // TESSEL_LIBS_SATURATE_AVOIDING_EXTRACTOR_H_
