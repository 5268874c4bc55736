// delete_config (Exo's API_scheduling.delete_config): a configuration
// write that changes nothing removed.
#ifndef TESSEL_LIBS_PRIMITIVES_DELETE_CONFIG_H_
#define TESSEL_LIBS_PRIMITIVES_DELETE_CONFIG_H_

#include "absl/status/status.h"
#include "libs/ir/cursor.h"
#include "libs/ir/node.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Deletes the write-config `stmt_cursor` when it is unobservable
// (config_state.h: the field already holds the value, or the value is
// never read before it is written again and is not live at the end, or
// only there and the proc declares the field clobbered).
absl::Status DeleteConfig(ir::Module& module, const ir::Cursor& stmt_cursor);

PrimitiveSpec DeleteConfigSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_DELETE_CONFIG_H_
