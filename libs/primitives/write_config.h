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
// tracks the procedure as equivalent only modulo the configuration. Here
// no read in the procedure may see a changed value (config_state.h): the
// field already holds rhs there, or the value is dead in the procedure; a
// value live at its end makes the procedure declare the field clobbered
// (`(clobbers config field)`, formats/tir/README.md), and every caller in
// the module is verified against the declaration (none may read the field
// after the call before writing it). The verifier checks rhs's type
// against the field's.
absl::Status WriteConfig(ir::Module& module, const ir::GapCursor& gap_cursor,
                         const ir::Node& config, const std::string& field,
                         const ir::Node& rhs);

PrimitiveSpec WriteConfigSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_WRITE_CONFIG_H_
