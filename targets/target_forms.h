// The targets' instruction libraries as data: the memories, configurations
// and instructions of targets/x86/avx2.tir, targets/x86/avx512.tir,
// targets/gemmini/gemmini.tir, targets/cs1/cs1.tir and
// targets/blas/cblas.tir, compiled into the tools
// (//targets:target_form_sources), so that a schedule's `@mm512_fmadd_ps`
// (or bufferize's `@blas.gemv.N`) finds its instruction though no module
// defines it yet.
#ifndef TESSEL_TARGETS_TARGET_FORMS_H_
#define TESSEL_TARGETS_TARGET_FORMS_H_

#include <span>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "libs/ir/node.h"
#include "targets/libraries.h"

namespace tessel::targets {

// Every target's instruction library, each with its path.
std::span<const EmbeddedFile> TargetFormFiles();

// The form `name` (`@mm512_fmadd_ps`; the `@` may be left out) of
// `module` (a verified module), or else the target libraries' form of that
// name, appended to `module` with the forms it refers to (its memories,
// configurations and the instructions it calls) that the module lacks, and
// verified. The module's nodes are left as they are, so cursors into it stay
// valid; on an error nothing is added. NotFound when no library defines the
// name; FailedPrecondition when the module has a form of a name the imported
// forms use that differs from the library's.
absl::StatusOr<ir::Node*> ImportTargetForm(ir::Module& module,
                                           absl::string_view name);

}  // namespace tessel::targets

#endif  // TESSEL_TARGETS_TARGET_FORMS_H_
