// Running out of memory is an error like any other: every tool reports it
// as `TOOL: error: out of memory ...` on stderr and exits with status 1,
// wherever the allocation failed (in a library, in a destructor, in the
// e-graph's mapped blocks), instead of dying of an uncaught std::bad_alloc.
#ifndef TESSEL_LIBS_CLI_OUT_OF_MEMORY_H_
#define TESSEL_LIBS_CLI_OUT_OF_MEMORY_H_

#include "absl/strings/string_view.h"

namespace tessel {

// Makes a failed allocation end the process with the diagnostic above,
// naming `tool`: a failing operator new calls the report instead of
// throwing, and a std::bad_alloc thrown by other code (mmap-backed blocks)
// that reaches std::terminate is reported the same way. Other uncaught
// exceptions still reach the previous terminate handler. RunTool calls it.
void ReportOutOfMemoryAs(absl::string_view tool);

// What ReportOutOfMemoryAs installs: writes the diagnostic (without
// allocating) and exits with status 1. For a std::bad_alloc caught by the
// caller.
[[noreturn]] void ExitOutOfMemory();

}  // namespace tessel

#endif  // TESSEL_LIBS_CLI_OUT_OF_MEMORY_H_
