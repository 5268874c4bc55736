// The library files of every target (targets/*/library.tir), embedded in the
// program by //targets:library_sources so that the tools never look for them
// on disk. libs/ir/library.h reads them.
#ifndef TESSEL_TARGETS_LIBRARIES_H_
#define TESSEL_TARGETS_LIBRARIES_H_

#include <span>

namespace tessel::targets {

struct EmbeddedFile {
  const char* path;  // e.g. "targets/blas/library.tir"
  const char* text;
};

// Every targets/*/library.tir, in path order.
std::span<const EmbeddedFile> LibraryFiles();

}  // namespace tessel::targets

#endif  // TESSEL_TARGETS_LIBRARIES_H_
