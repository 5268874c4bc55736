#include "libs/ir/type.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <memory>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/hash/hash.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/synchronization/mutex.h"
#include "libs/ir/node.h"
#include "libs/ir/syntax.h"
#include "libs/sexpr/printer.h"

namespace tessel::ir {

struct Type::Rep {
  TypeKind kind = TypeKind::kNone;
  ElemType elem = ElemType::kF32;
  ControlType control = ControlType::kIndex;
  int split = 0;
  std::vector<Dim> dims;
  Type first;
  Type second;
  // No symbolic dimension anywhere in the type: it is interned.
  bool constant = true;
  // The Types that share this representation.
  mutable std::atomic<int64_t> references{0};
};

namespace {

// What identifies a type without symbolic dimensions; its parts (of a
// tuple or function) are interned, so they are identified by address.
struct InternKey {
  TypeKind kind;
  ElemType elem;
  int split;
  std::vector<int64_t> dims;
  const void* first;
  const void* second;

  friend bool operator==(const InternKey& a, const InternKey& b) {
    return a.kind == b.kind && a.elem == b.elem && a.split == b.split &&
           a.dims == b.dims && a.first == b.first && a.second == b.second;
  }
  template <typename H>
  friend H AbslHashValue(H hash, const InternKey& key) {
    return H::combine(std::move(hash), key.kind, key.elem, key.split,
                      key.dims, key.first, key.second);
  }
};

// Symbolic dimensions are control expressions of sizes, compared as
// written: by op, name and value (sizes are compared by name, which is how
// the declarations of a procedure see them).
bool SameExpression(const Node* a, const Node* b) {
  if (a->op() != b->op() || a->name() != b->name() ||
      a->int_value() != b->int_value() ||
      a->num_operands() != b->num_operands()) {
    return false;
  }
  for (size_t i = 0; i < a->num_operands(); ++i) {
    if (!SameExpression(a->operand(i), b->operand(i))) return false;
  }
  return true;
}

size_t HashExpression(const Node* node) {
  size_t hash = absl::HashOf(static_cast<int>(node->op()), node->name(),
                             node->int_value());
  for (const Node* operand : node->operands()) {
    hash = absl::HashOf(hash, HashExpression(operand));
  }
  return hash;
}

std::string DimText(const Dim& dim) {
  return dim.is_constant() ? absl::StrCat(dim.value)
                           : PrintFlat(WriteNode(*dim.expr));
}

std::string DimsText(absl::Span<const Dim> dims) {
  return absl::StrJoin(dims, " ", [](std::string* out, const Dim& dim) {
    out->append(DimText(dim));
  });
}

}  // namespace

bool operator==(const Dim& a, const Dim& b) {
  if (a.is_constant() || b.is_constant()) {
    return a.is_constant() && b.is_constant() && a.value == b.value;
  }
  return SameExpression(a.expr, b.expr);
}

Type::Type() : rep_(nullptr) {}

Type::Type(const Rep* rep) : rep_(rep) {
  if (rep_ != nullptr) rep_->references.fetch_add(1, std::memory_order_relaxed);
}

Type::Type(const Type& other) : Type(other.rep_) {}

Type::Type(Type&& other) noexcept : rep_(other.rep_) { other.rep_ = nullptr; }

Type& Type::operator=(const Type& other) {
  Type copy(other);
  std::swap(rep_, copy.rep_);
  return *this;
}

Type& Type::operator=(Type&& other) noexcept {
  std::swap(rep_, other.rep_);
  return *this;
}

Type::~Type() {
  if (rep_ != nullptr &&
      rep_->references.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    delete rep_;
  }
}

// Scalar types are shared by every node that has one: one representation
// per element or control type, made once, instead of one per node.
Type Type::Elem(ElemType elem) {
  static const auto* const kTypes = [] {
    auto* types = new std::vector<Type>();
    for (const ElemTypeInfo& info : kElemTypes) {
      auto rep = std::make_unique<Rep>();
      rep->kind = TypeKind::kElem;
      rep->elem = info.type;
      types->push_back(Type(rep.release()));
    }
    return types;
  }();
  return (*kTypes)[static_cast<size_t>(elem)];
}

Type Type::Control(ControlType control) {
  static const auto* const kTypes = [] {
    auto* types = new std::vector<Type>();
    for (ControlType type : {ControlType::kSize, ControlType::kIndex,
                             ControlType::kBool, ControlType::kStride}) {
      auto rep = std::make_unique<Rep>();
      rep->kind = TypeKind::kControl;
      rep->control = type;
      types->push_back(Type(rep.release()));
    }
    return types;
  }();
  return (*kTypes)[static_cast<size_t>(control)];
}

// Types without symbolic dimensions are interned for the process's
// lifetime: a module has a few distinct ones (`(f32 4)`, `(-> index f32)`)
// in most of its nodes, and each is made once. Types with symbolic
// dimensions refer to nodes of a module and are made per use.
Type Type::Intern(std::unique_ptr<Rep> rep) {
  if (!rep->constant) return Type(rep.release());
  InternKey key{rep->kind,         rep->elem,         rep->split, {},
                rep->first.rep_, rep->second.rep_};
  for (const Dim& dim : rep->dims) key.dims.push_back(dim.value);
  static auto* const types = new absl::flat_hash_map<InternKey, Type>();
  static auto* const mutex = new absl::Mutex();
  absl::MutexLock lock(mutex);
  auto [it, inserted] = types->try_emplace(std::move(key));
  if (inserted) it->second = Type(rep.release());
  return it->second;
}

Type Type::Shaped(TypeKind kind, ElemType elem, std::vector<Dim> dims,
                  int split) {
  auto rep = std::make_unique<Rep>();
  rep->kind = kind;
  rep->elem = elem;
  rep->dims = std::move(dims);
  rep->split = split;
  rep->constant = std::all_of(rep->dims.begin(), rep->dims.end(),
                              [](const Dim& dim) { return dim.is_constant(); });
  return Intern(std::move(rep));
}

Type Type::Tensor(ElemType elem, std::vector<Dim> dims) {
  return Shaped(TypeKind::kTensor, elem, std::move(dims), 0);
}

Type Type::Window(ElemType elem, std::vector<Dim> dims) {
  return Shaped(TypeKind::kWindow, elem, std::move(dims), 0);
}

Type Type::Access(ElemType elem, std::vector<Dim> dims, int split) {
  assert(split >= 0 && split <= static_cast<int>(dims.size()));
  return Shaped(TypeKind::kAccess, elem, std::move(dims), split);
}

Type Type::Tuple(Type first, Type second) {
  auto rep = std::make_unique<Rep>();
  rep->kind = TypeKind::kTuple;
  rep->constant = first.IsConstant() && second.IsConstant();
  rep->first = std::move(first);
  rep->second = std::move(second);
  return Intern(std::move(rep));
}

Type Type::Function(Type argument, Type result) {
  auto rep = std::make_unique<Rep>();
  rep->kind = TypeKind::kFunction;
  rep->constant = argument.IsConstant() && result.IsConstant();
  rep->first = std::move(argument);
  rep->second = std::move(result);
  return Intern(std::move(rep));
}

Type Type::Vector(ElemType elem, std::vector<int64_t> dims) {
  assert(!dims.empty());
  std::vector<Dim> constant;
  for (int64_t dim : dims) constant.push_back(Dim::Constant(dim));
  return Shaped(TypeKind::kVector, elem, std::move(constant), 0);
}

Type Type::WithDims(std::vector<Dim> dims) const {
  assert(is_shaped() && dims.size() == this->dims().size());
  return Shaped(kind(), elem(), std::move(dims), rep_->split);
}

bool Type::IsConstant() const { return rep_ == nullptr || rep_->constant; }

TypeKind Type::kind() const {
  return rep_ == nullptr ? TypeKind::kNone : rep_->kind;
}

bool Type::is_shaped() const {
  TypeKind k = kind();
  return k == TypeKind::kTensor || k == TypeKind::kWindow ||
         k == TypeKind::kAccess;
}

bool Type::is_control(ControlType control) const {
  return is_control() && rep_->control == control;
}

ElemType Type::elem() const {
  assert(is_elem() || is_shaped() || is_vector());
  return rep_->elem;
}

ControlType Type::control() const {
  assert(is_control());
  return rep_->control;
}

const std::vector<Dim>& Type::dims() const {
  static const auto* kNoDims = new std::vector<Dim>;
  return rep_ == nullptr ? *kNoDims : rep_->dims;
}

int Type::split() const {
  assert(kind() == TypeKind::kAccess);
  return rep_->split;
}

const Type& Type::first() const {
  assert(is_tuple() || is_function());
  return rep_->first;
}

const Type& Type::second() const {
  assert(is_tuple() || is_function());
  return rep_->second;
}

std::optional<std::vector<int64_t>> Type::ConstantDims() const {
  std::vector<int64_t> values;
  for (const Dim& dim : dims()) {
    if (!dim.is_constant()) return std::nullopt;
    values.push_back(dim.value);
  }
  return values;
}

Type Type::Normalized() const {
  if (is_shaped() && dims().empty()) return Elem(elem());
  return *this;
}

bool operator==(const Type& a, const Type& b) {
  if (a.rep_ == b.rep_) return true;
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case TypeKind::kNone:
      return true;
    case TypeKind::kElem:
      return a.elem() == b.elem();
    case TypeKind::kControl:
      return a.control() == b.control();
    case TypeKind::kAccess:
      if (a.split() != b.split()) return false;
      [[fallthrough]];
    case TypeKind::kTensor:
    case TypeKind::kWindow:
    case TypeKind::kVector:
      return a.elem() == b.elem() && a.dims() == b.dims();
    case TypeKind::kTuple:
    case TypeKind::kFunction:
      return a.first() == b.first() && a.second() == b.second();
  }
  return false;
}

