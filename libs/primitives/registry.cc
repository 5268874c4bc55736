// Registry::Builtin: every primitive of this package. A new primitive adds
// its spec here.
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <string>

#include "absl/status/status.h"
#include "libs/primitives/bind_config.h"
#include "libs/primitives/call_eqv.h"
#include "libs/primitives/delete_buffer.h"
#include "libs/primitives/delete_config.h"
#include "libs/primitives/divide_dim.h"
#include "libs/primitives/expand_dim.h"
#include "libs/primitives/inline.h"
#include "libs/primitives/primitive.h"
#include "libs/primitives/rearrange_dim.h"
#include "libs/primitives/replace.h"
#include "libs/primitives/resize_dim.h"
#include "libs/primitives/reuse_buffer.h"
#include "libs/primitives/set_memory.h"
#include "libs/primitives/set_precision.h"
#include "libs/primitives/stage_mem.h"
#include "libs/primitives/unroll_buffer.h"
#include "libs/primitives/write_config.h"

namespace tessel::primitives {

const Registry& Registry::Builtin() {
  static const Registry* const registry = [] {
    auto* r = new Registry;
    for (PrimitiveSpec (*spec)() : std::initializer_list<PrimitiveSpec (*)()>{
             // Each primitive's XSpec(), in Exo's API order.
             // --- H18
             StageMemSpec,
             ReplaceSpec,
             CallSiteMemAwareReplaceSpec,
             SetMemorySpec,
             SetPrecisionSpec,
             DeleteBufferSpec,
             ReuseBufferSpec,
             ExpandDimSpec,
             ResizeDimSpec,
             DivideDimSpec,
             RearrangeDimSpec,
             UnrollBufferSpec,
             BindConfigSpec,
             DeleteConfigSpec,
             WriteConfigSpec,
             InlineSpec,
             CallEqvSpec,
         }) {
      if (absl::Status status = r->Add(spec()); !status.ok()) {
        std::fprintf(stderr, "internal error: %s\n",
                     std::string(status.message()).c_str());
        std::abort();
      }
    }
    return r;
  }();
  return *registry;
}

}  // namespace tessel::primitives
