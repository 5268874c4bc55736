#include "libs/primitives/inline_copy.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/ir/edit.h"
#include "libs/ir/forms.h"
#include "libs/ir/views.h"
#include "libs/primitives/buffer_uses.h"
#include "libs/primitives/transaction.h"
#include "libs/primitives/write_support.h"

namespace tessel::primitives {

using ir::Node;
using ir::Op;

namespace {

// The copy into `buffer`: its nest's loops, outermost first, for each of
// the buffer's dimensions the loop that indexes it, and the assignment.
struct Copy {
  std::vector<Node*> loop_of_dim;
  const Node* assign = nullptr;
};

absl::Status NotACopy(const Node& buffer, const Node& stmt,
                      absl::string_view why) {
  return absl::FailedPreconditionError(absl::StrCat(
      "inline_copy: '", buffer.name(), "' must be followed by its copy, a ",
      "nest of loops around '(assign (", buffer.name(),
      " v...) (T e...))' that writes all of it; '", NodeText(stmt), "' ", why));
}

// Whether the loop bound `hi` is the extent `dim`, as written.
bool IsExtent(const Node& hi, const ir::Dim& dim) {
  if (dim.is_constant()) {
    return hi.is(Op::kConst) && !hi.is_float_literal() &&
           hi.int_value() == dim.value;
  }
  return NodeText(hi) == NodeText(*dim.expr);
}

absl::StatusOr<Copy> CopyInto(const Node& buffer, Node& stmt) {
  std::vector<Node*> loops;
  Node* node = &stmt;
  while (node->is(Op::kFor)) {
    ir::ForView loop(*node);
    if (!loop.lo()->is(Op::kConst) || loop.lo()->int_value() != 0) {
      return NotACopy(buffer, stmt, "has a loop that does not start at 0");
    }
    if (loop.body().size() != 1) {
      return NotACopy(buffer, stmt, "has a loop of several statements");
    }
    loops.push_back(node);
    node = loop.body().front();
  }
  if (!node->is(Op::kAssign) || !node->operand(0)->is(Op::kLoad) ||
      &BufferOf(*node->operand(0)) != &buffer ||
      !node->operand(1)->is(Op::kLoad) ||
      &RootOf(BufferOf(*node->operand(1))) == &buffer) {
    return NotACopy(buffer, stmt, "is not one");
  }
  const ir::Type& type = buffer.declared_type();
  ir::LoadView location(*node->operand(0));
  Copy copy;
  copy.assign = node;
  for (size_t d = 0; d < location.indices().size(); ++d) {
    const Node& index = *location.indices()[d];
    Node* loop = index.is(Op::kRef) ? index.def() : nullptr;
    bool nest_loop = false;
    for (const Node* l : loops) nest_loop |= l == loop;
    bool taken = false;
    for (const Node* l : copy.loop_of_dim) taken |= l == loop;
    if (!nest_loop || taken) {
      return NotACopy(buffer, stmt,
                      "indexes it by other than one loop per dimension");
    }
    if (!IsExtent(*ir::ForView(*loop).hi(), type.dims()[d])) {
      return NotACopy(buffer, stmt, "does not write all of it");
    }
    copy.loop_of_dim.push_back(loop);
  }
  if (copy.loop_of_dim.size() != loops.size()) {
    return NotACopy(buffer, stmt, "has a loop that indexes no dimension");
  }
  return copy;
}

}  // namespace

absl::Status InlineCopy(ir::Module& module, const ir::Cursor& buf_cursor) {
  auto alloc = BufferAt(buf_cursor, "inline_copy");
  if (!alloc.ok()) return alloc.status();
  const Node& buffer = **alloc;
  if (!buffer.declared_type().is_shaped()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "inline_copy expects a tensor; '", buffer.name(), "' is a scalar"));
  }
  ir::Cursor copy_at = ir::Cursor(module, *alloc).next();
  if (!copy_at.is_valid()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "inline_copy: '", buffer.name(), "' is not followed by its copy"));
  }
  auto copy = CopyInto(buffer, *copy_at.node());
  if (!copy.ok()) return copy.status();
  const Node& source = *copy->assign->operand(1);
  const Node& tensor = RootOf(BufferOf(source));
  for (ir::Cursor later = copy_at.next(); later.is_valid();
       later = later.next()) {
    absl::Status status = absl::OkStatus();
    ir::Walk(*later.node(), [&](Node& node) {
      if (!status.ok()) return;
      for (const Node* written : WrittenBuffers(node)) {
        if (written == &buffer || &RootOf(*written) == &tensor) {
          status = absl::FailedPreconditionError(absl::StrCat(
              "inline_copy: '", NodeText(node), "' may write '",
              written->name(), "', which ",
              written == &buffer ? "is the copy" : "the copy reads"));
          return;
        }
      }
    });
    if (!status.ok()) return status;
  }
  Node& proc = *ir::FormOf(*alloc);
  Transaction tx(module);
  tx.Detach(copy_at.node());
  absl::Status status = RewriteAccesses(
      tx, buffer, [&](const BufferAccess& access) -> absl::StatusOr<Node*> {
        if (access.is_window) {
          return absl::FailedPreconditionError(
              absl::StrCat("inline_copy: '", NodeText(*access.node),
                           "' is a window of '", buffer.name(), "'"));
        }
        Node* element = module.Clone(&source);
        for (size_t d = 0; d < copy->loop_of_dim.size(); ++d) {
          element = ir::Substitute(module, element, copy->loop_of_dim[d],
                                   *access.selectors[d]);
        }
        return element;
      });
  if (!status.ok()) return status;
  tx.Detach(*alloc);
  return tx.Commit(
      proc, absl::StrCat("cannot inline the copy into '", buffer.name(), "'"));
}

PrimitiveSpec InlineCopySpec() {
  return {"inline_copy",
          {{"buf_cursor", ArgKind::kAlloc, std::nullopt}},
          [](Target& target, const Args& args) {
            return InlineCopy(target.module, args["buf_cursor"].cursor);
          }};
}

}  // namespace tessel::primitives
