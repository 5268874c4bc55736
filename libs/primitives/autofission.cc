#include "libs/primitives/autofission.h"

#include "libs/primitives/fission.h"

namespace tessel::primitives {

absl::StatusOr<ir::GapCursor> Autofission(ir::Module& module,
                                          const ir::GapCursor& gap,
                                          int64_t n_lifts) {
  if (absl::Status status = gap.status(); !status.ok()) return status;
  int64_t loops = 0;
  for (const ir::Node* at = gap.owner();
       loops < n_lifts && at != nullptr && at->is(ir::Op::kFor);
       at = at->parent()) {
    ++loops;
  }
  if (loops == 0) {
    return absl::InvalidArgumentError("autofission: the gap is in no loop");
  }
  return Fission(module, gap, loops);
}

namespace {

absl::Status Run(Target& target, const Args& args) {
  return Autofission(target.module, args["gap"].gap, args["n_lifts"].int_value)
      .status();
}

}  // namespace

PrimitiveSpec AutofissionSpec() {
  return {"autofission",
          {{"gap", ArgKind::kGap, {}}, {"n_lifts", ArgKind::kInt, "1"}},
          &Run};
}

}  // namespace tessel::primitives
