#include "libs/ir/cursor.h"

#include <algorithm>
#include <cassert>
#include <string>

#include "absl/strings/str_cat.h"
#include "libs/ir/forms.h"
#include "libs/support/source.h"

namespace tessel::ir {
namespace {

absl::Status Nowhere() {
  return absl::FailedPreconditionError("the cursor points nowhere");
}

// What a deleted node was, for the message of an invalid cursor.
absl::Status Deleted(const Node& node) {
  absl::string_view head = Spelling(node.op());
  std::string what =
      !head.empty()          ? absl::StrCat("(", head, " ...)")
      : !node.name().empty() ? absl::StrCat("'", node.name(), "'")
                             : std::string("node");
  return absl::FailedPreconditionError(FormatDiagnostic(
      node.loc(), absl::StrCat("the ", what,
                               " this cursor pointed at was deleted: it is "
                               "no longer in the module")));
}

}  // namespace

bool HasBody(const Node& node) {
  switch (node.op()) {
    case Op::kProc:
    case Op::kInstr:
    case Op::kFor:
    case Op::kThen:
    case Op::kElse:
      return true;
    default:
      return false;
  }
}

size_t BodyStart(const Node& owner) {
  return owner.is(Op::kProc) || owner.is(Op::kInstr)
             ? owner.num_operands() - BodyOf(owner).size()
             : owner.num_operands() - StatementsOf(owner).size();
}

absl::Span<Node* const> Body(const Node& owner) {
  return owner.operands().subspan(BodyStart(owner));
}

bool IsBodyStatement(const Node& node) {
  const Node* parent = node.parent();
  return parent != nullptr && HasBody(*parent) &&
         node.info().op_class == OpClass::kStmt && !node.is(Op::kAssert) &&
         !node.is(Op::kClobbers) && node.position() >= BodyStart(*parent);
}

// Cursor.

Node* Cursor::node() const {
  return module_ == nullptr || node_ == nullptr ? nullptr
                                                : module_->Current(node_);
}

absl::Status Cursor::status() const {
  if (module_ == nullptr || node_ == nullptr) return Nowhere();
  return is_valid() ? absl::OkStatus() : Deleted(*node_);
}

Cursor Cursor::parent() const {
  Node* node = this->node();
  if (node == nullptr || node->parent() == nullptr) return Cursor();
  return Cursor(*module_, node->parent());
}

Cursor Cursor::operand(size_t i) const {
  Node* node = this->node();
  if (node == nullptr || i >= node->num_operands()) return Cursor();
  return Cursor(*module_, node->operand(i));
}

Cursor Cursor::proc() const {
  Node* node = this->node();
  if (node == nullptr) return Cursor();
  while (node->parent() != nullptr) node = node->parent();
  return Cursor(*module_, node);
}

bool Cursor::is_statement() const {
  Node* node = this->node();
  return node != nullptr && IsBodyStatement(*node);
}

Cursor Cursor::prev() const {
  if (!is_statement()) return Cursor();
  Node* node = this->node();
  size_t position = node->position();
  if (position == BodyStart(*node->parent())) return Cursor();
  return Cursor(*module_, node->parent()->operand(position - 1));
}

Cursor Cursor::next() const {
  if (!is_statement()) return Cursor();
  Node* node = this->node();
  size_t position = node->position() + 1;
  if (position == node->parent()->num_operands()) return Cursor();
  return Cursor(*module_, node->parent()->operand(position));
}

Cursor Cursor::parent_stmt() const {
  if (!is_statement()) return Cursor();
  Node* owner = node()->parent();
  if (owner->is(Op::kThen) || owner->is(Op::kElse)) owner = owner->parent();
  if (owner->info().op_class != OpClass::kStmt) return Cursor();
  return Cursor(*module_, owner);
}

BlockCursor Cursor::body() const {
  Node* node = this->node();
  if (node == nullptr) return BlockCursor();
  if (node->is(Op::kIf)) node = node->operand(1);
  if (!HasBody(*node)) return BlockCursor();
  return BlockCursor::BodyOf(*module_, *node);
}

BlockCursor Cursor::orelse() const {
  Node* node = this->node();
  if (node == nullptr || !node->is(Op::kIf) || node->num_operands() < 3) {
    return BlockCursor();
  }
  return BlockCursor::BodyOf(*module_, *node->operand(2));
}

BlockCursor Cursor::as_block() const {
  if (!is_statement()) return BlockCursor();
  return BlockCursor(*this, *this);
}

GapCursor Cursor::before() const { return GapCursor::Before(*this); }
GapCursor Cursor::after() const { return GapCursor::After(*this); }

void Cursor::InsertBefore(Node* node) const {
  Node* here = this->node();
  module_->Insert(here->parent(), here->position(), node);
}

void Cursor::InsertAfter(Node* node) const {
  Node* here = this->node();
  module_->Insert(here->parent(), here->position() + 1, node);
}

void Cursor::Replace(Node* node) const { module_->Replace(this->node(), node); }

void Cursor::Delete() const { module_->Detach(node()); }

// BlockCursor.

BlockCursor BlockCursor::BodyOf(Module& module, const Node& owner) {
  assert(HasBody(owner));
  absl::Span<Node* const> body = Body(owner);
  BlockCursor block;
  block.owner_ = Cursor(module, &owner);
  if (!body.empty()) {
    block.first_ = Cursor(module, body.front());
    block.last_ = Cursor(module, body.back());
  }
  return block;
}

bool BlockCursor::Range(Node** owner, size_t* first, size_t* last) const {
  if (first_.module() == nullptr && last_.module() == nullptr) {
    // Empty: of its owner's body.
    *owner = owner_.node();
    *first = *owner == nullptr ? 0 : (*owner)->num_operands();
    *last = *first;
    return *owner != nullptr && HasBody(**owner);
  }
  Node* a = first_.node();
  Node* b = last_.node();
  if (a == nullptr || b == nullptr || !IsBodyStatement(*a) ||
      a->parent() != b->parent() || a->position() > b->position()) {
    return false;
  }
  *owner = a->parent();
  *first = a->position();
  *last = b->position() + 1;
  return true;
}

bool BlockCursor::is_valid() const {
  Node* owner;
  size_t first, last;
  return Range(&owner, &first, &last);
}

absl::Status BlockCursor::status() const {
  if (is_valid()) return absl::OkStatus();
  if (first_.module() == nullptr && last_.module() == nullptr) {
    return owner_.is_valid() ? absl::FailedPreconditionError(
                                   "the block's owner has no body")
                             : owner_.status();
  }
  if (!first_.is_valid()) return first_.status();
  if (!last_.is_valid()) return last_.status();
  return absl::FailedPreconditionError(
      "the block's ends are no longer statements of one body, in order");
}

Node* BlockCursor::owner() const {
  Node* owner;
  size_t first, last;
  return Range(&owner, &first, &last) ? owner : nullptr;
}

size_t BlockCursor::size() const {
  Node* owner;
  size_t first, last;
  return Range(&owner, &first, &last) ? last - first : 0;
}

std::vector<Node*> BlockCursor::statements() const {
  Node* owner;
  size_t first, last;
  if (!Range(&owner, &first, &last)) return {};
  return std::vector<Node*>(owner->operands().begin() + first,
                            owner->operands().begin() + last);
}

Cursor BlockCursor::operator[](size_t i) const {
  Node* owner;
  size_t first, last;
  if (!Range(&owner, &first, &last) || i >= last - first) return Cursor();
  return Cursor(*module(), owner->operand(first + i));
}

BlockCursor BlockCursor::Expand(size_t before, size_t after) const {
  Node* owner;
  size_t first, last;
  if (!Range(&owner, &first, &last) || first == last) return *this;
  size_t start = BodyStart(*owner);
  first -= std::min(before, first - start);
  last += std::min(after, owner->num_operands() - last);
  Module& module = *this->module();
  return BlockCursor(Cursor(module, owner->operand(first)),
                     Cursor(module, owner->operand(last - 1)));
}

GapCursor BlockCursor::before() const {
  if (first_.module() == nullptr) {
    Node* owner = owner_.node();
    return owner == nullptr ? GapCursor()
                            : GapCursor::Start(*owner_.module(), *owner);
  }
  return GapCursor::Before(first_);
}

GapCursor BlockCursor::after() const {
  if (last_.module() == nullptr) {
    Node* owner = owner_.node();
    return owner == nullptr ? GapCursor()
                            : GapCursor::End(*owner_.module(), *owner);
  }
  return GapCursor::After(last_);
}

GapCursor BlockCursor::Delete() const {
  Node* owner;
  size_t first, last;
  if (!Range(&owner, &first, &last)) return GapCursor();
  Module& module = *this->module();
  std::vector<Node*> statements = this->statements();
  GapCursor gap = last < owner->num_operands()
                      ? GapCursor::Before(Cursor(module, owner->operand(last)))
                      : GapCursor::End(module, *owner);
  for (Node* statement : statements) module.Detach(statement);
  return gap;
}

BlockCursor BlockCursor::Replace(absl::Span<Node* const> statements) const {
  assert(!statements.empty());
  Node* owner;
  size_t first, last;
  if (!Range(&owner, &first, &last)) return BlockCursor();
  Module& module = *this->module();
  std::vector<Node*> old = this->statements();
  for (Node* statement : old) module.Detach(statement);
  for (size_t i = 0; i < statements.size(); ++i) {
    module.Insert(owner, first + i, statements[i]);
  }
  if (!old.empty()) {
    module.Forward(old.front(), statements.front());
    module.Forward(old.back(), statements.back());
  }
  return BlockCursor(Cursor(module, statements.front()),
                     Cursor(module, statements.back()));
}

absl::Status BlockCursor::MoveTo(const GapCursor& gap) const {
  if (auto status = this->status(); !status.ok()) return status;
  if (auto status = gap.status(); !status.ok()) return status;
  std::vector<Node*> statements = this->statements();
  if (statements.empty()) return absl::OkStatus();
  // The gap's neighbours, which the move keeps: a gap next to the block
  // is where the block is, a gap inside it is nowhere to move to.
  Cursor prev = gap.prev();
  Cursor next = gap.next();
  auto inside = [&](const Cursor& cursor) {
    return cursor.is_valid() &&
           std::find(statements.begin(), statements.end(), cursor.node()) !=
               statements.end();
  };
  if (inside(prev) && inside(next)) {
    return absl::FailedPreconditionError(
        "cannot move a block into a gap inside it");
  }
  if (inside(prev) || inside(next)) return absl::OkStatus();
  Module& module = *this->module();
  Node* owner = gap.owner();
  for (Node* statement : statements) module.Detach(statement);
  size_t position = prev.is_valid() ? prev->position() + 1
                    : next.is_valid() ? next->position()
                                      : BodyStart(*owner);
  for (Node* statement : statements) {
    module.Insert(owner, position++, statement);
  }
  return absl::OkStatus();
}

// GapCursor.

GapCursor GapCursor::Before(const Cursor& stmt) {
  return stmt.is_statement() ? GapCursor(stmt, Side::kBefore) : GapCursor();
}

GapCursor GapCursor::After(const Cursor& stmt) {
  return stmt.is_statement() ? GapCursor(stmt, Side::kAfter) : GapCursor();
}

GapCursor GapCursor::Start(Module& module, const Node& owner) {
  assert(HasBody(owner));
  return GapCursor(Cursor(module, &owner), Side::kStart);
}

GapCursor GapCursor::End(Module& module, const Node& owner) {
  assert(HasBody(owner));
  return GapCursor(Cursor(module, &owner), Side::kEnd);
}

Node* GapCursor::owner() const {
  Node* anchor = anchor_.node();
  if (anchor == nullptr) return nullptr;
  if (side_ == Side::kStart || side_ == Side::kEnd) {
    return HasBody(*anchor) ? anchor : nullptr;
  }
  return IsBodyStatement(*anchor) ? anchor->parent() : nullptr;
}

absl::Status GapCursor::status() const {
  if (is_valid()) return absl::OkStatus();
  if (!anchor_.is_valid()) return anchor_.status();
  return absl::FailedPreconditionError(
      "the gap's statement is no longer a statement of a body");
}

size_t GapCursor::position() const {
  Node* anchor = anchor_.node();
  switch (side_) {
    case Side::kBefore:
      return anchor->position();
    case Side::kAfter:
      return anchor->position() + 1;
    case Side::kStart:
      return BodyStart(*anchor);
    case Side::kEnd:
      return anchor->num_operands();
  }
  return 0;
}

Cursor GapCursor::prev() const {
  Node* owner = this->owner();
  if (owner == nullptr) return Cursor();
  size_t position = this->position();
  if (position == BodyStart(*owner)) return Cursor();
  return Cursor(*anchor_.module(), owner->operand(position - 1));
}

Cursor GapCursor::next() const {
  Node* owner = this->owner();
  if (owner == nullptr) return Cursor();
  size_t position = this->position();
  if (position == owner->num_operands()) return Cursor();
  return Cursor(*anchor_.module(), owner->operand(position));
}

Cursor GapCursor::Insert(Node* stmt) {
  Node* owner = this->owner();
  assert(owner != nullptr && "insert into a valid gap");
  Module& module = *anchor_.module();
  module.Insert(owner, position(), stmt);
  Cursor inserted(module, stmt);
  if (side_ == Side::kAfter || side_ == Side::kStart) {
    *this = GapCursor(inserted, Side::kAfter);
  }
  return inserted;
}

}  // namespace tessel::ir
