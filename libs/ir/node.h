// The typed, editable IR: a module of top-level forms, each a tree of
// nodes. A node is an op (op.h) with operands (child nodes, in the order
// ops.def gives), attributes (a name, a number, a declared type), its type,
// what it refers to (the binder of a name, the top-level form of @NAME) and
// where it was read.
//
// Nodes live in their module's store and never move: a NodeId names one
// node for the module's lifetime, so ids and pointers held by a
// transformation (cursors, Exo 2's term) survive edits elsewhere in the
// tree. Editing detaches and attaches nodes; a detached node stays valid
// (it can be re-attached) but is no longer reachable from the module.
#ifndef TESSEL_LIBS_IR_NODE_H_
#define TESSEL_LIBS_IR_NODE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "libs/ir/op.h"
#include "libs/ir/type.h"
#include "libs/support/source.h"

namespace tessel::ir {

using NodeId = uint32_t;

// The kind of a `Param`: control parameters and data parameters.
enum class ParamKind : uint8_t {
  kSize,
  kIndex,
  kBool,
  kStride,
  kIn,
  kOut,
  kInOut
};

class Module;
namespace node_internal {
class NodeStore;
}  // namespace node_internal

class Node {
 public:
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  Op op() const { return op_; }
  const OpInfo& info() const { return Info(op_); }
  bool is(Op op) const { return op_ == op; }
  NodeId id() const;
  // Where the node was written (unknown when it was built in memory).
  Location loc() const;

  // The node's type; none for statements and declarations.
  const Type& type() const;
  void set_type(const Type& type);

  // The node this one is an operand of, or null for a top-level form and a
  // detached node.
  Node* parent() const;
  // The position of this node among its parent's operands.
  size_t position() const;

  absl::Span<Node* const> operands() const {
    return absl::MakeConstSpan(operands_, num_operands_);
  }
  size_t num_operands() const { return num_operands_; }
  Node* operand(size_t i) const { return operands_[i]; }

  // Attributes. `name` is what the node binds (For, Let, Alloc, Param,
  // Value, Field), refers to (Ref, and `@NAME` of Call, ReadConfig,
  // WriteConfig, top-level forms, a LibCall's callee) or a keyword
  // (Compute's operator, a config field, a Clause's kind). Names are
  // interned: a name is kept once, however many nodes have it.
  const std::string& name() const;
  void set_name(absl::string_view name);
  // Where the name, or the `@NAME` the node refers to, was written (the
  // node's own location when it was built in memory).
  Location name_loc() const;
  void set_name_loc(const Location& loc);
  // Where item `i` of the form was written (0 is the head), for
  // diagnostics about parts of a form that are not nodes of their own: an
  // operator's head, a field name, a declared type. The node's location
  // when it was built in memory.
  Location item_loc(size_t i) const;
  // Where the items of the form were written, when the form is not the
  // text at the node's location (a form built as S-expressions, e.g. a
  // lowered kernel located in the kernel's source).
  void set_item_locs(absl::Span<const std::pair<int, int>> line_cols);
  // The text of a Template or Clause: a C template, or `true`/`false`; a
  // LibCall's keyword operands, separated by spaces. Interned, as names are.
  const std::string& text() const;
  void set_text(absl::string_view text);
  // A Const's value (ints_value for integer literals, float_value for
  // float literals), a Var's De Bruijn index.
  bool is_float_literal() const { return is_float_; }
  int64_t int_value() const { return is_float_ ? 0 : int_; }
  double float_value() const { return is_float_ ? float_ : 0; }
  void set_int(int64_t value) {
    int_ = value;
    is_float_ = false;
  }
  void set_float(double value) {
    float_ = value;
    is_float_ = true;
  }
  // The type a Param, Value, Field or Alloc declares, the element type of a
  // Cast.
  const Type& declared_type() const;
  void set_declared_type(const Type& type);
  // Whether a For is parallel (written `for-par`, kParallelForSpelling):
  // its iterations may run in any order or at once. Every analysis reads
  // it as the loop it is; the verifier proves that its iterations commute
  // (libs/verify/parallel.cc) and emit-c writes an OpenMP loop.
  bool is_parallel() const { return parallel_; }
  void set_parallel(bool parallel) { parallel_ = parallel; }
  // A Param's kind; a data Param's or Alloc's memory is `def`.
  ParamKind param_kind() const { return param_kind_; }
  void set_param_kind(ParamKind kind) { param_kind_ = kind; }
  // What a Ref refers to (its binder), what `@NAME` of a Call, ReadConfig
  // or WriteConfig names, the memory of a data Param or Alloc written with
  // one. (A Var's binder follows from its place: de_bruijn.h, LamOf.)
  Node* def() const;
  void set_def(Node* def);

 private:
  friend class Module;
  friend class node_internal::NodeStore;
  // Only a module's store creates nodes, in place in its blocks.
  Node(Op op, uint16_t slot);

  // A node is 56 bytes: a module of small funcs has a node every 7 bytes
  // of text. What it refers to in its module (its parent, its binder, its
  // type, its source, its rare part) is a 32-bit index into the module's
  // tables, reached through the header of the block the node lives in
  // (node_store.h); names and texts are indices into the process's table
  // of interned names.
  node_internal::NodeStore& store() const;
  Location LocAt(uint32_t offset) const;
  // The node's rare part, made when first needed.
  struct Rare;
  struct Extra;
  Rare& rare();
  Extra& extra();
  const Extra* extra_if_any() const;

