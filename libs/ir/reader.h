// The reader behind syntax.h, in two files by concern: reader.cc reads
// top-level forms, declarations and types, reader_values.cc values and
// statements. Internal to libs/ir.
#ifndef TESSEL_LIBS_IR_READER_H_
#define TESSEL_LIBS_IR_READER_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "libs/ir/node.h"
#include "libs/sexpr/sexpr.h"

namespace tessel::ir::syntax_internal {

// `@NAME`, naming a top-level form.
bool IsGlobalName(const Sexpr& s);
// A name a local binder may have: not `@`, `%` or `:`-prefixed.
bool IsLocalName(const Sexpr& s);

class Reader {
 public:
  explicit Reader(Module& module) : module_(module) {}

  absl::Status Read(const std::vector<Sexpr>& forms);

 private:
  // A `@NAME` operand, resolved once every top-level form is known.
  struct GlobalUse {
    Node* node;
    const Sexpr* name;
  };

  absl::StatusOr<Node*> ReadTop(const Sexpr& form);
  absl::StatusOr<Node*> ReadFunc(const Sexpr& form);
  absl::StatusOr<Node*> ReadProcedure(const Sexpr& form, Op op);
  absl::StatusOr<Node*> ReadMemory(const Sexpr& form);
  absl::StatusOr<Node*> ReadConfig(const Sexpr& form);
  absl::StatusOr<Node*> ReadParam(const Sexpr& decl);
  absl::Status ReadValueDecls(const Sexpr& list, absl::string_view what,
                              ParamKind kind, Node* func);
  absl::StatusOr<Type> ReadType(const Sexpr& type);
  // (vector ELEM D...), D integer literals > 0.
  absl::StatusOr<Type> ReadVectorType(const Sexpr& type);
  // `(alloc NAME TYPE [@MEM])` and data parameters share their tail.
  absl::Status ReadMemoryOperand(const Sexpr& at, Node* node);

  absl::StatusOr<Node*> ReadValue(const Sexpr& expr);
  absl::StatusOr<Node*> ReadName(const Sexpr& name);
  absl::StatusOr<Node*> ReadLoad(const Sexpr& form);
  absl::StatusOr<Node*> ReadStmt(const Sexpr& stmt);
  absl::StatusOr<Node*> ReadAlloc(const Sexpr& stmt);
  // Reads form[first...] as statements into `parent`; names bound by a
  // statement are visible to the statements after it in the block.
  absl::Status ReadStmts(const Sexpr& form, size_t first, Node* parent);
  absl::StatusOr<Node*> ReadGeneric(const Sexpr& form, Op op);
  // Loop-level operands that must be names (an assignment's location,
  // let's window, stride's tensor): what else is written there is reported
  // as such, before it is read as a value.
  absl::Status CheckNamedOperands(const Sexpr& form, Op op) const;
  absl::Status ReadOperand(const Sexpr& item, OperandKind kind, Node* node);

  void Bind(const std::string& name, Node* binder) {
    scope_.emplace_back(name, binder);
  }
  Node* Lookup(absl::string_view name) const {
    for (auto it = scope_.rbegin(); it != scope_.rend(); ++it) {
      if (it->first == name) return it->second;
    }
    return nullptr;
  }
  // A node for the form `at`, remembering where its items were written.
  Node* Create(Op op, const Sexpr& at) {
    Node* node = module_.Create(op, at.loc());
    if (at.is_list()) {
      std::vector<std::pair<int, int>> items;
      items.reserve(at.size());
      for (const Sexpr& item : at.items()) {
        items.emplace_back(item.loc().line, item.loc().col);
      }
      node->set_item_locs(std::move(items));
    }
    return node;
  }
  // What the values of the form being read are called in messages.
  absl::string_view value_word() const {
    return form_ == Op::kFunc ? "term" : "value";
  }

  Module& module_;
  std::vector<std::pair<std::string, Node*>> scope_;
  std::vector<Node*> lams_;  // enclosing lams, innermost last
  Op form_ = Op::kFunc;      // the top-level form being read
  std::vector<GlobalUse> globals_;
};

}  // namespace tessel::ir::syntax_internal

#endif  // TESSEL_LIBS_IR_READER_H_
