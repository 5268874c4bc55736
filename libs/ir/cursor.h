// Cursors: places in a module's procedures that survive edits, as Exo 2's
// do (its API_cursors.py): a node (Cursor), a run of consecutive
// statements of one body (BlockCursor) and a place between statements
// (GapCursor). A scheduling primitive takes its arguments as cursors,
// edits through them, and its caller's cursors still point where they
// should.
//
// A cursor holds nodes by identity and asks the module where they are now
// (Module::Current): an edit elsewhere leaves it alone; a node moved
// (detached and inserted again) is followed; a node replaced is forwarded
// to its replacement (a cursor to a loop that a rewrite replaced by a loop
// nest finds the nest); a node deleted makes the cursor invalid, and
// `status()` says which node that was and where it was written.
//
// A body is the statement list of a proc or instr (after its parameters,
// template and assertions: assertions are preconditions, not statements),
// of a for (after its bounds), of a then or an else.
#ifndef TESSEL_LIBS_IR_CURSOR_H_
#define TESSEL_LIBS_IR_CURSOR_H_

#include <cstddef>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "libs/ir/node.h"

namespace tessel::ir {

// Whether `node` has a body: a proc, instr, for, then or else.
bool HasBody(const Node& node);
// The operand position at which `owner`'s body starts.
size_t BodyStart(const Node& owner);
// The statements of `owner`'s body.
absl::Span<Node* const> Body(const Node& owner);
// Whether `node` is a statement of a body.
bool IsBodyStatement(const Node& node);

class BlockCursor;
class GapCursor;

class Cursor {
 public:
  // Points nowhere.
  Cursor() = default;
  Cursor(Module& module, const Node* node) : module_(&module), node_(node) {}

  Module* module() const { return module_; }
  // The node now (followed through forwarding), or null when the cursor
  // is invalid: it points nowhere or its node was deleted.
  Node* node() const;
  Node* operator->() const { return node(); }
  bool is_valid() const { return node() != nullptr; }
  // OK, or FailedPrecondition saying why the cursor is invalid.
  absl::Status status() const;
  // Two cursors are equal when they point at the same node now.
  bool operator==(const Cursor& other) const { return node() == other.node(); }

  // Navigation through operands: the enclosing node, operand `i`, the
  // top-level form. Invalid cursors where there is none.
  Cursor parent() const;
  Cursor operand(size_t i) const;
  Cursor proc() const;

  // Navigation through statements (Exo 2's statement cursors). Whether
  // the node is a statement of a body.
  bool is_statement() const;
  // The statement before and after this one in its body; invalid at the
  // ends and for a node that is not a statement (an expression, a bound).
  Cursor prev() const;
  Cursor next() const;
  // The for or if whose body holds this statement (an if for the
  // statements of its branches); invalid at the top of a proc.
  Cursor parent_stmt() const;
  // The body of a for, proc or instr, or an if's then-branch; the
  // else-branch of an if, invalid when it has none.
  BlockCursor body() const;
  BlockCursor orelse() const;
  // This statement as a block of one.
  BlockCursor as_block() const;
  // The gaps before and after this statement.
  GapCursor before() const;
  GapCursor after() const;

  // Edits of the node (a statement for InsertBefore and InsertAfter).
  // Inserted and replacing nodes are detached trees.
  void InsertBefore(Node* node) const;
  void InsertAfter(Node* node) const;
  // Puts `node` in the node's place; the cursor (and every cursor to the
  // node) then points at `node`.
  void Replace(Node* node) const;
  // Detaches the node: the cursor becomes invalid (unless the node is
  // inserted again).
  void Delete() const;

 private:
  Module* module_ = nullptr;
  const Node* node_ = nullptr;
};

// Consecutive statements of one body, from its first to its last; or the
// whole of an empty body.
class BlockCursor {
 public:
  // Points nowhere.
  BlockCursor() = default;
  // The statements from `first` to `last`, of one body, `first` not after
  // `last`.
  BlockCursor(const Cursor& first, const Cursor& last)
      : first_(first), last_(last) {}
  // The whole body of `owner` (HasBody).
  static BlockCursor BodyOf(Module& module, const Node& owner);

  // Valid when its ends are (followed through forwarding) statements of
  // one body in order; an empty block when its owner is.
  bool is_valid() const;
  absl::Status status() const;
  // The node whose body holds the block; null when invalid.
  Node* owner() const;
  bool empty() const { return size() == 0; }
  size_t size() const;
  // The statements, in order; none when invalid.
  std::vector<Node*> statements() const;
  Cursor operator[](size_t i) const;
  Cursor front() const { return first_; }
  Cursor back() const { return last_; }

  // Exo's expand: `before` more statements before the block and `after`
  // more after it, as many as the body has.
  BlockCursor Expand(size_t before, size_t after) const;
  // The gaps before the block's first statement and after its last.
  GapCursor before() const;
  GapCursor after() const;

  // Detaches the statements; returns the gap they leave. Cursors to them
  // become invalid.
  GapCursor Delete() const;
  // Puts `statements` (detached, at least one) in the block's place and
  // returns the block of them. The block's first and last statements are
  // forwarded to the first and last of `statements`, so that cursors to
  // the block (and to its ends) follow; cursors to the others become
  // invalid.
  BlockCursor Replace(absl::Span<Node* const> statements) const;
  // Moves the statements, in order, to `gap`, which must not lie inside
  // the block. Cursors to them follow.
  absl::Status MoveTo(const GapCursor& gap) const;

 private:
  Module* module() const {
    return first_.module() != nullptr ? first_.module() : owner_.module();
  }
  // Of an empty body: its owner.
  Cursor owner_;
  Cursor first_;
  Cursor last_;
  // The block's statements' positions among its owner's operands.
  bool Range(Node** owner, size_t* first, size_t* last) const;
};

// A place between statements of a body: before or after a statement, or at
// the start or end of a body (what an empty body has).
class GapCursor {
 public:
  // Points nowhere.
  GapCursor() = default;
  static GapCursor Before(const Cursor& stmt);
  static GapCursor After(const Cursor& stmt);
  static GapCursor Start(Module& module, const Node& owner);
  static GapCursor End(Module& module, const Node& owner);

  bool is_valid() const { return owner() != nullptr; }
  absl::Status status() const;
  // The node whose body the gap is in; null when invalid.
  Node* owner() const;
  // Where a statement inserted into the gap goes among its owner's
  // operands.
  size_t position() const;
  // The statements before and after the gap, invalid at the ends.
  Cursor prev() const;
  Cursor next() const;

  // Inserts `stmt` (detached) into the gap, which then lies after it, so
  // that statements inserted one after another keep their order.
  Cursor Insert(Node* stmt);

 private:
  enum class Side : uint8_t { kBefore, kAfter, kStart, kEnd };
  GapCursor(const Cursor& anchor, Side side) : anchor_(anchor), side_(side) {}

  // The statement the gap is before or after, or the owner of the body
  // whose start or end it is.
  Cursor anchor_;
  Side side_ = Side::kEnd;
};

}  // namespace tessel::ir

#endif  // TESSEL_LIBS_IR_CURSOR_H_
