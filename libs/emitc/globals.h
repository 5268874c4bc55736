// The C names of a module's global entities. Procedures and configurations
// are declared at file scope, so they are named first, away from C's
// reserved identifiers and from every identifier the module's templates
// refer to (`mvin`, `hw_malloc`, ...); locals then avoid all of these.
#ifndef TESSEL_LIBS_EMITC_GLOBALS_H_
#define TESSEL_LIBS_EMITC_GLOBALS_H_

#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "libs/ir/module.h"

namespace tessel::emitc {

struct GlobalNames {
  // TIR name (with '@') -> C identifier, for every `proc` and `config`.
  absl::flat_hash_map<std::string, std::string> procedures;
  absl::flat_hash_map<std::string, std::string> configs;
  // Configuration -> field -> C member name.
  absl::flat_hash_map<std::string,
                      absl::flat_hash_map<std::string, std::string>>
      fields;
  // Every identifier above plus those the templates name.
  absl::flat_hash_set<std::string> taken;
};

GlobalNames AssignGlobalNames(const Module& module);

}  // namespace tessel::emitc

#endif  // TESSEL_LIBS_EMITC_GLOBALS_H_
