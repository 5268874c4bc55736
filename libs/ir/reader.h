// The reader behind syntax.h, in files by concern: reader.cc reads
// top-level forms, declarations and types, reader_values.cc values and
// statements, reader_cs1.cc the CS-1 level. Internal to libs/ir.
#ifndef TESSEL_LIBS_IR_READER_H_
#define TESSEL_LIBS_IR_READER_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "libs/ir/library.h"
#include "libs/ir/node.h"
#include "libs/sexpr/sexpr.h"

namespace tessel::ir::syntax_internal {

// `@NAME`, naming a top-level form.
bool IsGlobalName(const Sexpr& s);
// A name a local binder may have: not `@`, `%` or `:`-prefixed.
bool IsLocalName(const Sexpr& s);

class Reader {
 public:
  // Named calls are read as the signatures of `libraries` say, by default
  // those compiled into the tools.
  explicit Reader(Module& module, const Libraries* libraries = nullptr)
      : module_(module), libraries_(libraries) {}

  // Whether the forms to read are S-expressions of the module's source
  // text as SexprReader reads them, where the nodes find the locations of
  // their items again (Module::CreateForText) instead of keeping them.
  void set_forms_from_text(bool from_text) { forms_from_text_ = from_text; }

  absl::Status Read(const std::vector<Sexpr>& forms);
  // Read, a form at a time: each top-level form in file order, then Finish
  // (which resolves the `@NAME`s that forms use).
  absl::Status ReadForm(const Sexpr& form);
  absl::Status Finish();
  // Reads the body of a library definition (library.h): a tensor-level term
  // in which `binders`, the definition's Values and size Params, are bound
  // by name. A size may stand where an integer literal may, a rest size
  // (`dims...`) only among the items of a literal list.
  absl::StatusOr<Node*> ReadDefinitionBody(const Sexpr& body,
                                           absl::Span<Node* const> binders);
  // Reads a tensor-level term in which `?NAME` is a pattern variable (Meta)
  // and a De Bruijn variable may refer past the term's own lams.
  absl::StatusOr<Node*> ReadPattern(const Sexpr& term);

 private:
  // A `@NAME` operand, resolved once every top-level form is known.
  struct GlobalUse {
    Node* node;
    std::string name;
    Location loc;
  };

  absl::StatusOr<Node*> ReadTop(const Sexpr& form);
  absl::StatusOr<Node*> ReadFunc(const Sexpr& form);
  absl::StatusOr<Node*> ReadProcedure(const Sexpr& form, Op op);
  absl::StatusOr<Node*> ReadMemory(const Sexpr& form);
  absl::StatusOr<Node*> ReadConfig(const Sexpr& form);
  absl::StatusOr<Node*> ReadParam(const Sexpr& decl);
  // The parameter list `params` of `form` (a proc, instr or pe-program),
  // each parameter bound.
  absl::Status ReadParams(const Sexpr& params, Node* form);
  absl::Status ReadValueDecls(const Sexpr& list, absl::string_view what,
                              ParamKind kind, Node* func);
  absl::StatusOr<Type> ReadType(const Sexpr& type);
  // (vector ELEM D...), D integer literals > 0.
  absl::StatusOr<Type> ReadVectorType(const Sexpr& type);
  // `(alloc NAME TYPE [@MEM])` and data parameters share their tail.
  absl::Status ReadMemoryOperand(const Sexpr& at, Node* node);

  // The CS-1 level (reader_cs1.cc).
  absl::StatusOr<Node*> ReadPeProgram(const Sexpr& form);
  absl::StatusOr<Node*> ReadGrid(const Sexpr& grid);
  absl::StatusOr<Node*> ReadLocal(const Sexpr& local);
  absl::StatusOr<Node*> ReadTask(const Sexpr& task);
  absl::StatusOr<Node*> ReadRecv(const Sexpr& recv);
  absl::StatusOr<Node*> ReadDescriptor(const Sexpr& dsd);
  // A name the CS-1 level binds: `NAME`, or `(NAME EXTENT)` in a grid.
  absl::StatusOr<Node*> ReadCoord(const Sexpr& item, bool with_extent);

  absl::StatusOr<Node*> ReadValue(const Sexpr& expr);
  absl::StatusOr<Node*> ReadName(const Sexpr& name);
  absl::StatusOr<Node*> ReadLoad(const Sexpr& form);
  absl::StatusOr<Node*> ReadStmt(const Sexpr& stmt);
  absl::StatusOr<Node*> ReadAlloc(const Sexpr& stmt);
  // Reads form[first...] as statements into `parent`; names bound by a
  // statement are visible to the statements after it in the block.
  absl::Status ReadStmts(const Sexpr& form, size_t first, Node* parent);
  absl::StatusOr<Node*> ReadGeneric(const Sexpr& form, Op op);
  // (LIB.NAME OPERAND...), its operands as the callee's signature says.
  absl::StatusOr<Node*> ReadLibCall(const Sexpr& form);
  // An integer literal, in a library definition one of its sizes (a rest
  // size only `in_list`), in a rule's pattern a pattern variable; null when
  // `item` is none of them.
  absl::StatusOr<Node*> ReadInteger(const Sexpr& item, bool in_list);
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
    if (forms_from_text_ && at.is_list()) {
      return module_.CreateForText(op, at.loc());
    }
    Node* node = module_.Create(op, at.loc());
    if (at.is_list()) {
      absl::InlinedVector<std::pair<int, int>, 8> items;
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

  const Libraries& libraries() const {
    return libraries_ != nullptr ? *libraries_ : Libraries::Builtin();
  }

  Module& module_;
  const Libraries* libraries_;
  bool forms_from_text_ = false;
  bool definition_ = false;  // reading a library definition's body
  std::vector<std::pair<std::string, Node*>> scope_;
  std::vector<Node*> lams_;  // enclosing lams, innermost last
  Op form_ = Op::kFunc;      // the top-level form being read
  bool pattern_ = false;     // reading a rule's pattern (ReadPattern)
  std::vector<GlobalUse> globals_;
};

}  // namespace tessel::ir::syntax_internal

#endif  // TESSEL_LIBS_IR_READER_H_
