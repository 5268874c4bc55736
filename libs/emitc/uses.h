// What a piece of emitted C text refers to. Every C expression carries its
// uses, which merge as expressions combine and vanish with terms that
// constant folding drops; a statement commits the uses of its text once the
// text is part of the output. Text that is dropped (an assert written as a
// comment, a window that is never used) so declares nothing, and the output
// has no unused variables, types or helpers for -Wall -Wextra to flag.
#ifndef TESSEL_LIBS_EMITC_USES_H_
#define TESSEL_LIBS_EMITC_USES_H_

#include <compare>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "libs/emitc/helpers.h"
#include "libs/emitc/vector_types.h"
#include "libs/ir/types.h"

namespace tessel::ir {
class Node;
}  // namespace tessel::ir

namespace tessel::emitc {

// A window struct type: `struct tsl_win_f32_2 { float *data; int64_t
// strides[2]; }`, or with `const float *data` for windows that are only read.
struct WindowType {
  ElemType elem = ElemType::kF32;
  int rank = 1;
  bool is_const = false;

  friend auto operator<=>(const WindowType&, const WindowType&) = default;
};

// "struct tsl_win_f32_2" or "struct tsl_win_f32_2_const".
std::string WindowTypeName(const WindowType& type);

// File-scope definitions the output needs.
struct Needs {
  std::set<Helper> helpers;
  bool allocate = false;              // the runtime's tsl_allocate
  std::set<const ir::Node*> configs;  // Config forms
  std::set<WindowType> windows;
  // The vector level: C vector types, the helpers specialised for shapes
  // (name -> definition, vector_helpers.h) and memcpy (<string.h>).
  std::set<VectorCType> vector_types;
  std::map<std::string, std::string> vector_helpers;
  bool memcpy = false;
  // Headers the memories in use name: `(include "<immintrin.h>")`.
  std::set<std::string> includes;

  void Merge(const Needs& other);
};

struct Binding;  // scope.h

struct Uses {
  std::vector<Binding*> reads;   // values read, addresses taken or passed
  std::vector<Binding*> writes;  // locations only stored to
  Needs needs;

  void Merge(const Uses& other);
};

}  // namespace tessel::emitc

#endif  // TESSEL_LIBS_EMITC_USES_H_
