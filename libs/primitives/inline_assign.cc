#include "libs/primitives/inline_assign.h"

#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "libs/ir/edit.h"
#include "libs/ir/forms.h"
#include "libs/primitives/buffer_uses.h"
#include "libs/primitives/write_support.h"

namespace tessel::primitives {

using ir::Node;
using ir::Op;

namespace {

bool WritesConfig(const Node& stmt) {
  return stmt.is(Op::kWriteConfig) || stmt.is(Op::kCall);
}

}  // namespace

absl::Status InlineAssign(ir::Module& module, const ir::Cursor& assign) {
  if (absl::Status status = assign.status(); !status.ok()) return status;
  const Node& stmt = *assign.node();
  if (!stmt.is(Op::kAssign) || !stmt.operand(0)->is(Op::kRef)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "inline_assign expects the assignment of a scalar, not '",
        NodeText(stmt), "'"));
  }
  const Node& scalar = BufferOf(*stmt.operand(0));
  if (!scalar.is(Op::kAlloc) || scalar.parent() != stmt.parent()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "inline_assign: '", scalar.name(),
        "' must be an alloc declared in the body of its assignment, so that "
        "nothing reads it after that body"));
  }
  const Node& value = *stmt.operand(1);
  absl::flat_hash_set<const Node*> read;
  bool reads_config = false;
  ir::AnyNode(value, [&](const Node& node) {
    if (node.is(Op::kRef) && node.def() != nullptr) {
      read.insert(&RootOf(*node.def()));
    }
    reads_config |= node.is(Op::kReadConfig);
    return false;
  });
  std::vector<Node*> after;
  for (ir::Cursor next = assign.next(); next.is_valid(); next = next.next()) {
    after.push_back(next.node());
  }
  for (Node* later : after) {
    absl::Status status = absl::OkStatus();
    ir::Walk(*later, [&](Node& node) {
      if (!status.ok()) return;
      for (const Node* buffer : WrittenBuffers(node)) {
        if (buffer == &scalar || read.contains(&RootOf(*buffer))) {
          status = absl::FailedPreconditionError(absl::StrCat(
              "inline_assign: '", NodeText(node), "' may write '",
              buffer->name(), "', which ",
              buffer == &scalar ? "the inlined statements read"
                                : "the value reads"));
          return;
        }
      }
      if (reads_config && WritesConfig(node)) {
        status = absl::FailedPreconditionError(absl::StrCat(
            "inline_assign: '", NodeText(node),
            "' may write the configuration the value reads"));
      }
    });
    if (!status.ok()) return status;
  }
  for (Node* later : after) {
    ir::Cursor at(module, later);
    at.Replace(ir::Substitute(module, module.Clone(later), &scalar, value));
  }
  assign.Delete();
  return absl::OkStatus();
}

PrimitiveSpec InlineAssignSpec() {
  return {"inline_assign",
          {{"alloc_cursor", ArgKind::kStmt, std::nullopt}},
          [](Target& target, const Args& args) {
            return InlineAssign(target.module, args["alloc_cursor"].cursor);
          }};
}

}  // namespace tessel::primitives
