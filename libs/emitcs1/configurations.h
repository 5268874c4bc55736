// The SIMD configurations of a CS-1 module (docs/emit-cs1.md): the literal
// part of its `dsd`s, (EXTENT STRIDE) per dimension, each distinct one
// numbered once, so that a PE configures its SIMD engine once per shape
// when it starts and an instruction names the configuration by its id
// (Verdoolaege et al., IMPACT 2020, section 5).
#ifndef TESSEL_LIBS_EMITCS1_CONFIGURATIONS_H_
#define TESSEL_LIBS_EMITCS1_CONFIGURATIONS_H_

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/ir/node.h"

namespace tessel::emitcs1 {

// (extent, stride) per dimension of a dsd, outermost first.
using DescriptorShape = std::vector<std::pair<int64_t, int64_t>>;

DescriptorShape ShapeOf(const ir::Node& dsd);

// What cs1_api.h's SIMD engine holds (CS1_MAX_CONFIGS).
inline constexpr int kMaxConfigurations = 64;

class Configurations {
 public:
  // The distinct shapes of the dsds of `module`'s procs and pe-programs,
  // numbered in the order they first appear; more than kMaxConfigurations
  // is an error at the first dsd that does not fit.
  static absl::StatusOr<Configurations> Collect(const ir::Module& module);

  // The id of the shape of `dsd`, a dsd of the module.
  int IdOf(const ir::Node& dsd) const { return ids_.at(ShapeOf(dsd)); }
  // The shapes by id.
  const std::vector<DescriptorShape>& shapes() const { return shapes_; }

 private:
  std::map<DescriptorShape, int> ids_;
  std::vector<DescriptorShape> shapes_;
};

}  // namespace tessel::emitcs1

#endif  // TESSEL_LIBS_EMITCS1_CONFIGURATIONS_H_
