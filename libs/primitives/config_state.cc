#include "libs/primitives/config_state.h"

#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "libs/ir/build.h"
#include "libs/ir/config_flow.h"
#include "libs/ir/cursor.h"
#include "libs/ir/edit.h"
#include "libs/ir/forms.h"
#include "libs/ir/views.h"
#include "libs/primitives/buffer_uses.h"

namespace tessel::primitives {

using ir::Node;
using ir::Op;

namespace {

bool IsField(const Node& node, Op op, const ConfigField& field) {
  return node.is(op) && node.def() == field.config &&
         node.name() == field.field;
}

// Whether `pred` holds for a node under `root` or under a proc it calls
// (each visited once).
bool AnyReached(const Node& root, const std::function<bool(const Node&)>& pred,
                absl::flat_hash_set<const Node*>& seen) {
  bool found = false;
  ir::Walk(const_cast<Node&>(root), [&](Node& node) {
    if (found) return;
    if (pred(node)) {
      found = true;
    } else if (node.is(Op::kCall) && node.def() != nullptr &&
               seen.insert(node.def()).second) {
      found = AnyReached(*node.def(), pred, seen);
    }
  });
  return found;
}

// The statements of the body `at` is in, and `at`'s place among them.
absl::Span<Node* const> Siblings(const Node& at, size_t* index) {
  absl::Span<Node* const> body = ir::Body(*at.parent());
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i] == &at) *index = i;
  }
  return body;
}

// The statement whose body holds `at`'s body: the for or if (not its then
// or else), or the proc.
const Node* Owner(const Node& at) {
  const Node* owner = at.parent();
  if (owner->is(Op::kThen) || owner->is(Op::kElse)) owner = owner->parent();
  return owner;
}

bool Stable(const Node& value, const Node* loop) {
  bool stable = true;
  ir::Walk(const_cast<Node&>(value), [&](Node& node) {
    if (node.is(Op::kLoad) || node.is(Op::kReadConfig)) stable = false;
    if (node.is(Op::kRef) && loop != nullptr && node.def() != nullptr &&
        ir::IsInside(node.def(), loop)) {
      stable = false;
    }
  });
  return stable;
}

// Whether the field already holds `write`'s value where it runs.
bool HoldsAlready(const Node& write, const ConfigField& field) {
  const Node& value = *ir::WriteConfigView(const_cast<Node&>(write)).value();
  if (!Stable(value, nullptr)) return false;
  const Node* at = &write;
  while (true) {
    size_t index = 0;
    absl::Span<Node* const> body = Siblings(*at, &index);
    for (size_t i = index; i-- > 0;) {
      const Node& s = *body[i];
      if (IsField(s, Op::kWriteConfig, field)) {
        return ir::AlphaEquivalent(
            ir::WriteConfigView(const_cast<Node&>(s)).value(), &value);
      }
      if (WritesField(s, field)) return false;
    }
    const Node* owner = Owner(*at);
    if (owner->is(Op::kProc) || owner->is(Op::kInstr)) return false;
    if (owner->is(Op::kFor)) {
      // A later iteration sees what the loop wrote last: the same value
      // of names that stay fixed, or nothing.
      if (!Stable(value, owner)) return false;
      absl::flat_hash_set<const Node*> seen;
      bool other = AnyReached(
          *owner,
          [&](const Node& n) {
            if (n.is(Op::kCall)) return WritesField(*n.def(), field);
            return IsField(n, Op::kWriteConfig, field) &&
                   !ir::AlphaEquivalent(
                       ir::WriteConfigView(const_cast<Node&>(n)).value(),
                       &value);
          },
          seen);
      if (other) return false;
    }
    at = owner;
  }
}

bool Declares(const Node& proc, const ConfigField& field) {
  for (const Node* clobbers : ir::ClobbersOf(proc)) {
    if (IsField(*clobbers, Op::kClobbers, field)) return true;
  }
  return false;
}

ir::ConfigFieldRef Ref(const ConfigField& field) {
  return {field.config, field.field};
}

