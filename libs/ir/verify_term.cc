#include "libs/ir/verify_term.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/support/source.h"

namespace tessel {
namespace {

std::string DescribeElem(ScalarType elem) {
  return elem.is_elem() ? std::string(ElemTypeName(elem.elem)) : Describe(elem);
}

absl::Status Mismatch(const Sexpr& at, const TermType& found,
                      const TermType& expected) {
  return ErrorAt(at.loc(), absl::StrCat("expected ", Describe(expected),
                                        ", found ", Describe(found)));
}

}  // namespace

TermType TermType::Scalar(ScalarType elem) {
  TermType type;
  type.elem = elem;
  return type;
}

TermType TermType::Array(ScalarType elem, std::vector<int64_t> dims) {
  TermType type = Scalar(elem);
  if (dims.empty()) return type;
  type.kind = Kind::kArray;
  type.dims = std::move(dims);
  return type;
}

TermType TermType::Access(ScalarType elem, std::vector<int64_t> access,
                          const std::vector<int64_t>& compute) {
  TermType type = Scalar(elem);
  type.kind = Kind::kArray;
  type.access_dims = static_cast<int>(access.size());
  type.dims = std::move(access);
  type.dims.insert(type.dims.end(), compute.begin(), compute.end());
  return type;
}

TermType TermType::Tuple(TermType first, TermType second) {
  TermType type;
  type.kind = Kind::kTuple;
  type.parts = {std::move(first), std::move(second)};
  return type;
}

TermType TermType::FromData(const DataType& data) {
  std::vector<int64_t> dims;
  for (const Sexpr& dim : data.dims) dims.push_back(dim.int_value());
  return Array(ScalarType::Of(data.elem), std::move(dims));
}

std::vector<int64_t> TermType::access() const {
  return std::vector<int64_t>(dims.begin(), dims.begin() + access_dims);
}

std::vector<int64_t> TermType::compute() const {
  return std::vector<int64_t>(dims.begin() + access_dims, dims.end());
}

std::string Describe(const TermType& type) {
  switch (type.kind) {
    case TermType::Kind::kScalar:
      return Describe(type.elem);
    case TermType::Kind::kArray:
      if (type.is_access()) {
        return absl::StrCat("an access pattern ((",
                            absl::StrJoin(type.access(), " "), ") (",
                            absl::StrJoin(type.compute(), " "), ")) of ",
                            DescribeElem(type.elem));
      }
      return absl::StrCat("(", DescribeElem(type.elem), " ",
                          absl::StrJoin(type.dims, " "), ")");
    case TermType::Kind::kTuple:
      return absl::StrCat("(tuple ", Describe(type.parts[0]), " ",
                          Describe(type.parts[1]), ")");
  }
  return "?";
}

absl::StatusOr<TermType> Unify(const Sexpr& at, const TermType& found,
                               const TermType& expected) {
  if (found.kind != expected.kind) return Mismatch(at, found, expected);
  if (found.is_tuple()) {
    TermType result = found;
    for (int i = 0; i < 2; ++i) {
      auto part = Unify(at, found.parts[i], expected.parts[i]);
      if (!part.ok()) return part.status();
      result.parts[i] = *std::move(part);
    }
    return result;
  }
  if (found.dims != expected.dims) return Mismatch(at, found, expected);
  TermType result = found;
  if (expected.elem.is_elem()) {
    auto elem = Conform(at, found.elem, expected.elem.elem);
    if (!elem.ok()) {
      if (found.is_scalar()) return elem.status();
      return Mismatch(at, found, expected);
    }
    result.elem = *elem;
  } else if (found.elem.is_elem()) {
    auto elem = Conform(at, expected.elem, found.elem.elem);
    if (!elem.ok()) return Mismatch(at, found, expected);
  } else if (expected.elem.kind == ScalarType::Kind::kFloatLiteral) {
    result.elem = expected.elem;
  }
  return result;
}

}  // namespace tessel
