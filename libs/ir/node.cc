#include "libs/ir/node.h"

#include <algorithm>
#include <cassert>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "libs/ir/node_store.h"
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
    case Op::kCoord:
    case Op::kLocal:
    case Op::kRecv:
      return true;
    default:
      return false;
  }
}

// Names that are references: compared through the binder map.
bool RefersByName(Op op) { return op == Op::kRef; }

class AlphaComparer {
 public:
  // `a` and `b` are one binder.
  void Bind(const Node* a, const Node* b) { binders_[a] = b; }

  bool Equal(const Node* a, const Node* b) {
    if (a->op() != b->op() || a->num_operands() != b->num_operands() ||
        !SameType(a->type(), b->type()) ||
        !SameType(a->declared_type(), b->declared_type()) ||
        a->is_float_literal() != b->is_float_literal() ||
        a->param_kind() != b->param_kind() ||
        a->is_parallel() != b->is_parallel()) {
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
  // Types are equal up to the names of the binders their symbolic
  // dimensions refer to.
  bool SameType(const Type& a, const Type& b) {
    if (a.kind() != b.kind()) return false;
    switch (a.kind()) {
      case TypeKind::kAccess:
      case TypeKind::kTensor:
      case TypeKind::kWindow:
        if (a.elem() != b.elem() || a.rank() != b.rank() ||
            (a.kind() == TypeKind::kAccess && a.split() != b.split())) {
          return false;
        }
        for (int k = 0; k < a.rank(); ++k) {
          const Dim& x = a.dims()[k];
          const Dim& y = b.dims()[k];
          if (x.is_constant() || y.is_constant()
                  ? x != y
                  : x.expr != y.expr && !Equal(x.expr, y.expr)) {
            return false;
          }
        }
        return true;
      case TypeKind::kTuple:
      case TypeKind::kFunction:
        return SameType(a.first(), b.first()) &&
               SameType(a.second(), b.second());
      default:
        return a == b;
    }
  }

  bool SameDef(const Node* a, const Node* b) const {
    auto it = binders_.find(a);
    if (it != binders_.end()) return it->second == b;
    // Top-level forms are named uniquely in their module: in two modules
    // (a tree and its copy elsewhere), the forms of one name correspond.
    return a == b || (a != nullptr && b != nullptr &&
                      a->info().op_class == OpClass::kTop &&
                      a->op() == b->op() && a->parent() == nullptr &&
                      b->parent() == nullptr && a->name() == b->name());
  }

  absl::flat_hash_map<const Node*, const Node*> binders_;
};

}  // namespace

using node_internal::InternName;
using node_internal::NameText;
using node_internal::NodeStore;

Node::Node(Op op, uint16_t slot) : op_(op), slot_(slot) {}

NodeStore& Node::store() const { return NodeStore::Of(*this); }

NodeId Node::id() const { return NodeStore::IdOf(*this); }

const Type& Node::type() const { return store().type(type_); }

void Node::set_type(const Type& type) { type_ = store().TypeIndex(type); }

Node* Node::parent() const {
  return parent_ == kNoNode ? nullptr : store().Get(parent_);
}

size_t Node::position() const {
  const Node* parent = this->parent();
  assert(parent != nullptr);
  absl::Span<Node* const> siblings = parent->operands();
  return static_cast<size_t>(
      std::find(siblings.begin(), siblings.end(), this) - siblings.begin());
}

const std::string& Node::name() const { return NameText(name_); }

void Node::set_name(absl::string_view name) { name_ = InternName(name); }

Node::Rare& Node::rare() {
  if (rare_ == 0) rare_ = store().NewRare();
  return store().rare(rare_);
}

Node::Extra& Node::extra() {
  Rare& rare = this->rare();
  if (rare.extra == nullptr) rare.extra = std::make_unique<Extra>();
  return *rare.extra;
}

const Node::Extra* Node::extra_if_any() const {
  return rare_ == 0 ? nullptr : store().rare(rare_).extra.get();
}

Location Node::LocAt(uint32_t offset) const {
  const SourceRef& source = store().source(source_);
  auto [line, col] = source->LineColumn(offset);
  return Location{source, line, col};
}

Location Node::loc() const {
  if (const Extra* extra = extra_if_any(); extra != nullptr && extra->loc) {
    return *extra->loc;
  }
  if (source_ == 0) return Location{};
  if (loc_offset_ == kNowhere) return Location{store().source(source_)};
  return LocAt(loc_offset_);
}

Location Node::name_loc() const {
  if (const Extra* extra = extra_if_any();
      extra != nullptr && extra->name_loc) {
    return *extra->name_loc;
  }
  if (name_offset_ == kNowhere) return loc();
  return LocAt(name_offset_);
}

void Node::set_name_loc(const Location& loc) {
  std::optional<uint32_t> offset;
  if (source_ != 0 && loc.source == store().source(source_)) {
    offset = loc.source->Offset(loc.line, loc.col);
  }
  if (offset) {
    name_offset_ = *offset;
  } else if (loc.known()) {
    extra().name_loc = loc;
  }
}

Location Node::item_loc(size_t i) const {
  if (text_form_) {
    std::vector<uint32_t> items =
        ListItemOffsets(store().source(source_)->text(), loc_offset_);
    return i < items.size() ? LocAt(items[i]) : loc();
  }
  const Extra* extra = extra_if_any();
  if (extra == nullptr || i >= extra->item_locs.size()) return loc();
  Location loc = this->loc();
  loc.line = extra->item_locs[i].first;
  loc.col = extra->item_locs[i].second;
  return loc;
}

void Node::set_item_locs(absl::Span<const std::pair<int, int>> line_cols) {
  text_form_ = false;
  extra().item_locs.assign(line_cols.begin(), line_cols.end());
}

const std::string& Node::text() const {
  return NameText(rare_ == 0 ? 0 : store().rare(rare_).text);
}

void Node::set_text(absl::string_view text) {
  if (text.empty() && rare_ == 0) return;
  rare().text = InternName(text);
}

const Type& Node::declared_type() const {
  return store().type(rare_ == 0 ? 0 : store().rare(rare_).declared);
}

void Node::set_declared_type(const Type& type) {
  if (type.is_none() && rare_ == 0) return;
  rare().declared = store().TypeIndex(type);
}

Node* Node::def() const {
  if (def_ == kNoNode) return nullptr;
  if (def_ == kForeign) return extra_if_any()->foreign_def;
  return store().Get(def_);
}

void Node::set_def(Node* def) {
  if (def == nullptr) {
    def_ = kNoNode;
  } else if (&def->store() == &store()) {
    def_ = def->id();
  } else {
    extra().foreign_def = def;
    def_ = kForeign;
  }
}

Module::Module() : store_(std::make_unique<NodeStore>()) {
  dram_ = Create(Op::kMemory);
  dram_->set_name("@DRAM");
  globals_.emplace(dram_->name_, dram_);
}

Module::Module(Module&&) noexcept = default;
Module& Module::operator=(Module&&) noexcept = default;
Module::~Module() = default;

Node* Module::Get(NodeId id) const { return store_->Get(id); }

size_t Module::size() const { return store_->size(); }

Node* Module::Create(Op op, const Location& loc) {
  Node* node = store_->New(op);
  if (loc.source == nullptr) return node;
  node->source_ = store_->KeepSource(loc.source.get());
  std::optional<uint32_t> offset;
  if (node->source_ != 0) offset = loc.source->Offset(loc.line, loc.col);
  if (offset) {
    node->loc_offset_ = *offset;
  } else if (node->source_ == 0 || loc.line != 0 || loc.col != 0) {
    node->extra().loc = loc;
  }
  return node;
}

Node* Module::CreateForText(Op op, const Location& loc) {
  Node* node = Create(op, loc);
  node->text_form_ =
      node->loc_offset_ != Node::kNowhere &&
      store_->source(node->source_)->text()[node->loc_offset_] == '(';
  return node;
}

Node* Module::Clone(const Node* node) {
  absl::flat_hash_map<const Node*, Node*> copies;
  auto copy = [&](auto& self, const Node* from) -> Node* {
    Node* to = store_->New(from->op());
    const NodeStore& from_store = from->store();
    if (from->source_ != 0) {
      to->source_ = store_->KeepSource(from_store.source(from->source_).get());
    }
    if (to->source_ != 0 || from->source_ == 0) {
      to->loc_offset_ = from->loc_offset_;
      to->name_offset_ = from->name_offset_;
      to->text_form_ = from->text_form_;
    } else {
      to->extra().loc = from->loc();
      to->extra().name_loc = from->name_loc();
    }
    to->is_float_ = from->is_float_;
    to->parallel_ = from->parallel_;
    to->param_kind_ = from->param_kind_;
    to->int_ = from->int_;
    to->name_ = from->name_;
    to->set_type(from->type());
    to->set_def(from->def());
    if (from->rare_ != 0) {
      const Node::Rare& rare = from_store.rare(from->rare_);
      to->rare().text = rare.text;
      // The declaration's symbolic dimensions are its own trees: the copy
      // gets copies, whose references follow the copy as its operands'
      // do (a cloned proc's `(f32 N)` names the copy's N).
      const Type& declared = from->declared_type();
      if (declared.is_shaped()) {
        std::vector<Dim> dims = declared.dims();
        for (Dim& dim : dims) {
          if (!dim.is_constant()) dim.expr = self(self, dim.expr);
        }
        to->set_declared_type(declared.WithDims(std::move(dims)));
      } else {
        to->set_declared_type(declared);
      }
      if (rare.extra != nullptr) {
        Node::Extra& extra = to->extra();
        extra.item_locs = rare.extra->item_locs;
        if (rare.extra->loc) extra.loc = rare.extra->loc;
        if (rare.extra->name_loc) extra.name_loc = rare.extra->name_loc;
      }
    }
    copies[from] = to;
    for (const Node* operand : from->operands()) {
      Append(to, self(self, operand));
    }
    return to;
  };
  Node* root = copy(copy, node);
  for (auto& [from, to] : copies) {
    auto it = copies.find(to->def());
    if (it != copies.end()) to->set_def(it->second);
    // An elaborated type whose dimensions are copied nodes (a declared
    // dimension, a window's bound) names the copies.
    const Type& type = to->type();
    if (!type.is_shaped()) continue;
    std::vector<Dim> dims = type.dims();
    bool copied = false;
    for (Dim& dim : dims) {
      auto dim_copy = dim.is_constant() ? copies.end() : copies.find(dim.expr);
      if (dim_copy == copies.end()) continue;
      dim.expr = dim_copy->second;
      copied = true;
    }
    if (copied) to->set_type(type.WithDims(std::move(dims)));
  }
  return root;
}

void Module::AddForm(Node* form) {
  assert(form->parent_ == Node::kNoNode);
  forms_.push_back(form);
  globals_.emplace(form->name_, form);
}

Node* Module::Find(absl::string_view name) const {
  std::optional<uint32_t> id = node_internal::FindName(name);
  if (!id) return nullptr;
  auto it = globals_.find(*id);
  return it == globals_.end() ? nullptr : it->second;
}

void Module::Append(Node* parent, Node* child) {
  Insert(parent, parent->num_operands_, child);
}

void Module::Insert(Node* parent, size_t position, Node* child) {
  assert((child->parent_ == Node::kNoNode) && "attach a detached node");
  assert(&parent->store() == store_.get() && &child->store() == store_.get());
  assert(position <= parent->num_operands_);
  uint32_t size = parent->num_operands_;
  // An array holds at least Capacity(size) operands, and one once it held
  // one.
  bool full = size == 0 ? parent->operands_ == nullptr
                        : NodeStore::Capacity(size) == size;
  if (full) {
    // Full: moved to an array twice as large.
    uint32_t capacity = size == 0 ? 1 : 2 * size;
    Node** operands = store_->AllocateOperands(capacity);
    std::copy(parent->operands_, parent->operands_ + size, operands);
    store_->FreeOperands(parent->operands_, size);
    parent->operands_ = operands;
  }
  std::copy_backward(parent->operands_ + position, parent->operands_ + size,
                     parent->operands_ + size + 1);
  parent->operands_[position] = child;
  parent->num_operands_ = size + 1;
  child->parent_ = parent->id();
}

void Module::Replace(Node* old, Node* replacement) {
  assert((replacement->parent_ == Node::kNoNode) && "attach a detached node");
  Node* parent = old->parent();
  if (parent == nullptr) {
    auto it = std::find(forms_.begin(), forms_.end(), old);
    assert((it != forms_.end()) && "replace an attached node");
    *it = replacement;
    globals_.erase(old->name_);
    globals_.emplace(replacement->name_, replacement);
    Forward(old, replacement);
    return;
  }
  parent->operands_[old->position()] = replacement;
  replacement->parent_ = old->parent_;
  old->parent_ = Node::kNoNode;
  Forward(old, replacement);
}

void Module::Detach(Node* node) {
  Node* parent = node->parent();
  if (parent == nullptr) {
    auto it = std::find(forms_.begin(), forms_.end(), node);
    if (it != forms_.end()) {
      forms_.erase(it);
      globals_.erase(node->name_);
    }
    return;
  }
  // The array keeps its room.
  size_t position = node->position();
  std::copy(parent->operands_ + position + 1,
            parent->operands_ + parent->num_operands_,
            parent->operands_ + position);
  --parent->num_operands_;
  node->parent_ = Node::kNoNode;
}

bool Module::Contains(const Node* node) const {
  if (&node->store() != store_.get()) return false;
  while (node->parent_ != Node::kNoNode) node = node->parent();
  auto it = globals_.find(node->name_);
  return it != globals_.end() && it->second == node && node != dram_;
}

void Module::Forward(const Node* from, const Node* to) {
  assert(&from->store() == store_.get() && &to->store() == store_.get());
  forwards_[from->id()] = to->id();
}

Node* Module::Current(const Node* node) const {
  // A chain is followed at most once around: nodes replaced back and
  // forth (a swap) make a cycle, in which no node is in the module.
  if (&node->store() != store_.get()) return nullptr;
  for (size_t steps = 0; steps <= forwards_.size(); ++steps) {
    if (Contains(node)) return const_cast<Node*>(node);
    auto it = forwards_.find(node->id());
    if (it == forwards_.end()) return nullptr;
    node = store_->Get(it->second);
  }
  return nullptr;
}

bool AlphaEquivalent(const Node* a, const Node* b) {
  return AlphaComparer().Equal(a, b);
}

bool AlphaEquivalent(absl::Span<Node* const> a, absl::Span<Node* const> b,
                     const Node* a_binder, const Node* b_binder) {
  if (a.size() != b.size()) return false;
  AlphaComparer comparer;
  comparer.Bind(a_binder, b_binder);
  for (size_t i = 0; i < a.size(); ++i) {
    if (!comparer.Equal(a[i], b[i])) return false;
  }
  return true;
}

bool IsInside(const Node* node, const Node* ancestor) {
  for (; node != nullptr; node = node->parent()) {
    if (node == ancestor) return true;
  }
  return false;
}

}  // namespace tessel::ir
