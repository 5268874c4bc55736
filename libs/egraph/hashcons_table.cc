#include "libs/egraph/hashcons_table.h"

#include <utility>

namespace tessel::egraph {

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
