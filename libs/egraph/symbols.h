// Interning tables: operator names (OpTable) and e-node payloads
// (PayloadTable). An e-node is (op, payload, children), all integers, so that
// hashing and comparing e-nodes never touches a string.
#ifndef TESSEL_LIBS_EGRAPH_SYMBOLS_H_
#define TESSEL_LIBS_EGRAPH_SYMBOLS_H_

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "libs/egraph/ids.h"

namespace tessel::egraph {

// Interns operator names. The arity is not part of an op: e-nodes and
// pattern nodes carry their own number of children, and an op applied to a
// different number of children is a different e-node (variadic forms).
class OpTable {
 public:
  // E-nodes store ops in 24 bits; interning more ops aborts.
  static constexpr size_t kMaxOps = size_t{1} << 24;

  OpId Intern(absl::string_view name);
  std::optional<OpId> Find(absl::string_view name) const;
  absl::string_view Name(OpId op) const { return names_[op]; }
  size_t size() const { return names_.size(); }

 private:
  std::deque<std::string> names_;  // a deque keeps Name()'s views valid
  absl::flat_hash_map<std::string, OpId> ids_;
};

enum class PayloadKind : uint8_t { kNone, kInt, kFloat, kSymbol, kString };

// Interns payloads. Id 0 is "no payload". Floats are interned by value with
// -0.0 folded into 0.0 and every NaN into one NaN, so that equal constants
// (as egg's NotNan<f64> compares them) are one payload.
class PayloadTable {
 public:
  static constexpr PayloadId kNone = 0;

  PayloadTable();

  PayloadId Int(int64_t value);
  PayloadId Float(double value);
  PayloadId Symbol(absl::string_view name);
  PayloadId String(absl::string_view text);

  std::optional<PayloadId> FindInt(int64_t value) const;
  std::optional<PayloadId> FindFloat(double value) const;
  std::optional<PayloadId> FindSymbol(absl::string_view name) const;

  PayloadKind Kind(PayloadId id) const { return entries_[id].kind; }
  int64_t IntValue(PayloadId id) const { return entries_[id].int_value; }
  double FloatValue(PayloadId id) const;
  // The name of a symbol or the text of a string.
  absl::string_view Text(PayloadId id) const {
    return texts_[entries_[id].text];
  }
  // The payload as an S-expression atom: 3, 2.5, x, "text" ("" for none).
  std::string ToString(PayloadId id) const;
  size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    PayloadKind kind;
    int64_t int_value;  // the int, or the bits of the float
    uint32_t text;      // index into texts_
  };
  PayloadId InternEntry(PayloadKind kind, int64_t bits, absl::string_view text);
  std::optional<PayloadId> FindEntry(PayloadKind kind, int64_t bits,
                                     absl::string_view text) const;

  std::vector<Entry> entries_;
  std::deque<std::string> texts_;
  // Numbers by (kind, bits); symbols and strings by text.
  absl::flat_hash_map<std::pair<PayloadKind, int64_t>, PayloadId> numbers_;
  absl::flat_hash_map<std::string, PayloadId> symbols_;
  absl::flat_hash_map<std::string, PayloadId> strings_;
};

}  // namespace tessel::egraph

#endif  // TESSEL_LIBS_EGRAPH_SYMBOLS_H_
