#include "libs/kernel/poly_checks.h"

#include <cctype>
#include <charconv>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace tessel::kernel {
namespace {

// isl sees the domain variables as d0, d1, ... and tensor dimensions as a0,
// a1, ...: kernel names may be isl keywords (`min`, `and`), and positional
// names make counterexamples easy to read back.
std::string VarName(size_t v) { return absl::StrCat("d", v); }

std::string IslTuple(absl::string_view space, size_t count,
                     std::string (*name)(size_t)) {
  std::vector<std::string> names;
  for (size_t i = 0; i < count; ++i) names.push_back(name(i));
  return absl::StrCat(space, "[", absl::StrJoin(names, ", "), "]");
}

// "2*d0 + d1 - 1", in isl's syntax.
std::string IslAffine(const AffineExpr& expr) {
  std::string text;
  auto append = [&text](int64_t coeff, absl::string_view var) {
    if (text.empty()) {
      absl::StrAppend(&text, coeff < 0 ? "-" : "");
    } else {
      absl::StrAppend(&text, coeff < 0 ? " - " : " + ");
    }
    uint64_t magnitude = coeff < 0 ? 0 - static_cast<uint64_t>(coeff)
                                   : static_cast<uint64_t>(coeff);
    absl::StrAppend(&text, magnitude, var.empty() ? "" : "*", var);
  };
  for (size_t v = 0; v < expr.coeffs.size(); ++v) {
    if (expr.coeffs[v] != 0) append(expr.coeffs[v], VarName(v));
  }
  if (expr.constant != 0 || text.empty()) append(expr.constant, "");
  return text;
}

std::string IslDomain(const Statement& statement) {
  std::vector<std::string> bounds;
  for (size_t v = 0; v < statement.vars.size(); ++v) {
    bounds.push_back(
        absl::StrCat("0 <= ", VarName(v), " < ", statement.vars[v].extent));
  }
  std::string tuple = IslTuple("S", statement.vars.size(), VarName);
  if (bounds.empty()) return absl::StrCat("{ ", tuple, " }");
  return absl::StrCat("{ ", tuple, " : ", absl::StrJoin(bounds, " and "), " }");
}

std::string IslAccess(const Statement& statement, const Access& access) {
  std::vector<std::string> indices;
  for (const AffineExpr& index : access.indices) {
    indices.push_back(IslAffine(index));
  }
  return absl::StrCat("{ ", IslTuple("S", statement.vars.size(), VarName),
                      " -> A[", absl::StrJoin(indices, ", "), "] }");
}

std::string DimName(size_t d) { return absl::StrCat("a", d); }

std::string IslBounds(const Tensor& tensor) {
  std::vector<std::string> bounds;
  for (size_t d = 0; d < tensor.dims.size(); ++d) {
    bounds.push_back(absl::StrCat("0 <= ", DimName(d), " < ", tensor.dims[d]));
  }
  std::string tuple = IslTuple("A", tensor.dims.size(), DimName);
  if (bounds.empty()) return absl::StrCat("{ ", tuple, " }");
  return absl::StrCat("{ ", tuple, " : ", absl::StrJoin(bounds, " and "), " }");
}

// Reads the values of d0, d1, ... out of a counterexample such as
// "d0 = 3, d1 = 0" (any surrounding isl notation is skipped).
std::vector<int64_t> ParsePoint(absl::string_view text, size_t num_vars) {
  std::vector<int64_t> point(num_vars, 0);
  const char* end = text.data() + text.size();
  for (const char* p = text.data(); p < end; ++p) {
    bool starts_name = *p == 'd' && (p == text.data() || !std::isalnum(p[-1]));
    if (!starts_name) continue;
    size_t v = 0;
    auto name = std::from_chars(p + 1, end, v);
    if (name.ec != std::errc() || v >= num_vars) continue;
    const char* q = name.ptr;
    while (q < end && *q == ' ') ++q;
    if (q == end || *q != '=') continue;
    ++q;
    while (q < end && *q == ' ') ++q;
    std::from_chars(q, end, point[v]);
  }
  return point;
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
  auto outside =
      poly::FindOutOfBounds(ctx, IslDomain(statement),
                            IslAccess(statement, access), IslBounds(tensor));
  if (!outside.ok()) return outside.status();
  if (!outside->has_value()) return absl::OkStatus();
  std::vector<int64_t> point = ParsePoint(**outside, statement.vars.size());
  return ErrorAt(
      access.loc,
      absl::StrCat("access out of bounds: at ", DescribePoint(statement, point),
                   " it reaches ", DescribeElement(tensor, access, point),
                   ", but '", tensor.name, "' is ", DescribeType(tensor)));
}

absl::Status CheckWritesOnce(poly::Context& ctx, const Kernel& kernel,
                             const Statement& statement) {
  auto collision = poly::FindCollision(ctx, IslDomain(statement),
                                       IslAccess(statement, statement.target));
  if (!collision.ok()) return collision.status();
  if (!collision->has_value()) return absl::OkStatus();
  // "POINT and POINT".
  absl::string_view text = **collision;
  size_t split = text.find(" and ");
  if (split == absl::string_view::npos) split = text.size();
  std::vector<int64_t> first =
      ParsePoint(text.substr(0, split), statement.vars.size());
  std::vector<int64_t> second =
      ParsePoint(text.substr(split), statement.vars.size());
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
  return poly::CoversExactly(
      ctx, IslDomain(statement), IslAccess(statement, statement.target),
      IslBounds(kernel.tensors[statement.target.tensor]));
}

}  // namespace tessel::kernel
