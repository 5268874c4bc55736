// Semantic checks of the kernel language: resolves names and sizes, puts
// indices in affine form, types values, and enforces the rules of
// formats/kernel/README.md ("Checks"). The result is what the lowerings
// consume.
#ifndef TESSEL_LIBS_KERNEL_SEMA_H_
#define TESSEL_LIBS_KERNEL_SEMA_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "libs/kernel/ast.h"
#include "libs/kernel/kernel.h"

namespace tessel::poly {
class Context;
}  // namespace tessel::poly

namespace tessel::kernel {

// Words that cannot name a kernel, tensor or domain variable: the kernel
// language's keywords and functions, element types, and the words of TIR
// that a name would be confused with once lowered (`for`, `select`, `inf`).
bool IsReservedName(absl::string_view name);

// Checks the kernels of a program one at a time, in file order (a kernel
// named as an earlier one is an error), with the sizes given by -D; the
// first error of a kernel is returned as a located diagnostic. Sizes no
// kernel uses are not an error here (Kernel::sizes says which are used).
class ProgramChecker {
 public:
  explicit ProgramChecker(const std::map<std::string, int64_t>& sizes);
  ~ProgramChecker();
  ProgramChecker(const ProgramChecker&) = delete;
  ProgramChecker& operator=(const ProgramChecker&) = delete;

  absl::StatusOr<Kernel> Check(const ast::Kernel& decl);

 private:
  const std::map<std::string, int64_t>& sizes_;
  std::unique_ptr<poly::Context> ctx_;
  absl::flat_hash_map<std::string, Location> names_;
};

// Checks every kernel of `program` with the sizes given by -D; the first
// error is returned as a located diagnostic. Sizes no kernel uses are not
// an error here (Kernel::sizes says which are used).
absl::StatusOr<std::vector<Kernel>> CheckProgram(
    const ast::Program& program, const std::map<std::string, int64_t>& sizes);

}  // namespace tessel::kernel

#endif  // TESSEL_LIBS_KERNEL_SEMA_H_
