// The `main` that --harness adds to the C output: it reads the entry's
// `in`/`inout` parameters from DIR/NAME.npy, allocates its `out`
// parameters, calls it and writes the `out`/`inout` parameters back, so
// that `cc -O2 out.c -o k && ./k --inputs in --outputs out` runs a kernel
// on NumPy data. Sizes are fixed when the C is written (-D NAME=VALUE).
#ifndef TESSEL_LIBS_EMITC_HARNESS_H_
#define TESSEL_LIBS_EMITC_HARNESS_H_

#include <cstdint>
#include <map>
#include <string>

#include "absl/status/statusor.h"
#include "libs/emitc/globals.h"
#include "libs/emitc/uses.h"
#include "libs/ir/node.h"

namespace tessel::emitc {

// The runtime and `main` for `entry`, whose size parameters `sizes` binds
// (every one of them, and nothing else). Entries with index, bool or stride
// parameters, or with data outside @DRAM, are rejected. What main needs at
// file scope is added to `needs`.
absl::StatusOr<std::string> EmitHarness(
    const ir::Module& module, const GlobalNames& globals, const ir::Node& entry,
    const std::map<std::string, int64_t>& sizes, Needs& needs);

}  // namespace tessel::emitc

#endif  // TESSEL_LIBS_EMITC_HARNESS_H_
