// The values of access-pattern terms (docs/run-sim.md, "Access patterns"):
// an access pattern of shape ((a...) (c...)) is the dense row-major array of
// shape (a... c...), so transformers move elements between such arrays and
// `compute` applies its operator to the compute dimensions of every access
// position. Arithmetic is scalar.h's, as everywhere in the interpreter.
// Internal to libs/interp.
#ifndef TESSEL_LIBS_INTERP_ACCESS_EVALUATOR_H_
#define TESSEL_LIBS_INTERP_ACCESS_EVALUATOR_H_

#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "libs/interp/tensor_program.h"

namespace tessel {
namespace tensor {

// An operand: `shape` elements of `elem`, row-major, at `data` (a scalar has
// no dimensions).
struct DenseArray {
  ElemType elem = ElemType::kF32;
  const uint8_t* data = nullptr;
  const std::vector<int64_t>* shape = nullptr;
};

// Writes the value of the kAccessPattern `term` on `args` (one per operand
// of term.args) to `out`, room for the elements of term.type.
void EvaluateAccessPattern(const Term& term, absl::Span<const DenseArray> args,
                           uint8_t* out);

}  // namespace tensor
}  // namespace tessel

#endif  // TESSEL_LIBS_INTERP_ACCESS_EVALUATOR_H_
