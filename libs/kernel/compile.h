// The kernel front end in one call: parse, check and lower every kernel of
// a source file.
#ifndef TESSEL_LIBS_KERNEL_COMPILE_H_
#define TESSEL_LIBS_KERNEL_COMPILE_H_

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "libs/sexpr/sexpr.h"
#include "libs/support/source.h"

namespace tessel::kernel {

enum class EmitLevel {
  kLoops,  // one `proc` per kernel
  kTerms,  // one `func` per kernel
};

// Parses, checks and lowers the kernels of `source` one at a time (holding
// one kernel's syntax and form, not the file's), handing each kernel's TIR
// form to `emit` in file order. Sizes are bound by `sizes` (from -D); the
// sizes the kernels use go to `sizes_used` if given. Errors are reported
// as when the whole text is parsed, then every kernel checked, then each
// lowered: a lexical or syntax error anywhere first, then the first kernel
// that does not check, then the first kernel that lowers deeper than TIR
// allows (kMaxSexprDepth) or whose form `emit` rejects.
absl::Status CompileEachKernel(const SourceRef& source,
                               const std::map<std::string, int64_t>& sizes,
                               EmitLevel level,
                               std::set<std::string>* sizes_used,
                               absl::FunctionRef<absl::Status(Sexpr)> emit);

// The TIR forms of the kernels in `source`, in file order, with sizes bound
// by `sizes` (from -D). A kernel whose lowering would nest deeper than TIR
// allows (kMaxSexprDepth) is an error. The sizes the kernels use go to
// `sizes_used` if given; the others are ignored.
absl::StatusOr<std::vector<Sexpr>> CompileKernels(
    const SourceRef& source, const std::map<std::string, int64_t>& sizes,
    EmitLevel level, std::set<std::string>* sizes_used = nullptr);

}  // namespace tessel::kernel

#endif  // TESSEL_LIBS_KERNEL_COMPILE_H_
