#include "libs/ir/node.h"

#include <algorithm>
#include <cassert>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/node_hash_set.h"
#include "absl/synchronization/mutex.h"
#include "libs/sexpr/reader.h"

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

namespace {

// The interned names (and texts): one string per distinct name for the
// process's lifetime, as types are (type.cc). A module of many small forms
// repeats a few names in most of its nodes.
const std::string* InternName(absl::string_view name) {
  static auto* const names = new absl::node_hash_set<std::string>();
  static auto* const mutex = new absl::Mutex();
  absl::MutexLock lock(mutex);
  return &*names->emplace(name).first;
}

}  // namespace

Node::Node(Key, Op op, NodeId id) : op_(op), id_(id), name_(InternName("")) {}

void Node::set_name(absl::string_view name) { name_ = InternName(name); }

Location Node::LocAt(uint32_t offset) const {
  auto [line, col] = source_->LineColumn(offset);
  return Location{source_->shared_from_this(), line, col};
}

Location Node::loc() const {
  if (rare_ != nullptr && rare_->locations != nullptr &&
      rare_->locations->loc) {
    return *rare_->locations->loc;
  }
  if (source_ == nullptr) return Location{};
  if (loc_offset_ == kNowhere) return Location{source_->shared_from_this()};
  return LocAt(loc_offset_);
}

void Node::set_loc(const Location& loc) {
  source_ = loc.source.get();
  if (source_ == nullptr) return;
  if (std::optional<uint32_t> offset = source_->Offset(loc.line, loc.col)) {
    loc_offset_ = *offset;
  } else if (loc.line != 0 || loc.col != 0) {
    locations().loc = loc;
  }
}

Location Node::name_loc() const {
  if (rare_ != nullptr && rare_->locations != nullptr &&
      rare_->locations->name_loc) {
    return *rare_->locations->name_loc;
  }
  if (name_offset_ == kNowhere) return loc();
  return LocAt(name_offset_);
}

void Node::set_name_loc(const Location& loc) {
  std::optional<uint32_t> offset;
  if (loc.source.get() == source_ && source_ != nullptr) {
    offset = source_->Offset(loc.line, loc.col);
  }
  if (offset) {
    name_offset_ = *offset;
  } else if (loc.known()) {
    locations().name_loc = loc;
  }
}

Location Node::item_loc(size_t i) const {
  if (text_form_) {
    std::vector<uint32_t> items =
        ListItemOffsets(source_->text(), loc_offset_);
    return i < items.size() ? LocAt(items[i]) : loc();
  }
  if (rare_ == nullptr || i >= rare_->item_locs.size()) return loc();
  Location loc = this->loc();
  loc.line = rare_->item_locs[i].first;
  loc.col = rare_->item_locs[i].second;
  return loc;
}

void Node::set_item_locs(absl::Span<const std::pair<int, int>> line_cols) {
  text_form_ = false;
  rare().item_locs.assign(line_cols.begin(), line_cols.end());
}

const std::string& Node::text() const {
  return rare_ != nullptr && rare_->text != nullptr ? *rare_->text
                                                     : *InternName("");
}

void Node::set_text(absl::string_view text) {
  if (text.empty() && rare_ == nullptr) return;
  rare().text = InternName(text);
}

const Type& Node::declared_type() const {
  static const auto* const kNone = new Type();
  return rare_ != nullptr ? rare_->declared : *kNone;
}

Module::Module() {
  dram_ = Create(Op::kMemory);
  dram_->set_name("@DRAM");
  globals_.emplace(dram_->name(), dram_);
}

Node* Module::Create(Op op, const Location& loc) {
  auto id = static_cast<NodeId>(nodes_.size());
  Node* node = &nodes_.emplace_back(Node::Key(), op, id);
  KeepSource(loc.source.get());
  node->set_loc(loc);
  return node;
}

void Module::KeepSource(const SourceBuffer* source) {
  // A module's nodes come from a few sources, the last one most often.
  if (source == nullptr ||
      std::any_of(sources_.rbegin(), sources_.rend(),
                  [&](const SourceRef& kept) { return kept.get() == source; })) {
    return;
  }
  sources_.push_back(source->shared_from_this());
}

Node* Module::CreateForText(Op op, const Location& loc) {
  Node* node = Create(op, loc);
  node->text_form_ = node->loc_offset_ != Node::kNowhere &&
                     node->source_->text()[node->loc_offset_] == '(';
  return node;
}

Node* Module::Clone(const Node* node) {
  absl::flat_hash_map<const Node*, Node*> copies;
  auto copy = [&](auto& self, const Node* from) -> Node* {
    Node* to = Create(from->op());
    to->source_ = from->source_;
    KeepSource(to->source_);
    to->loc_offset_ = from->loc_offset_;
    to->name_offset_ = from->name_offset_;
    to->text_form_ = from->text_form_;
    to->is_float_ = from->is_float_;
    to->param_kind_ = from->param_kind_;
    if (from->is_float_) {
      to->float_ = from->float_;
    } else {
      to->int_ = from->int_;
    }
    to->def_ = from->def_;
    to->name_ = from->name_;
    to->type_ = from->type_;
    if (from->rare_ != nullptr) {
      Node::Rare& rare = to->rare();
      rare.text = from->rare_->text;
      rare.declared = from->rare_->declared;
      rare.item_locs = from->rare_->item_locs;
      if (from->rare_->locations != nullptr) {
        rare.locations =
            std::make_unique<Node::Rare::Locations>(*from->rare_->locations);
      }
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
