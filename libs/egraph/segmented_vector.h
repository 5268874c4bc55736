// A vector that grows by segments and never moves its elements. The
// e-graph's per-id tables grow one element at a time to millions; with
// std::vector every doubling would move (and for non-trivial elements,
// move-construct) all of them. Segments double in size (4096 elements, then
// 4096, 8192, 16384, ...), so that a small e-graph stays small and the big
// segments of a big one are blocks mapped on their own (mapped_blocks.h).
#ifndef TESSEL_LIBS_EGRAPH_SEGMENTED_VECTOR_H_
#define TESSEL_LIBS_EGRAPH_SEGMENTED_VECTOR_H_

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "libs/egraph/mapped_blocks.h"

namespace tessel::egraph {

template <typename T>
class SegmentedVector {
 public:
  static constexpr size_t kFirstBits = 12;
  static constexpr size_t kFirstSize = size_t{1} << kFirstBits;

  T& operator[](size_t i) {
    auto [segment, offset] = Locate(i);
    return segments_[segment][offset];
  }
  const T& operator[](size_t i) const {
    auto [segment, offset] = Locate(i);
    return segments_[segment][offset];
  }
  size_t size() const { return size_; }

  // Grows to at least `n` elements (new ones value-initialized); never
  // shrinks.
  void GrowTo(size_t n) {
    while (size_ < n) {
      if (size_ == capacity_) {
        // Segment k > 0 holds kFirstSize << (k - 1) elements, so that it
        // starts at kFirstSize << (k - 1) and capacities stay powers of two.
        // Its memory is reserved, and elements are constructed only as the
        // vector grows into them: a fresh segment of a big e-graph is mostly
        // unused, and touching all of it cost page faults for nothing.
        size_t size = segments_.empty() ? kFirstSize : capacity_;
        segments_.emplace_back().reserve(size);
        capacity_ += size;
      }
      std::vector<T, MappedBlockAllocator<T>>& last = segments_.back();
      size_t grow = std::min(n - size_, last.capacity() - last.size());
      last.resize(last.size() + grow);
      size_ += grow;
    }
  }
  T& emplace_back() {
    GrowTo(size_ + 1);
    return (*this)[size_ - 1];
  }

 private:
  struct Place {
    size_t segment;
    size_t offset;
  };
  // Element i is in segment 0 if i < kFirstSize, else in segment
  // bit_width(i) - kFirstBits, at offset i - 2^(bit_width(i) - 1).
  static Place Locate(size_t i) {
    if (i < kFirstSize) return {0, i};
    size_t top = std::bit_width(i) - 1;
    return {top - kFirstBits + 1, i - (size_t{1} << top)};
  }

  std::vector<std::vector<T, MappedBlockAllocator<T>>> segments_;
  size_t capacity_ = 0;
  size_t size_ = 0;
};

}  // namespace tessel::egraph

#endif  // TESSEL_LIBS_EGRAPH_SEGMENTED_VECTOR_H_
