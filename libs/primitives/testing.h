// For the primitives' tests: a procedure read from text, a rewrite
// applied, and the result checked three ways: it verifies, it prints as
// expected and reads back, and it computes what the original computes
// (run-sim's comparison on seeded inputs). Cursors are found as a
// schedule's patterns would find them, without the schedule reader.
#ifndef TESSEL_LIBS_PRIMITIVES_TESTING_H_
#define TESSEL_LIBS_PRIMITIVES_TESTING_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "libs/ir/cursor.h"
#include "libs/ir/node.h"
#include "libs/ir/op.h"

namespace tessel::primitives::testing {

// Values of a procedure's size parameters (run-sim's -D).
using Sizes = std::map<std::string, int64_t>;

// A verified module read from `text` as m.tir; the test fails (and the
// module is empty) when it does not read.
ir::Module ReadVerified(const std::string& text);

// The proc or instr `@name` of `module` (the test fails when there is
// none).
ir::Node& ProcNamed(ir::Module& module, const std::string& name);

// `module`'s canonical text.
std::string Print(const ir::Module& module);

// Runs the entry of `before` (a module's text) and of `after` on the same
// seeded inputs, for seeds 1 to 3, with `defines` for size parameters,
// and returns run-sim's error when an output differs (or either fails).
absl::Status SameValues(const std::string& before, const ir::Module& after,
                        const Sizes& defines = {});

// Reads `text` (its last form is the proc rewritten) and runs `rewrite` on
// it. Accepted: the proc verifies (ir::VerifyProc), its printed text reads
// back, and it computes what the original computes with each of `runs`
// (SameValues); the module's printed text is returned. Rejected: the
// module is unchanged and the error is returned. Test failures otherwise.
absl::StatusOr<std::string> Rewrite(
    const std::string& text,
    absl::FunctionRef<absl::Status(ir::Module&, ir::Node& proc)> rewrite,
    const std::vector<Sizes>& runs = {Sizes()});

// What a test compares a rewrite's outcome with: the printed module when
// it was accepted, the error's message when it was rejected.
std::string Outcome(const absl::StatusOr<std::string>& result);

// The literal `offset`, plus a reference to `proc`'s first parameter (a
// size) when `plus_first`: a point such as `n - 1` built in memory.
ir::Node* OffsetPoint(ir::Module& module, const ir::Node& proc, int64_t offset,
                      bool plus_first);

// The `n`-th (from 0) node of op `op` under `root`, in program order.
ir::Node& Nth(ir::Node& root, ir::Op op, int n = 0);

// The statement reached from `proc`'s body by `path`: a statement's
// position in each body, outermost first.
ir::Cursor StmtAt(ir::Module& module, ir::Node& proc,
                  const std::vector<size_t>& path);

// The outcome (as Outcome) of `primitive` on the statement at `path` of the
// proc of `text`, checked as Rewrite checks it at the literal sizes.
std::string OutcomeAt(
    const std::string& text, const std::vector<size_t>& path,
    absl::FunctionRef<absl::Status(ir::Module&, const ir::Cursor&)> primitive);

// The first alloc, loop or parameter of `proc` named `name`, in program
// order (the test fails when there is none).
ir::Cursor DeclNamed(ir::Module& module, ir::Node& proc,
                     const std::string& name);

}  // namespace tessel::primitives::testing

#endif  // TESSEL_LIBS_PRIMITIVES_TESTING_H_
