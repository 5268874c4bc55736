#include "libs/primitives/parallelize_loop.h"

#include "absl/strings/str_cat.h"
#include "libs/verify/parallel.h"

namespace tessel::primitives {

// The loop is edited in place: no node is made, so the module is not asked.
absl::StatusOr<ir::Cursor> ParallelizeLoop(ir::Module& /*module*/,
                                           const ir::Cursor& loop_cursor) {
  if (absl::Status status = loop_cursor.status(); !status.ok()) {
    return status;
  }
  ir::Node& loop = *loop_cursor.node();
  if (!loop.is(ir::Op::kFor)) {
    return absl::InvalidArgumentError("parallelize_loop: expected a loop");
  }
  if (absl::Status status = ir::CheckParallelLoop(loop); !status.ok()) {
    return absl::Status(status.code(),
                        absl::StrCat("parallelize_loop: ", status.message()));
  }
  loop.set_parallel(true);
  return loop_cursor;
}

PrimitiveSpec ParallelizeLoopSpec() {
  return {"parallelize_loop",
          {{"loop_cursor", ArgKind::kLoop, {}}},
          [](Target& target, const Args& args) {
            return ParallelizeLoop(target.module, args["loop_cursor"].cursor)
                .status();
          }};
}

}  // namespace tessel::primitives