// OK when the field's value after `write` is never read (`ignore` aside);
// with `clobbers`, a value read only by the proc's callers is OK too, and
// sets *clobbers.
absl::Status DeadAfter(const Node& write, const ConfigField& field,
                       const Node* ignore, bool* clobbers) {
  auto seen_by = [&](const Node& s) {
    return absl::FailedPreconditionError(
        absl::StrCat("'", NodeText(s), "' reads ", field.config->name(), ".",
                     field.field, " after '", NodeText(write), "'"));
  };
  const Node* at = &write;
  while (true) {
    size_t index = 0;
    absl::Span<Node* const> body = Siblings(*at, &index);
    for (size_t i = index + 1; i < body.size(); ++i) {
      ir::ConfigFlow flow = ir::FlowOfStmt(*body[i], Ref(field), ignore);
      if (flow.reads) return seen_by(*body[i]);
      if (flow.kills) return absl::OkStatus();
    }
    const Node* owner = Owner(*at);
    if (owner->is(Op::kProc) || owner->is(Op::kInstr)) {
      if (owner->is(Op::kProc) && Declares(*owner, field)) {
        return absl::OkStatus();
      }
      if (owner->is(Op::kProc) && clobbers != nullptr) {
        *clobbers = true;
        return absl::OkStatus();
      }
      return absl::FailedPreconditionError(absl::StrCat(
          "the value '", NodeText(write), "' writes is live at the end of ",
          owner->name(), ", whose callers see the configuration"));
    }
    // The next iteration runs the statements before it too.
    if (owner->is(Op::kFor) &&
        ir::FlowOfBlock(ir::StatementsOf(*owner), Ref(field), ignore).reads) {
      return seen_by(*owner);
    }
    at = owner;
  }
}

}  // namespace

bool ReadsField(const Node& node, const ConfigField& field,
                const Node* ignore) {
  return ir::ReadsConfigField(node, Ref(field), ignore);
}

bool WritesField(const Node& node, const ConfigField& field) {
  absl::flat_hash_set<const Node*> seen;
  // A proc that clobbers the field may leave any value in it.
  return AnyReached(
      node,
      [&](const Node& n) {
        return IsField(n, Op::kWriteConfig, field) ||
               IsField(n, Op::kClobbers, field);
      },
      seen);
}

absl::Status CheckConfigField(const ir::Node& config,
                              const std::string& field) {
  if (!config.is(ir::Op::kConfig) || ir::FindField(config, field) == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        config.name(), " is not a config with a field '", field, "'"));
  }
  return absl::OkStatus();
}

absl::Status CheckUnobservable(const Node& write, const Node* ignore,
                               bool* clobbers) {
  ir::WriteConfigView view(const_cast<Node&>(write));
  ConfigField field{view.config(), view.field()};
  if (HoldsAlready(write, field)) return absl::OkStatus();
  return DeadAfter(write, field, ignore, clobbers);
}

std::vector<ClobbersDeclaration> ClobbersDeclarations(ir::Module& module,
                                                      const Node& write) {
  ir::WriteConfigView view(const_cast<Node&>(write));
  ConfigField field{view.config(), view.field()};
  std::vector<ClobbersDeclaration> declarations;
  absl::flat_hash_set<const Node*> declared;
  std::vector<Node*> pending = {ir::FormOf(const_cast<Node*>(&write))};
  while (!pending.empty()) {
    Node* proc = pending.back();
    pending.pop_back();
    if (Declares(*proc, field) || !declared.insert(proc).second) continue;
    size_t position = 0;
    while (position < proc->num_operands() &&
           (proc->operand(position)->is(Op::kParam) ||
            proc->operand(position)->is(Op::kClobbers))) {
      ++position;
    }
    declarations.push_back(
        {proc, position,
         ir::Build::Clobbers(module, *field.config, field.field)});
    // A caller whose call leaves the field so at its end clobbers it too;
    // one that reads it after the call is the verifier's rejection.
    for (Node* form : module.forms()) {
      if (!form->is(Op::kProc)) continue;
      ir::Walk(*form, [&](Node& node) {
        if (!node.is(Op::kCall) || node.def() != proc) return;
        bool clobbers = false;
        if (DeadAfter(node, field, nullptr, &clobbers).ok() && clobbers) {
          pending.push_back(form);
        }
      });
    }
  }
  return declarations;
}

}  // namespace tessel::primitives
