// The static inline functions emit-c's output defines for vector ops that
// are not one C operator on vector values: transfers (lanes inside the
// tensor copied, a row of consecutive elements at once, PAD for or dropping
// the others), loads and stores of vector parameters, broadcast of a
// scalar, fma rounded once per lane, integer division and float to integer
// casts checked per lane as the scalar level checks them, reductions from
// lane 0 and contractions in TIR's order of summation. Each is specialised
// for its element type and shape, named after them (tsl_vread_f32_4x4), and
// takes and gives vectors through pointers: GCC and Clang warn
// (-Wpsabi) that passing 32- and 64-byte vectors by value changes the ABI
// with the instruction set, and after inlining a pointer costs nothing.
//
// Only the real lanes (formats/tir/README.md, "Vector level") of a vector
// reach memory, an error check or a reduction; the padding lanes of its C
// type (vector_types.h) compute what they like.
#ifndef TESSEL_LIBS_EMITC_VECTOR_HELPERS_H_
#define TESSEL_LIBS_EMITC_VECTOR_HELPERS_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "libs/emitc/c_expr.h"
#include "libs/emitc/uses.h"
#include "libs/emitc/vector_types.h"
#include "libs/ir/keywords.h"

namespace tessel::emitc {

// How every vector helper is declared. GCC stops inlining `static inline`
// functions into a kernel past its growth limits (-Winline: 188 calls left
// out of line in a vectorized 256^3 matmul), and a transfer or an FMA
// called out of line passes its vectors through memory: 2 % of that
// matmul's time. The vector types already need GCC's extensions.
inline constexpr absl::string_view kVectorHelperDecl =
    "static inline __attribute__((always_inline)) ";

struct VectorHelper {
  std::string name;
  std::string definition;
  Needs needs;  // of the definition: types, scalar helpers, memcpy
};

// A call of `helper` with `arguments`; its uses need the helper and what
// its definition needs.
CExpr CallVectorHelper(const VectorHelper& helper,
                       const std::vector<CExpr>& arguments);

// tsl_vread_E_SHAPE(V *r, const E *p, int64_t i..., int64_t n...,
//                   int64_t s..., E pad): lane (k0, ...) of r is
// p[(i0 + k0) * s0 + ...] when 0 <= ij + kj < nj for every j, pad
// otherwise. `p` points at the view's element with the transfer's leading
// indices and zeros for its lane dimensions.
VectorHelper TransferRead(const VectorShape& shape);
// tsl_vwrite_E_SHAPE(E *p, int64_t i..., int64_t n..., int64_t s...,
//                    const V *v): the lanes inside stored, the others
// dropped. `nontemporal` (the write's clause, a hint): a row of f32 or f64
// that fills an AVX2 or AVX-512 register, inside and aligned, is written
// with a streaming store (tsl_vwritent_E_SHAPE), which bypasses the
// caches; the procedure then ends with an sfence (ProcWriter). Other
// shapes ignore the hint.
VectorHelper TransferWrite(const VectorShape& shape, bool nontemporal = false);

// tsl_vload_E_L(V *r, const E *p) and tsl_vstore_E_L(E *p, const V *v): the
// L lanes of a vector parameter, held densely where `p` points.
VectorHelper Load(const VectorShape& shape);
VectorHelper Store(const VectorShape& shape);

// Whether Transpose takes a 2-D vector of `shape`: square, a power of two
// rows, wider than a register (a register's one shuffle of all lanes is
// better).
bool TransposesByRows(const VectorShape& shape);
// tsl_vtranspose_E_DxD(V *r, const V *v): (transpose v (list 1 0)) on v as
// an array of D row vectors: log2(D) stages of two-source shuffles of pairs
// of rows, in registers, each stage swapping one bit of the row index with
// the same bit of the lane index, D log2(D) shuffles of a register in all
// (compilers move the lanes of one D*D-lane shuffle one by one).
VectorHelper Transpose(const VectorShape& shape);
// Whether (transpose V (list 1 0)) of `shape` is TransposeByRegisters's:
// two dimensions, not square (TransposesByRows takes those), filling two
// registers or more, each of whole lanes.
bool TransposesByRegisters(const VectorShape& shape);
// tsl_vtranspose_E_RxC(V *r, const V *v): (transpose v (list 1 0)) on v as
// an array of registers, each register of the result gathered from the
// registers it takes lanes of by a tree of two-source shuffles (pairs of
// them, then pairs of the pairs': 3 shuffles per register of a 16 x 4
// f32 tile), where one shuffle of all the lanes is lowered lane by lane
// (GCC 12: two moves through memory per lane).
VectorHelper TransposeByRegisters(const VectorShape& shape);
// tsl_vrowreduce_KIND_E_DxD(R *r, const V *v, const R *acc): (multi-reduction
// KIND v acc (list 1)) of a shape TransposesByRows takes, progressively
// lowered as MLIR lowers it: Transpose's network, then D combinations of
// whole rows into acc (lane r meets v[r, 0], v[r, 1], ... in order, as the
// op's definition), no lane-by-lane work.
VectorHelper RowReduction(ir::ReductionKind kind, const VectorShape& shape);
// tsl_vrowhalve_KIND_E_DxD(R *r, const V *v, const R *acc): the same with
// (order halving), reducing while it transposes: at each of log2(D) stages
// pairs of rows combine, each row's lanes halved (the upper half of every
// segment onto the lower), so that the D rows' partial sums share fewer
// registers stage by stage; 2(D-1) shuffles and D-1 combinations of whole
// registers, then one shuffle that puts row r's sum in lane r and its
// combination into acc.
VectorHelper HalvingRowReduction(ir::ReductionKind kind,
                                 const VectorShape& shape);

// tsl_vbroadcast_T(T *r, E x): every lane x; for 256- and 512-bit vectors
// of f32 or f64, the x86 instruction where the compiler targets AVX2 or
// AVX-512 (a loop otherwise).
VectorHelper Broadcast(const VectorCType& type);
// tsl_vfma_T(T *r, const T *a, const T *b, const T *c): a * b + c rounded
// once per lane (f32 and f64).
VectorHelper Fma(const VectorCType& type);
// Whether (outer-product A B [ACC]) of `shape` (the result's) goes a row at
// a time (OuterProductRows): f32 or f64 rows of 2 dimensions, the result
// wider than a register and each row a power of two of lanes within one.
bool OuterProductByRows(const VectorShape& shape);
// What each lane of OuterProductRows computes.
enum class RowStep {
  kProduct,  // A[i] * B[l]
  kFma,      // A[i] * B[l] + ACC[i, l], rounded once
  kMulAdd,   // ACC[i, l] + A[i] * B[l], rounded twice (a contract's step)
};
// The outer product of `shape` row by row: row i of the result is A[i]
// times B, per `step`. The C of one 64-lane shuffle per operand, which
// GCC 12 lowers a lane at a time, ran a 6 x 8 tile's matmul at 3.7 GFLOP/s
// on AVX2.
VectorHelper OuterProductRows(const VectorShape& shape, RowStep step);
// tsl_vdiv_E_L(V *r, const V *a, const V *b): i8 and i32 lanes divided as
// the scalar helpers divide them, a zero divisor an error.
VectorHelper Divide(const VectorShape& shape);
// tsl_vcast_TO_FROM_L(VTO *r, const VFROM *a): float lanes cast to an
// integer type, a value it cannot hold an error.
VectorHelper CheckedCast(ElemType to, const VectorShape& from);
// tsl_vcast_TO_FROM_L(VTO *r, const VFROM *a): f32 lanes widened to f64, in
// a loop over the lanes where __builtin_convertvector would do (GCC 12 fails
// on that builtin in some code compiled without AVX; docs/emit-c.md).
VectorHelper WideningCast(ElemType to, const VectorShape& from);
// tsl_vreduce_KIND_E_L(const V *v): the lanes combined from lane 0.
VectorHelper Reduction(ir::ReductionKind kind, const VectorShape& shape);

// tsl_vcontract_E_SHAPES_MAPS(V *r, const VA *a, const VB *b, const V *acc):
// formats/tir/README.md's contract of a, b and acc with the iteration
// dimensions `maps` (of a's, b's and acc's dimensions), summed in its order.
// With a combining kind other than add, ACC combines the products with it
// (the helper's name ends in the kind).
VectorHelper Contract(const VectorShape& a, const VectorShape& b,
                      const VectorShape& acc,
                      const std::vector<std::vector<int64_t>>& maps,
                      ir::ReductionKind kind = ir::ReductionKind::kAdd);

// TIR's (KIND a b) lane by lane on the vector values `a` and `b` (names or
// pure expressions, which it may read twice): VectorArithmetic's + and *,
// and max and min as TIR decides them (`a < b ? b : a`, `b < a ? b : a`:
// NaNs and signed zeros), with bitwise selects.
CExpr CombineLanes(ir::ReductionKind kind, const CExpr& a, const CExpr& b,
                   ElemType elem, int lanes);

// tsl_vwritem_E_SHAPE(E *p, int64_t i..., int64_t n..., int64_t s...,
//                     const V *v, const M *m): TransferWrite's, with the
// lanes whose mask lane (signed, as wide as E) is 0 dropped as well.
VectorHelper MaskedTransferWrite(const VectorShape& shape);

// TIR's elementwise (op a b) for op + - * / on the vector values `a` and
// `b` (names) of `elem` lanes, N = `lanes` of them, as one C expression: C's
// operator on f32 and f64 lanes, on float lanes rounded back to f16 for f16
// (each f16 operation rounded once, as the scalar level computes it), on
// unsigned lanes for i8 and i32 + - * (which wrap). Integer division is
// Divide's.
CExpr VectorArithmetic(ir::Op op, const CExpr& a, const CExpr& b, ElemType elem,
                       int lanes);

// The text of `__builtin_shufflevector(v, v, I...)` for the lane indices
// `indices` of `v`: an N-lane vector for N indices.
std::string Shuffle(const std::string& v, const std::vector<int64_t>& indices);

// C text converting the vector `value` to the vector type `type`, lane by
// lane as C converts scalars: `__builtin_convertvector(value, tsl_f32x8)`.
std::string ConvertVector(const std::string& value, const VectorCType& type);

}  // namespace tessel::emitc

#endif  // TESSEL_LIBS_EMITC_VECTOR_HELPERS_H_
