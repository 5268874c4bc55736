#include "libs/kernel/compile.h"

#include "absl/strings/str_cat.h"
#include "libs/kernel/loops.h"
#include "libs/kernel/parser.h"
#include "libs/kernel/sema.h"
#include "libs/kernel/terms.h"
#include "libs/sexpr/reader.h"

namespace tessel::kernel {
namespace {

// Lowered forms are bounded by the checked kernel (expression depth, number
// of variables and statements), so this recursion is too.
int Depth(const Sexpr& form) {
  int depth = 0;
  for (const Sexpr& item : form.items()) {
    if (item.is_list()) depth = std::max(depth, Depth(item));
  }
  return depth + 1;
}

}  // namespace

absl::StatusOr<std::vector<Sexpr>> CompileKernels(
    const SourceRef& source, const std::map<std::string, int64_t>& sizes,
    EmitLevel level, std::set<std::string>* sizes_used) {
  auto program = ParseProgram(source);
  if (!program.ok()) return program.status();
  auto kernels = CheckProgram(*program, sizes);
  if (!kernels.ok()) return kernels.status();
  if (kernels->empty()) {
    return ErrorAt(Location{source, 0, 0},
                   "no kernel in the input; expected 'kernel NAME(...) -> "
                   "(...) { ... }'");
  }
  std::vector<Sexpr> forms;
  for (const Kernel& kernel : *kernels) {
    if (sizes_used != nullptr) {
      sizes_used->insert(kernel.sizes.begin(), kernel.sizes.end());
    }
    Sexpr form = level == EmitLevel::kLoops ? LowerToLoops(kernel)
                                            : LowerToTerms(kernel);
    if (int depth = Depth(form); depth > kMaxSexprDepth) {
      return ErrorAt(
          kernel.loc,
          absl::StrCat("kernel '", kernel.name,
                       "' lowers to TIR "
                       "nested ",
                       depth, " deep, more than the ", kMaxSexprDepth,
                       " TIR allows; split it into smaller "
                       "kernels"));
    }
    forms.push_back(std::move(form));
  }
  return forms;
}

}  // namespace tessel::kernel
