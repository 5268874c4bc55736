// The C names of a module's global entities. Procedures and configurations
// are declared at file scope, so they are named first, away from C's
// reserved identifiers and from every identifier the module's templates
// refer to (`mvin`, `hw_malloc`, ...); locals then avoid all of these.
#ifndef TESSEL_LIBS_EMITC_GLOBALS_H_
#define TESSEL_LIBS_EMITC_GLOBALS_H_

#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "libs/ir/node.h"

namespace tessel::emitc {

struct GlobalNames {
  // The C identifier of every `proc` and `config` form.
  absl::flat_hash_map<const ir::Node*, std::string> procedures;
  absl::flat_hash_map<const ir::Node*, std::string> configs;
  // The C member of every Field of a config.
  absl::flat_hash_map<const ir::Node*, std::string> fields;
  // Every identifier above plus those the templates name.
  absl::flat_hash_set<std::string> taken;
};

// `reserved`: identifiers the output declares besides the module's (an
// API's), which no global may take.
GlobalNames AssignGlobalNames(
    const ir::Module& module,
    const absl::flat_hash_set<std::string>& reserved = {});

}  // namespace tessel::emitc

#endif  // TESSEL_LIBS_EMITC_GLOBALS_H_
