#include "libs/kernel/poly_checks.h"

#include <charconv>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "isl/cpp.h"
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

}  // namespace

absl::Status CheckInBounds(poly::Context& ctx, const Kernel& kernel,
                           const Statement& statement, const Access& access) {
  const Tensor& tensor = kernel.tensors[access.tensor];
  isl::ctx isl(ctx.get());
  // The first domain point whose element lies outside the tensor.
  auto outside = poly::FirstPoint(isl, [&] {
    isl::set domain = Domain(isl, statement);
    isl::set beyond = isl::set::universe(Elements(isl, tensor).space())
                          .subtract(Elements(isl, tensor));
    return AccessMap(domain, access).intersect_range(beyond).domain();
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
  isl::ctx isl(ctx.get());
  return poly::Ask<bool>(isl, [&]() -> absl::StatusOr<bool> {
    isl::set image =
        AccessMap(Domain(isl, statement), statement.target).range();
    return image.is_equal(
        Elements(isl, kernel.tensors[statement.target.tensor]));
  });
}

}  // namespace tessel::kernel
