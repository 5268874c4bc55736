// write_config (Exo's API_scheduling.write_config): a configuration write
// inserted where it changes nothing.
#ifndef TESSEL_LIBS_PRIMITIVES_WRITE_CONFIG_H_
#define TESSEL_LIBS_PRIMITIVES_WRITE_CONFIG_H_

#include <string>

#include "absl/status/status.h"
#include "libs/ir/cursor.h"
#include "libs/ir/node.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Inserts `(write-config config field rhs)` at `gap_cursor` (`rhs` a
// detached tree in the scope of the gap). Exo accepts any such write and
// tracks the procedure as equivalent only modulo the configuration; this
// module has no such provenance, so the write must be unobservable
// (config_state.h): the field already holds rhs there, or the value is
// dead. The verifier checks rhs's type against the field's.
absl::Status WriteConfig(ir::Module& module, const ir::GapCursor& gap_cursor,
                         const ir::Node& config, const std::string& field,
                         const ir::Node& rhs);

PrimitiveSpec WriteConfigSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_WRITE_CONFIG_H_
