#include "libs/egraph/hashcons_table.h"

#include <utility>

namespace tessel::egraph {
namespace {

// A multiply-xorshift step.
inline uint64_t Mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h * 0xbf58476d1ce4e5b9ull;
}

}  // namespace

uint64_t HashENode(OpId op, PayloadId payload,
                   absl::Span<const ClassId> children) {
  uint64_t h = Mix(op, (uint64_t{payload} << 32) | children.size());
  for (ClassId c : children) h = Mix(h, c);
  h ^= h >> 31;
  h *= 0x94d049bb133111ebull;
  h ^= h >> 29;
  return h;
}

void HashconsTable::Grow() {
  const size_t slots = slots_.empty() ? 16 : 2 * slots_.size();
  const Slots old = std::exchange(slots_, Slots(slots, Slot{0, kEmpty}));
  mask_ = slots_.size() - 1;
  for (const Slot& s : old) {
    if (s.id == kEmpty) continue;
    size_t i = s.tag & mask_;
    while (slots_[i].id != kEmpty) i = (i + 1) & mask_;
    slots_[i] = s;
  }
}

bool HashconsTable::Erase(uint64_t hash, NodeId id) {
  if (size_ == 0) return false;
  const uint32_t tag = static_cast<uint32_t>(hash);
  size_t hole = tag & mask_;
  for (;; hole = (hole + 1) & mask_) {
    if (slots_[hole].id == kEmpty) return false;
    if (slots_[hole].id == id) break;
  }
  // Backward-shift deletion: every later slot of the run whose probe
  // started at or before the hole moves into it, so that no lookup stops
  // early at the hole and no tombstones accumulate.
  for (size_t j = (hole + 1) & mask_; slots_[j].id != kEmpty;
       j = (j + 1) & mask_) {
    const size_t home = slots_[j].tag & mask_;
    // Whether `home` lies in the cyclic range (hole, j]: then the slot is
    // reachable from its home without crossing the hole, and stays.
    const bool stays =
        hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
    if (stays) continue;
    slots_[hole] = slots_[j];
    hole = j;
  }
  slots_[hole] = {0, kEmpty};
  --size_;
  return true;
}

}  // namespace tessel::egraph
