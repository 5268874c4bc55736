// Huge-page memory for the e-graph's big tables: HugePageAllocator for
// containers (the hash-cons table, segmented per-class tables), Map and Grow
// for BigVector (big_vector.h). Blocks of 2 MiB and more are mapped on their
// own and marked for transparent huge pages, so that filling them costs one
// page fault per 2 MiB instead of one per 4 KiB. With a million e-nodes,
// 4 KiB faults took a sixth of egg's math_simplify_root benchmark. Smaller
// blocks come from the usual heap.
#ifndef TESSEL_LIBS_EGRAPH_HUGE_PAGES_H_
#define TESSEL_LIBS_EGRAPH_HUGE_PAGES_H_

#include <cstddef>
#include <memory>

namespace tessel::egraph {

namespace huge_pages_internal {
inline constexpr size_t kHugePage = size_t{2} << 20;
// Maps `bytes` (a multiple of kHugePage) aligned to kHugePage; throws
// std::bad_alloc when the system refuses.
void* Map(size_t bytes);
void Unmap(void* p, size_t bytes);
// Grows the block `p` of `old_bytes` mapped by Map to `new_bytes` (both
// multiples of kHugePage) and returns its address: in place when the
// addresses after it are free, else by moving its pages (not their
// contents) to the start of a new block. Either way the old pages are kept,
// and only the new tail is fresh memory.
void* Grow(void* p, size_t old_bytes, size_t new_bytes);
}  // namespace huge_pages_internal

template <typename T>
class HugePageAllocator {
 public:
  using value_type = T;

  HugePageAllocator() = default;
  template <typename U>
  HugePageAllocator(const HugePageAllocator<U>&) {}  // NOLINT: rebinding

  T* allocate(size_t n) {
    size_t bytes = n * sizeof(T);
    if (bytes < huge_pages_internal::kHugePage) {
      return std::allocator<T>().allocate(n);
    }
    return static_cast<T*>(huge_pages_internal::Map(Rounded(bytes)));
  }
  void deallocate(T* p, size_t n) {
    size_t bytes = n * sizeof(T);
    if (bytes < huge_pages_internal::kHugePage) {
      std::allocator<T>().deallocate(p, n);
      return;
    }
    huge_pages_internal::Unmap(p, Rounded(bytes));
  }

  friend bool operator==(const HugePageAllocator&, const HugePageAllocator&) {
    return true;
  }

 private:
  static size_t Rounded(size_t bytes) {
    using huge_pages_internal::kHugePage;
    return (bytes + kHugePage - 1) / kHugePage * kHugePage;
  }
};

}  // namespace tessel::egraph

#endif  // TESSEL_LIBS_EGRAPH_HUGE_PAGES_H_