  // No node: of parent_ and def_; kForeign: def_ is in another module
  // (kept in the node's Extra).
  static constexpr uint32_t kNoNode = ~uint32_t{0};
  static constexpr uint32_t kForeign = kNoNode - 1;
  // A location is a byte offset in the node's source; kNowhere when
  // unknown (the node's own) or at the node's location (its name's).
  static constexpr uint32_t kNowhere = ~uint32_t{0};

  Op op_;
  ParamKind param_kind_ = ParamKind::kIn;
  bool is_float_ : 1 = false;
  // Whether `loc_offset_` is the '(' of the form's own text, so that its
  // items are found there (ListItemOffsets) rather than kept.
  bool text_form_ : 1 = false;
  bool parallel_ : 1 = false;
  // The node's place in its block.
  uint16_t slot_;
  // 1 + the index of the node's source among the module's; 0: none.
  uint16_t source_ = 0;
  uint32_t loc_offset_ = kNowhere;
  uint32_t name_offset_ = kNowhere;
  union {
    int64_t int_ = 0;
    double float_;
  };
  // An array of the module's (node_store.h, OperandArrays).
  Node** operands_ = nullptr;
  uint32_t num_operands_ = 0;
  NodeId parent_ = kNoNode;
  NodeId def_ = kNoNode;
  uint32_t name_ = 0;  // an interned name
  uint32_t type_ = 0;  // in the module's type table; 0: none
  // 1 + the index of the node's rare part in the module's; 0: none.
  uint32_t rare_ = 0;
};

class Module {
 public:
  Module();
  Module(Module&&) noexcept;
  Module& operator=(Module&&) noexcept;
  ~Module();

  // The file the module was read from (null when built in memory).
  const SourceRef& source() const { return source_; }
  void set_source(SourceRef source) { source_ = std::move(source); }

  // A new detached node. The module keeps `loc`'s source alive.
  Node* Create(Op op, const Location& loc = {});
  // A new detached node for the form read from the text at `loc`, whose
  // items are found there again when asked for (Node::item_loc).
  Node* CreateForText(Op op, const Location& loc);
  // A deep copy of `node`, detached. References inside the copy to binders
  // inside it point at the copied binders; others are kept. Declared types'
  // symbolic dimensions are copied with their declarations.
  Node* Clone(const Node* node);
  // The node with id `id`, attached or not.
  Node* Get(NodeId id) const;
  size_t size() const;

  // Top-level forms, in file order.
  absl::Span<Node* const> forms() const { return forms_; }
  // Appends a top-level form; its name must be new (see Find).
  void AddForm(Node* form);
  // The top-level form named `name` (with its '@'), or the predeclared
  // memory @DRAM, or null.
  Node* Find(absl::string_view name) const;
  // @DRAM, which every module has.
  Node* dram() const { return dram_; }

  // Editing. `parent` is attached or not; positions count operands.
  void Append(Node* parent, Node* child);
  void Insert(Node* parent, size_t position, Node* child);
  // Puts `replacement` (detached) where `old` is; `old` is detached, and
  // forwarded to `replacement` (Forward).
  void Replace(Node* old, Node* replacement);
  // Detaches `node` from its parent, or removes a top-level form.
  void Detach(Node* node);

  // Whether `node` is in the module: a top-level form or under one.
  bool Contains(const Node* node) const;
  // Forwarding, which cursors follow (cursor.h, as Exo 2's forward a
  // cursor through a rewrite): records that `to` took the place of `from`
  // (a node no longer in the module). Replace records it; a rewrite that
  // rebuilds a node elsewhere (a loop split into a nest) says so.
  void Forward(const Node* from, const Node* to);
  // Where `node` is now: itself while it is in the module, else what it
  // was forwarded to, followed while that left the module too; null when
  // the chain ends outside the module (the node was deleted).
  Node* Current(const Node* node) const;

 private:
  // The nodes and what they refer to, where they never move (a module
  // moves, its store does not).
  std::unique_ptr<node_internal::NodeStore> store_;
  std::vector<Node*> forms_;
  // By interned name.
  absl::flat_hash_map<uint32_t, Node*> globals_;
  Node* dram_ = nullptr;
  SourceRef source_;
  // Forward's records, by id.
  absl::flat_hash_map<NodeId, NodeId> forwards_;
};

// Structural equality of two trees: same ops, attributes (a `for-par` is
// not a `for`: a rewrite that matches one against the other would change
// which loops run in parallel) and types, and
// references to the same binders (or to binders at the same place in the
// two trees: `(for i ...)` and `(for j ...)` with matching bodies are
// alpha-equivalent), in symbolic dimensions too: every binder counts, a
// loop's, a parameter's, an alloc's, a let's and the CS-1 level's grid
// coordinates, locals and received values and indices. References to
// top-level forms (a call's callee, a config, a memory) agree when the forms
// have one name, so that trees of two modules compare. Locations and ids
// are ignored.
bool AlphaEquivalent(const Node* a, const Node* b);

// AlphaEquivalent for two statement lists of one length, compared in order
// with one binder map (a declaration in one statement binds the names of
// the next), with `a_binder` (outside `a`) and `b_binder` (outside `b`)
// taken as one binder: two loops' bodies, each loop's variable the
// other's.
bool AlphaEquivalent(absl::Span<Node* const> a, absl::Span<Node* const> b,
                     const Node* a_binder, const Node* b_binder);

// Whether `node` is `ancestor` or lies inside it.
bool IsInside(const Node* node, const Node* ancestor);

}  // namespace tessel::ir

#endif  // TESSEL_LIBS_IR_NODE_H_
