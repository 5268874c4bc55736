#include "libs/egraph/symbols.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "absl/strings/str_cat.h"
#include "libs/sexpr/sexpr.h"

namespace tessel::egraph {

OpId OpTable::Intern(absl::string_view name) {
  auto it = ids_.find(name);
  if (it != ids_.end()) return it->second;
  OpId id = names_.size();
  if (id >= kMaxOps) {
    std::fprintf(stderr, "fatal: more than %zu distinct operators\n", kMaxOps);
    std::abort();
  }
  names_.emplace_back(name);
  ids_.emplace(std::string(name), id);
  return id;
}

std::optional<OpId> OpTable::Find(absl::string_view name) const {
  auto it = ids_.find(name);
  if (it == ids_.end()) return std::nullopt;
  return it->second;
}

namespace {

// Equal floats (as ordered_float compares them) get equal bits.
int64_t FloatBits(double value) {
  if (value == 0) value = 0;  // folds -0.0
  if (std::isnan(value)) value = std::numeric_limits<double>::quiet_NaN();
  int64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

}  // namespace

PayloadTable::PayloadTable() {
  entries_.push_back({PayloadKind::kNone, 0, 0});
  texts_.emplace_back();
}

PayloadId PayloadTable::InternEntry(PayloadKind kind, int64_t bits,
                                    absl::string_view text) {
  if (std::optional<PayloadId> id = FindEntry(kind, bits, text)) return *id;
  PayloadId id = entries_.size();
  uint32_t text_index = 0;
  if (kind == PayloadKind::kSymbol || kind == PayloadKind::kString) {
    text_index = texts_.size();
    texts_.emplace_back(text);
    (kind == PayloadKind::kSymbol ? symbols_ : strings_)
        .emplace(std::string(text), id);
  } else {
    numbers_.emplace(std::make_pair(kind, bits), id);
  }
  entries_.push_back({kind, bits, text_index});
  return id;
}

std::optional<PayloadId> PayloadTable::FindEntry(PayloadKind kind, int64_t bits,
                                                 absl::string_view text) const {
  if (kind == PayloadKind::kSymbol || kind == PayloadKind::kString) {
    const auto& index = kind == PayloadKind::kSymbol ? symbols_ : strings_;
    auto it = index.find(text);
    if (it == index.end()) return std::nullopt;
    return it->second;
  }
  auto it = numbers_.find(std::make_pair(kind, bits));
  if (it == numbers_.end()) return std::nullopt;
  return it->second;
}

PayloadId PayloadTable::Int(int64_t value) {
  return InternEntry(PayloadKind::kInt, value, {});
}
PayloadId PayloadTable::Float(double value) {
  return InternEntry(PayloadKind::kFloat, FloatBits(value), {});
}
PayloadId PayloadTable::Symbol(absl::string_view name) {
  return InternEntry(PayloadKind::kSymbol, 0, name);
}
PayloadId PayloadTable::String(absl::string_view text) {
  return InternEntry(PayloadKind::kString, 0, text);
}
std::optional<PayloadId> PayloadTable::FindInt(int64_t value) const {
  return FindEntry(PayloadKind::kInt, value, {});
}
std::optional<PayloadId> PayloadTable::FindFloat(double value) const {
  return FindEntry(PayloadKind::kFloat, FloatBits(value), {});
}
std::optional<PayloadId> PayloadTable::FindSymbol(
    absl::string_view name) const {
  return FindEntry(PayloadKind::kSymbol, 0, name);
}

double PayloadTable::FloatValue(PayloadId id) const {
  double value;
  std::memcpy(&value, &entries_[id].int_value, sizeof value);
  return value;
}

std::string PayloadTable::ToString(PayloadId id) const {
  switch (Kind(id)) {
    case PayloadKind::kNone:
      return "";
    case PayloadKind::kInt:
      return absl::StrCat(IntValue(id));
    case PayloadKind::kFloat:
      return AtomText(Sexpr::Float(FloatValue(id)));
    case PayloadKind::kSymbol:
      return std::string(Text(id));
    case PayloadKind::kString:
      return AtomText(Sexpr::String(std::string(Text(id))));
  }
  return "";
}

}  // namespace tessel::egraph