size_t Type::Hash() const {
  if (rep_ == nullptr) return 0;
  size_t hash =
      absl::HashOf(static_cast<int>(rep_->kind), static_cast<int>(rep_->elem),
                   static_cast<int>(rep_->control), rep_->split);
  for (const Dim& dim : rep_->dims) {
    hash = absl::HashOf(hash, dim.is_constant() ? absl::HashOf(dim.value)
                                                : HashExpression(dim.expr));
  }
  if (is_tuple() || is_function()) {
    hash = absl::HashOf(hash, rep_->first.Hash(), rep_->second.Hash());
  }
  return hash;
}

std::string TypeText(const Type& type) {
  switch (type.kind()) {
    case TypeKind::kNone:
      return "none";
    case TypeKind::kElem:
      return std::string(ElemTypeName(type.elem()));
    case TypeKind::kControl:
      return std::string(ControlTypeName(type.control()));
    case TypeKind::kTensor:
      if (type.dims().empty()) return std::string(ElemTypeName(type.elem()));
      return absl::StrCat("(", ElemTypeName(type.elem()), " ",
                          DimsText(type.dims()), ")");
    case TypeKind::kWindow:
      return absl::StrCat("(window ", ElemTypeName(type.elem()), " ",
                          DimsText(type.dims()), ")");
    case TypeKind::kVector:
      return absl::StrCat("(vector ", ElemTypeName(type.elem()), " ",
                          DimsText(type.dims()), ")");
    case TypeKind::kAccess: {
      absl::Span<const Dim> dims(type.dims());
      return absl::StrCat("(access ", ElemTypeName(type.elem()), " (",
                          DimsText(dims.subspan(0, type.split())), ") (",
                          DimsText(dims.subspan(type.split())), "))");
    }
    case TypeKind::kTuple:
      return absl::StrCat("(tuple ", TypeText(type.first()), " ",
                          TypeText(type.second()), ")");
    case TypeKind::kFunction:
      return absl::StrCat("(-> ", TypeText(type.first()), " ",
                          TypeText(type.second()), ")");
  }
  return "?";
}

}  // namespace tessel::ir
