// Named library and accelerator calls (formats/tir/README.md, "Named
// library calls"): `(blas.gemm N T alpha A B beta C)` means the term the
// definition of `blas.gemm` gives, so a call is typed, verified and run as
// its definition. Libraries are data: targets/LIB/library.tir holds a
// library's definitions, each a signature (the call's keyword, integer,
// shape and value operands, and the sizes their shapes must have) and a
// tensor-level term over the named parameters. A call with several
// definitions takes the first whose keywords, operand count and ranks fit.
//
// Every targets/*/library.tir is compiled into the tools (targets/BUILD)
// and read once, through the IR reader, when a module first uses a call.
#ifndef TESSEL_LIBS_IR_LIBRARY_H_
#define TESSEL_LIBS_IR_LIBRARY_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "libs/ir/node.h"
#include "libs/support/source.h"

namespace tessel::ir {

// What an operand of a named call is. Keywords come first; their words are
// the call's `text` (Node::text()), the other operands its children.
enum class LibOperandKind : uint8_t {
  kKeyword,  // a word such as N or T
  kInt,      // an integer literal > 0
  kShape,    // a literal (shape N...)
  kValue,    // a term
};

// One dimension of a parameter's shape: an integer literal, a size (the
// `size` Param the body refers to it by) or, last, the rest of the
// dimensions (a size whose name ends in "...").
struct LibDim {
  const Node* size = nullptr;  // null for a literal
  int64_t literal = 0;
};

// A parameter of a definition: what its operand must be.
struct LibParam {
  LibOperandKind kind = LibOperandKind::kValue;
  // A keyword's word; a value's name; an integer's size name.
  std::string name;
  // A value's Value node, or an integer's size.
  const Node* binder = nullptr;
  // The shape a value or shape operand must have (an integer: its size).
  std::vector<LibDim> dims;
  // A value that must be an access pattern: its number of access
  // dimensions; -1 for a tensor or a scalar (an access pattern fits too).
  int split = -1;
  Location loc;
};

// One definition of a call.
struct LibClause {
  std::vector<LibParam> params;
  const Node* body = nullptr;
  size_t num_values() const;
};

// The definitions of one call, `LIB.NAME`, in file order.
class LibCallDef {
 public:
  const std::string& name() const { return name_; }
  const std::vector<LibClause>& clauses() const { return clauses_; }

  // The operand kinds of a call with `count` operands, or null when no
  // definition takes as many.
  const std::vector<LibOperandKind>* Kinds(size_t count) const;
  // "'blas.gemv' takes 6 operands, found 5".
  std::string CountError(size_t count) const;
  // Whether a definition with `count` operands takes the keyword `word` at
  // position `i`.
  bool TakesKeyword(size_t count, size_t i, absl::string_view word) const;
  // "expected N or T for operand 1 of 'blas.gemv', found 'X'".
  std::string OperandError(size_t count, size_t i,
                           absl::string_view found) const;

 private:
  friend class LibraryReader;
  std::string name_;
  std::vector<LibClause> clauses_;
  // Per operand count, the operands' kinds.
  std::map<size_t, std::vector<LibOperandKind>> kinds_;
};

// A set of libraries: every definition of every call they name.
class Libraries {
 public:
  // The libraries compiled into the tools (targets/*/library.tir), read on
  // first use. A malformed one is a defect of the build: the program stops.
  static const Libraries& Builtin();
  // Reads library files; errors are located diagnostics.
  static absl::StatusOr<std::unique_ptr<const Libraries>> Read(
      absl::Span<const SourceRef> files);

  // The definitions of `callee` (`LIB.NAME`), or an error at `at` that says
  // which libraries or calls there are.
  absl::StatusOr<const LibCallDef*> Find(absl::string_view callee,
                                         const Location& at) const;

 private:
  Libraries() = default;
  friend class LibraryReader;

  Module module_;  // the parameters and bodies of the definitions
  std::map<std::string, LibCallDef, std::less<>> calls_;
  std::vector<std::string> names_;  // the libraries, in file order
};

// A size Param of a definition that stands for the rest of a shape.
bool IsRestSize(const Node& size);

// "a", "a or b", "a, b or c" (with `conjunction` "or"), for messages.
std::string JoinWords(const std::vector<std::string>& words,
                      absl::string_view conjunction);

// The keyword operands of a LibCall node.
std::vector<std::string> Keywords(const Node& call);

// What the checks know of one operand of a call: its kind and node, the
// keyword, integer or shape it is, or the shape of a value's type.
struct LibOperand {
  LibOperandKind kind = LibOperandKind::kValue;
  const Node* node = nullptr;  // null for a keyword
  std::string keyword;
  int64_t integer = 0;
  // A shape's extents; a value's dimensions (an access pattern's all).
  std::vector<int64_t> dims;
  int split = -1;    // a value's access dimensions, -1 if no access pattern
  std::string text;  // a value's type, for messages: "(f32 4 3)"
};

// The operands of `call` (a LibCall of `def`), checked against the
// signatures: their count, keywords, integer and shape literals. Values are
// left for the caller to describe (dims, split, text).
absl::StatusOr<std::vector<LibOperand>> CallOperands(const LibCallDef& def,
                                                     const Node& call);

// The definition a call applies and the values of its sizes.
struct LibInstance {
  const LibClause* clause = nullptr;
  // Per size: its value, or a rest size's values.
  absl::flat_hash_map<const Node*, std::vector<int64_t>> sizes;
};

// Chooses the definition of `call` for `operands` (CallOperands, values
// described) and binds its sizes. An error names the operand whose shape
// does not fit, or the definitions there are.
absl::StatusOr<LibInstance> SelectDefinition(
    const LibCallDef& def, const Node& call,
    absl::Span<const LibOperand> operands);

// The body of `instance` as a new detached tree of `module`, every node
// written at `loc`: sizes become literals and the k value parameters
// variables bound by k lams outside the body, the last innermost (value
// parameter i is %(k-1-i) at the top of the body).
Node* InstantiateBody(Module& module, const LibInstance& instance,
                      const Location& loc);

// Replaces `call`, whose operands are typed (verified), by its definition:
// `(app (lam ... (app (lam BODY) a1) ...) a0)`, so that each value operand
// is bound once, shifted under the lams that bind the ones before it. The
// result's new nodes are untyped; calls in the body remain calls.
absl::Status ExpandLibCall(Module& module, Node& call);

}  // namespace tessel::ir

#endif  // TESSEL_LIBS_IR_LIBRARY_H_
