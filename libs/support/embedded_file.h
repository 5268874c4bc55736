// A data file compiled into a program (embed.bzl): rule sets, cost models
// and library definitions travel inside the tools, so that nothing is
// looked up on disk at run time and a tool behaves the same wherever it
// lies.
#ifndef TESSEL_LIBS_SUPPORT_EMBEDDED_FILE_H_
#define TESSEL_LIBS_SUPPORT_EMBEDDED_FILE_H_

#include <span>

namespace tessel {

struct EmbeddedFile {
  const char* path;  // from the workspace root, e.g. "targets/blas/idioms.rules"
  const char* text;
};

}  // namespace tessel

#endif  // TESSEL_LIBS_SUPPORT_EMBEDDED_FILE_H_
