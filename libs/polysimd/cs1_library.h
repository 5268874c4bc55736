// The CS-1 target library (targets/cs1/cs1.tir), compiled into polysimd
// by //libs/polysimd:cs1_library: every module polysimd writes starts with
// it, so that it runs as it is.
#ifndef TESSEL_LIBS_POLYSIMD_CS1_LIBRARY_H_
#define TESSEL_LIBS_POLYSIMD_CS1_LIBRARY_H_

#include <span>

#include "libs/support/embedded_file.h"

namespace tessel::polysimd {

std::span<const tessel::EmbeddedFile> Cs1LibraryFiles();

}  // namespace tessel::polysimd

#endif  // TESSEL_LIBS_POLYSIMD_CS1_LIBRARY_H_
