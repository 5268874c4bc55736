#include "libs/egraph/mapped_blocks.h"

#include <sys/mman.h>

#include <new>

namespace tessel::egraph::mapped_blocks_internal {

void* Map(size_t bytes) {
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  return p;
}

void Unmap(void* p, size_t bytes) { munmap(p, bytes); }

void* Grow(void* p, size_t old_bytes, size_t new_bytes) {
  void* grown = mremap(p, old_bytes, new_bytes, MREMAP_MAYMOVE);
  if (grown == MAP_FAILED) throw std::bad_alloc();
  return grown;
}

}  // namespace tessel::egraph::mapped_blocks_internal
