// The polyhedral view of a program point for the static checks: the
// integer variables in scope (loop variables and binders as set dimensions;
// control parameters and opaque control values such as strides as isl
// parameters) and the affine constraints that the enclosing loops,
// conditions and assertions impose. A check asks isl (through libs/poly)
// for a point of this domain where something fails, and reports it with
// TIR's names.
#ifndef TESSEL_LIBS_IR_VERIFY_DOMAIN_H_
#define TESSEL_LIBS_IR_VERIFY_DOMAIN_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "libs/poly/poly.h"

namespace tessel {

// An affine expression or constraint in isl notation ("(2 * i + n)",
// "(i < n)") and the ids of the domain parameters it mentions.
struct Affine {
  std::string text;
  std::vector<int> params;  // sorted, without duplicates
};

// Adds the parameters of `from` to `into`.
void MergeParams(std::vector<int>& into, const std::vector<int>& from);

// " (at i = 3, n = 4)" for a non-empty point, or "".
std::string AtPoint(absl::string_view point);

// The value of an Affine that is an integer literal.
std::optional<int64_t> LiteralValue(const Affine& value);

class PolyDomain {
 public:
  explicit PolyDomain(poly::Context& ctx) : ctx_(ctx) {}

  // The isl identifier for a TIR variable called `name`: the name itself
  // when isl can read it as an identifier, otherwise a generated one.
  std::string IslName(absl::string_view name);
  // An isl identifier for a value without a TIR name.
  std::string FreshIslName();

  // Declares an isl parameter that stands for a control value, with the
  // constraint its type guarantees ("n > 0" for a size; "" for none) and
  // the text counterexamples call it by. Returns its id.
  int AddParam(std::string isl_name, std::string display,
               std::string constraint);
  const std::string& ParamName(int id) const { return params_[id].isl; }

  // A set dimension (loop variable or binder) and a constraint that hold
  // until Restore() goes back past them.
  void AddDim(std::string isl_name, std::string display);
  void Assume(Affine constraint);

  struct Mark {
    size_t dims = 0;
    size_t constraints = 0;
  };
  Mark mark() const { return {dims_.size(), constraints_.size()}; }
  void Restore(Mark mark);

  struct Violation {
    // The point, as "n = 1, i = 0" in TIR's names ("" when the domain has
    // no variables).
    std::string at;
    std::vector<std::string> values;  // the values there, as decimals
  };
  // A point of the domain where `values`, named x0, x1, ... in `allowed`,
  // break the constraint `allowed` (e.g. "0 <= x0 < x1"); nullopt when
  // there is none.
  absl::StatusOr<std::optional<Violation>> FindViolation(
      const std::vector<Affine>& values, absl::string_view allowed);
  // Is the domain empty (contradictory assertions, a dead branch)?
  absl::StatusOr<bool> IsEmpty();
  // A point of the domain where the constraint `condition` is false.
  absl::StatusOr<std::optional<std::string>> FindFailure(
      const Affine& condition);

 private:
  struct Param {
    std::string isl;
    std::string display;
    std::string constraint;
  };
  struct Dim {
    std::string isl;
    std::string display;
  };

  // "[n, m] -> " for the parameters `ids`, or "".
  std::string ParamPrefix(const std::vector<int>& ids) const;
  // "S[i, j]"
  std::string Tuple() const;
  // The constraints of the domain and those its parameters carry.
  std::string Constraints(const std::vector<int>& ids) const;
  // The parameters of the domain's constraints merged with `extra`.
  std::vector<int> UsedParams(const std::vector<int>& extra) const;
  // Rewrites isl's "a = 1, b = 2" with TIR's names.
  std::string Display(const std::string& point) const;

  poly::Context& ctx_;
  std::vector<Param> params_;
  std::vector<Dim> dims_;
  std::vector<Affine> constraints_;
  int generated_names_ = 0;
};

}  // namespace tessel

#endif  // TESSEL_LIBS_IR_VERIFY_DOMAIN_H_
