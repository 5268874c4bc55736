#include "libs/ir/verify/domain.h"

#include <algorithm>
#include <array>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace tessel {
namespace {

// Words isl's parser gives a meaning of its own.
bool IsIslKeyword(absl::string_view name) {
  static constexpr auto kKeywords = std::to_array<absl::string_view>(
      {"and", "or", "not", "implies", "exists", "mod", "floor", "ceil",
       "floord", "ceild", "min", "max", "infty", "NaN", "rat", "true",
       "false"});
  return std::find(kKeywords.begin(), kKeywords.end(), name) != kKeywords.end();
}

// Names isl reads back as the same identifier. Names starting with '_' are
// left to the generated ones.
bool IsPlainIdentifier(absl::string_view name) {
  if (name.empty() || !absl::ascii_isalpha(name[0])) return false;
  for (char c : name) {
    if (!absl::ascii_isalnum(c) && c != '_') return false;
  }
  return !IsIslKeyword(name);
}

}  // namespace

std::string AtPoint(absl::string_view point) {
  if (point.empty()) return "";
  return absl::StrCat(" (at ", point, ")");
}

std::optional<int64_t> LiteralValue(const Affine& value) {
  int64_t result;
  if (!value.params.empty() || !absl::SimpleAtoi(value.text, &result)) {
    return std::nullopt;
  }
  return result;
}

void MergeParams(std::vector<int>& into, const std::vector<int>& from) {
  std::vector<int> merged;
  std::set_union(into.begin(), into.end(), from.begin(), from.end(),
                 std::back_inserter(merged));
  into = std::move(merged);
}

std::string PolyDomain::IslName(absl::string_view name) {
  if (IsPlainIdentifier(name)) return std::string(name);
  return FreshIslName();
}

std::string PolyDomain::FreshIslName() {
  return absl::StrCat("_v", generated_names_++);
}

int PolyDomain::AddParam(std::string isl_name, std::string display,
                         std::string constraint) {
  params_.push_back(
      Param{std::move(isl_name), std::move(display), std::move(constraint)});
  return static_cast<int>(params_.size()) - 1;
}

void PolyDomain::AddDim(std::string isl_name, std::string display) {
  dims_.push_back(Dim{std::move(isl_name), std::move(display)});
}

void PolyDomain::Assume(Affine constraint) {
  constraints_.push_back(std::move(constraint));
}

void PolyDomain::Restore(Mark mark) {
  dims_.resize(mark.dims);
  constraints_.resize(mark.constraints);
}

std::string PolyDomain::ParamPrefix(const std::vector<int>& ids) const {
  if (ids.empty()) return "";
  std::vector<absl::string_view> names;
  for (int id : ids) names.push_back(params_[id].isl);
  return absl::StrCat("[", absl::StrJoin(names, ", "), "] -> ");
}

std::string PolyDomain::Tuple() const {
  std::vector<absl::string_view> names;
  for (const Dim& dim : dims_) names.push_back(dim.isl);
  return absl::StrCat("S[", absl::StrJoin(names, ", "), "]");
}

std::string PolyDomain::Constraints(const std::vector<int>& ids) const {
  std::vector<absl::string_view> parts;
  for (int id : ids) {
    if (!params_[id].constraint.empty())
      parts.push_back(params_[id].constraint);
  }
  for (const Affine& constraint : constraints_)
    parts.push_back(constraint.text);
  if (parts.empty()) return "";
  return absl::StrCat(" : ", absl::StrJoin(parts, " and "));
}

std::vector<int> PolyDomain::UsedParams(const std::vector<int>& extra) const {
  std::vector<int> used = extra;
  for (const Affine& constraint : constraints_) {
    MergeParams(used, constraint.params);
  }
  return used;
}

std::string PolyDomain::Display(const std::string& point) const {
  if (point.empty()) return point;
  absl::flat_hash_map<absl::string_view, absl::string_view> names;
  for (const Param& param : params_) names[param.isl] = param.display;
  for (const Dim& dim : dims_) names[dim.isl] = dim.display;
  std::vector<std::string> parts;
  for (absl::string_view part : absl::StrSplit(point, ", ")) {
    std::pair<absl::string_view, absl::string_view> assignment =
        absl::StrSplit(part, absl::MaxSplits(" = ", 1));
    auto it = names.find(assignment.first);
    parts.push_back(
        absl::StrCat(it != names.end() ? it->second : assignment.first, " = ",
                     assignment.second));
  }
  return absl::StrJoin(parts, ", ");
}

absl::StatusOr<std::optional<PolyDomain::Violation>> PolyDomain::FindViolation(
    const std::vector<Affine>& values, absl::string_view allowed) {
  std::vector<int> mentioned;
  std::vector<absl::string_view> value_texts;
  std::vector<std::string> value_names;
  for (const Affine& value : values) {
    MergeParams(mentioned, value.params);
    value_texts.push_back(value.text);
    value_names.push_back(absl::StrCat("x", value_names.size()));
  }
  std::vector<int> used = UsedParams(mentioned);
  std::string prefix = ParamPrefix(used);
  std::string domain =
      absl::StrCat(prefix, "{ ", Tuple(), Constraints(used), " }");
  std::string access = absl::StrCat(prefix, "{ ", Tuple(), " -> T[",
                                    absl::StrJoin(value_texts, ", "), "] }");
  std::string bounds = absl::StrCat("{ T[", absl::StrJoin(value_names, ", "),
                                    "] : ", allowed, " }");
  auto found = poly::FindOutOfBoundsImage(ctx_, domain, access, bounds);
  if (!found.ok()) return found.status();
  if (!found->has_value()) return std::nullopt;
  return Violation{Display((*found)->point), (*found)->image};
}

absl::StatusOr<bool> PolyDomain::IsEmpty() {
  std::vector<int> used = UsedParams({});
  return poly::IsEmpty(ctx_, absl::StrCat(ParamPrefix(used), "{ ", Tuple(),
                                          Constraints(used), " }"));
}

absl::StatusOr<std::optional<std::string>> PolyDomain::FindFailure(
    const Affine& condition) {
  std::vector<int> used = UsedParams(condition.params);
  std::string prefix = ParamPrefix(used);
  std::string domain =
      absl::StrCat(prefix, "{ ", Tuple(), Constraints(used), " }");
  std::string identity =
      absl::StrCat(prefix, "{ ", Tuple(), " -> ", Tuple(), " }");
  std::string holds =
      absl::StrCat(prefix, "{ ", Tuple(), " : ", condition.text, " }");
  auto found = poly::FindOutOfBounds(ctx_, domain, identity, holds);
  if (!found.ok()) return found.status();
  if (!found->has_value()) return std::nullopt;
  return Display(**found);
}

}  // namespace tessel
