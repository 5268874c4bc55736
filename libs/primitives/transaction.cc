#include "libs/primitives/transaction.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "libs/ir/edit.h"
#include "libs/verify/verifier.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

using ir::Node;

void Transaction::Replace(Node* old, Node* replacement) {
  module_.Replace(old, replacement);
  undo_.push_back(
      [this, old, replacement] { module_.Replace(replacement, old); });
}

void Transaction::Insert(Node* parent, size_t position, Node* node) {
  module_.Insert(parent, position, node);
  undo_.push_back([this, node] { module_.Detach(node); });
}

void Transaction::Detach(Node* node) {
  Node* parent = node->parent();
  size_t position = node->position();
  module_.Detach(node);
  undo_.push_back([this, parent, position, node] {
    module_.Insert(parent, position, node);
  });
}

void Transaction::SetDef(Node* node, Node* def) {
  Node* old = node->def();
  node->set_def(def);
  undo_.push_back([node, old] { node->set_def(old); });
}

void Transaction::SetName(Node* node, absl::string_view name) {
  std::string old = node->name();
  node->set_name(name);
  undo_.push_back([node, old] { node->set_name(old); });
}

void Transaction::SetDeclaredType(Node* node, const ir::Type& type) {
  ir::Type old = node->declared_type();
  node->set_declared_type(type);
  undo_.push_back([node, old] { node->set_declared_type(old); });
}

void Transaction::Undo() {
  for (auto it = undo_.rbegin(); it != undo_.rend(); ++it) (*it)();
  undo_.clear();
}

absl::Status Transaction::Commit(Node& proc, absl::string_view what) {
  absl::Status status = Verify(proc, what);
  if (status.ok()) undo_.clear();
  return status;
}

absl::Status Transaction::Verify(Node& proc, absl::string_view what) {
  std::vector<Node*> procs = {&proc};
  for (Node* form : module_.forms()) {
    if (form == &proc) continue;
    bool calls = false;
    ir::Walk(*form, [&](Node& node) {
      calls |= node.is(ir::Op::kCall) && node.def() == &proc;
    });
    if (calls) procs.push_back(form);
  }
  absl::Status status;
  for (Node* p : procs) {
    status = ir::VerifyProc(module_, *p, kEditChecks);
    if (!status.ok()) break;
  }
  if (status.ok()) return status;
  Undo();
  for (Node* p : procs) {
    if (absl::Status again = ir::VerifyProc(module_, *p, kEditChecks); !again.ok()) {
      return absl::InternalError(
          absl::StrCat("could not restore ", p->name(), ": ", again.message()));
    }
  }
  return absl::FailedPreconditionError(
      absl::StrCat(what, ": ", status.message()));
}

}  // namespace tessel::primitives
