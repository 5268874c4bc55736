#include "libs/verify/term_type.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace tessel::ir {
namespace {

std::string DescribeElem(ScalarType elem) {
  return elem.is_elem() ? std::string(ElemTypeName(elem.elem)) : Describe(elem);
}

absl::Status Mismatch(const Node& at, const TermType& found,
                      const TermType& expected) {
  return ErrorAt(at.loc(), absl::StrCat("expected ", Describe(expected),
                                        ", found ", Describe(found)));
}

std::vector<Dim> Dims(const std::vector<int64_t>& values) {
  std::vector<Dim> dims;
  for (int64_t value : values) dims.push_back(Dim::Constant(value));
  return dims;
}

}  // namespace

int LiteralGroups::Create(bool is_float) {
  parent_.push_back(static_cast<int>(parent_.size()));
  is_float_.push_back(is_float);
  fixed_.push_back(std::nullopt);
  return parent_.back();
}

int LiteralGroups::Find(int group) const {
  while (parent_[group] != group) {
    parent_[group] = parent_[parent_[group]];
    group = parent_[group];
  }
  return group;
}

int LiteralGroups::Merge(int a, int b) {
  if (a < 0 || b < 0) return a < 0 ? b : a;
  a = Find(a);
  b = Find(b);
  if (a == b) return a;
  parent_[b] = a;
  is_float_[a] = is_float_[a] || is_float_[b];
  if (!fixed_[a]) fixed_[a] = fixed_[b];
  return a;
}

absl::Status LiteralGroups::Fix(const Node& at, int group, ElemType elem) {
  if (group < 0) return absl::OkStatus();
  std::optional<ElemType>& fixed = fixed_[Find(group)];
  if (fixed && *fixed != elem) {
    return ErrorAt(at.loc(), absl::StrCat("expected ", ElemTypeName(elem),
                                          ", found ", ElemTypeName(*fixed)));
  }
  fixed = elem;
  return absl::OkStatus();
}

ElemType LiteralGroups::Resolve(const TermElem& type) const {
  if (type.type.is_elem()) return type.type.elem;
  if (type.group < 0) return DefaultLiteralType(type.type);
  int root = Find(type.group);
  if (fixed_[root]) return *fixed_[root];
  return is_float_[root] ? ElemType::kF64 : ElemType::kI32;
}

TermType TermType::Scalar(TermElem elem) {
  TermType type;
  type.elem = elem;
  return type;
}

TermType TermType::Array(TermElem elem, std::vector<int64_t> dims) {
  TermType type = Scalar(elem);
  if (dims.empty()) return type;
  type.kind = Kind::kArray;
  type.dims = std::move(dims);
  return type;
}

TermType TermType::Access(TermElem elem, std::vector<int64_t> access,
                          const std::vector<int64_t>& compute) {
  TermType type = Scalar(elem);
  type.access_dims = static_cast<int>(access.size());
  type.dims = std::move(access);
  type.dims.insert(type.dims.end(), compute.begin(), compute.end());
  if (!type.dims.empty()) type.kind = Kind::kArray;
  return type;
}

TermType TermType::Tuple(TermType first, TermType second) {
  TermType type;
  type.kind = Kind::kTuple;
  type.parts = {std::move(first), std::move(second)};
  return type;
}

TermType TermType::Index() {
  TermType type;
  type.kind = Kind::kIndex;
  return type;
}

TermType TermType::Bool() {
  TermType type;
  type.kind = Kind::kBool;
  return type;
}

TermType TermType::Function(TermType argument, TermType result) {
  TermType type = Tuple(std::move(argument), std::move(result));
  type.kind = Kind::kFunction;
  return type;
}

TermType TermType::FromDeclared(const Type& type) {
  TermElem elem{ScalarType::Of(type.elem()), -1};
  std::vector<int64_t> dims;
  for (const Dim& dim : type.dims()) dims.push_back(dim.value);
  return Array(elem, std::move(dims));
}

