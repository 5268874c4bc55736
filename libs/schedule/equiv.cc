#include "libs/schedule/equiv.h"

#include <cstddef>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/ir/cursor.h"
#include "libs/ir/edit.h"
#include "libs/ir/op.h"
#include "libs/ir/syntax.h"
#include "libs/primitives/reorder_stmts.h"
#include "libs/primitives/simplify_expr.h"
#include "libs/sexpr/printer.h"
#include "libs/support/source.h"

namespace tessel::schedule {
namespace {

// What orders statements canonically: their structure, with the names of
// parameters, forms, fields and operators but not of what the procedure
// binds (loops, allocations, lets), which may differ between A and B.
std::string Key(ir::Node& stmt) {
  std::string key;
  ir::Walk(stmt, [&key](ir::Node& node) {
    absl::StrAppend(&key, static_cast<int>(node.op()), ":");
    if (node.is(ir::Op::kConst)) {
      if (node.is_float_literal()) {
        absl::StrAppend(&key, node.float_value());
      } else {
        absl::StrAppend(&key, node.int_value());
      }
    }
    const ir::Node* def = node.def();
    bool local =
        node.is(ir::Op::kFor) || node.is(ir::Op::kAlloc) ||
        node.is(ir::Op::kLet) ||
        (def != nullptr && (def->is(ir::Op::kFor) || def->is(ir::Op::kAlloc) ||
                            def->is(ir::Op::kLet)));
    if (!local) absl::StrAppend(&key, node.name());
    absl::StrAppend(&key, ";");
  });
  return key;
}

// The bodies directly inside `stmt`: a for's, an if's branches.
std::vector<ir::Node*> BodiesOf(ir::Node& stmt) {
  if (ir::HasBody(stmt)) return {&stmt};
  std::vector<ir::Node*> bodies;
  if (stmt.is(ir::Op::kIf)) {
    for (ir::Node* operand : stmt.operands()) {
      if (ir::HasBody(*operand)) bodies.push_back(operand);
    }
  }
  return bodies;
}

// Orders the statements of `owner`'s body (and of the bodies inside it)
// by Key, swapping two adjacent statements only where reorder_stmts proves
// it safe: a bubble sort whose swaps are checked rewrites.
void Canonicalize(ir::Module& module, ir::Node& owner) {
  for (ir::Node* stmt : ir::Body(owner)) {
    for (ir::Node* body : BodiesOf(*stmt)) Canonicalize(module, *body);
  }
  size_t size = ir::Body(owner).size();
  // Each swap removes one inversion: at most size^2 / 2 of them.
  for (size_t swaps = 0; swaps <= size * size; ++swaps) {
    absl::Span<ir::Node* const> stmts = ir::Body(owner);
    bool swapped = false;
    for (size_t k = 0; k + 1 < stmts.size() && !swapped; ++k) {
      if (Key(*stmts[k + 1]) >= Key(*stmts[k])) continue;
      ir::BlockCursor pair(ir::Cursor(module, stmts[k]),
                           ir::Cursor(module, stmts[k + 1]));
      swapped = primitives::ReorderStmts(module, pair).ok();
    }
    if (!swapped) return;
  }
}

std::string Text(const ir::Node& node) {
  return PrintSexpr(ir::WriteNode(node), 0, ir::HeaderOperands);
}

std::string Where(const ir::Node& node) {
  Location loc = node.loc();
  return loc.known()
             ? absl::StrCat(loc.source->name(), ":", loc.line, ":", loc.col)
             : std::string("(built)");
}

// The first statement, in program order, at which the canonical bodies of
// `a` and `b` differ, as a message.
std::string FirstDifference(const ir::Node& a, const ir::Node& b) {
  absl::Span<ir::Node* const> xs = ir::Body(a);
  absl::Span<ir::Node* const> ys = ir::Body(b);
  for (size_t k = 0; k < xs.size() && k < ys.size(); ++k) {
    if (Text(*xs[k]) == Text(*ys[k])) continue;
    std::vector<ir::Node*> inner_a = BodiesOf(*xs[k]);
    std::vector<ir::Node*> inner_b = BodiesOf(*ys[k]);
    if (xs[k]->op() == ys[k]->op() && inner_a.size() == 1 &&
        inner_b.size() == 1 &&
        Text(*xs[k]).substr(0, Text(*xs[k]).find('\n')) ==
            Text(*ys[k]).substr(0, Text(*ys[k]).find('\n'))) {
      return FirstDifference(*inner_a[0], *inner_b[0]);
    }
    return absl::StrCat("A's statement at ", Where(*xs[k]), "\n  ",
                        Text(*xs[k]), "\nhas no counterpart in B at ",
                        Where(*ys[k]), "\n  ", Text(*ys[k]));
  }
  if (xs.size() != ys.size()) {
    return absl::StrCat("a body of A has ", xs.size(), " statements, B's ",
                        ys.size());
  }
  return "they differ in the names or types of what they declare";
}

}  // namespace

absl::Status CheckEquivalent(ir::Module& module_a, ir::Node& proc_a,
                             ir::Module& module_b, ir::Node& proc_b) {
  // The parameters: their names are how callers and run-sim bind data.
  std::vector<const ir::Node*> params_a, params_b;
  for (const ir::Node* node : proc_a.operands()) {
    if (node->is(ir::Op::kParam)) params_a.push_back(node);
  }
  for (const ir::Node* node : proc_b.operands()) {
    if (node->is(ir::Op::kParam)) params_b.push_back(node);
  }
  if (params_a.size() != params_b.size()) {
    return absl::FailedPreconditionError(
        absl::StrCat("not proven equivalent: A has ", params_a.size(),
                     " parameters, B ", params_b.size()));
  }
  for (size_t i = 0; i < params_a.size(); ++i) {
    if (params_a[i]->name() != params_b[i]->name() ||
        params_a[i]->param_kind() != params_b[i]->param_kind()) {
      return absl::FailedPreconditionError(
          absl::StrCat("not proven equivalent: parameter ", i + 1, " is '",
                       params_a[i]->name(), "' in A and '", params_b[i]->name(),
                       "' in B, or of another kind"));
    }
  }
  for (auto [module, proc] :
       {std::pair<ir::Module*, ir::Node*>{&module_a, &proc_a},
        {&module_b, &proc_b}}) {
    if (absl::Status status = primitives::Simplify(*module, *proc);
        !status.ok()) {
      return status;
    }
    Canonicalize(*module, *proc);
  }
  // The procedures' own names aside, which the comparison sees.
  std::string name_b = proc_b.name();
  proc_b.set_name(proc_a.name());
  bool equal = ir::AlphaEquivalent(&proc_a, &proc_b);
  proc_b.set_name(name_b);
  if (equal) return absl::OkStatus();
  return absl::FailedPreconditionError(
      absl::StrCat("not proven equivalent: ", FirstDifference(proc_a, proc_b)));
}

}  // namespace tessel::schedule
