// The types of the typed IR (formats/tir/README.md, "Types"): every node
// has one. Element and control types are scalars; tensors and windows have
// dimensions (integers at the tensor level, control expressions of sizes at
// the loop level); an access pattern is a tensor whose dimensions are split
// into access and compute dimensions (Glenside); tuples pair two values; a
// lam has a function type; statements and declarations have none.
//
// A Type is a small immutable value: copies share their representation and
// equality is structural, so that an e-graph can hash-cons typed nodes.
#ifndef TESSEL_LIBS_IR_TYPE_H_
#define TESSEL_LIBS_IR_TYPE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "libs/ir/types.h"

namespace tessel::ir {

class Node;

// One dimension: an integer, or a control expression of sizes (loop level)
// owned by the declaration that wrote it.
struct Dim {
  int64_t value = 0;
  const Node* expr = nullptr;

  static Dim Constant(int64_t value) { return {value, nullptr}; }
  static Dim Symbolic(const Node* expr) { return {0, expr}; }
  bool is_constant() const { return expr == nullptr; }
};

bool operator==(const Dim& a, const Dim& b);
inline bool operator!=(const Dim& a, const Dim& b) { return !(a == b); }

enum class TypeKind : uint8_t {
  kNone,      // statements, declarations, top-level forms
  kElem,      // a scalar of an element type
  kControl,   // size, index, bool or stride
  kTensor,    // a dense row-major array
  kWindow,    // a strided view (loop level)
  kAccess,    // an access pattern: a tensor with an access/compute split
  kTuple,     // (tuple first second)
  kFunction,  // the type of a lam: argument -> result
  kVector,    // (vector ELEM D...): an n-D value of literal dimensions
};

class Type {
 public:
  Type();  // none
  Type(const Type& other);
  Type(Type&& other) noexcept;
  Type& operator=(const Type& other);
  Type& operator=(Type&& other) noexcept;
  ~Type();

  static Type None() { return Type(); }
  static Type Elem(ElemType elem);
  static Type Control(ControlType control);
  static Type Tensor(ElemType elem, std::vector<Dim> dims);
  static Type Window(ElemType elem, std::vector<Dim> dims);
  // A tensor of constant `dims` seen as accessed over its first `split`.
  static Type Access(ElemType elem, std::vector<Dim> dims, int split);
  static Type Tuple(Type first, Type second);
  static Type Function(Type argument, Type result);
  // A vector value (the vector level) of `dims`, each > 0, at least one.
  static Type Vector(ElemType elem, std::vector<int64_t> dims);

  TypeKind kind() const;
  bool is_none() const { return kind() == TypeKind::kNone; }
  bool is_elem() const { return kind() == TypeKind::kElem; }
  bool is_control() const { return kind() == TypeKind::kControl; }
  bool is_tuple() const { return kind() == TypeKind::kTuple; }
  bool is_function() const { return kind() == TypeKind::kFunction; }
  // Vectors are values, not views: they are not shaped.
  bool is_vector() const { return kind() == TypeKind::kVector; }
  // Tensors, windows and access patterns.
  bool is_shaped() const;
  bool is_control(ControlType control) const;

  // Of elements, tensors, windows, access patterns and vectors.
  ElemType elem() const;
  ControlType control() const;
  const std::vector<Dim>& dims() const;
  int rank() const { return static_cast<int>(dims().size()); }
  // Of an access pattern: how many leading dimensions are access dimensions.
  int split() const;
  // Of a tuple: first and second; of a function: argument and result.
  const Type& first() const;
  const Type& second() const;

  // The same tensor, window or access pattern with `dims` (as many as it
  // has) in place of its dimensions: how an edit gives a declaration its
  // own copy of symbolic dimensions (Module::Clone) or changes them
  // (Substitute).
  Type WithDims(std::vector<Dim> dims) const;

  // The dimensions as integers, or nullopt when one is symbolic.
  std::optional<std::vector<int64_t>> ConstantDims() const;

  // A rank-0 tensor or access pattern is its element type (the spec says
  // so): the element type then, and the type itself otherwise.
  Type Normalized() const;

  // What identifies the representation the type shares with its copies
  // (null for none): types of the same identity are equal. A module's
  // nodes refer to their types by it (node_store.h).
  const void* identity() const { return rep_; }

  friend bool operator==(const Type& a, const Type& b);
  friend bool operator!=(const Type& a, const Type& b) { return !(a == b); }

  template <typename H>
  friend H AbslHashValue(H hash, const Type& type) {
    return H::combine(std::move(hash), type.Hash());
  }

 private:
  struct Rep;
  // Shares `rep` (reference counted: a type is one pointer, as many nodes
  // have one).
  explicit Type(const Rep* rep);
  // `rep`, or the interned representation equal to it (type.cc).
  static Type Intern(std::unique_ptr<Rep> rep);
  // Whether the type has no symbolic dimension (so is interned).
  bool IsConstant() const;
  // A type with an element type and dimensions (of `kind`).
  static Type Shaped(TypeKind kind, ElemType elem, std::vector<Dim> dims,
                     int split);
  size_t Hash() const;

  const Rep* rep_;
};

// As TIR writes types where it can: `f32`, `index`, `(f32 8 4)`,
// `(window f32 N 4)`, `(vector f32 4 8)`, `(tuple f32 (f32 4))`; access
// patterns as
// `(access f32 (8) (4))` and functions as `(-> index f32)`, forms that are
// for messages only.
std::string TypeText(const Type& type);

}  // namespace tessel::ir

#endif  // TESSEL_LIBS_IR_TYPE_H_
