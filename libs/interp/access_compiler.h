// Compiles access-pattern terms (formats/tir/README.md, "Access patterns";
// Glenside's transformers and `compute`) into kAccessPattern terms: the
// form's literal operands (a permutation, window shapes, a dimension) and
// the access/compute splits the evaluator needs, from the IR and the
// operands' elaborated Access types. Internal to libs/interp.
#ifndef TESSEL_LIBS_INTERP_ACCESS_COMPILER_H_
#define TESSEL_LIBS_INTERP_ACCESS_COMPILER_H_

#include "absl/status/statusor.h"
#include "libs/interp/tensor_program.h"
#include "libs/ir/node.h"

namespace tessel {
namespace tensor {

// `node` is an access-pattern form (OpClass::kAccess); `term` has its
// `where` and `type` set.
absl::StatusOr<Term> CompileAccessPattern(const ir::Node& node, Term term);

}  // namespace tensor
}  // namespace tessel

#endif  // TESSEL_LIBS_INTERP_ACCESS_COMPILER_H_
