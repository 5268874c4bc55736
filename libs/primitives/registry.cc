// Registry::Builtin: every primitive of this package. A new primitive adds
// its spec here.
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <string>

#include "absl/status/status.h"
#include "libs/primitives/cut_loop.h"
#include "libs/primitives/divide_loop.h"
#include "libs/primitives/eliminate_dead_code.h"
#include "libs/primitives/primitive.h"
#include "libs/primitives/rewrite_expr.h"
#include "libs/primitives/shift_loop.h"
#include "libs/primitives/simplify_expr.h"
#include "libs/primitives/specialize.h"
#include "libs/primitives/unroll_loop.h"

namespace tessel::primitives {

const Registry& Registry::Builtin() {
  static const Registry* const registry = [] {
    auto* r = new Registry;
    for (PrimitiveSpec (*spec)() : std::initializer_list<PrimitiveSpec (*)()>{
             // Each primitive's XSpec(), in Exo's API order.
             // --- H17
             &SimplifySpec,
             &DivideLoopSpec,
             &UnrollLoopSpec,
             &CutLoopSpec,
             &ShiftLoopSpec,
             &EliminateDeadCodeSpec,
             &SpecializeSpec,
             &RewriteExprSpec,
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
