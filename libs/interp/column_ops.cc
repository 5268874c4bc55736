#include "libs/interp/column_ops.h"

#include <cstring>

namespace tessel {
namespace {

using element::Repr;

template <typename T>
const T* Typed(const void* column) {
  return static_cast<const T*>(column);
}
template <typename T>
T* Typed(void* column) {
  return static_cast<T*>(column);
}

template <ElemType E, ArithOp Op>
int32_t Arith(const Repr<E>* a, const Repr<E>* b, Repr<E>* out, LaneSet lanes) {
  if constexpr (!element::kIsFloat<E> && Op == ArithOp::kDiv) {
    return FirstFailingLane(lanes, [&](int32_t l) {
      return element::Arith<E, Op>(a[l], b[l], out[l]);
    });
  } else {
    // Cannot fail: a loop the compiler may vectorize.
    ForEachLane(lanes,
                [&](int32_t l) { element::Arith<E, Op>(a[l], b[l], out[l]); });
    return -1;
  }
}

}  // namespace

int32_t ArithColumn(ElemType type, ArithOp op, const void* a, const void* b,
                    void* out, LaneSet lanes) {
  return element::WithElemType(type, [&]<ElemType E>() {
    return element::WithArithOp(op, [&]<ArithOp Op>() {
      return Arith<E, Op>(Typed<Repr<E>>(a), Typed<Repr<E>>(b),
                          Typed<Repr<E>>(out), lanes);
    });
  });
}

void NegateColumn(ElemType type, const void* a, void* out, LaneSet lanes) {
  element::WithElemType(type, [&]<ElemType E>() {
    const Repr<E>* in = Typed<Repr<E>>(a);
    Repr<E>* result = Typed<Repr<E>>(out);
    ForEachLane(lanes,
                [&](int32_t l) { result[l] = element::Negate<E>(in[l]); });
  });
}

// Where the processor has fused multiply-add instructions, fmaf and fma
// become one instruction instead of a call into the C library.
__attribute__((target_clones("fma", "default"))) void ScalarFmaColumn(
    ElemType type, const void* a, const void* b, const void* c, void* out,
    LaneSet lanes) {
  element::WithElemType(type, [&]<ElemType E>() {
    const Repr<E>* x = Typed<Repr<E>>(a);
    const Repr<E>* y = Typed<Repr<E>>(b);
    const Repr<E>* z = Typed<Repr<E>>(c);
    Repr<E>* result = Typed<Repr<E>>(out);
    ForEachLane(lanes, [&](int32_t l) {
      result[l] = element::Fma<E>(x[l], y[l], z[l]);
    });
  });
}

int32_t CastColumn(ElemType from, ElemType to, const void* a, void* out,
                   LaneSet lanes) {
  return element::WithElemType(from, [&]<ElemType From>() {
    return element::WithElemType(to, [&]<ElemType To>() {
      const Repr<From>* in = Typed<Repr<From>>(a);
      Repr<To>* result = Typed<Repr<To>>(out);
      return FirstFailingLane(lanes, [&](int32_t l) {
        return element::Cast<From, To>(in[l], result[l]);
      });
    });
  });
}

void CompareColumn(ElemType type, CompareOp op, const void* a, const void* b,
                   int64_t* out, LaneSet lanes) {
  element::WithElemType(type, [&]<ElemType E>() {
    const Repr<E>* x = Typed<Repr<E>>(a);
    const Repr<E>* y = Typed<Repr<E>>(b);
    ForEachLane(lanes,
                [&](int32_t l) { out[l] = element::Compare(op, x[l], y[l]); });
  });
}

void CompareControlColumn(CompareOp op, const int64_t* a, const int64_t* b,
                          int64_t* out, LaneSet lanes) {
  ForEachLane(lanes,
              [&](int32_t l) { out[l] = element::Compare(op, a[l], b[l]); });
}

void SelectColumn(int bytes, const int64_t* cond, const void* a, const void* b,
                  void* out, LaneSet lanes) {
  const auto* x = static_cast<const uint8_t*>(a);
  const auto* y = static_cast<const uint8_t*>(b);
  auto* result = static_cast<uint8_t*>(out);
  ForEachLane(lanes, [&](int32_t l) {
    std::memcpy(result + l * bytes, (cond[l] ? x : y) + l * bytes, bytes);
  });
}

void SpreadLane(int bytes, void* column, int32_t from, int32_t to) {
  auto* data = static_cast<uint8_t*>(column);
  if (bytes == 8) {
    int64_t value;
    std::memcpy(&value, data + from * 8, 8);
    for (int32_t l = from + 1; l <= to; ++l)
      std::memcpy(data + l * 8, &value, 8);
  } else {
    int32_t value;
    std::memcpy(&value, data + from * 4, 4);
    for (int32_t l = from + 1; l <= to; ++l)
      std::memcpy(data + l * 4, &value, 4);
  }
}

void GatherColumn(ElemType type, const uint8_t* data, const int64_t* offsets,
                  void* out, LaneSet lanes) {
  element::WithElemType(type, [&]<ElemType E>() {
    Repr<E>* result = Typed<Repr<E>>(out);
    const int width = ElemTypeBytes(E);
    ForEachLane(lanes, [&](int32_t l) {
      result[l] = element::Load<E>(data + offsets[l] * width);
    });
  });
}

}  // namespace tessel
