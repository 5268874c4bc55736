#include "libs/kernel/poly_checks.h"

#include <charconv>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "isl/cpp.h"
#include "libs/poly/box.h"
#include "libs/poly/model.h"

namespace tessel::kernel {
namespace {

// A statement's domain, { [d0, d1, ...] : 0 <= dv < extent v }: kernel
// sizes are bound, so it has no parameters.
isl::set Domain(isl::ctx ctx, const Statement& statement) {
  isl::space space = isl::space::unit(ctx).add_unnamed_tuple(
      static_cast<unsigned>(statement.vars.size()));
  isl::set domain = isl::set::universe(space);
  isl::multi_aff vars = isl::multi_aff::identity_on_domain(space);
  isl::pw_aff zero(isl::aff::zero_on_domain(space));
  for (size_t v = 0; v < statement.vars.size(); ++v) {
    isl::pw_aff var(vars.at(static_cast<int>(v)));
    domain =
        domain.intersect(var.ge_set(zero))
            .intersect(var.lt_set(zero.add_constant(statement.vars[v].extent)));
  }
  return domain;
}

// `expr` on the statement's domain space.
isl::pw_aff Affine(const isl::set& domain, const AffineExpr& expr) {
  isl::multi_aff vars = isl::multi_aff::identity_on_domain(domain.space());
  isl::aff value = isl::aff::zero_on_domain(domain.space());
  for (size_t v = 0; v < expr.coeffs.size(); ++v) {
    if (expr.coeffs[v] == 0) continue;
    value = value.add(vars.at(static_cast<int>(v))
                          .scale(isl::val(domain.ctx(), expr.coeffs[v])));
  }
  return isl::pw_aff(value.add_constant(isl::val(domain.ctx(), expr.constant)));
}

// The access as a map from the domain to the tensor's index space, on the
// domain.
isl::map AccessMap(const isl::set& domain, const Access& access) {
  std::vector<isl::pw_aff> indices;
  for (const AffineExpr& index : access.indices) {
    indices.push_back(Affine(domain, index));
  }
  return poly::ToTensor(domain, indices, "A");
}

// The elements of `tensor`, { A[a0, ...] : 0 <= ad < extent d }.
isl::set Elements(isl::ctx ctx, const Tensor& tensor) {
  isl::space space = isl::space::unit(ctx).add_named_tuple(
      "A", static_cast<unsigned>(tensor.dims.size()));
  isl::set elements = isl::set::universe(space);
  isl::multi_aff dims = isl::multi_aff::identity_on_domain(space);
  isl::pw_aff zero(isl::aff::zero_on_domain(space));
  for (size_t d = 0; d < tensor.dims.size(); ++d) {
    isl::pw_aff dim(dims.at(static_cast<int>(d)));
    elements = elements.intersect(dim.ge_set(zero))
                   .intersect(dim.lt_set(zero.add_constant(tensor.dims[d])));
  }
  return elements;
}

// The decimals of a point (poly::FirstPoint) as integers: coordinates of a
// kernel's domain, which fit in 64 bits.
std::vector<int64_t> Integers(const std::vector<std::string>& decimals) {
  std::vector<int64_t> values;
  for (const std::string& decimal : decimals) {
    int64_t value = 0;
    std::from_chars(decimal.data(), decimal.data() + decimal.size(), value);
    values.push_back(value);
  }
  return values;
}

std::string DescribePoint(const Statement& statement,
                          const std::vector<int64_t>& point) {
  std::vector<std::string> parts;
  for (size_t v = 0; v < statement.vars.size(); ++v) {
    parts.push_back(absl::StrCat(statement.vars[v].name, " = ", point[v]));
  }
  return absl::StrJoin(parts, ", ");
}

std::string DescribeElement(const Tensor& tensor, const Access& access,
                            const std::vector<int64_t>& point) {
  std::vector<int64_t> index;
  for (const AffineExpr& expr : access.indices) {
    index.push_back(expr.Evaluate(point));
  }
  if (index.empty()) return tensor.name;
  return absl::StrCat(tensor.name, "[", absl::StrJoin(index, ", "), "]");
}

// The box questions of poly/box.h settle the usual kernel without isl, in
// time linear in its rank; isl is asked only when they do not (and then
// names the points of a diagnostic).

std::vector<int64_t> Extents(const Statement& statement) {
  std::vector<int64_t> extents;
  for (const DomainVar& var : statement.vars) extents.push_back(var.extent);
  return extents;
}

// The dimensions of its tensor that `access` may leave on the domain.
std::vector<size_t> DimsMaybeLeft(const Statement& statement,
                                  const Tensor& tensor, const Access& access) {
  std::vector<int64_t> extents = Extents(statement);
  std::vector<size_t> dims;
  for (size_t d = 0; d < access.indices.size(); ++d) {
    const AffineExpr& index = access.indices[d];
    std::optional<poly::Interval> range =
        poly::RangeOnBox(index.coeffs, index.constant, extents);
    if (!range || range->low < 0 || range->high >= tensor.dims[d]) {
      dims.push_back(d);
    }
  }
  return dims;
}

// The points of `tensor`'s index space outside it along one of `dims`.
isl::set Beyond(isl::ctx ctx, const Tensor& tensor,
                const std::vector<size_t>& dims) {
  isl::space space = Elements(ctx, tensor).space();
  isl::multi_aff indices = isl::multi_aff::identity_on_domain(space);
  isl::pw_aff zero(isl::aff::zero_on_domain(space));
  isl::set beyond = isl::set::empty(space);
  for (size_t d : dims) {
    isl::pw_aff index(indices.at(static_cast<int>(d)));
    beyond = beyond.unite(index.lt_set(zero)).unite(
        index.ge_set(zero.add_constant(tensor.dims[d])));
  }
  return beyond;
}

// The variables of the domain that take more than one value.
std::vector<bool> Varying(const Statement& statement) {
  std::vector<bool> varying;
  for (const DomainVar& var : statement.vars) {
    varying.push_back(var.extent > 1);
  }
  return varying;
}

// The only varying variable `index` reads, -1 for none, -2 for several.
int OnlyVaryingVariable(const AffineExpr& index,
                        const std::vector<bool>& varying) {
  int found = -1;
  for (size_t v = 0; v < index.coeffs.size(); ++v) {
    if (index.coeffs[v] == 0 || !varying[v]) continue;
    if (found != -1) return -2;
    found = static_cast<int>(v);
  }
  return found;
}

// Whether the target surely maps distinct points to distinct elements: each
// varying variable is the only one in some index, which then determines it.
bool SurelyWritesOnce(const Statement& statement) {
  std::vector<bool> varying = Varying(statement);
  std::vector<bool> determined(varying.size(), false);
  for (const AffineExpr& index : statement.target.indices) {
    if (int v = OnlyVaryingVariable(index, varying); v >= 0) {
      determined[v] = true;
    }
  }
  return determined == varying;
}

// Whether the target surely reaches every element: each index runs over
// its whole dimension, one varying variable (with coefficient 1 or -1) or
// none, a different one in each.
bool SurelyCovers(const Statement& statement, const Tensor& tensor) {
  std::vector<bool> varying = Varying(statement);
  std::vector<bool> used(varying.size(), false);
  std::vector<int64_t> extents = Extents(statement);
  for (size_t d = 0; d < statement.target.indices.size(); ++d) {
    const AffineExpr& index = statement.target.indices[d];
    int v = OnlyVaryingVariable(index, varying);
    if (v == -2) return false;
    if (v >= 0) {
      if (used[v] || (index.coeffs[v] != 1 && index.coeffs[v] != -1)) {
        return false;
      }
      used[v] = true;
    }
    std::optional<poly::Interval> range =
        poly::RangeOnBox(index.coeffs, index.constant, extents);
    if (!range || range->low != 0 || range->high != tensor.dims[d] - 1) {
      return false;
    }
  }
  return true;
}

}  // namespace

absl::Status CheckInBounds(poly::Context& ctx, const Kernel& kernel,
                           const Statement& statement, const Access& access) {
  const Tensor& tensor = kernel.tensors[access.tensor];
  std::vector<size_t> dims = DimsMaybeLeft(statement, tensor, access);
  if (dims.empty()) return absl::OkStatus();
  isl::ctx isl(ctx.get());
  // The first domain point whose element lies outside the tensor (along
  // the dimensions where it may).
  auto outside = poly::FirstPoint(isl, [&] {
    isl::set domain = Domain(isl, statement);
    return AccessMap(domain, access)
        .intersect_range(Beyond(isl, tensor, dims))
        .domain();
  });
  if (!outside.ok()) return outside.status();
  if (!outside->has_value()) return absl::OkStatus();
  std::vector<int64_t> point = Integers(**outside);
  return ErrorAt(
      access.loc,
      absl::StrCat("access out of bounds: at ", DescribePoint(statement, point),
                   " it reaches ", DescribeElement(tensor, access, point),
                   ", but '", tensor.name, "' is ", DescribeType(tensor)));
}

absl::Status CheckWritesOnce(poly::Context& ctx, const Kernel& kernel,
                             const Statement& statement) {
  if (SurelyWritesOnce(statement)) return absl::OkStatus();
  isl::ctx isl(ctx.get());
  // The first pair x <lex y of domain points with one target element.
  auto collision = poly::FirstPoint(isl, [&] {
    isl::map target = AccessMap(Domain(isl, statement), statement.target);
    isl::map earlier =
        isl::manage(isl_map_lex_lt(target.domain().space().release()));
    return target.apply_range(target.reverse()).intersect(earlier).wrap();
  });
  if (!collision.ok()) return collision.status();
  if (!collision->has_value()) return absl::OkStatus();
  std::vector<int64_t> both = Integers(**collision);
  size_t vars = statement.vars.size();
  std::vector<int64_t> first(both.begin(), both.begin() + vars);
  std::vector<int64_t> second(both.begin() + vars, both.end());
  const Tensor& tensor = kernel.tensors[statement.target.tensor];
  return ErrorAt(
      statement.op_loc,
      absl::StrCat("'=' writes ",
                   DescribeElement(tensor, statement.target, first),
                   " twice (at ", DescribePoint(statement, first), " and at ",
                   DescribePoint(statement, second),
                   "); use '+=', 'max=' or 'min=' to combine the values"));
}

absl::StatusOr<bool> CoversTarget(poly::Context& ctx, const Kernel& kernel,
                                  const Statement& statement) {
  if (SurelyCovers(statement, kernel.tensors[statement.target.tensor])) {
    return true;
  }
  isl::ctx isl(ctx.get());
  return poly::Ask<bool>(isl, [&]() -> absl::StatusOr<bool> {
    isl::set image =
        AccessMap(Domain(isl, statement), statement.target).range();
    return image.is_equal(
        Elements(isl, kernel.tensors[statement.target.tensor]));
  });
}

}  // namespace tessel::kernel
