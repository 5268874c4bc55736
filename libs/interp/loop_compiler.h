// Compiles the loop level of a module (loop_program.h): the entry procedure
// and every procedure and instruction it calls, once each. Besides building
// the tree, compilation checks what it relies on (names bound to the right
// kind of value, ranks, element types, that `in` data is never written, no
// recursion), so that the interpreter also rejects unverified input with a
// diagnostic instead of misbehaving. Internal to libs/interp.
#ifndef TESSEL_LIBS_INTERP_LOOP_COMPILER_H_
#define TESSEL_LIBS_INTERP_LOOP_COMPILER_H_

#include <memory>

#include "absl/status/statusor.h"
#include "libs/interp/loop_program.h"
#include "libs/ir/module.h"

namespace tessel {
namespace loop {

absl::StatusOr<std::unique_ptr<LoopProgram>> CompileLoopProgram(
    const Module& module, const Procedure& entry);

}  // namespace loop
}  // namespace tessel

#endif  // TESSEL_LIBS_INTERP_LOOP_COMPILER_H_
