// What TIR names denote in the C text of one procedure: the bindings of
// its binders (parameters, loop variables, allocations and `let` windows,
// which every reference reaches through Node::def), their C names, and
// whether the output refers to them.
#ifndef TESSEL_LIBS_EMITC_SCOPE_H_
#define TESSEL_LIBS_EMITC_SCOPE_H_

#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/string_view.h"
#include "libs/emitc/c_expr.h"
#include "libs/emitc/uses.h"
#include "libs/ir/node.h"
#include "libs/ir/types.h"

namespace tessel::emitc {

// How the elements of a tensor or window are addressed: element (x0, ...)
// of the view is `base[sum over d of (offsets[d] + i_d) * strides[d]]`,
// where d runs over the dimensions of the underlying buffer and i_d is the
// view index x_k when `kept[k] == d`, 0 otherwise. Its extents bound the
// lanes a vector transfer reaches.
struct View {
  CExpr base;                  // pointer to the buffer's first element
  std::vector<CExpr> strides;  // per dimension of the buffer
  std::vector<CExpr> offsets;  // per dimension of the buffer
  std::vector<int> kept;       // per dimension of the view
  std::vector<CExpr> extents;  // per dimension of the view
  Binding* root = nullptr;     // the parameter or alloc holding the data

  int rank() const { return static_cast<int>(kept.size()); }
};

// The view of a whole buffer of `extents`: `base` with the given strides,
// from element 0.
View WholeView(CExpr base, std::vector<CExpr> strides,
               std::vector<CExpr> extents, Binding* root);
// The strides of a row-major tensor with dimensions `dims`: (n m 16) has
// strides (m * 16, 16, 1).
std::vector<CExpr> RowMajorStrides(const std::vector<CExpr>& dims);

enum class BindingKind { kControl, kScalar, kBuffer, kVector };

struct Binding {
  BindingKind kind = BindingKind::kControl;
  std::string c_name;

  // kControl.
  bool non_negative = false;  // its value is known to be >= 0

  // kScalar, kBuffer and kVector.
  ElemType elem = ElemType::kF32;
  // kScalar and kVector: the C variable is a pointer to the value
  // (parameters, scalars allocated from a template); otherwise it is the
  // value.
  bool by_pointer = false;
  // kBuffer.
  View view;
  bool is_tensor = false;  // a whole tensor, passed as a plain pointer
  // A buffer in a memory of registers: a C array of registers indexed by
  // every dimension but the last, the lanes that only instructions touch.
  bool in_registers = false;
  // A window parameter: `c_name` is a struct of this type.
  std::optional<WindowType> window_param;

  // Set when committed uses refer to the binding.
  bool used = false;
  bool read = false;
};

class Scope {
 public:
  // `globals`: identifiers declared at file scope or named by templates,
  // which no local may shadow.
  explicit Scope(const absl::flat_hash_set<std::string>& globals);

  void Push();
  void Pop();

  // Binds `binder` (a Param, For or Alloc) in the innermost block. The
  // binding gets a C name, made from the binder's name, that no global and
  // no binding visible here has, so that text written for an outer binding
  // keeps its meaning inside inner blocks.
  Binding* Bind(const ir::Node& binder, Binding binding);
  // Binds `binder` to a binding that declares nothing in C (a `let`
  // window, whose accesses are written through the window's base).
  Binding* BindAlias(const ir::Node& binder, Binding binding);
  // A C name for a local the emitter introduces (a hoisted loop bound).
  std::string Fresh(absl::string_view base);
  // The binding of `binder` where it is visible, or null.
  Binding* Lookup(const ir::Node& binder) const;

  // Marks the bindings `uses` refers to as used (and read), and adds its
  // needs to `needs`.
  static void Commit(const Uses& uses, Needs& needs);

 private:
  bool Visible(absl::string_view c_name) const;

  struct Block {
    absl::flat_hash_map<const ir::Node*, Binding*> binders;
    absl::flat_hash_set<std::string> c_names;
  };
  const absl::flat_hash_set<std::string>& globals_;
  std::vector<Block> blocks_;
  std::deque<Binding> bindings_;  // stable addresses for the whole procedure
};

}  // namespace tessel::emitc

#endif  // TESSEL_LIBS_EMITC_SCOPE_H_
