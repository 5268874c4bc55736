#include "libs/primitives/sink_alloc.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/effects/effects.h"
#include "libs/ir/build.h"
#include "libs/ir/edit.h"
#include "libs/ir/views.h"
#include "libs/primitives/loop_support.h"

namespace tessel::primitives {

using ir::Node;

namespace {

absl::Status CheckPrivatePerIteration(Node& alloc, Node& loop) {
  effects::ProcAnalysis analysis(*ir::FormOf(&loop));
  const poly::ProcModel& model = analysis.model();
  ir::ForView view(loop);
  auto body = effects::EffectsOf(model, view.body());
  if (!body.ok()) return body.status();
  auto read =
      effects::FindReadFromEarlierIteration(model, loop, *body, alloc.name());
  if (!read.ok()) return read.status();
  if (read->has_value()) {
    return absl::FailedPreconditionError(
        absl::StrCat("sink_alloc: '", alloc.name(),
                     "' carries values from one iteration of '", view.var(),
                     "' to the next: ", **read));
  }
  return absl::OkStatus();
}

// Moves `alloc` to the start of `block` (a then or else); references to
// it inside the block go to the copy when `copy` is set.
void SinkInto(ir::Module& module, Node& alloc, Node& block, bool copy) {
  Node* moved = &alloc;
  if (copy) {
    moved = module.Clone(&alloc);
    Node* ref = ir::Build::Ref(module, *moved);
    for (Node* stmt :
         std::vector<Node*>(ir::Body(block).begin(), ir::Body(block).end())) {
      ir::Substitute(module, stmt, &alloc, *ref);
    }
  }
  ir::GapCursor::Start(module, block).Insert(moved);
}

}  // namespace

absl::StatusOr<ir::Cursor> SinkAlloc(ir::Module& module,
                                     const ir::Cursor& alloc) {
  if (absl::Status status = alloc.status(); !status.ok()) return status;
  Node* node = alloc.node();
  if (!node->is(ir::Op::kAlloc)) {
    return absl::InvalidArgumentError("sink_alloc: expected an alloc");
  }
  ir::Cursor scope = alloc.next();
  if (!scope.is_valid() ||
      !(scope->is(ir::Op::kFor) || scope->is(ir::Op::kIf))) {
    return absl::InvalidArgumentError(
        "sink_alloc: the alloc must be followed by a loop or an if");
  }
  for (ir::Cursor after = scope.next(); after.is_valid();
       after = after.next()) {
    if (Uses(*after.node(), *node)) {
      return absl::FailedPreconditionError(absl::StrCat(
          "sink_alloc: '", node->name(), "' is used after the scope"));
    }
  }
  if (scope->is(ir::Op::kFor)) {
    if (absl::Status status = CheckPrivatePerIteration(*node, *scope.node());
        !status.ok()) {
      return status;
    }
    module.Detach(node);
    ir::GapCursor::Start(module, *scope.node()).Insert(node);
    return alloc;
  }
  ir::IfView view(*scope.node());
  std::vector<Node*> users;
  for (Node* block : {view.then_block(), view.else_block()}) {
    if (block != nullptr && Uses(*block, *node)) users.push_back(block);
  }
  module.Detach(node);
  if (users.empty()) users.push_back(view.then_block());
  for (size_t i = users.size(); i-- > 0;) {
    SinkInto(module, *node, *users[i], i > 0);
  }
  return alloc;
}

namespace {

absl::Status Run(Target& target, const Args& args) {
  return SinkAlloc(target.module, args["alloc"].cursor).status();
}

}  // namespace

PrimitiveSpec SinkAllocSpec() {
  return {"sink_alloc", {{"alloc", ArgKind::kAlloc, {}}}, &Run};
}

}  // namespace tessel::primitives
