// contract as C vector code: formats/tir/README.md sums each lane of ACC
// over the reduction dimensions in row-major order, with the scalar * and +
// (two roundings per step). Lowered as MLIR lowers a contraction to outer
// products (section 3.5 of the MLIR code generation paper), one step per
// point of the reduction dimensions: a shuffle gives every lane of ACC the
// lane of A it meets at that point, another the lane of B, and ACC becomes
// ACC + A' * B' on whole vectors. Every lane of ACC then sums exactly the
// products the spec sums, in its order, on the vector units.
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/emitc/vector_helpers.h"

namespace tessel::emitc {
namespace {

// The lane of `shape` (whose dimension k is iteration dimension map[k]) at
// the iteration point `point`.
int64_t LaneAt(const VectorShape& shape, const std::vector<int64_t>& map,
               const std::vector<int64_t>& point) {
  const std::vector<int64_t> strides = LaneStrides(shape.dims);
  int64_t lane = 0;
  for (size_t k = 0; k < map.size(); ++k) lane += point[map[k]] * strides[k];
  return lane;
}

// `(list 0 2)`.
std::string ListText(const std::vector<int64_t>& map) {
  return absl::StrCat("(list ", absl::StrJoin(map, " "), ")");
}

// A shuffle of `v` (of `from` lanes) giving `indices`, or `v` itself when
// that is the identity.
std::string Lanes(const std::string& v, int from,
                  const std::vector<int64_t>& indices) {
  bool identity = from == static_cast<int>(indices.size());
  for (size_t l = 0; identity && l < indices.size(); ++l) {
    identity = indices[l] == static_cast<int64_t>(l);
  }
  return identity ? v : Shuffle(v, indices);
}

}  // namespace

VectorHelper Contract(const VectorShape& a, const VectorShape& b,
                      const VectorShape& acc,
                      const std::vector<std::vector<int64_t>>& maps,
                      ir::ReductionKind kind) {
  const bool add = kind == ir::ReductionKind::kAdd;
  // Whether each step names its product p (see below).
  const bool has_product = IsFloat(acc.elem) || !add;
  const VectorShape* operands[] = {&a, &b, &acc};
  // The iteration dimensions: their extents, and which ACC indexes.
  size_t count = 0;
  for (const auto& map : maps) {
    for (int64_t d : map) count = std::max(count, static_cast<size_t>(d) + 1);
  }
  std::vector<int64_t> extents(count, 1);
  std::vector<bool> parallel(count, false);
  for (size_t i = 0; i < 3; ++i) {
    for (size_t k = 0; k < maps[i].size(); ++k) {
      extents[maps[i][k]] = operands[i]->dims[k];
      if (i == 2) parallel[maps[i][k]] = true;
    }
  }
  std::vector<size_t> reductions;
  int64_t steps = 1;
  for (size_t d = 0; d < count; ++d) {
    if (!parallel[d]) {
      reductions.push_back(d);
      steps *= extents[d];
    }
  }

  VectorHelper helper;
  std::vector<std::string> map_names;
  for (const auto& map : maps) map_names.push_back(absl::StrJoin(map, "x"));
  helper.name = absl::StrCat("tsl_vcontract_", ElemTypeName(acc.elem), "_",
                             a.Name(), "_", b.Name(), "_", acc.Name(), "_",
                             absl::StrJoin(map_names, "_"),
                             add ? "" : absl::StrCat("_", Spelling(kind)));
  const VectorCType type = DataType(acc);
  const VectorCType a_type = DataType(a), b_type = DataType(b);
  helper.needs.vector_types = {type, a_type, b_type};
  const std::string name = VectorTypeName(type);
  const int lanes = type.lanes;

  // Each step's statements, on x (A), y (B), the sum s and a product p.
  std::string body;
  std::vector<int64_t> point(count, 0);
  for (int64_t step = 0; step < steps; ++step) {
    int64_t rest = step;
    for (size_t j = reductions.size(); j-- > 0;) {
      point[reductions[j]] = rest % extents[reductions[j]];
      rest /= extents[reductions[j]];
    }
    // Padding lanes of ACC take lane 0 of A and B.
    std::vector<int64_t> from_a(lanes, 0), from_b(lanes, 0);
    const std::vector<int64_t> strides = LaneStrides(acc.dims);
    for (int64_t lane = 0; lane < acc.lanes(); ++lane) {
      for (size_t k = 0; k < maps[2].size(); ++k) {
        point[maps[2][k]] = lane / strides[k] % acc.dims[k];
      }
      from_a[lane] = LaneAt(a, maps[0], point);
      from_b[lane] = LaneAt(b, maps[1], point);
    }
    CExpr x = Primary(Lanes("x", a_type.lanes, from_a));
    CExpr y = Primary(Lanes("y", b_type.lanes, from_b));
    if (has_product) {
      // Two statements: a compiler that fuses a * b + c within one
      // expression (Clang's default) must not fuse these; and max and min
      // read the product twice (integer products, which wrap, have nothing
      // to fuse and are named only for them).
      CExpr product = VectorArithmetic(ir::Op::kMul, x, y, acc.elem, lanes);
      CExpr sum = CombineLanes(kind, Primary("s"), Primary("p"), acc.elem,
                               lanes);
      helper.needs.Merge(product.uses.needs);
      helper.needs.Merge(sum.uses.needs);
      absl::StrAppend(&body, "  p = ", product.text, ";\n  s = ", sum.text,
                      ";\n");
    } else {
      CExpr sum = VectorArithmetic(
          ir::Op::kAdd, Primary("s"),
          VectorArithmetic(ir::Op::kMul, x, y, acc.elem, lanes), acc.elem,
          lanes);
      helper.needs.Merge(sum.uses.needs);
      absl::StrAppend(&body, "  s = ", sum.text, ";\n");
    }
  }
  helper.definition = absl::StrCat(
      "/* TIR's (contract A B ACC ", ListText(maps[0]), " ", ListText(maps[1]),
      " ", ListText(maps[2]), ") of\n   (vector ", ElemTypeName(a.elem), " ",
      absl::StrJoin(a.dims, " "), "), (vector ", ElemTypeName(b.elem), " ",
      absl::StrJoin(b.dims, " "), ") and (vector ", ElemTypeName(acc.elem), " ",
      absl::StrJoin(acc.dims, " "),
      add ? "): ACC plus the\n   products of the lanes of A and B that each "
            "of its lanes meets, summed\n   in row-major order of the "
            "reduction dimensions, one shuffled product\n   per step. */\n"
          : absl::StrCat(") (kind ", Spelling(kind),
                         "): ACC combined with the products of\n   the lanes "
                         "of A and B that each of its lanes meets, in "
                         "row-major\n   order of the reduction dimensions, "
                         "one shuffled product per step. */\n"),
      kVectorHelperDecl, "void ", helper.name, "(", name, " *r, const ",
      VectorTypeName(a_type), " *a, const ", VectorTypeName(b_type),
      " *b, const ", name, " *acc) {\n  ", VectorTypeName(a_type),
      " x = *a;\n  ", VectorTypeName(b_type), " y = *b;\n  ", name, " s = *acc",
      has_product ? ", p" : "", ";\n", body, "  *r = s;\n}\n");
  return helper;
}

}  // namespace tessel::emitc
