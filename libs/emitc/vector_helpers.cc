#include "libs/emitc/vector_helpers.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "libs/emitc/expr_emitter.h"
#include "libs/ir/op.h"
#include "libs/ir/vector_lanes.h"

namespace tessel::emitc {
namespace {

// The name of `type`, which `helper` now needs.
std::string Use(VectorHelper& helper, const VectorCType& type) {
  helper.needs.vector_types.insert(type);
  return VectorTypeName(type);
}

// A helper named tsl_vKIND_ELEM_SUFFIX.
VectorHelper Named(absl::string_view kind, ElemType elem,
                   absl::string_view suffix) {
  VectorHelper helper;
  helper.name =
      absl::StrCat("tsl_v", kind, "_", ElemTypeName(elem), "_", suffix);
  return helper;
}

// `int64_t x0, int64_t x1, ...` for the n dimensions of a transfer.
std::string DimParams(absl::string_view letter, size_t n) {
  std::vector<std::string> params;
  for (size_t j = 0; j < n; ++j) {
    params.push_back(absl::StrCat("int64_t ", letter, j));
  }
  return absl::StrJoin(params, ", ");
}

// The indices, extents and strides a transfer helper of rank n takes.
std::string TransferParams(size_t n) {
  return absl::StrCat(DimParams("i", n), ", ", DimParams("n", n), ", ",
                      DimParams("s", n));
}

// A sum of C terms; "0" for none.
std::string Sum(const std::vector<std::string>& terms) {
  return terms.empty() ? "0" : absl::StrJoin(terms, " + ");
}

// `k0 * 4 + k1`: the lane of position (k0, k1, ...), over the first
// `count` dimensions.
std::string LaneText(const std::vector<int64_t>& strides, size_t count) {
  std::vector<std::string> terms;
  for (size_t j = 0; j < count; ++j) {
    terms.push_back(strides[j] == 1 ? absl::StrCat("k", j)
                                    : absl::StrCat("k", j, " * ", strides[j]));
  }
  return Sum(terms);
}

// Opens `for (int64_t kj = 0; kj < Dj; kj++) {` for the first `count`
// dimensions, at `depth`; returns the depth inside.
int OpenLoops(const std::vector<int64_t>& dims, size_t count, int depth,
              std::string& text) {
  for (size_t j = 0; j < count; ++j) {
    absl::StrAppend(&text, std::string(2 * depth, ' '), "for (int64_t k", j,
                    " = 0; k", j, " < ", dims[j], "; k", j, "++) {\n");
    ++depth;
  }
  return depth;
}

void CloseLoops(size_t count, int depth, std::string& text) {
  for (size_t j = 0; j < count; ++j) {
    --depth;
    absl::StrAppend(&text, std::string(2 * depth, ' '), "}\n");
  }
}

// The condition under which every lane of a transfer of `dims` is inside
// (ij >= 0, ij + Dj <= nj) and its rows are consecutive elements (the last
// stride 1).
std::string WholeRows(const std::vector<int64_t>& dims) {
  const size_t n = dims.size();
  std::vector<std::string> whole;
  for (size_t j = 0; j < n; ++j) {
    whole.push_back(
        absl::StrCat("i", j, " >= 0 && i", j, " <= n", j, " - ", dims[j]));
  }
  whole.push_back(absl::StrCat("s", n - 1, " == 1"));
  return absl::StrJoin(whole, " && ");
}

// `&p[(i0 + k0) * s0 + ... + i(n-1)]`: the first element of the row at
// (k0, ...), with `k` the text of each leading position.
std::string RowAddress(size_t n, const std::vector<std::string>& k) {
  std::vector<std::string> row;
  for (size_t j = 0; j + 1 < n; ++j) {
    row.push_back(k[j] == "0" ? absl::StrCat("i", j, " * s", j)
                              : absl::StrCat("(i", j, " + ", k[j], ") * s", j));
  }
  row.push_back(absl::StrCat("i", n - 1));
  return absl::StrCat("&p[", Sum(row), "]");
}

bool IsPowerOfTwo(int64_t n) { return n > 0 && (n & (n - 1)) == 0; }

// A read whose rows are each a whole C vector and fill the vector (a power
// of two rows of a power of two lanes, no padding lanes), which a register
// holds: each row is loaded as a vector and the rows are concatenated by
// shuffles, in registers; for a vector wider than a register, whose
// registers each hold a power of two of its rows, so is each register's
// part, then stored whole into the vector. (Stores of rows into an array,
// or into the wide vector, read back as a register stall the processor's
// store forwarding: a 68 x 4 x 68 matmul, whose copy of B's columns reads
// 16 x 4 tiles and transposes them, ran at 61 GFLOP/s with the rows
// stored into the vector, 69 with each register's rows concatenated.)
// Empty for other shapes. Registers are `register_bytes` wide.
std::string ReadRows(const VectorShape& shape, int register_bytes,
                     VectorHelper& helper) {
  const std::vector<int64_t>& dims = shape.dims;
  const size_t n = dims.size();
  const int64_t rows = shape.lanes() / dims[n - 1];
  const int64_t register_lanes = register_bytes / ElemTypeBytes(shape.elem);
  const bool wide =
      int64_t{shape.padded()} * ElemTypeBytes(shape.elem) > register_bytes;
  // Rows per part: the whole vector, or a register of it.
  const int64_t part_rows = wide ? register_lanes / dims[n - 1] : rows;
  // One row (rows == 1) is TransferBody's single memcpy.
  if (n == 1 || rows == 1 || !IsPowerOfTwo(dims[n - 1]) ||
      !IsPowerOfTwo(rows) || part_rows < 2 || !IsPowerOfTwo(part_rows) ||
      rows % part_rows != 0 || shape.lanes() != shape.padded()) {
    return "";
  }
  std::string text = absl::StrCat("  if (", WholeRows(dims), ") {\n");
  const std::string elem(ElemTypeCName(shape.elem));
  for (int64_t first = 0; first < rows; first += part_rows) {
    std::vector<std::string> parts;
    int64_t lanes = dims[n - 1];
    std::string type = Use(helper, DataType(shape.elem, lanes));
    for (int64_t q = first; q < first + part_rows; ++q) {
      // The leading positions of row q.
      std::vector<std::string> k(n - 1);
      int64_t rest = q;
      for (size_t j = n - 1; j-- > 0;) {
        k[j] = absl::StrCat(rest % dims[j]);
        rest /= dims[j];
      }
      std::string name = absl::StrCat("w", q);
      absl::StrAppend(&text, "    ", type, " ", name, ";\n    memcpy(&", name,
                      ", ", RowAddress(n, k), ", sizeof ", name, ");\n");
      parts.push_back(name);
    }
    // The part's last concatenation: v, or p<first> of a wide vector.
    const std::string whole = wide ? absl::StrCat("p", first) : "v";
    for (int level = 1; parts.size() > 1; ++level) {
      std::vector<int64_t> both(2 * lanes);
      for (int64_t l = 0; l < 2 * lanes; ++l) both[l] = l;
      lanes *= 2;
      type = Use(helper, DataType(shape.elem, lanes));
      std::vector<std::string> joined;
      for (size_t i = 0; i < parts.size(); i += 2) {
        std::string name =
            parts.size() == 2 ? whole
            : wide ? absl::StrCat("u", first, "_", level, "_", i / 2)
                   : absl::StrCat("u", level, "_", i / 2);
        absl::StrAppend(&text, "    ", type, " ", name,
                        " = __builtin_shufflevector(", parts[i], ", ",
                        parts[i + 1], ", ", absl::StrJoin(both, ", "), ");\n");
        joined.push_back(name);
      }
      parts = std::move(joined);
    }
    if (wide) {
      absl::StrAppend(&text, "    memcpy((", elem, " *)r + ",
                      first * dims[n - 1], ", &", whole, ", sizeof ", whole,
                      ");\n");
    }
  }
  return text +
         (wide ? "    return;\n  }\n" : "    *r = v;\n    return;\n  }\n");
}

// `if (every lane is inside and rows are consecutive elements) {`, then a
// memcpy per row between memory and the lanes at `lanes` (a pointer to the
// vector's first lane) for a `read` or a write, or, with a `row_type` (a C
// vector of a row's lanes), two: each row through a variable of that type;
// the caller closes it.
std::string RowCopies(const VectorShape& shape, bool read,
                      const std::string& lanes,
                      const std::string& row_type = "") {
  const std::vector<int64_t>& dims = shape.dims;
  const size_t n = dims.size();
  std::string text = absl::StrCat("  if (", WholeRows(dims), ") {\n");
  const int depth = OpenLoops(dims, n - 1, 2, text);
  std::vector<std::string> k;
  for (size_t j = 0; j + 1 < n; ++j) k.push_back(absl::StrCat("k", j));
  const std::string row =
      n == 1 ? lanes
             : absl::StrCat(lanes == "lanes" ? "&lanes[" : lanes + " + ",
                            LaneText(LaneStrides(dims), n - 1),
                            lanes == "lanes" ? "]" : "");
  const std::string memory = RowAddress(n, k);
  const std::string indent(2 * depth, ' ');
  if (row_type.empty()) {
    absl::StrAppend(&text, indent, "memcpy(", read ? row : memory, ", ",
                    read ? memory : row, ", ", dims[n - 1], " * sizeof(",
                    ElemTypeCName(shape.elem), "));\n");
  } else {
    absl::StrAppend(&text, indent, row_type, " w;\n", indent, "memcpy(&w, ",
                    read ? memory : row, ", sizeof w);\n", indent, "memcpy(",
                    read ? row : memory, ", &w, sizeof w);\n");
  }
  CloseLoops(n - 1, depth, text);
  return text;
}

// For a vector wider than a register without padding lanes (which the
// compiler holds in memory): the rows copied between memory and the vector
// `r` (`read`) or `v` when every lane is inside, then return, each row
// through a register of its lanes where one holds it. Copying them through
// an array of lanes, or concatenating row vectors into the wide one, makes
// compilers move it lane by lane; copied by memcpy alone, GCC 12 moves a
// row of 8 f32 as two halves, which the whole-row load of its next use
// cannot take from the store buffer (AVX2's 8 x 8 transposes ran
// Transpose2D at 20 GB/s so, 50 with the rows written through registers,
// 106 with the transpose's rows stored alike: RowStores). Empty for other
// shapes.
std::string RowsInPlace(const VectorShape& shape, bool read,
                        VectorHelper& helper) {
  if (!shape.WiderThanRegister() || shape.lanes() != shape.padded()) return "";
  const std::string elem(ElemTypeCName(shape.elem));
  const int64_t row_lanes = shape.dims.back();
  const std::string row_type =
      row_lanes * ElemTypeBytes(shape.elem) <= kRegisterBytes
          ? Use(helper, DataType(shape.elem, static_cast<int>(row_lanes)))
          : "";
  return RowCopies(shape, read,
                   read ? absl::StrCat("(", elem, " *)r")
                        : absl::StrCat("(const ", elem, " *)v"),
                   row_type) +
         "    return;\n  }\n";
}

// ReadRows for AVX-512's registers, and where that differs, for AVX2's
// (`#if defined(__AVX512F__)`), else RowsInPlace's copies. GCC builds a
// concatenation of rows into a vector wider than the machine's registers
// a lane at a time: on AVX2, an 8 x 8 f32 read made of 16-lane pairs of
// rows ran Transpose2D at 5 GB/s, against 22 for the scalar loops.
std::string ReadRowsForTargets(const VectorShape& shape, VectorHelper& helper) {
  std::string avx512 = ReadRows(shape, kRegisterBytes, helper);
  std::string avx2 = ReadRows(shape, kRegisterBytes / 2, helper);
  if (avx512 == avx2) {
    return avx512.empty() ? RowsInPlace(shape, /*read=*/true, helper) : avx512;
  }
  if (avx512.empty()) avx512 = RowsInPlace(shape, /*read=*/true, helper);
  if (avx2.empty()) avx2 = RowsInPlace(shape, /*read=*/true, helper);
  return absl::StrCat("#if defined(__AVX512F__)\n", avx512, "#else\n", avx2,
                      "#endif\n");
}

// The body of TransferRead (`read`) or TransferWrite, between the lanes,
// held in `lanes` (the array `lanes`, or a vector variable `v`), and the
// vector: when every lane is inside and rows are consecutive elements, a
// row at a time (unless `rows_done`: ReadRows or RowsInPlace did it);
// otherwise lane by lane, testing each. A `masked` write tests every lane,
// and its mask lane m[lane] too.
// `lanes_setup` (declaring `lanes`, say) starts the lane-by-lane part;
// rows copied whole move between memory and `rows_from` (empty: `lanes`).
std::string TransferBody(const VectorShape& shape, bool read, bool rows_done,
                         bool masked = false,
                         const std::string& lanes = "lanes",
                         const std::string& partial = "",
                         const std::string& lanes_setup = "",
                         const std::string& rows_from = "") {
  const std::vector<int64_t>& dims = shape.dims;
  const size_t n = dims.size();
  const std::vector<int64_t> strides = LaneStrides(dims);
  std::string text;
  int depth = 1;
  if (!rows_done) {
    text = RowCopies(shape, read,
                     !rows_from.empty() ? rows_from
                     : lanes == "lanes"
                         ? lanes
                         : absl::StrCat("(", ElemTypeCName(shape.elem), " *)&",
                                        lanes)) +
           partial + "  } else {\n";
    depth = 2;
  }
  // Indented to the depth it starts at.
  for (absl::string_view line :
       absl::StrSplit(lanes_setup, '\n', absl::SkipEmpty())) {
    absl::StrAppend(&text, std::string(2 * (depth - 1), ' '), line, "\n");
  }
  const int inner = OpenLoops(dims, n, depth, text);
  std::vector<std::string> positions, inside, offset;
  for (size_t j = 0; j < n; ++j) {
    positions.push_back(absl::StrCat("j", j, " = i", j, " + k", j));
    inside.push_back(absl::StrCat("j", j, " >= 0 && j", j, " < n", j));
    offset.push_back(absl::StrCat("j", j, " * s", j));
  }
  const std::string indent(2 * inner, ' ');
  absl::StrAppend(&text, indent, "int64_t ", absl::StrJoin(positions, ", "),
                  ";\n");
  std::string lane = absl::StrCat(lanes, "[", LaneText(strides, n), "]");
  std::string element = absl::StrCat("p[", Sum(offset), "]");
  if (masked) {
    inside.push_back(absl::StrCat("(*m)[", LaneText(strides, n), "]"));
  }
  std::string condition = absl::StrJoin(inside, " && ");
  if (read) {
    absl::StrAppend(&text, indent, lane, " = (", condition, ") ? ", element,
                    " : pad;\n");
  } else {
    absl::StrAppend(&text, indent, "if (", condition, ") ", element, " = ",
                    lane, ";\n");
  }
  CloseLoops(n, inner, text);
  return rows_done ? text : text + "  }\n";
}

// `(vector f32 4 4)`, for comments.
std::string TirType(const VectorShape& shape) {
  return absl::StrCat("(vector ", ElemTypeName(shape.elem), " ",
                      absl::StrJoin(shape.dims, " "), ")");
}

// The declaration `E lanes[N]`, which holds a vector's lanes in memory.
std::string LanesArray(const VectorShape& shape, bool zeroed) {
  return absl::StrCat("  ", ElemTypeCName(shape.elem), " lanes[",
                      shape.padded(), "]", zeroed ? " = {0}" : "", ";\n");
}

}  // namespace

CExpr CallVectorHelper(const VectorHelper& helper,
                       const std::vector<CExpr>& arguments) {
  CExpr call = Call(helper.name, arguments);
  call.uses.needs.Merge(helper.needs);
  call.uses.needs.vector_helpers[helper.name] = helper.definition;
  return call;
}

namespace {

// The bits of `shape` where it is one row of f32 or f64 lanes that fills
// a register of 256 or 512 bits, else 0.
int64_t RegisterRowBits(const VectorShape& shape) {
  const int64_t bits = ElemTypeBytes(shape.elem) * 8 * shape.lanes();
  const bool row = shape.dims.size() == 1 && (shape.elem == ElemType::kF32 ||
                                              shape.elem == ElemType::kF64);
  return row && (bits == 256 || bits == 512) ? bits : 0;
}

// For a read or write of one row of f32 or f64 lanes in a register of 256
// or 512 bits: the branch of TransferRead's or TransferWrite's helper that
// moves a row whose last lanes lie past the tensor's end with one masked
// load or store (the lanes past it not accessed; read as PAD), where the
// target has one (AVX2's vmaskmov, and a blend of PAD for a read;
// AVX-512's masked moves); empty otherwise. Lane by lane, GCC 12 builds
// such a row from a masked broadcast per lane: a matmul's dot tiles, whose
// last vector of `k` is such a row, ran at 59 GFLOP/s on 96 x 4 x 100
// against 74 with the load; and it keeps a register tile's vectors that
// such a row is stored from in memory as well, storing them at every step
// of the reduction: 63^3, whose last vector of C's rows holds 15 lanes,
// ran at 66 GFLOP/s against 113 with the store. `value` is the register
// read into, or the pointer to the vector written. (Rows of 128 bits keep
// the lanes: 150^3, whose last two columns are a row of 4 lanes, ran 1.6 %
// slower with a masked load.)
std::string MaskedRow(const VectorShape& shape, const std::string& type,
                      bool read, const std::string& value) {
  const int64_t width = RegisterRowBits(shape);
  if (width == 0) return "";
  const int bits = static_cast<int>(ElemTypeBytes(shape.elem)) * 8;
  const std::string suffix = bits == 32 ? "ps" : "pd";
  const std::string branch =
      "\n  } else if (s0 == 1 && i0 >= 0 && i0 < n0) {\n";
  if (width == 512) {
    const std::string mask =
        absl::StrCat("(", bits == 32 ? "__mmask16" : "__mmask8",
                     ")((1u << (n0 - i0)) - 1u)");
    return absl::StrCat(
        "#if defined(__AVX512F__)", branch,
        read ? absl::StrCat("    ", value, " = (", type, ")_mm512_mask_loadu_",
                            suffix, "(_mm512_set1_", suffix, "(pad), ", mask,
                            ", &p[i0]);\n")
             : absl::StrCat("    _mm512_mask_storeu_", suffix, "(&p[i0], ",
                            mask, ", (__m512", bits == 32 ? "" : "d", ")*",
                            value, ");\n"),
        "#endif\n");
  }
  // Lanes below n0 - i0 set: a comparison of their positions.
  const std::string mask =
      bits == 32 ? "_mm256_cmpgt_epi32(_mm256_set1_epi32((int)(n0 - i0)), "
                   "_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7))"
                 : "_mm256_cmpgt_epi64(_mm256_set1_epi64x(n0 - i0), "
                   "_mm256_setr_epi64x(0, 1, 2, 3))";
  return absl::StrCat(
      "#if defined(__AVX2__)", branch, "    __m256i m = ", mask, ";\n",
      read
          ? absl::StrCat("    ", value, " = (", type, ")_mm256_blendv_", suffix,
                         "(_mm256_set1_", suffix, "(pad), _mm256_maskload_",
                         suffix, "(&p[i0], m), _mm256_castsi256_", suffix,
                         "(m));\n")
          : absl::StrCat("    _mm256_maskstore_", suffix, "(&p[i0], m, (__m256",
                         bits == 32 ? "" : "d", ")*", value, ");\n"),
      "#endif\n");
}

// For a read or write of a column (a vector of R x 1 lanes, one element
// of each of R rows) of f32 or f64 filling a 512-bit register: the branch
// that moves it, where every lane is inside and the rows' offsets fit the
// index lanes, with one AVX-512 gather or scatter, then returns; empty for
// other shapes. Moved lane by lane, such a column lets GCC 12 take the
// vector apart everywhere it flows from: a TN matmul's last column
// (vectorize stages it transposed and copies it out as 16 x 1 columns) ran
// its register tile's multiply-adds lane by lane, scalar: 65^3 at 74-76
// GFLOP/s, against 111 with the scatter. `value` is the register read
// into, or the pointer to the vector written.
std::string ColumnMove(const VectorShape& shape, const std::string& type,
                       bool read, const std::string& value) {
  const int bits = static_cast<int>(ElemTypeBytes(shape.elem)) * 8;
  if (shape.dims.size() != 2 || shape.dims[1] != 1 ||
      (shape.elem != ElemType::kF32 && shape.elem != ElemType::kF64) ||
      bits * shape.dims[0] != 512) {
    return "";
  }
  const int64_t rows = shape.dims[0];
  std::vector<int64_t> positions(rows);
  for (int64_t r = 0; r < rows; ++r) positions[r] = r;
  const std::string suffix = bits == 32 ? "ps" : "pd";
  const std::string index = bits == 32 ? "_mm512" : "_mm256";
  const std::string start = "&p[i0 * s0 + i1]";
  return absl::StrCat(
      "#if defined(__AVX512F__)\n  if (", WholeRows(shape.dims),
      " && s0 <= ", std::numeric_limits<int32_t>::max() / (rows - 1), ") {\n",
      "    __m", bits == 32 ? "512" : "256", "i at = ", index, "_mullo_epi32(",
      index, "_set1_epi32((int)s0), ", index, "_setr_epi32(",
      absl::StrJoin(positions, ", "), "));\n",
      read ? absl::StrCat("    ", value, " = (", type, ")_mm512_i32gather_",
                          suffix, "(at, ", start, ", ", bits / 8, ");\n")
           : absl::StrCat("    _mm512_i32scatter_", suffix, "(", start,
                          ", at, (__m512", bits == 32 ? "" : "d", ")*", value,
                          ", ", bits / 8, ");\n"),
      "    return;\n  }\n#endif\n");
}

// For a write of one row of f32 or f64 lanes filling a register of 256 or
// 512 bits, marked (nontemporal): the branch that stores it with one
// streaming store, then returns, where the row is inside, its elements
// consecutive and its address aligned to the register, as the instruction
// requires; empty for other shapes. A streaming store writes its line to
// memory without reading it into the caches first: a depthwise layer's
// output that outgrows the L2 (56 x 56 x 128 f32 on a Zen 3 core of
// 512 KiB) ran 10 % faster so, its tiles' lines no longer read for
// ownership and evicted again. `value` points at the vector written.
std::string StreamedRow(const VectorShape& shape, const std::string& value) {
  const int64_t width = RegisterRowBits(shape);
  if (width == 0) return "";
  const int bits = static_cast<int>(ElemTypeBytes(shape.elem)) * 8;
  const std::string suffix = bits == 32 ? "ps" : "pd";
  return absl::StrCat(
      "#if defined(", width == 512 ? "__AVX512F__" : "__AVX2__", ")\n  if (",
      WholeRows(shape.dims), " && ((uintptr_t)&p[i0] & ", width / 8 - 1,
      ") == 0) {\n    _mm", width, "_stream_", suffix, "(&p[i0], (__m", width,
      bits == 32 ? "" : "d", ")*", value, ");\n    return;\n  }\n#endif\n");
}

// The include of the intrinsics that `branches` (MaskedRow's, ColumnMove's,
// StreamedRow's) call, if any.
std::string IntrinsicsFor(const std::string& branches) {
  return branches.empty() ? ""
                          : "#if defined(__AVX2__) || defined(__AVX512F__)\n"
                            "#include <immintrin.h>\n#endif\n";
}

}  // namespace

VectorHelper TransferRead(const VectorShape& shape) {
  VectorHelper helper = Named("read", shape.elem, shape.Name());
  helper.needs.memcpy = true;
  const size_t n = shape.dims.size();
  const std::string elem(ElemTypeCName(shape.elem));
  const std::string rows = ReadRowsForTargets(shape, helper);
  const std::string type = Use(helper, DataType(shape));
  // A vector a register holds is built lane by lane in a vector variable,
  // which the compiler keeps in a register once the indices are constants
  // (a partial vector at a row's end): lanes stored into an array and
  // read back as one vector stall the store forwarding (a 150^3 matmul
  // ran at 72 GFLOP/s so, 92 from a variable). A wider one stays an array.
  const bool in_register = !shape.WiderThanRegister();
  const std::string partial =
      in_register ? MaskedRow(shape, type, /*read=*/true, "v") : "";
  const std::string column = ColumnMove(shape, type, /*read=*/true, "*r");
  helper.definition = absl::StrCat(
      IntrinsicsFor(partial + column), "/* TIR's (transfer-read ",
      TirType(shape),
      " A I... PAD): lane (k0, ...) is\n   p[(i0 + k0) * s0 + ...] where "
      "0 <= ij + kj < nj for every j, PAD\n   elsewhere. */\n",
      kVectorHelperDecl, "void ", helper.name, "(", type, " *r, const ", elem,
      " *p, ", TransferParams(n), ", ", elem, " pad) {\n", column, rows,
      in_register ? absl::StrCat("  ", type, " v = {0};\n")
                  : LanesArray(shape, true),
      TransferBody(shape, /*read=*/true, /*rows_done=*/!rows.empty(),
                   /*masked=*/false, in_register ? "v" : "lanes", partial),
      in_register ? "  *r = v;\n}\n"
                  : "  memcpy(r, lanes, sizeof lanes);\n}\n");
  return helper;
}

VectorHelper TransferWrite(const VectorShape& shape, bool nontemporal) {
  const std::string streamed = nontemporal ? StreamedRow(shape, "v") : "";
  VectorHelper helper =
      Named(streamed.empty() ? "write" : "writent", shape.elem, shape.Name());
  helper.needs.memcpy = true;
  const size_t n = shape.dims.size();
  const std::string rows = RowsInPlace(shape, /*read=*/false, helper);
  const std::string elem(ElemTypeCName(shape.elem));
  const std::string type = Use(helper, DataType(shape));
  const std::string partial = shape.WiderThanRegister()
                                  ? ""
                                  : MaskedRow(shape, type, /*read=*/false, "v");
  const std::string column = ColumnMove(shape, type, /*read=*/false, "v");
  helper.definition = absl::StrCat(
      IntrinsicsFor(partial + column + streamed),
      "/* TIR's (transfer-write V A I...",
      streamed.empty() ? "" : " (nontemporal)", ") of a ", TirType(shape),
      ": lane (k0, ...)\n   is stored at p[(i0 + k0) * s0 + ...] where "
      "0 <= ij + kj < nj for every\n   j, and dropped elsewhere. */\n",
      kVectorHelperDecl, "void ", helper.name, "(", elem, " *p, ",
      TransferParams(n), ", const ", type, " *v) {\n", streamed, column, rows,
      // The lanes are copied into an array only where they are stored one
      // by one: a copy made before the whole-row store kept GCC 12 from
      // holding the vector in a register when compiling for AVX2 (a
      // register tile's accumulators, which it then loaded and stored
      // around every multiply-add; for AVX-512 it did not).
      TransferBody(shape, /*read=*/false, /*rows_done=*/!rows.empty(),
                   /*masked=*/false, "lanes", partial,
                   absl::StrCat(LanesArray(shape, false),
                                "  memcpy(lanes, v, sizeof lanes);\n"),
                   absl::StrCat("(const ", elem, " *)v")),
      "}\n");
  return helper;
}

VectorHelper MaskedTransferWrite(const VectorShape& shape) {
  VectorHelper helper = Named("writem", shape.elem, shape.Name());
  helper.needs.memcpy = true;
  const size_t n = shape.dims.size();
  const std::string elem(ElemTypeCName(shape.elem));
  const VectorCType mask =
      SignedType(ElemTypeBytes(shape.elem) * 8, shape.padded());
  helper.definition = absl::StrCat(
      "/* TIR's (transfer-write V A I... (mask M)) of a ", TirType(shape),
      ": lane\n   (k0, ...) is stored at p[(i0 + k0) * s0 + ...] where its "
      "mask lane is set\n   and 0 <= ij + kj < nj for every j, and dropped "
      "elsewhere. */\n",
      kVectorHelperDecl, "void ", helper.name, "(", elem, " *p, ", TransferParams(n),
      ", const ", Use(helper, DataType(shape)), " *v, const ",
      Use(helper, mask), " *m) {\n", LanesArray(shape, false),
      "  memcpy(lanes, v, sizeof lanes);\n",
      TransferBody(shape, /*read=*/false, /*rows_done=*/true, /*masked=*/true),
      "}\n");
  return helper;
}

CExpr CombineLanes(ir::ReductionKind kind, const CExpr& a, const CExpr& b,
                   ElemType elem, int lanes) {
  switch (kind) {
    case ir::ReductionKind::kAdd:
      return VectorArithmetic(ir::Op::kAdd, a, b, elem, lanes);
    case ir::ReductionKind::kMul:
      return VectorArithmetic(ir::Op::kMul, a, b, elem, lanes);
    case ir::ReductionKind::kMax:
    case ir::ReductionKind::kMin:
      break;
  }
  // (max a b) takes b where a < b, (min a b) where b < a.
  const bool is_max = kind == ir::ReductionKind::kMax;
  const VectorCType type = DataType(elem, lanes);
  const VectorCType mask = SignedType(type.bits, lanes);
  const std::string as_mask = VectorTypeName(mask);
  auto bits = [&](const CExpr& v) {
    return mask == type ? v : Cast(as_mask, v);
  };
  CExpr less = Cast(as_mask, Binary("<", is_max ? a : b, is_max ? b : a));
  CExpr chosen = Binary("|", Binary("&", less, bits(b)),
                        Binary("&", Unary("~", less), bits(a)));
  CExpr value = mask == type ? chosen : Cast(VectorTypeName(type), chosen);
  value.uses = a.uses;
  value.uses.Merge(b.uses);
  value.uses.needs.vector_types.insert(type);
  value.uses.needs.vector_types.insert(mask);
  return value;
}

VectorHelper Load(const VectorShape& shape) {
  VectorHelper helper = Named("load", shape.elem, absl::StrCat(shape.lanes()));
  helper.needs.memcpy = true;
  const std::string elem(ElemTypeCName(shape.elem));
  helper.definition = absl::StrCat(
      "/* The ", shape.lanes(), " lanes of a ", ElemTypeName(shape.elem),
      " vector parameter, held densely at p. */\n", kVectorHelperDecl, "void ",
      helper.name, "(", Use(helper, DataType(shape)), " *r, const ", elem,
      " *p) {\n", LanesArray(shape, true), "  memcpy(lanes, p, ", shape.lanes(),
      " * sizeof(", elem, "));\n", "  memcpy(r, lanes, sizeof lanes);\n}\n");
  return helper;
}

VectorHelper Store(const VectorShape& shape) {
  VectorHelper helper = Named("store", shape.elem, absl::StrCat(shape.lanes()));
  helper.needs.memcpy = true;
  const std::string elem(ElemTypeCName(shape.elem));
  helper.definition = absl::StrCat(
      "/* Stores the ", shape.lanes(), " lanes of a ", ElemTypeName(shape.elem),
      " vector parameter densely at p; its padding lanes stay. */\n",
      kVectorHelperDecl, "void ", helper.name, "(", elem, " *p, const ",
      Use(helper, DataType(shape)), " *v) {\n", "  memcpy(p, v, ",
      shape.lanes(), " * sizeof(", elem, "));\n}\n");
  return helper;
}

bool TransposesByRows(const VectorShape& shape) {
  return shape.dims.size() == 2 && shape.dims[0] == shape.dims[1] &&
         shape.dims[0] > 1 && IsPowerOfTwo(shape.dims[0]) &&
         shape.WiderThanRegister();
}

namespace {

// The lanes of 16 bytes of a register: the unit within which x86's unpack
// and shufps shuffles mix two registers (a lane of 128 bits), at most `d`.
int64_t BlockLanes(ElemType elem, int64_t d) {
  return std::clamp<int64_t>(16 / ElemTypeBytes(elem), 1, d);
}

// One stage of a transpose network: registers `p` and `p + distance` of a
// stage shuffled into registers `p` and `p + distance` of the next, by the
// index lists `low` and `high`, for each `p` of `pairs`.
struct ShuffleStage {
  int64_t distance;
  std::vector<int64_t> pairs;
  std::vector<int64_t> low;
  std::vector<int64_t> high;
};

// The stages that transpose d rows of d lanes as x86 code does (d a power
// of two), each shuffle one unpack, shufps or 128-bit permute: first,
// within each block of `block` lanes, unpacks of 1, 2, ... lanes at a
// time, after which block k of register p holds one column of the rows of
// p's group of `block` registers; then the blocks, exchanged between the
// groups one bit of the block index at a time, as a transpose of blocks.
// Exchanging single lanes (`[0, 8, 2, 10, ...]` for an 8 x 8 f32) takes
// GCC two instructions per register.
std::vector<ShuffleStage> TransposeStages(int64_t d, int64_t block) {
  std::vector<ShuffleStage> stages;
  for (int64_t g = 1; g < block; g *= 2) {
    // Low: in each block, the first half of both registers' lanes, g of
    // the first's and g of the second's in turn; high: the second half.
    ShuffleStage stage{g, {}, {}, {}};
    for (int64_t k = 0; k < d; k += block) {
      for (int64_t c = 0; c < block / 2; c += g) {
        for (int64_t from : {k + c, d + k + c}) {
          for (int64_t e = 0; e < g; ++e) {
            stage.low.push_back(from + e);
            stage.high.push_back(from + block / 2 + e);
          }
        }
      }
    }
    for (int64_t p = 0; p < d; ++p) {
      if ((p & g) == 0) stage.pairs.push_back(p);
    }
    stages.push_back(std::move(stage));
  }
  for (int64_t bit = d / block / 2; bit >= 1; bit /= 2) {
    // Low: block j of the first register where j's bit is clear, block j -
    // bit of the second where it is set; high: the first's block j + bit
    // and the second's block j.
    ShuffleStage stage{bit * block, {}, {}, {}};
    for (int64_t l = 0; l < d; ++l) {
      const bool set = ((l / block) & bit) != 0;
      stage.low.push_back(set ? d + l - bit * block : l);
      stage.high.push_back(set ? d + l : l + bit * block);
    }
    for (int64_t p = 0; p < d; ++p) {
      if (((p / block) & bit) == 0) stage.pairs.push_back(p);
    }
    stages.push_back(std::move(stage));
  }
  return stages;
}

// The statements that transpose `v` (a shape TransposesByRows takes) as
// arrays of registers, a0 (v's rows) to aS; sets `rows` to the registers
// holding the transpose's rows, in order.
std::string TransposeNetwork(const VectorShape& shape, VectorHelper& helper,
                             std::vector<std::string>& rows) {
  const int64_t d = shape.dims[0];
  const std::string row = Use(helper, DataType(shape.elem, d));
  std::string text = absl::StrCat("  ", row, " a0[", d, "];\n",
                                  "  memcpy(a0, v, sizeof a0);\n");
  // Which lane of v (row * d + lane) each lane of each register holds.
  std::vector<std::vector<int64_t>> holds(d);
  for (int64_t p = 0; p < d; ++p) {
    for (int64_t l = 0; l < d; ++l) holds[p].push_back(p * d + l);
  }
  int stage = 0;
  for (const ShuffleStage& step :
       TransposeStages(d, BlockLanes(shape.elem, d))) {
    const std::string from = absl::StrCat("a", stage);
    const std::string to = absl::StrCat("a", ++stage);
    absl::StrAppend(&text, "  ", row, " ", to, "[", d, "];\n");
    std::vector<std::vector<int64_t>> next(d);
    for (int64_t p : step.pairs) {
      const int64_t q = p + step.distance;
      for (const auto& [r, lanes] :
           {std::pair{p, &step.low}, std::pair{q, &step.high}}) {
        absl::StrAppend(&text, "  ", to, "[", r, "] = __builtin_shufflevector(",
                        from, "[", p, "], ", from, "[", q, "], ",
                        absl::StrJoin(*lanes, ", "), ");\n");
        for (int64_t i : *lanes) {
          next[r].push_back(i < d ? holds[p][i] : holds[q][i - d]);
        }
      }
    }
    holds = std::move(next);
  }
  // Row j of the transpose is the register whose lane i holds v's lane
  // (i, j): the network leaves the rows in an order of its own.
  rows.assign(d, "");
  for (int64_t p = 0; p < d; ++p) {
    const int64_t column = holds[p][0] % d;
    rows[column] = absl::StrCat("a", stage, "[", p, "]");
  }
  return text;
}

// The names of the `count` registers of the array `name`.
std::vector<std::string> Registers(absl::string_view name, int64_t count) {
  std::vector<std::string> names;
  for (int64_t i = 0; i < count; ++i) {
    names.push_back(absl::StrCat(name, "[", i, "]"));
  }
  return names;
}

// The `registers` of `lanes` lanes each stored into `r` in order, one
// statement each: a copy of a whole array compiles to a call of memcpy
// (GCC 12, 256 bytes and up), whose stores the whole-row loads of the next
// use cannot take from the store buffer.
std::string RowStores(ElemType elem, const std::vector<std::string>& registers,
                      int64_t lanes) {
  const std::string type(ElemTypeCName(elem));
  std::string text;
  for (size_t i = 0; i < registers.size(); ++i) {
    absl::StrAppend(&text, "  memcpy((", type, " *)r + ", i * lanes, ", &",
                    registers[i], ", sizeof ", registers[i], ");\n");
  }
  return text;
}

}  // namespace

VectorHelper Transpose(const VectorShape& shape) {
  VectorHelper helper = Named("transpose", shape.elem, shape.Name());
  helper.needs.memcpy = true;
  const std::string name = Use(helper, DataType(shape));
  std::vector<std::string> rows;
  const std::string network = TransposeNetwork(shape, helper, rows);
  helper.definition = absl::StrCat(
      "/* TIR's (transpose V (list 1 0)) of a ", TirType(shape),
      ", on its rows: unpacks\n   of two rows within 16-byte blocks, then the "
      "blocks exchanged between\n   rows, by shuffles of two rows. */\n",
      kVectorHelperDecl, "void ", helper.name, "(", name, " *r, const ", name,
      " *v) {\n", network, RowStores(shape.elem, rows, shape.dims[1]), "}\n");
  return helper;
}

bool TransposesByRegisters(const VectorShape& shape) {
  const int64_t bytes = shape.lanes() * ElemTypeBytes(shape.elem);
  return shape.dims.size() == 2 && shape.dims[0] != shape.dims[1] &&
         shape.lanes() == shape.padded() && bytes > kRegisterBytes &&
         bytes % kRegisterBytes == 0;
}

VectorHelper TransposeByRegisters(const VectorShape& shape) {
  VectorHelper helper = Named("transpose", shape.elem, shape.Name());
  helper.needs.memcpy = true;
  const int64_t width = kRegisterBytes / ElemTypeBytes(shape.elem);
  const int64_t registers = shape.lanes() / width;
  const std::string name = Use(helper, DataType(shape));
  const std::string reg = Use(helper, DataType(shape.elem, width));
  const std::vector<int64_t> lanes = ir::TransposeLanes(shape.dims, {1, 0});
  std::string text =
      absl::StrCat("  ", reg, " a[", registers, "];\n  memcpy(a, v, sizeof a);\n",
                   "  ", reg, " o[", registers, "];\n");
  int temporaries = 0;
  for (int64_t q = 0; q < registers; ++q) {
    // Each operand of the tree: a register's text and, per lane of o[q],
    // the lane of it that holds the source lane, or -1.
    struct Part {
      std::string text;
      std::vector<int64_t> at;
    };
    std::vector<Part> parts;
    for (int64_t source = 0; source < registers; ++source) {
      Part part{absl::StrCat("a[", source, "]"),
                std::vector<int64_t>(width, -1)};
      bool used = false;
      for (int64_t l = 0; l < width; ++l) {
        const int64_t from = lanes[q * width + l];
        if (from / width == source) {
          part.at[l] = from % width;
          used = true;
        }
      }
      if (used) parts.push_back(std::move(part));
    }
    // Pairs combined until one is left: lane l of the pair's register is
    // the left's lane holding it, or the right's (offset by the width).
    while (parts.size() > 1) {
      std::vector<Part> next;
      for (size_t p = 0; p + 1 < parts.size(); p += 2) {
        Part pair{absl::StrCat("t", temporaries++),
                  std::vector<int64_t>(width, -1)};
        std::vector<int64_t> indices(width, 0);
        for (int64_t l = 0; l < width; ++l) {
          if (parts[p].at[l] >= 0) {
            indices[l] = parts[p].at[l];
          } else if (parts[p + 1].at[l] >= 0) {
            indices[l] = width + parts[p + 1].at[l];
          } else {
            continue;
          }
          pair.at[l] = l;
        }
        absl::StrAppend(&text, "  ", reg, " ", pair.text,
                        " = __builtin_shufflevector(", parts[p].text, ", ",
                        parts[p + 1].text, ", ", absl::StrJoin(indices, ", "),
                        ");\n");
        next.push_back(std::move(pair));
      }
      if (parts.size() % 2 == 1) next.push_back(std::move(parts.back()));
      parts = std::move(next);
    }
    // One register left: its lanes in place (a source register whole
    // needs a shuffle of its own).
    std::vector<int64_t> indices(width, 0);
    for (int64_t l = 0; l < width; ++l) indices[l] = std::max<int64_t>(0, parts[0].at[l]);
    absl::StrAppend(&text, "  o[", q, "] = __builtin_shufflevector(",
                    parts[0].text, ", ", parts[0].text, ", ",
                    absl::StrJoin(indices, ", "), ");\n");
  }
  helper.definition = absl::StrCat(
      "/* TIR's (transpose V (list 1 0)) of a ", TirType(shape),
      ", by registers: each\n   register of the result gathered from the "
      "registers of V it takes lanes\n   of, by a tree of two-source "
      "shuffles. */\n",
      kVectorHelperDecl, "void ", helper.name, "(", name, " *r, const ", name,
      " *v) {\n", text, RowStores(shape.elem, Registers("o", registers), width),
      "}\n");
  return helper;
}

namespace {

// The helper of a multi-reduction of the rows of a square tile `shape`
// into one row, `stem_KIND_E_DxD`, and its C types: the tile's and a row's.
struct RowReductionHelper {
  VectorHelper helper;
  std::string tile, row;
};
RowReductionHelper StartRowReduction(absl::string_view stem,
                                     ir::ReductionKind kind,
                                     const VectorShape& shape) {
  RowReductionHelper start;
  start.helper = Named(absl::StrCat(stem, "_", ir::Spelling(kind)), shape.elem,
                       shape.Name());
  start.helper.needs.memcpy = true;
  start.tile = Use(start.helper, DataType(shape));
  start.row = Use(start.helper, DataType(shape.elem, shape.dims[0]));
  return start;
}

// `start`'s helper, defined as `comment` then `void NAME(R *r, const V *v,
// const R *acc) {BODY}`.
VectorHelper FinishRowReduction(RowReductionHelper start,
                                absl::string_view comment,
                                absl::string_view body) {
  start.helper.definition =
      absl::StrCat(comment, kVectorHelperDecl, "void ", start.helper.name, "(",
                   start.row, " *r, const ", start.tile, " *v, const ",
                   start.row, " *acc) {\n", body, "}\n");
  return start.helper;
}

}  // namespace

VectorHelper RowReduction(ir::ReductionKind kind, const VectorShape& shape) {
  RowReductionHelper start = StartRowReduction("rowreduce", kind, shape);
  VectorHelper& helper = start.helper;
  const int64_t d = shape.dims[0];
  const std::string& row = start.row;
  std::vector<std::string> columns;
  std::string text = TransposeNetwork(shape, helper, columns);
  absl::StrAppend(&text, "  ", row, " s = *acc;\n");
  for (int64_t w = 0; w < d; ++w) {
    CExpr step = CombineLanes(kind, Primary("s"), Primary(columns[w]),
                              shape.elem, static_cast<int>(d));
    helper.needs.Merge(step.uses.needs);
    absl::StrAppend(&text, "  s = ", step.text, ";\n");
  }
  absl::StrAppend(&text, "  *r = s;\n");
  return FinishRowReduction(
      std::move(start),
      absl::StrCat(
          "/* TIR's (multi-reduction ", ir::Spelling(kind),
          " V ACC (list 1)) of a ", TirType(shape),
          ", lowered as\n   MLIR lowers it to 1-D ops: V transposed on its "
          "rows, then each of its\n   columns combined into ACC, lane r of the "
          "sum taking V[r, 0], V[r, 1], ...\n   in order. */\n"),
      text);
}

VectorHelper HalvingRowReduction(ir::ReductionKind kind,
                                 const VectorShape& shape) {
  RowReductionHelper start = StartRowReduction("rowhalve", kind, shape);
  VectorHelper& helper = start.helper;
  const int64_t d = shape.dims[0];
  const std::string& row = start.row;
  std::string text = absl::StrCat("  ", row, " a0[", d, "];\n",
                                  "  memcpy(a0, v, sizeof a0);\n");
  // Register q of a stage holds segments of `segment` lanes, one per row
  // of `rows[q]`, each that row's partial sums.
  std::vector<std::vector<int64_t>> rows(d);
  for (int64_t q = 0; q < d; ++q) rows[q] = {q};
  int stage = 0;
  for (int64_t segment = d; segment > 1; segment /= 2, ++stage) {
    const int64_t pairs = static_cast<int64_t>(rows.size()) / 2;
    const std::string from = absl::StrCat("a", stage);
    const std::string to = absl::StrCat("a", stage + 1);
    absl::StrAppend(&text, "  ", row, " ", to, "[", pairs, "];\n");
    // Registers q and q + pairs: the lower halves of their segments side by
    // side, combined with the upper halves.
    std::vector<int64_t> lower, upper;
    for (int64_t source = 0; source < 2; ++source) {
      for (int64_t first = 0; first < d; first += segment) {
        for (int64_t l = 0; l < segment / 2; ++l) {
          lower.push_back(source * d + first + l);
          upper.push_back(source * d + first + segment / 2 + l);
        }
      }
    }
    std::vector<std::vector<int64_t>> next(pairs);
    for (int64_t q = 0; q < pairs; ++q) {
      auto half = [&](const std::vector<int64_t>& lanes) {
        return Primary(absl::StrCat("__builtin_shufflevector(", from, "[", q,
                                    "], ", from, "[", q + pairs, "], ",
                                    absl::StrJoin(lanes, ", "), ")"));
      };
      CExpr combined = CombineLanes(kind, half(lower), half(upper), shape.elem,
                                    static_cast<int>(d));
      helper.needs.Merge(combined.uses.needs);
      absl::StrAppend(&text, "  ", to, "[", q, "] = ", combined.text, ";\n");
      next[q] = rows[q];
      next[q].insert(next[q].end(), rows[q + pairs].begin(),
                     rows[q + pairs].end());
    }
    rows = std::move(next);
  }
  // Lane l of the last register holds the sum of row rows[0][l].
  std::vector<int64_t> order(d);
  for (int64_t l = 0; l < d; ++l) order[rows[0][l]] = l;
  CExpr sum = CombineLanes(
      kind, Primary("*acc"),
      Primary(absl::StrCat("__builtin_shufflevector(a", stage, "[0], a", stage,
                           "[0], ", absl::StrJoin(order, ", "), ")")),
      shape.elem, static_cast<int>(d));
  helper.needs.Merge(sum.uses.needs);
  absl::StrAppend(&text, "  *r = ", sum.text, ";\n");
  return FinishRowReduction(
      std::move(start),
      absl::StrCat("/* TIR's (multi-reduction ", ir::Spelling(kind),
                   " V ACC (list 1) (reduction-order halving)) of a ",
                   TirType(shape),
                   ": at each stage, registers q and q + n/2\n   side by "
                   "side, the lower half of each row's segment combined with "
                   "its upper\n   half; then row r's sum moved to lane r and "
                   "combined into ACC. */\n"),
      text);
}

namespace {

// The x86 broadcast of a float register's lowest lane to a whole `type`
// of 256 or 512 bits of f32 or f64 lanes, and the macro of the
// instruction set that has it; nullopt for other types.
struct NativeBroadcast {
  std::string feature;
  std::string call;  // of `x`
};
std::optional<NativeBroadcast> X86Broadcast(const VectorCType& type) {
  if (type.kind != LaneKind::kFloat || (type.bits != 32 && type.bits != 64)) {
    return std::nullopt;
  }
  const int bits = type.bits * type.lanes;
  const std::string scalar =
      type.bits == 32 ? "_mm_set_ss(x)" : "_mm_set_sd(x)";
  const std::string suffix = type.bits == 32 ? "ss_ps" : "sd_pd";
  if (bits == 512) {
    return NativeBroadcast{"__AVX512F__",
                           absl::StrCat("_mm512_broadcast", suffix, "(",
                                        scalar, ")")};
  }
  if (bits == 256) {
    return NativeBroadcast{"__AVX2__", absl::StrCat("_mm256_broadcast", suffix,
                                                    "(", scalar, ")")};
  }
  // A 128-bit vector's loop, which the compiler folds into the fused
  // multiply-add's broadcast operand, ran a matmul's 4-lane nests faster
  // than the instruction (150^3: 102 against 84 GFLOP/s).
  return std::nullopt;
}

// The x86 fused multiply-add of a whole vector of `type` (f32 or f64 lanes
// filling 256 or 512 bits), its feature macro and register type. A 128-bit
// vector keeps its loop, which GCC 12 vectorizes under every tuning: as an
// intrinsic, the broadcast of an element feeding it (a loop as well,
// X86Broadcast) became a load and four `vinsertps` instead of one
// `vbroadcastss`, and AVX2's 68^3 and 100^3, whose last 4 columns are such
// vectors, ran 3 % slower.
struct NativeFma {
  std::string feature;
  std::string call;
  std::string register_type;
  std::string splat;  // a register of one value in every lane
};
std::optional<NativeFma> X86Fma(const VectorCType& type) {
  if (type.kind != LaneKind::kFloat || (type.bits != 32 && type.bits != 64)) {
    return std::nullopt;
  }
  const int bits = type.bits * type.lanes;
  const std::string suffix = type.bits == 32 ? "ps" : "pd";
  const std::string register_suffix = type.bits == 32 ? "" : "d";
  switch (bits) {
    case 512:
      return NativeFma{"__AVX512F__", "_mm512_fmadd_" + suffix,
                       "__m512" + register_suffix, "_mm512_set1_" + suffix};
    case 256:
      return NativeFma{"__FMA__", "_mm256_fmadd_" + suffix,
                       "__m256" + register_suffix, "_mm256_set1_" + suffix};
    default:
      return std::nullopt;
  }
}

// A helper's definition: `comment`, then the function `signature` whose
// body is `native` where the target has `feature` (x86's intrinsics,
// whose header it includes) and `lanes`, a loop over the lanes, elsewhere.
std::string NativeOrLanes(absl::string_view comment,
                          absl::string_view signature,
                          absl::string_view feature, absl::string_view native,
                          absl::string_view lanes) {
  return absl::StrCat(comment, "#if defined(", feature,
                      ")\n#include <immintrin.h>\n#endif\n", kVectorHelperDecl,
                      signature, " {\n#if defined(", feature, ")\n", native,
                      "#else\n", lanes, "#endif\n}\n");
}

}  // namespace

VectorHelper Broadcast(const VectorCType& type) {
  VectorHelper helper;
  const std::string name = Use(helper, type);
  helper.name = absl::StrCat("tsl_vbroadcast_", name.substr(4));
  const std::string lanes = absl::StrCat(
      "  ", name, " v = {0};\n  for (int l = 0; l < ", type.lanes,
      "; l++) v[l] = x;\n  *r = v;\n");
  const std::optional<NativeBroadcast> native = X86Broadcast(type);
  if (!native.has_value()) {
    helper.definition = absl::StrCat(
        "/* Every lane x (a loop that compilers make one broadcast). */\n",
        kVectorHelperDecl, "void ", helper.name, "(", name, " *r, ",
        LaneCType(type), " x) {\n", lanes, "}\n");
    return helper;
  }
  // GCC 12 at -O3 makes the lanes of a broadcast of an element read into a
  // whole vector read from that element on, then a shuffle: 64 bytes read
  // across two lines for one value, a matmul's 7 x 16 tile at 69 GFLOP/s
  // instead of 114. The instruction's builtin is opaque to that rewrite.
  helper.definition = NativeOrLanes(
      "/* Every lane x: the instruction where the target has it, else a loop\n"
      "   that compilers make one broadcast. */\n",
      absl::StrCat("void ", helper.name, "(", name, " *r, ", LaneCType(type),
                   " x)"),
      native->feature, absl::StrCat("  *r = (", name, ")", native->call, ";\n"),
      lanes);
  return helper;
}

VectorHelper Fma(const VectorCType& type) {
  VectorHelper helper;
  const std::string name = Use(helper, type);
  helper.name = absl::StrCat("tsl_vfma_", name.substr(4));
  const bool single = type.bits == 32;
  const std::string lanes = absl::StrCat(
      "  ", name, " x = *a, y = *b, z = *c;\n  for (int l = 0; l < ",
      type.lanes, "; l++) x[l] = ", single ? "__builtin_fmaf" : "__builtin_fma",
      "(x[l], y[l], z[l]);\n  *r = x;\n");
  const std::string comment =
      absl::StrCat("/* TIR's fma of ", single ? "f32" : "f64",
                   " lanes: a * b + c rounded once, lane by lane (",
                   single ? "fmaf" : "fma", ")");
  const std::string signature =
      absl::StrCat("void ", helper.name, "(", name, " *r, const ", name,
                   " *a, const ", name, " *b, const ", name, " *c)");
  const std::optional<NativeFma> native = X86Fma(type);
  if (!native.has_value()) {
    helper.definition = absl::StrCat(
        comment,
        ";\n   GCC and Clang make the loop one instruction where the target "
        "fuses\n   multiply and add, and call the C library's otherwise. */\n",
        kVectorHelperDecl, signature, " {\n", lanes, "}\n");
    return helper;
  }
  // GCC 12 tuned for Intel's AVX-512 cores (-march=skylake-avx512 to
  // sapphirerapids, and -march=native on them) prefers 256-bit vectors:
  // it made the loop of a 16-lane fma 16 scalar multiply-adds, a whole
  // matmul or convolution scalar; tuned for AMD's Zen 1 (-march=znver1,
  // 128-bit vectors preferred), the loop of an 8-lane one. The intrinsic
  // is one instruction whatever the tuning.
  const std::string& reg = native->register_type;
  helper.definition = NativeOrLanes(
      absl::StrCat(comment,
                   ": the\n   instruction where the target has it, else a "
                   "loop that GCC and Clang make\n   one instruction where the "
                   "target fuses multiply and add (the C library's\n   "
                   "otherwise). */\n"),
      signature, native->feature,
      absl::StrCat("  *r = (", name, ")", native->call, "((", reg, ")*a, (",
                   reg, ")*b, (", reg, ")*c);\n"),
      lanes);
  return helper;
}

bool OuterProductByRows(const VectorShape& shape) {
  return shape.dims.size() == 2 &&
         (shape.elem == ElemType::kF32 || shape.elem == ElemType::kF64) &&
         shape.WiderThanRegister() && IsPowerOfTwo(shape.dims[1]) &&
         shape.dims[1] * ElemTypeBytes(shape.elem) <= kRegisterBytes;
}

VectorHelper OuterProductRows(const VectorShape& shape, RowStep step) {
  const bool acc = step != RowStep::kProduct;
  VectorHelper helper = Named(step == RowStep::kProduct ? "outerp"
                              : step == RowStep::kFma   ? "outer"
                                                        : "outeradd",
                              shape.elem, shape.Name());
  helper.needs.memcpy = true;
  const int64_t rows = shape.dims[0];
  const int64_t columns = shape.dims[1];
  const std::string elem(ElemTypeCName(shape.elem));
  const std::string name = Use(helper, DataType(shape));
  const std::string a = Use(helper, DataType(VectorShape{shape.elem, {rows}}));
  const std::string row =
      Use(helper, DataType(shape.elem, static_cast<int>(columns)));
  const bool single = shape.elem == ElemType::kF32;
  const std::string lane =
      step == RowStep::kFma
          ? absl::StrCat(single ? "__builtin_fmaf" : "__builtin_fma",
                         "(x[i], y[l], s[l])")
      : step == RowStep::kMulAdd ? "s[l] + x[i] * y[l]"
                                 : "x[i] * y[l]";
  std::string step_text = absl::StrCat("    for (int l = 0; l < ", columns,
                                       "; l++) s[l] = ", lane, ";\n");
  // A fused row of a whole register is the instruction, as Fma's: tuned
  // for Intel's AVX-512 cores, GCC 12 made the 16-lane loop scalar.
  std::string include;
  if (const std::optional<NativeFma> native =
          X86Fma(DataType(shape.elem, static_cast<int>(columns)));
      native.has_value() && step == RowStep::kFma) {
    const std::string& reg = native->register_type;
    include = absl::StrCat("#if defined(", native->feature,
                           ")\n#include <immintrin.h>\n#endif\n");
    step_text =
        absl::StrCat("#if defined(", native->feature, ")\n    s = (", row, ")",
                     native->call, "(", native->splat, "(x[i]), (", reg,
                     ")y, (", reg, ")s);\n#else\n", step_text, "#endif\n");
  }
  helper.definition = absl::StrCat(
      "/* ",
      step == RowStep::kMulAdd
          ? "A contract of A as a column and B as a row into ACC"
          : absl::StrCat("TIR's (outer-product A B", acc ? " ACC" : "", ")"),
      " of a ", TirType(shape), ", a row at a time:\n   row i is ",
      step == RowStep::kProduct ? "A[i] * B"
      : step == RowStep::kFma   ? "A[i] * B + ACC[i], rounded once per lane"
                                : "ACC[i] + A[i] * B, the product rounded, "
                                  "then the sum",
      ". */\n", include, kVectorHelperDecl, "void ", helper.name, "(", name,
      " *r, const ", a, " *a, const ", row, " *b",
      acc ? absl::StrCat(", const ", name, " *c") : "", ") {\n  ", a,
      " x = *a;\n  ", row, " y = *b;\n  for (int i = 0; i < ", rows,
      "; i++) {\n    ", row, " s", acc ? "" : " = {0}", ";\n",
      acc ? absl::StrCat("    memcpy(&s, (const ", elem, " *)c + i * ", columns,
                         ", sizeof s);\n")
          : "",
      step_text, "    memcpy((", elem, " *)r + i * ", columns,
      ", &s, sizeof s);\n  }\n}\n");
  return helper;
}

VectorHelper Divide(const VectorShape& shape) {
  VectorHelper helper = Named("div", shape.elem, absl::StrCat(shape.lanes()));
  const std::string name = Use(helper, DataType(shape));
  CExpr quotient = ExprEmitter::Arithmetic(ir::Op::kDiv, Primary("x[l]"),
                                           Primary("y[l]"), shape.elem);
  helper.needs.Merge(quotient.uses.needs);
  helper.definition = absl::StrCat(
      "/* TIR's ", ElemTypeName(shape.elem), " / on the ", shape.lanes(),
      " lanes of a vector, each as the scalar one: a zero\n   divisor is an "
      "error. */\n",
      kVectorHelperDecl, "void ", helper.name, "(", name, " *r, const ", name,
      " *a, const ", name, " *b) {\n  ", name, " x = *a, y = *b, q = {0};\n",
      "  for (int l = 0; l < ", shape.lanes(), "; l++) q[l] = ", quotient.text,
      ";\n  *r = q;\n}\n");
  return helper;
}

namespace {

// tsl_vcast_TO_FROM_L: the lanes of `from` cast to `to` one by one, each as
// `lane` (an expression of x[l]) computes it; `what` says why.
VectorHelper LaneLoopCast(ElemType to, const VectorShape& from,
                          const CExpr& lane, absl::string_view what) {
  VectorHelper helper;
  helper.name = absl::StrCat("tsl_vcast_", ElemTypeName(to), "_",
                             ElemTypeName(from.elem), "_", from.lanes());
  const std::string source = Use(helper, DataType(from));
  const std::string target = Use(helper, DataType(to, from.padded()));
  helper.needs.Merge(lane.uses.needs);
  helper.definition = absl::StrCat(
      "/* TIR's (cast ", ElemTypeName(to), " V) of the ", from.lanes(), " ",
      ElemTypeName(from.elem),
      " lanes of a vector, each as the scalar one:\n   ", what, " */\n",
      kVectorHelperDecl, "void ", helper.name, "(", target, " *r, const ",
      source, " *a) {\n  ", source, " x = *a;\n  ", target, " y = {0};\n",
      "  for (int l = 0; l < ", from.lanes(), "; l++) y[l] = ", lane.text,
      ";\n  *r = y;\n}\n");
  return helper;
}

}  // namespace

VectorHelper CheckedCast(ElemType to, const VectorShape& from) {
  return LaneLoopCast(
      to, from, CallHelper(Helper::CastTo(to, from.elem), {Primary("x[l]")}),
      absl::StrCat("a value ", ElemTypeName(to), " cannot hold is an error."));
}

VectorHelper WideningCast(ElemType to, const VectorShape& from) {
  return LaneLoopCast(
      to, from, Primary(absl::StrCat("(", ElemTypeCName(to), ")x[l]")),
      "a loop, which GCC turns into the same conversion instructions as\n"
      "   __builtin_convertvector (vcvtps2pd), for GCC 12 stops with an "
      "internal\n   error on a converted f32x4 whose lanes are then "
      "compared, compiled\n   without AVX.");
}

VectorHelper Reduction(ir::ReductionKind kind, const VectorShape& shape) {
  const absl::string_view kind_name = ir::Spelling(kind);
  VectorHelper helper = Named(absl::StrCat("reduce_", kind_name), shape.elem,
                              absl::StrCat(shape.lanes()));
  const std::string name = Use(helper, DataType(shape));
  const CExpr sum = Primary("s"), lane = Primary("x[l]");
  CExpr step;
  switch (kind) {
    case ir::ReductionKind::kAdd:
      step = ExprEmitter::Arithmetic(ir::Op::kAdd, sum, lane, shape.elem);
      break;
    case ir::ReductionKind::kMul:
      step = ExprEmitter::Arithmetic(ir::Op::kMul, sum, lane, shape.elem);
      break;
    case ir::ReductionKind::kMax:
      step = CallHelper(Helper::On(HelperOp::kMax, shape.elem), {sum, lane});
      break;
    case ir::ReductionKind::kMin:
      step = CallHelper(Helper::On(HelperOp::kMin, shape.elem), {sum, lane});
      break;
  }
  helper.needs.Merge(step.uses.needs);
  const std::string elem(ElemTypeCName(shape.elem));
  helper.definition = absl::StrCat(
      "/* TIR's (reduction ", kind_name, " V) of the ", shape.lanes(), " ",
      ElemTypeName(shape.elem),
      " lanes of a vector: combined from lane 0, in order,\n   as the scalar "
      "op combines two. */\n",
      kVectorHelperDecl, elem, " ", helper.name, "(const ", name, " *v) {\n  ",
      name, " x = *v;\n  ", elem, " s = x[0];\n", "  for (int l = 1; l < ",
      shape.lanes(), "; l++) s = ", step.text, ";\n  return s;\n}\n");
  return helper;
}

CExpr VectorArithmetic(ir::Op op, const CExpr& a, const CExpr& b, ElemType elem,
                       int lanes) {
  const VectorCType type = DataType(elem, lanes);
  const absl::string_view symbol = ir::Spelling(op);
  CExpr result;
  if (elem == ElemType::kF32 || elem == ElemType::kF64) {
    result = Binary(symbol, a, b);
  } else if (elem == ElemType::kF16) {
    const VectorCType wide = DataType(ElemType::kF32, lanes);
    result = Primary(
        ConvertVector(absl::StrCat(ConvertVector(a.text, wide), " ", symbol,
                                   " ", ConvertVector(b.text, wide)),
                      type));
    result.uses = a.uses;
    result.uses.Merge(b.uses);
    result.uses.needs.vector_types.insert(wide);
  } else {
    const VectorCType wrapping = UnsignedType(type.bits, lanes);
    const std::string u = VectorTypeName(wrapping);
    result = Cast(VectorTypeName(type), Binary(symbol, Cast(u, a), Cast(u, b)));
    result.uses.needs.vector_types.insert(wrapping);
  }
  result.uses.needs.vector_types.insert(type);
  return result;
}

std::string Shuffle(const std::string& v, const std::vector<int64_t>& indices) {
  return absl::StrCat("__builtin_shufflevector(", v, ", ", v, ", ",
                      absl::StrJoin(indices, ", "), ")");
}

std::string ConvertVector(const std::string& value, const VectorCType& type) {
  return absl::StrCat("__builtin_convertvector(", value, ", ",
                      VectorTypeName(type), ")");
}

}  // namespace tessel::emitc
