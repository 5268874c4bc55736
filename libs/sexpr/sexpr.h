// S-expressions: the concrete syntax of Tessel's IR (formats/tir/README.md).
// A Sexpr is a symbol, an integer, a float, a string or a list, and remembers
// where it was read so that every later check can point at the source.
#ifndef TESSEL_LIBS_SEXPR_SEXPR_H_
#define TESSEL_LIBS_SEXPR_SEXPR_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "libs/support/source.h"

namespace tessel {

enum class SexprKind { kSymbol, kInt, kFloat, kString, kList };

class Sexpr {
 public:
  Sexpr() : kind_(SexprKind::kList) {}

  static Sexpr Symbol(std::string name, Location loc = {});
  static Sexpr Int(int64_t value, Location loc = {});
  static Sexpr Float(double value, Location loc = {});
  static Sexpr String(std::string value, Location loc = {});
  static Sexpr List(std::vector<Sexpr> items, Location loc = {});

  SexprKind kind() const { return kind_; }
  bool is_symbol() const { return kind_ == SexprKind::kSymbol; }
  bool is_symbol(absl::string_view name) const {
    return is_symbol() && text_ == name;
  }
  bool is_int() const { return kind_ == SexprKind::kInt; }
  bool is_float() const { return kind_ == SexprKind::kFloat; }
  bool is_number() const { return is_int() || is_float(); }
  bool is_string() const { return kind_ == SexprKind::kString; }
  bool is_list() const { return kind_ == SexprKind::kList; }
  bool is_atom() const { return !is_list(); }

  // The name of a symbol, or the contents of a string.
  const std::string& text() const { return text_; }
  int64_t int_value() const { return int_; }
  double float_value() const { return float_; }

  const std::vector<Sexpr>& items() const { return items_; }
  std::vector<Sexpr>& mutable_items() { return items_; }
  size_t size() const { return items_.size(); }
  const Sexpr& operator[](size_t i) const { return items_[i]; }

  // The symbol at the head of a list, or "" for atoms, empty lists and lists
  // that start with something else.
  absl::string_view head() const;
  // True for a list whose head symbol is `name`.
  bool is_form(absl::string_view name) const { return head() == name; }

  const Location& loc() const { return loc_; }
  void set_loc(Location loc) { loc_ = std::move(loc); }

  // Structural equality; locations are ignored.
  friend bool operator==(const Sexpr& a, const Sexpr& b);
  friend bool operator!=(const Sexpr& a, const Sexpr& b) { return !(a == b); }

 private:
  SexprKind kind_;
  std::string text_;
  int64_t int_ = 0;
  double float_ = 0;
  std::vector<Sexpr> items_;
  Location loc_;
};

// The text of an atom as the printer writes it (floats always carry a '.' or
// an exponent so that they read back as floats).
std::string AtomText(const Sexpr& atom);

}  // namespace tessel

#endif  // TESSEL_LIBS_SEXPR_SEXPR_H_
