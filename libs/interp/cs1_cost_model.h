// The CS-1 cost model (targets/cs1/cycles.model), compiled in by
// //libs/interp:cs1_cost_model.
#ifndef TESSEL_LIBS_INTERP_CS1_COST_MODEL_H_
#define TESSEL_LIBS_INTERP_CS1_COST_MODEL_H_

#include <span>

#include "libs/support/embedded_file.h"

namespace tessel::cs1 {

std::span<const tessel::EmbeddedFile> CostModelFiles();

}  // namespace tessel::cs1

#endif  // TESSEL_LIBS_INTERP_CS1_COST_MODEL_H_
