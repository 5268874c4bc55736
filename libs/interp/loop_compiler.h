// Compiles the loop level of a verified module (loop_program.h): the entry
// procedure and every procedure and instruction it calls, once each. Names
// are the IR's (a Ref's binder, a Call's callee) and types its elaboration
// (Node::type), so compilation only chooses opcodes and frame slots; what it
// finds that verification rules out is an internal error, never a guess.
// Internal to libs/interp.
#ifndef TESSEL_LIBS_INTERP_LOOP_COMPILER_H_
#define TESSEL_LIBS_INTERP_LOOP_COMPILER_H_

#include <memory>

#include "absl/status/statusor.h"
#include "libs/interp/loop_program.h"
#include "libs/ir/node.h"

namespace tessel {
namespace loop {

// `entry` is a Proc of `module`.
absl::StatusOr<std::unique_ptr<LoopProgram>> CompileLoopProgram(
    const ir::Module& module, const ir::Node& entry);

}  // namespace loop
}  // namespace tessel

#endif  // TESSEL_LIBS_INTERP_LOOP_COMPILER_H_
