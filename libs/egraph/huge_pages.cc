#include "libs/egraph/huge_pages.h"

#include <sys/mman.h>

#include <cstdint>
#include <new>

namespace tessel::egraph::huge_pages_internal {

void* Map(size_t bytes) {
  // Map one huge page more than asked and trim both ends, so that the block
  // starts on a huge-page boundary (the kernel backs only aligned 2 MiB
  // ranges with huge pages).
  size_t mapped = bytes + kHugePage;
  void* raw = mmap(nullptr, mapped, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  uintptr_t begin = reinterpret_cast<uintptr_t>(raw);
  uintptr_t aligned = (begin + kHugePage - 1) & ~(uintptr_t{kHugePage} - 1);
  if (aligned > begin) munmap(raw, aligned - begin);
  uintptr_t end = begin + mapped;
  if (end > aligned + bytes) {
    munmap(reinterpret_cast<void*>(aligned + bytes), end - (aligned + bytes));
  }
  void* p = reinterpret_cast<void*>(aligned);
  // Advice only: without transparent huge pages the block still works.
  madvise(p, bytes, MADV_HUGEPAGE);
  return p;
}

void Unmap(void* p, size_t bytes) { munmap(p, bytes); }

void* Grow(void* p, size_t old_bytes, size_t new_bytes) {
  void* grown = mremap(p, old_bytes, new_bytes, 0);
  if (grown != MAP_FAILED) {
    madvise(grown, new_bytes, MADV_HUGEPAGE);
    return grown;
  }
  // Moving onto a block that Map aligned keeps the pages huge.
  void* block = Map(new_bytes);
  void* moved = mremap(p, old_bytes, old_bytes, MREMAP_MAYMOVE | MREMAP_FIXED,
                       block);
  if (moved == MAP_FAILED) {
    Unmap(block, new_bytes);
    throw std::bad_alloc();
  }
  return block;
}

}  // namespace tessel::egraph::huge_pages_internal
