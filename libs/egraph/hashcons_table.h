// A hash-cons table: a set of e-node ids keyed by their e-nodes, which live
// elsewhere (the e-graph's node store; the explanation forest's exact
// terms, explain.h, keep their table too). Open addressing with
// linear probing over 8-byte slots that hold an id and 32 bits of its
// e-node's hash. Probing compares those bits before it reads an e-node, so
// a lookup touches one slot's cache line, plus the e-node it finds; growing
// moves slots by their stored bits without reading any e-node. absl's hash
// set, used before, keeps control bytes apart from slots and rehashes
// through the e-nodes: on egg's math_simplify_root benchmark its rehashing
// alone took 6% of the run, and this table cut the apply phase from about
// 1.8 s to 1.3 s (and the explanation forest's, diff_power_harder from
// 0.58 s to 0.48 s).
//
// The caller hashes e-nodes and says which stored id is equal to the one it
// looks for; the table never sees an e-node.
#ifndef TESSEL_LIBS_EGRAPH_HASHCONS_TABLE_H_
#define TESSEL_LIBS_EGRAPH_HASHCONS_TABLE_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/types/span.h"
#include "libs/egraph/ids.h"
#include "libs/egraph/mapped_blocks.h"

namespace tessel::egraph {

// The hash of an e-node (op, payload, child ids) for a HashconsTable, which
// takes both the probe position and the bits it compares from the low 32
// bits: every one of them depends on every input word.
uint64_t HashENode(OpId op, PayloadId payload,
                   absl::Span<const ClassId> children);

class HashconsTable {
 public:
  size_t size() const { return size_; }

  // The stored id under `hash` for which `equal(id)` holds, if any.
  template <typename Equal>
  std::optional<NodeId> Find(uint64_t hash, Equal equal) const {
    if (size_ == 0) return std::nullopt;
    const uint32_t tag = static_cast<uint32_t>(hash);
    for (size_t i = tag & mask_;; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (s.id == kEmpty) return std::nullopt;
      if (s.tag == tag && equal(s.id)) return s.id;
    }
  }

  // Find; if nothing is found, stores `id` under `hash` and returns nullopt.
  template <typename Equal>
  std::optional<NodeId> FindOrInsert(uint64_t hash, NodeId id, Equal equal) {
    if ((size_ + 1) * 4 > slots_.size() * 3) Grow();
    const uint32_t tag = static_cast<uint32_t>(hash);
    size_t i = tag & mask_;
    for (;; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (s.id == kEmpty) break;
      if (s.tag == tag && equal(s.id)) return s.id;
    }
    slots_[i] = {tag, id};
    ++size_;
    return std::nullopt;
  }

  // Removes `id`, stored under `hash`; returns whether it was there.
  bool Erase(uint64_t hash, NodeId id);

 private:
  static constexpr NodeId kEmpty = ~NodeId{0};
  struct Slot {
    uint32_t tag;  // the low 32 bits of the e-node's hash
    NodeId id;     // kEmpty for a free slot
  };

  // Doubles the slots (at least 16), keeping the load at most three
  // quarters, where linear probing's runs stay within a cache line or two.
  void Grow();

  using Slots = std::vector<Slot, MappedBlockAllocator<Slot>>;
  Slots slots_;
  size_t mask_ = 0;  // slots_.size() - 1 once there are slots
  size_t size_ = 0;
};

}  // namespace tessel::egraph

#endif  // TESSEL_LIBS_EGRAPH_HASHCONS_TABLE_H_
