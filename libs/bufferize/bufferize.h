// bufferize: a tensor-level module (funcs) into a loop-level module (one
// proc per func, same name, same parameters as `in`, results as `out`),
// verified. docs/bufferize.md describes what it does.
#ifndef TESSEL_LIBS_BUFFERIZE_BUFFERIZE_H_
#define TESSEL_LIBS_BUFFERIZE_BUFFERIZE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/bufferize/lowering.h"
#include "libs/bufferize/stats.h"
#include "libs/ir/node.h"

namespace tessel::bufferize {

struct FuncReport {
  std::string name;
  Stats stats;
  std::vector<Conflict> conflicts;
};

struct Bufferized {
  ir::Module module;
  std::vector<FuncReport> reports;  // in the order of the funcs
};

struct Options {
  // The funcs' tensor arguments that may be written in place (MLIR's
  // writable function arguments), by name; "all" for every one not named
  // before it. A written argument is an `inout` parameter of the proc.
  // The order steers the analysis: a build that could write into several
  // takes the first listed (after the values of its own binders).
  std::vector<std::string> writable_args;
};

// `module` is verified; every form must be a func. A writable argument
// that names no tensor argument of any func is an error.
absl::StatusOr<Bufferized> Bufferize(const ir::Module& module,
                                     const Options& options = {});

// `FILE:LINE:COL: note: MESSAGE`, one line per conflict.
std::string FormatConflicts(const FuncReport& report);

}  // namespace tessel::bufferize

#endif  // TESSEL_LIBS_BUFFERIZE_BUFFERIZE_H_
