#include "libs/ir/config_flow.h"

#include "absl/container/flat_hash_set.h"
#include "libs/ir/edit.h"
#include "libs/ir/forms.h"
#include "libs/ir/views.h"

namespace tessel::ir {
namespace {

bool IsField(const Node& node, Op op, const ConfigFieldRef& field) {
  return node.is(op) && node.def() == field.config &&
         node.name() == field.field;
}

bool ReadsReached(const Node& root, const ConfigFieldRef& field,
                  const Node* ignore,
                  absl::flat_hash_set<const Node*>& seen) {
  bool found = false;
  Walk(const_cast<Node&>(root), [&](Node& node) {
    if (found) return;
    if (&node != ignore && IsField(node, Op::kReadConfig, field)) {
      found = true;
    } else if (node.is(Op::kCall) && node.def() != nullptr &&
               seen.insert(node.def()).second) {
      found = ReadsReached(*node.def(), field, ignore, seen);
    }
  });
  return found;
}

}  // namespace

bool ReadsConfigField(const Node& node, const ConfigFieldRef& field,
                      const Node* ignore) {
  absl::flat_hash_set<const Node*> seen;
  return ReadsReached(node, field, ignore, seen);
}

ConfigFlow FlowOfStmt(const Node& stmt, const ConfigFieldRef& field,
                      const Node* ignore) {
  auto reads = [&](const Node* node) {
    return node != nullptr && ReadsConfigField(*node, field, ignore);
  };
  if (IsField(stmt, Op::kWriteConfig, field)) {
    bool read = reads(stmt.operand(0));
    return {read, !read};
  }
  switch (stmt.op()) {
    case Op::kFor: {
      ForView loop(const_cast<Node&>(stmt));
      ConfigFlow body = FlowOfBlock(loop.body(), field, ignore);
      bool runs = loop.lo()->is(Op::kConst) && loop.hi()->is(Op::kConst) &&
                  loop.lo()->int_value() < loop.hi()->int_value();
      bool read = reads(loop.lo()) || reads(loop.hi()) || body.reads;
      return {read, !read && runs && body.kills};
    }
    case Op::kIf: {
      IfView branch(const_cast<Node&>(stmt));
      ConfigFlow then = FlowOfBlock(branch.then_body(), field, ignore);
      ConfigFlow orelse = FlowOfBlock(branch.else_body(), field, ignore);
      bool read = reads(branch.cond()) || then.reads || orelse.reads;
      return {read, !read && branch.else_block() != nullptr && then.kills &&
                        orelse.kills};
    }
    case Op::kCall: {
      const Node& callee = *stmt.def();
      bool read = false;
      for (const Node* arg : stmt.operands()) read |= reads(arg);
      for (const Node* assertion : AssertsOf(callee)) read |= reads(assertion);
      ConfigFlow body = FlowOfBlock(BodyOf(callee), field, ignore);
      return {read || body.reads, !read && body.kills};
    }
    default:
      return {reads(&stmt), false};
  }
}

ConfigFlow FlowOfBlock(absl::Span<Node* const> stmts,
                       const ConfigFieldRef& field, const Node* ignore) {
  for (const Node* stmt : stmts) {
    ConfigFlow flow = FlowOfStmt(*stmt, field, ignore);
    if (flow.reads || flow.kills) return flow;
  }
  return {};
}

}  // namespace tessel::ir
