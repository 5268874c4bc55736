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

absl::Status CompileEachKernel(
    const SourceRef& source, const std::map<std::string, int64_t>& sizes,
    EmitLevel level, std::set<std::string>* sizes_used,
    absl::FunctionRef<absl::Status(Sexpr)> emit) {
  KernelParser parser(source);
  ProgramChecker checker(sizes);
  // The first kernel that does not check, and the first that does not lower
  // or that `emit` rejects: reported after the whole text is parsed (the
  // parser's errors come first), the first one before the second.
  absl::Status check_error;
  absl::Status lower_error;
  bool any = false;
  while (true) {
    auto decl = parser.Next();
    if (!decl.ok()) return decl.status();
    if (!decl->has_value()) break;
    any = true;
    if (!check_error.ok()) continue;
    auto kernel = checker.Check(**decl);
    if (!kernel.ok()) {
      check_error = kernel.status();
      continue;
    }
    if (!lower_error.ok()) continue;
    if (sizes_used != nullptr) {
      sizes_used->insert(kernel->sizes.begin(), kernel->sizes.end());
    }
    Sexpr form = level == EmitLevel::kLoops ? LowerToLoops(*kernel)
                                            : LowerToTerms(*kernel);
    if (int depth = Depth(form); depth > kMaxSexprDepth) {
      lower_error = ErrorAt(
          kernel->loc,
          absl::StrCat("kernel '", kernel->name,
                       "' lowers to TIR "
                       "nested ",
                       depth, " deep, more than the ", kMaxSexprDepth,
                       " TIR allows; split it into smaller "
                       "kernels"));
      continue;
    }
    lower_error = emit(std::move(form));
  }
  if (!check_error.ok()) return check_error;
  if (!any) {
    return ErrorAt(Location{source, 0, 0},
                   "no kernel in the input; expected 'kernel NAME(...) -> "
                   "(...) { ... }'");
  }
  return lower_error;
}

absl::StatusOr<std::vector<Sexpr>> CompileKernels(
    const SourceRef& source, const std::map<std::string, int64_t>& sizes,
    EmitLevel level, std::set<std::string>* sizes_used) {
  std::vector<Sexpr> forms;
  if (auto status = CompileEachKernel(source, sizes, level, sizes_used,
                                      [&](Sexpr form) {
                                        forms.push_back(std::move(form));
                                        return absl::OkStatus();
                                      });
      !status.ok()) {
    return status;
  }
  return forms;
}

}  // namespace tessel::kernel
