// An edit of a procedure that is verified before it is kept: a primitive
// whose remaining conditions are exactly what the verifier proves (every
// access of a resized buffer in bounds, with isl, and its first violation
// as the witness; memories; types) makes its edit through a Transaction,
// and Commit re-verifies the procedure and its callers; when that fails,
// every edit is undone, in reverse order, so that the module is as it was
// and the primitive reports the verifier's diagnostic as the condition
// that failed.
#ifndef TESSEL_LIBS_PRIMITIVES_TRANSACTION_H_
#define TESSEL_LIBS_PRIMITIVES_TRANSACTION_H_

#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "libs/ir/node.h"
#include "libs/ir/type.h"

namespace tessel::primitives {

class Transaction {
 public:
  explicit Transaction(ir::Module& module) : module_(module) {}
  // Undoes what was not committed (a primitive that returns an error
  // before Commit leaves the module as it was).
  ~Transaction() { Undo(); }
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  ir::Module& module() { return module_; }

  // Module::Replace.
  void Replace(ir::Node* old, ir::Node* replacement);
  // Module::Insert of a detached statement.
  void Insert(ir::Node* parent, size_t position, ir::Node* node);
  // Module::Detach of an attached node.
  void Detach(ir::Node* node);
  void SetDef(ir::Node* node, ir::Node* def);
  void SetName(ir::Node* node, absl::string_view name);
  void SetDeclaredType(ir::Node* node, const ir::Type& type);

  // Verifies `proc` and every proc that calls it (typing what was built,
  // for checks that compare types); on failure undoes every edit and
  // returns FailedPrecondition: `what` and the verifier's message.
  absl::Status Verify(ir::Node& proc, absl::string_view what);
  // Verify, and the edits are kept.
  absl::Status Commit(ir::Node& proc, absl::string_view what);

 private:
  void Undo();

  ir::Module& module_;
  std::vector<std::function<void()>> undo_;
};

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_TRANSACTION_H_
