#include "libs/primitives/inline.h"

#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "libs/ir/build.h"
#include "libs/ir/edit.h"
#include "libs/ir/forms.h"
#include "libs/ir/views.h"
#include "libs/primitives/buffer_uses.h"
#include "libs/primitives/transaction.h"

namespace tessel::primitives {

using ir::Build;
using ir::Node;
using ir::Op;

namespace {

// `lo + k`, or `k` for lo 0 (detached copies).
Node* Plus(ir::Module& module, const Node& lo, const Node& k) {
  if (lo.is(Op::kConst) && lo.int_value() == 0) return module.Clone(&k);
  return Build::Add(module, module.Clone(&lo), module.Clone(&k));
}

// The selectors of the caller's buffer that `selectors` of a window
// parameter bound to `window` denote.
std::vector<Node*> Compose(ir::Module& module, const Node& window,
                           absl::Span<Node* const> selectors) {
  std::vector<Node*> composed;
  size_t k = 0;
  for (Node* sel : window.operands().subspan(1)) {
    if (!sel->is(Op::kInterval)) {
      composed.push_back(module.Clone(sel));
      continue;
    }
    const Node& lo = *sel->operand(0);
    const Node& inner = *selectors[k++];
    composed.push_back(
        inner.is(Op::kInterval)
            ? Build::Interval(module, Plus(module, lo, *inner.operand(0)),
                              Plus(module, lo, *inner.operand(1)))
            : Plus(module, lo, inner));
  }
  return composed;
}

// Renames what `stmts` bind to names used neither in `proc` nor among the
// names chosen so far.
void RenameBinders(ir::Module& module, const Node& proc,
                   const std::vector<Node*>& stmts) {
  absl::flat_hash_set<std::string> taken;
  std::vector<Node*> binders;
  for (Node* stmt : stmts) {
    ir::Walk(*stmt, [&](Node& node) {
      if (node.is(Op::kFor) || node.is(Op::kAlloc) || node.is(Op::kLet)) {
        binders.push_back(&node);
      }
      if (!node.name().empty()) taken.insert(node.name());
    });
  }
  for (Node* binder : binders) {
    std::string name = ir::FreshName(module, proc, binder->name());
    for (int k = 1; name != binder->name() && taken.contains(name); ++k) {
      name = ir::FreshName(module, proc, absl::StrCat(binder->name(), "_", k));
    }
    taken.insert(name);
    for (Node* stmt : stmts) ir::Rename(*binder, name, *stmt);
  }
}

}  // namespace

absl::Status Inline(ir::Module& module, const ir::Cursor& call_cursor) {
  if (!call_cursor.is_valid()) return call_cursor.status();
  Node& call = *call_cursor.node();
  if (!call.is(Op::kCall)) {
    return absl::InvalidArgumentError(
        absl::StrCat("inline expects a call, not '", NodeText(call), "'"));
  }
  const Node& callee = *ir::CallView(call).callee();
  Node& proc = *ir::FormOf(&call);
  // The callee's copy, so that a statement's references to an alloc of an
  // earlier one follow the copies; its statements leave it.
  Node* copy = module.Clone(&callee);
  std::vector<Node*> params = ir::ProcView(*copy).params();
  std::vector<Node*> body(ir::ProcView(*copy).body().begin(),
                          ir::ProcView(*copy).body().end());
  for (Node* stmt : body) module.Detach(stmt);
  RenameBinders(module, proc, body);
  for (size_t p = 0; p < params.size(); ++p) {
    const Node& param = *params[p];
    const Node& arg = *call.operand(p);
    if (!ir::IsDataParam(param)) {
      for (Node*& stmt : body) stmt = ir::Substitute(module, stmt, &param, arg);
      continue;
    }
    std::vector<Node*> refs;
    for (Node* stmt : body) {
      ir::Walk(*stmt, [&](Node& node) {
        if (node.is(Op::kRef) && node.def() == &param) refs.push_back(&node);
      });
    }
    for (Node* ref : refs) {
      Node* parent = ref->parent();
      if (!arg.is(Op::kWindow)) {
        ref->set_def(arg.def());
        ref->set_name(arg.def()->name());
        continue;
      }
      const Node& buffer = *ir::WindowView(const_cast<Node&>(arg)).buffer();
      if (!ir::WindowView::IsBox(arg)) return NotABox(param, arg);
      if (parent != nullptr && parent->is(Op::kWindow) &&
          !ir::WindowView::IsBox(*parent)) {
        return NotABox(param, *parent);
      }
      if (parent != nullptr && ref->position() == 0 &&
          (parent->is(Op::kLoad) || parent->is(Op::kWindow))) {
        std::vector<Node*> selectors =
            Compose(module, arg, parent->operands().subspan(1));
        module.Replace(parent, parent->is(Op::kLoad)
                                   ? Build::Load(module, buffer, selectors)
                                   : Build::Window(module, buffer, selectors));
      } else if (parent != nullptr && parent->is(Op::kCall)) {
        module.Replace(ref, module.Clone(&arg));
      } else {
        return absl::FailedPreconditionError(
            absl::StrCat("cannot inline ", callee.name(), ": '",
                         NodeText(parent != nullptr ? *parent : *ref),
                         "' uses the window parameter '", param.name(),
                         "' other than by its elements and windows"));
      }
    }
  }
  Transaction tx(module);
  Node* parent = call.parent();
  size_t position = call.position();
  tx.Detach(&call);
  for (size_t i = 0; i < body.size(); ++i) {
    tx.Insert(parent, position + i, body[i]);
  }
  return tx.Commit(proc, absl::StrCat("cannot inline ", callee.name()));
}

PrimitiveSpec InlineSpec() {
  return {"inline",
          {{"call_cursor", ArgKind::kStmt, std::nullopt}},
          [](Target& target, const Args& args) {
            return Inline(target.module, args["call_cursor"].cursor);
          }};
}

}  // namespace tessel::primitives
