// bind_config (Exo's API_scheduling.bind_config): an expression written
// to a configuration field just before its statement, and read from there.
#ifndef TESSEL_LIBS_PRIMITIVES_BIND_CONFIG_H_
#define TESSEL_LIBS_PRIMITIVES_BIND_CONFIG_H_

#include <string>

#include "absl/status/status.h"
#include "libs/ir/cursor.h"
#include "libs/ir/node.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// `s[e]` becomes `(write-config config field e) s[(read-config config
// field)]`, for the expression `var_cursor` in statement s. Checked: s
// writes the field nowhere (the read sees e), and the new write is
// unobservable but for that read (config_state.h), or live only at the end
// of the proc, which then declares the field clobbered (as write_config
// does). The verifier checks the field's type.
absl::Status BindConfig(ir::Module& module, const ir::Cursor& var_cursor,
                        const ir::Node& config, const std::string& field);

PrimitiveSpec BindConfigSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_BIND_CONFIG_H_