std::vector<int64_t> TermType::access() const {
  return std::vector<int64_t>(dims.begin(), dims.begin() + access_dims);
}

std::vector<int64_t> TermType::compute() const {
  return std::vector<int64_t>(dims.begin() + access_dims, dims.end());
}

std::string Describe(const TermType& type) {
  if (type.is_access()) {
    return absl::StrCat("an access pattern ((",
                        absl::StrJoin(type.access(), " "), ") (",
                        absl::StrJoin(type.compute(), " "), ")) of ",
                        DescribeElem(type.elem.type));
  }
  switch (type.kind) {
    case TermType::Kind::kScalar:
      return Describe(type.elem.type);
    case TermType::Kind::kArray:
      return absl::StrCat("(", DescribeElem(type.elem.type), " ",
                          absl::StrJoin(type.dims, " "), ")");
    case TermType::Kind::kTuple:
      return absl::StrCat("(tuple ", Describe(type.parts[0]), " ",
                          Describe(type.parts[1]), ")");
    case TermType::Kind::kIndex:
      return "an index";
    case TermType::Kind::kBool:
      return "a condition";
    case TermType::Kind::kFunction:
      return "a function";
  }
  return "?";
}

absl::StatusOr<TermType> Unify(const Node& at, const TermType& found,
                               const TermType& expected,
                               LiteralGroups& groups) {
  if (found.kind != expected.kind) return Mismatch(at, found, expected);
  if (found.is_tuple()) {
    TermType result = found;
    for (int i = 0; i < 2; ++i) {
      auto part = Unify(at, found.parts[i], expected.parts[i], groups);
      if (!part.ok()) return part.status();
      result.parts[i] = *std::move(part);
    }
    return result;
  }
  if (!found.is_scalar() && !found.is_array()) return found;
  if (found.dims != expected.dims) return Mismatch(at, found, expected);
  TermType result = found;
  ScalarType want = expected.elem.type;
  ScalarType have = found.elem.type;
  if (want.is_elem()) {
    auto elem = Conform(at, have, want.elem);
    if (!elem.ok()) {
      if (found.is_scalar()) return elem.status();
      return Mismatch(at, found, expected);
    }
    result.elem.type = *elem;
    if (auto status = groups.Fix(at, found.elem.group, want.elem);
        !status.ok()) {
      return status;
    }
  } else if (have.is_elem()) {
    if (!Conform(at, want, have.elem).ok()) {
      return Mismatch(at, found, expected);
    }
    // The expectation was made of literals (an ifold's initial value): they
    // take the type of what was found.
    if (auto status = groups.Fix(at, expected.elem.group, have.elem);
        !status.ok()) {
      return status;
    }
  } else {
    if (want.kind == ScalarType::Kind::kFloatLiteral) result.elem.type = want;
    result.elem.group = groups.Merge(found.elem.group, expected.elem.group);
  }
  return result;
}

Type ToType(const TermType& type, const LiteralGroups& groups) {
  switch (type.kind) {
    case TermType::Kind::kScalar:
    case TermType::Kind::kArray: {
      ElemType elem = groups.Resolve(type.elem);
      if (type.is_access()) {
        return Type::Access(elem, Dims(type.dims), type.access_dims);
      }
      if (type.is_scalar()) return Type::Elem(elem);
      return Type::Tensor(elem, Dims(type.dims));
    }
    case TermType::Kind::kTuple:
      return Type::Tuple(ToType(type.parts[0], groups),
                         ToType(type.parts[1], groups));
    case TermType::Kind::kIndex:
      return Type::Control(ControlType::kIndex);
    case TermType::Kind::kBool:
      return Type::Control(ControlType::kBool);
    case TermType::Kind::kFunction:
      return Type::Function(ToType(type.parts[0], groups),
                            ToType(type.parts[1], groups));
  }
  return Type::None();
}

}  // namespace tessel::ir
