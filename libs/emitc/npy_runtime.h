// The C99 runtime of emit-c's --harness: command-line parsing, and reading
// and writing NumPy .npy files (versions 1.0 to 3.0 read, 1.0 written;
// little-endian `<f4`, `<f8`, `|i1`, `<i4`, C order), with messages such as
// "k: A.npy: shape (3, 4) does not match (4, 4)".
#ifndef TESSEL_LIBS_EMITC_NPY_RUNTIME_H_
#define TESSEL_LIBS_EMITC_NPY_RUNTIME_H_

#include <string>

namespace tessel::emitc {

// The pieces a harness calls, beyond argument parsing.
struct RuntimeParts {
  bool read = false;      // tsl_read_npy
  bool write = false;     // tsl_make_directories, tsl_write_npy
  bool allocate = false;  // tsl_allocate
};

// The C source of the runtime's static functions, each of them called by a
// harness that needs `parts`.
std::string NpyRuntime(const RuntimeParts& parts);

// What the runtime needs before and after the output's standard includes:
// POSIX's mkdir, from <sys/stat.h>.
inline constexpr char kRuntimeFeatureMacro[] =
    "#define _POSIX_C_SOURCE 200809L\n";
inline constexpr char kRuntimeIncludes[] =
    "#include <stdio.h>\n#include <string.h>\n#include <sys/stat.h>\n";
}  // namespace tessel::emitc

#endif  // TESSEL_LIBS_EMITC_NPY_RUNTIME_H_
