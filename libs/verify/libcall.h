// Named library calls run as their definitions (formats/tir/README.md,
// "Named library calls"): the interpreter runs a copy of a function in
// which every call is replaced by its definition's body, the call's value
// operands bound once each by `app` (library.h, ExpandLibCall). The
// verifier types a call the same way (func_verifier.h, InferLibCall).
#ifndef TESSEL_LIBS_VERIFY_LIBCALL_H_
#define TESSEL_LIBS_VERIFY_LIBCALL_H_

#include <functional>
#include <memory>

#include "absl/status/statusor.h"
#include "libs/ir/node.h"

namespace tessel::ir {

// Whether `term` is or holds a named call.
bool HasLibCalls(const Node& term);

// A copy of `func` (a verified Func) as the only form of a module of its
// own, with every named call replaced by its definition, level by level
// (a definition's body may call others), and verified again. A call for
// which `keep` (if given) holds stays a call (bufferize keeps those that
// have a loop-level instruction).
absl::StatusOr<std::unique_ptr<Module>> ExpandLibCalls(
    const Node& func,
    const std::function<bool(const Node& call)>& keep = nullptr);

}  // namespace tessel::ir

#endif  // TESSEL_LIBS_VERIFY_LIBCALL_H_
