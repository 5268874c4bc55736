#include "libs/primitives/replace_all.h"

#include <cstddef>
#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/ir/cursor.h"
#include "libs/ir/edit.h"
#include "libs/ir/forms.h"
#include "libs/primitives/replace.h"

namespace tessel::primitives {

using ir::Node;

namespace {

// The statements of `proc` of op `op`, in program order.
std::vector<Node*> StatementsOfOp(ir::Module& module, Node& proc, ir::Op op) {
  std::vector<Node*> found;
  ir::Walk(proc, [&](Node& node) {
    if (node.is(op) && ir::Cursor(module, &node).is_statement()) {
      found.push_back(&node);
    }
  });
  return found;
}

}  // namespace

absl::StatusOr<int> ReplaceAll(ir::Module& module, Node& proc,
                               const Node& subproc, bool mem_aware) {
  absl::Span<Node* const> body = ir::BodyOf(subproc);
  if (body.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "replace_all: the body of ", subproc.name(), " is empty"));
  }
  const ir::Op first = body.front()->op();
  int replaced = 0;
  // The i-th candidate in program order; a replaced block is a call now,
  // so the next candidate takes its index (unless the body opens with a
  // call, whose replacement would be a candidate again).
  for (size_t i = 0;;) {
    std::vector<Node*> candidates = StatementsOfOp(module, proc, first);
    if (i >= candidates.size()) break;
    ir::BlockCursor block =
        ir::Cursor(module, candidates[i]).as_block().Expand(0, body.size() - 1);
    bool done = block.is_valid() && block.size() == body.size() &&
                (mem_aware ? CallSiteMemAwareReplace(module, block, subproc)
                           : Replace(module, block, subproc))
                    .ok();
    if (done) ++replaced;
    if (!done || first == ir::Op::kCall) ++i;
  }
  return replaced;
}

PrimitiveSpec ReplaceAllSpec() {
  return {"replace_all",
          {{"subprocs", ArgKind::kInstr, std::nullopt},
           {"mem_aware", ArgKind::kBool, "True"}},
          [](Target& target, const Args& args) {
            return ReplaceAll(target.module, target.proc,
                              *args["subprocs"].form,
                              args["mem_aware"].bool_value)
                .status();
          }};
}

}  // namespace tessel::primitives
