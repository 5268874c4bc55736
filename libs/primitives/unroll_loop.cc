#include "libs/primitives/unroll_loop.h"

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "libs/ir/build.h"
#include "libs/ir/cursor.h"
#include "libs/ir/edit.h"
#include "libs/ir/node.h"
#include "libs/primitives/simplify_expr.h"

namespace tessel::primitives {

using ir::Build;
using ir::Node;

absl::Status UnrollLoop(ir::Module& module, const ir::Cursor& loop) {
  if (absl::Status status = loop.status(); !status.ok()) return status;
  Node* old = loop.node();
  if (!old->is(ir::Op::kFor)) {
    return absl::InvalidArgumentError("unroll_loop: expected a loop");
  }
  Node* trip =
      SimplifyExpr(module, *Build::Sub(module, module.Clone(old->operand(1)),
                                       module.Clone(old->operand(0))));
  if (!trip->is(ir::Op::kConst)) {
    return absl::InvalidArgumentError(
        absl::StrCat("unroll_loop: the trip count of loop '", old->name(),
                     "' is not a literal"));
  }
  std::vector<Node*> copies;
  absl::Span<Node* const> body = ir::Body(*old);
  for (int64_t k = 0; k < trip->int_value(); ++k) {
    Node* value = Build::Add(module, module.Clone(old->operand(0)),
                             Build::Int(module, k));
    Node* index = SimplifyExpr(module, *value);
    for (const Node* stmt : body) {
      Node* copy = module.Clone(stmt);
      ir::Substitute(module, copy, old, *index);
      if (absl::Status status = Simplify(module, *copy); !status.ok()) {
        return status;
      }
      copies.push_back(copy);
    }
  }
  if (copies.empty()) {
    loop.Delete();
  } else {
    loop.as_block().Replace(copies);
  }
  return absl::OkStatus();
}

namespace {

absl::Status RunUnrollLoop(Target& target, const Args& args) {
  return UnrollLoop(target.module, args["loop_cursor"].cursor);
}

}  // namespace

PrimitiveSpec UnrollLoopSpec() {
  return {"unroll_loop",
          {{"loop_cursor", ArgKind::kLoop, std::nullopt}},
          &RunUnrollLoop};
}

}  // namespace tessel::primitives
