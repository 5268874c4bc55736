#include "libs/ir/node.h"

#include <algorithm>
#include <cassert>
#include <utility>

#include "absl/container/flat_hash_map.h"

namespace tessel::ir {
namespace {

// Ops whose `name` is a binding occurrence, ignored by AlphaEquivalent.
bool BindsName(Op op) {
  switch (op) {
    case Op::kFor:
    case Op::kLet:
    case Op::kAlloc:
    case Op::kParam:
    case Op::kValue:
      return true;
    default:
      return false;
  }
}

// Names that are references: compared through the binder map.
bool RefersByName(Op op) { return op == Op::kRef; }

class AlphaComparer {
 public:
  bool Equal(const Node* a, const Node* b) {
    if (a->op() != b->op() || a->num_operands() != b->num_operands() ||
        a->type() != b->type() || a->declared_type() != b->declared_type() ||
        a->is_float_literal() != b->is_float_literal() ||
        a->param_kind() != b->param_kind()) {
      return false;
    }
    if (a->is_float_literal() ? a->float_value() != b->float_value()
                              : a->int_value() != b->int_value()) {
      return false;
    }
    if (BindsName(a->op())) {
      binders_[a] = b;
    } else if (!RefersByName(a->op()) && a->name() != b->name()) {
      return false;
    }
    if (a->text() != b->text()) {
      return false;
    }
    if (!SameDef(a->def(), b->def())) return false;
    for (size_t i = 0; i < a->num_operands(); ++i) {
      if (!Equal(a->operand(i), b->operand(i))) return false;
    }
    return true;
  }

 private:
  bool SameDef(const Node* a, const Node* b) const {
    auto it = binders_.find(a);
    return it != binders_.end() ? it->second == b : a == b;
  }

  absl::flat_hash_map<const Node*, const Node*> binders_;
};

}  // namespace

size_t Node::position() const {
  assert(parent_ != nullptr);
  auto it =
      std::find(parent_->operands_.begin(), parent_->operands_.end(), this);
  return static_cast<size_t>(it - parent_->operands_.begin());
}

const std::string& Node::text() const {
  static const auto* const kEmpty = new std::string();
  return rare_ != nullptr ? rare_->text : *kEmpty;
}

const Type& Node::declared_type() const {
  static const auto* const kNone = new Type();
  return rare_ != nullptr ? rare_->declared : *kNone;
}

Location Node::item_loc(size_t i) const {
  if (i >= item_locs_.size()) return loc_;
  return Location{loc_.source, item_locs_[i].first, item_locs_[i].second};
}

Module::Module() {
  dram_ = Create(Op::kMemory);
  dram_->set_name("@DRAM");
  globals_.emplace(dram_->name(), dram_);
}

Node* Module::Create(Op op, Location loc) {
  auto id = static_cast<NodeId>(nodes_.size());
  return &nodes_.emplace_back(Node::Key(), op, id, std::move(loc));
}

Node* Module::Clone(const Node* node) {
  absl::flat_hash_map<const Node*, Node*> copies;
  auto copy = [&](auto& self, const Node* from) -> Node* {
    Node* to = Create(from->op(), from->loc());
    to->is_float_ = from->is_float_;
    to->param_kind_ = from->param_kind_;
    if (from->is_float_) {
      to->float_ = from->float_;
    } else {
      to->int_ = from->int_;
    }
    to->def_ = from->def_;
    to->name_ = from->name_;
    to->item_locs_ = from->item_locs_;
    to->type_ = from->type_;
    if (from->rare_ != nullptr) {
      to->rare_ = std::make_unique<Node::Rare>(*from->rare_);
    }
    copies[from] = to;
    for (const Node* operand : from->operands_) {
      Append(to, self(self, operand));
    }
    return to;
  };
  Node* root = copy(copy, node);
  for (auto& [from, to] : copies) {
    auto it = copies.find(to->def_);
    if (it != copies.end()) to->def_ = it->second;
  }
  return root;
}

void Module::AddForm(Node* form) {
  assert(form->parent_ == nullptr);
  forms_.push_back(form);
  globals_.emplace(form->name(), form);
}

Node* Module::Find(absl::string_view name) const {
  auto it = globals_.find(name);
  return it == globals_.end() ? nullptr : it->second;
}

void Module::Append(Node* parent, Node* child) {
  Insert(parent, parent->operands_.size(), child);
}

void Module::Insert(Node* parent, size_t position, Node* child) {
  assert((child->parent_ == nullptr) && "attach a detached node");
  assert(position <= parent->operands_.size());
  parent->operands_.insert(parent->operands_.begin() + position, child);
  child->parent_ = parent;
}

void Module::Replace(Node* old, Node* replacement) {
  assert((replacement->parent_ == nullptr) && "attach a detached node");
  if (old->parent_ == nullptr) {
    auto it = std::find(forms_.begin(), forms_.end(), old);
    assert((it != forms_.end()) && "replace an attached node");
    *it = replacement;
    globals_.erase(old->name());
    globals_.emplace(replacement->name(), replacement);
    return;
  }
  Node* parent = old->parent_;
  parent->operands_[old->position()] = replacement;
  replacement->parent_ = parent;
  old->parent_ = nullptr;
}

void Module::Detach(Node* node) {
  if (node->parent_ == nullptr) {
    auto it = std::find(forms_.begin(), forms_.end(), node);
    if (it != forms_.end()) {
      forms_.erase(it);
      globals_.erase(node->name());
    }
    return;
  }
  auto& siblings = node->parent_->operands_;
  siblings.erase(siblings.begin() + node->position());
  node->parent_ = nullptr;
}

bool AlphaEquivalent(const Node* a, const Node* b) {
  return AlphaComparer().Equal(a, b);
}

bool IsInside(const Node* node, const Node* ancestor) {
  for (; node != nullptr; node = node->parent()) {
    if (node == ancestor) return true;
  }
  return false;
}

}  // namespace tessel::ir
