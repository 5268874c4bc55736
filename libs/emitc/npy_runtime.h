// The C runtime of emit-c's output, runtime/tessel_npy.c, embedded at build
// time: tsl_error and tsl_allocate for the kernels, and for the --harness
// main, command-line parsing and reading and writing NumPy .npy files.
// Outputs copy only the parts they use (-Wunused-function).
#ifndef TESSEL_LIBS_EMITC_NPY_RUNTIME_H_
#define TESSEL_LIBS_EMITC_NPY_RUNTIME_H_

#include "absl/strings/string_view.h"

namespace tessel::emitc {

// The part of runtime/tessel_npy.c between `/* tsl:begin NAME */` and the
// next `/* tsl:end */`, without the markers. The parts:
//   posix_feature  #define _POSIX_C_SOURCE, before every include (mkdir);
//   stdio          the includes of tsl_error and the harness;
//   posix          the further includes of the harness;
//   program        tsl_program, the name messages start with;
//   error          tsl_error (needs stdio, program);
//   allocate       tsl_allocate (needs error);
//   arguments      tsl_parse_arguments, the harness's command line;
//   files          paths, shapes and the host check of .npy files;
//   reader         tsl_read_npy (needs files);
//   writer         tsl_make_directories, tsl_write_npy (needs files).
absl::string_view RuntimePart(absl::string_view name);

}  // namespace tessel::emitc

#endif  // TESSEL_LIBS_EMITC_NPY_RUNTIME_H_
