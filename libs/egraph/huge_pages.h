// An allocator for the e-graph's big per-id arrays (node records, union-find,
// hash-cons table, matches): blocks of 2 MiB and more are mapped on their own
// and marked for transparent huge pages, so that filling them costs one page
// fault per 2 MiB instead of one per 4 KiB. With a million e-nodes, 4 KiB
// faults took a sixth of egg's math_simplify_root benchmark (each vector
// doubling touches fresh memory). Smaller blocks come from the usual heap.
#ifndef TESSEL_LIBS_EGRAPH_HUGE_PAGES_H_
#define TESSEL_LIBS_EGRAPH_HUGE_PAGES_H_

#include <cstddef>
#include <memory>
#include <vector>

namespace tessel::egraph {

namespace huge_pages_internal {
inline constexpr size_t kHugePage = size_t{2} << 20;
// Maps `bytes` (a multiple of kHugePage) aligned to kHugePage; throws
// std::bad_alloc when the system refuses.
void* Map(size_t bytes);
void Unmap(void* p, size_t bytes);
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

// A std::vector whose big buffers are huge-page backed.
template <typename T>
using BigVector = std::vector<T, HugePageAllocator<T>>;

}  // namespace tessel::egraph

#endif  // TESSEL_LIBS_EGRAPH_HUGE_PAGES_H_
