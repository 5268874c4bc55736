// Columns: the values of one expression for the lanes the executor computes
// it for at once (the iterations of a batch, the lanes of a vector, or
// one), and the loops that compute them, each with element_ops.h's
// arithmetic. A column of data of element type E holds element::Repr<E>
// per lane (float, double or int32_t), one of control values int64_t; lane
// l is element l. An operation computes the lanes of a LaneSet and leaves
// the others. Internal to libs/interp.
#ifndef TESSEL_LIBS_INTERP_COLUMN_OPS_H_
#define TESSEL_LIBS_INTERP_COLUMN_OPS_H_

#include <cstdint>

#include "libs/interp/element_ops.h"
#include "libs/ir/types.h"

namespace tessel {

// The most iterations a batch holds: long enough that the executor's
// dispatch on each operation is paid once for many elements, short enough
// that a statement's columns stay in the first-level cache.
inline constexpr int32_t kBatchLanes = 256;

// Lanes [0, count), or the `count` lanes `sel` lists in increasing order.
struct LaneSet {
  const int32_t* sel = nullptr;
  int32_t count = 0;

  static LaneSet Dense(int32_t count) { return LaneSet{nullptr, count}; }
  int32_t operator[](int32_t k) const { return sel != nullptr ? sel[k] : k; }
  int32_t first() const { return (*this)[0]; }
  int32_t last() const { return (*this)[count - 1]; }
  bool empty() const { return count == 0; }
};

// Calls f(lane) for every lane, in order.
template <typename F>
inline void ForEachLane(const LaneSet& lanes, F&& f) {
  if (lanes.sel == nullptr) {
    for (int32_t l = 0; l < lanes.count; ++l) f(l);
  } else {
    for (int32_t k = 0; k < lanes.count; ++k) f(lanes.sel[k]);
  }
}

// The first lane, in order, for which f(lane) is false, or -1.
template <typename F>
inline int32_t FirstFailingLane(const LaneSet& lanes, F&& f) {
  for (int32_t k = 0; k < lanes.count; ++k) {
    const int32_t l = lanes[k];
    if (!f(l)) return l;
  }
  return -1;
}

// out = a OP b on the lanes; the first lane of an integer division by zero,
// or -1.
int32_t ArithColumn(ElemType type, ArithOp op, const void* a, const void* b,
                    void* out, LaneSet lanes);
void NegateColumn(ElemType type, const void* a, void* out, LaneSet lanes);
// out = a * b + c on the lanes, each rounded once (the loop level's fma).
void ScalarFmaColumn(ElemType type, const void* a, const void* b, const void* c,
                     void* out, LaneSet lanes);
// out = (cast TO a); the first lane whose value TO cannot hold, or -1.
int32_t CastColumn(ElemType from, ElemType to, const void* a, void* out,
                   LaneSet lanes);
// out = a CMP b (1 or 0), on data of `type` or on control values.
void CompareColumn(ElemType type, CompareOp op, const void* a, const void* b,
                   int64_t* out, LaneSet lanes);
void CompareControlColumn(CompareOp op, const int64_t* a, const int64_t* b,
                          int64_t* out, LaneSet lanes);
// out[l] = cond[l] ? a[l] : b[l], `bytes` wide values.
void SelectColumn(int bytes, const int64_t* cond, const void* a, const void* b,
                  void* out, LaneSet lanes);
// Every lane of [from, to] of a column of `bytes` wide values takes the
// value of lane `from`.
void SpreadLane(int bytes, void* column, int32_t from, int32_t to);
// out[l] = the element of `type` at data + offsets[l] elements.
void GatherColumn(ElemType type, const uint8_t* data, const int64_t* offsets,
                  void* out, LaneSet lanes);

// The width of a column's values of element type `type`.
inline int ColumnBytes(ElemType type) { return type == ElemType::kF64 ? 8 : 4; }

}  // namespace tessel

#endif  // TESSEL_LIBS_INTERP_COLUMN_OPS_H_
