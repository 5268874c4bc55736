// Memory for the e-graph's big tables: MappedBlockAllocator for containers
// (the hash-cons table, segmented per-class tables), Map and Grow for
// BigVector (big_vector.h). Blocks of 2 MiB and more are mapped on their
// own, so that freeing one returns it to the system and a BigVector can
// grow one by moving its pages instead of copying it. Smaller blocks come
// from the usual heap.
//
// The blocks are not advised for transparent huge pages any more: on the
// development VMs (Firecracker, 2026-11-27) a first write cost 3-4 ms per
// MB in huge pages and under 1 ms in 4 KiB pages, and without the advice
// egg's math_simplify_root took 3.19 s instead of 3.53 s (system time
// 0.25-0.32 s instead of 0.75-0.89 s; mean of five interleaved runs). See
// docs/egraph.md.
#ifndef TESSEL_LIBS_EGRAPH_MAPPED_BLOCKS_H_
#define TESSEL_LIBS_EGRAPH_MAPPED_BLOCKS_H_

#include <cstddef>
#include <memory>

namespace tessel::egraph {

namespace mapped_blocks_internal {
inline constexpr size_t kBlock = size_t{2} << 20;
// Maps `bytes` (a multiple of kBlock); throws std::bad_alloc when the
// system refuses.
void* Map(size_t bytes);
void Unmap(void* p, size_t bytes);
// Grows the block `p` of `old_bytes` mapped by Map to `new_bytes` (both
// multiples of kBlock) and returns its address, in place or elsewhere: the
// kernel moves its pages, not their contents, so only the new tail is
// fresh memory.
void* Grow(void* p, size_t old_bytes, size_t new_bytes);
}  // namespace mapped_blocks_internal

template <typename T>
class MappedBlockAllocator {
 public:
  using value_type = T;

  MappedBlockAllocator() = default;
  template <typename U>
  MappedBlockAllocator(const MappedBlockAllocator<U>&) {}  // NOLINT: rebinding

  T* allocate(size_t n) {
    size_t bytes = n * sizeof(T);
    if (bytes < mapped_blocks_internal::kBlock) {
      return std::allocator<T>().allocate(n);
    }
    return static_cast<T*>(mapped_blocks_internal::Map(Rounded(bytes)));
  }
  void deallocate(T* p, size_t n) {
    size_t bytes = n * sizeof(T);
    if (bytes < mapped_blocks_internal::kBlock) {
      std::allocator<T>().deallocate(p, n);
      return;
    }
    mapped_blocks_internal::Unmap(p, Rounded(bytes));
  }

  friend bool operator==(const MappedBlockAllocator&,
                         const MappedBlockAllocator&) {
    return true;
  }

 private:
  static size_t Rounded(size_t bytes) {
    using mapped_blocks_internal::kBlock;
    return (bytes + kBlock - 1) / kBlock * kBlock;
  }
};

}  // namespace tessel::egraph

#endif  // TESSEL_LIBS_EGRAPH_MAPPED_BLOCKS_H_
