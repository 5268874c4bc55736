#include "libs/primitives/config_state.h"

#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
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

// OK when the field's value after `write` is never read (`ignore` aside).
absl::Status DeadAfter(const Node& write, const ConfigField& field,
                       const Node* ignore) {
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
      if (ReadsField(*body[i], field, ignore)) return seen_by(*body[i]);
      if (IsField(*body[i], Op::kWriteConfig, field)) return absl::OkStatus();
    }
    const Node* owner = Owner(*at);
    if (owner->is(Op::kProc) || owner->is(Op::kInstr)) {
      return absl::FailedPreconditionError(absl::StrCat(
          "the value '", NodeText(write), "' writes is live at the end of ",
          owner->name(), ", whose callers see the configuration"));
    }
    // The next iteration runs the statements before it too.
    if (owner->is(Op::kFor) && ReadsField(*owner, field, ignore)) {
      return seen_by(*owner);
    }
    at = owner;
  }
}

}  // namespace

bool ReadsField(const Node& node, const ConfigField& field,
                const Node* ignore) {
  absl::flat_hash_set<const Node*> seen;
  return AnyReached(
      node,
      [&](const Node& n) {
        return &n != ignore && IsField(n, Op::kReadConfig, field);
      },
      seen);
}

bool WritesField(const Node& node, const ConfigField& field) {
  absl::flat_hash_set<const Node*> seen;
  return AnyReached(
      node, [&](const Node& n) { return IsField(n, Op::kWriteConfig, field); },
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

absl::Status CheckUnobservable(const Node& write, const Node* ignore) {
  ir::WriteConfigView view(const_cast<Node&>(write));
  ConfigField field{view.config(), view.field()};
  if (HoldsAlready(write, field)) return absl::OkStatus();
  return DeadAfter(write, field, ignore);
}

}  // namespace tessel::primitives
