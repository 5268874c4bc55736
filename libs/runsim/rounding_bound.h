// The rounding bound of run-sim's float comparisons: how far apart two
// correct evaluations of one kernel may lie when they round differently (a
// tiled or vectorized matmul sums in another order, a fused multiply-add
// rounds once where a multiply and an add round twice).
//
// Any evaluation of a sum of n products, in any order and grouping, with or
// without fused multiply-adds, lies within gamma_n * S of the exact sum, where
// gamma_n = n u / (1 - n u), u is the element type's unit roundoff and S the
// sum of the products' absolute values (Higham, "Accuracy and Stability of
// Numerical Algorithms", 2nd ed., section 3.1). Two such evaluations lie
// within 2 gamma_n S of each other, however far that is from allclose's
// rtol when the sum cancels.
//
// run-sim finds S and n for every output element by running the reference
// twice more, rewritten (RewriteForMagnitudes): once on the inputs'
// absolute values with every float subtraction an addition, every negation
// dropped and every literal its absolute value (S); once on inputs of 1
// with every nonzero float literal 1 (n, the number of products summed).
// Integer inputs are kept (they are indices and sizes as often as data); an
// integer made a float is a term of its absolute value, counted once.
// A product of two factors rounds once and each of the n - 1 additions
// that sum it with the others once more (an addition to the 0 an
// accumulator starts from is exact), so no term meets more than n
// roundings: the bound is rigorous for +, -, *, fused multiply-adds, max
// and min over sums of such products, and over longer products wherever
// the sum has as many terms as its products have factors (2mm's
// (A B) C); through a division or a select on a float condition it is an
// estimate.
#ifndef TESSEL_LIBS_RUNSIM_ROUNDING_BOUND_H_
#define TESSEL_LIBS_RUNSIM_ROUNDING_BOUND_H_

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/interp/interpreter.h"
#include "libs/ir/node.h"
#include "libs/npy/host_tensor.h"
#include "libs/runsim/bind_inputs.h"

namespace tessel::runsim {

// What a rewritten run computes for every output element.
enum class Magnitude {
  kAbsoluteSum,  // S: the sum of the products' absolute values
  kTermCount,    // n: how many products are summed
};

// Rewrites every float computation of `module` (verified) to compute
// `magnitude` from inputs mapped by MapInputsForMagnitude.
void RewriteForMagnitudes(ir::Module& module, Magnitude magnitude);

// Replaces every float element of `tensors` by its absolute value
// (kAbsoluteSum) or by 1 (kTermCount). Integers are kept: they are indices
// and sizes as often as data.
void MapInputsForMagnitude(TensorMap& tensors, Magnitude magnitude);

// Per element of an output, 2 gamma_n S from the two rewritten runs'
// outputs (same type and shape); NaN where no bound holds (S or n is not
// finite, or n u >= 1).
std::vector<double> RoundingBounds(const HostTensor& absolute_sums,
                                   const HostTensor& term_counts);

// The rounding bound of every output of `entry_name` in `module`'s source,
// run on the inputs `source` gives (as the reference was).
absl::StatusOr<std::map<std::string, std::vector<double>>>
ComputeRoundingBounds(const ir::Module& module, const std::string& entry_name,
                      InputSource& source,
                      const std::map<std::string, int64_t>& defines,
                      bool batching);

}  // namespace tessel::runsim

#endif  // TESSEL_LIBS_RUNSIM_ROUNDING_BOUND_H_
