// A vector that grows by fixed-size segments and never moves its elements.
// The e-graph's per-id tables grow one element at a time to millions; with
// std::vector every doubling would move (and for non-trivial elements,
// move-construct) all of them.
#ifndef TESSEL_LIBS_EGRAPH_SEGMENTED_VECTOR_H_
#define TESSEL_LIBS_EGRAPH_SEGMENTED_VECTOR_H_

#include <cstddef>
#include <memory>
#include <vector>

namespace tessel::egraph {

template <typename T>
class SegmentedVector {
 public:
  static constexpr size_t kSegmentBits = 12;
  static constexpr size_t kSegmentSize = size_t{1} << kSegmentBits;

  T& operator[](size_t i) {
    return segments_[i >> kSegmentBits][i & (kSegmentSize - 1)];
  }
  const T& operator[](size_t i) const {
    return segments_[i >> kSegmentBits][i & (kSegmentSize - 1)];
  }
  size_t size() const { return size_; }

  // Grows to at least `n` elements (new ones value-initialized); never
  // shrinks.
  void GrowTo(size_t n) {
    while (segments_.size() * kSegmentSize < n) {
      segments_.push_back(std::make_unique<T[]>(kSegmentSize));
    }
    if (n > size_) size_ = n;
  }
  T& emplace_back() {
    GrowTo(size_ + 1);
    return (*this)[size_ - 1];
  }

 private:
  std::vector<std::unique_ptr<T[]>> segments_;
  size_t size_ = 0;
};

}  // namespace tessel::egraph

#endif  // TESSEL_LIBS_EGRAPH_SEGMENTED_VECTOR_H_
