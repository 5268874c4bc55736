// Polyhedral questions Tessel asks of isl. Sets and maps are written in isl's
// own notation (for example "[N] -> { S[i, j] : 0 <= i < N and 0 <= j < 4 }"
// and "{ S[i, j] -> A[i + 1, j] }"), which keeps callers readable and lets
// isl do all of the integer arithmetic. A counterexample is a point in isl
// notation, e.g. "{ S[i = 63, j = 0] }" printed as "i = 63, j = 0".
#ifndef TESSEL_LIBS_POLY_POLY_H_
#define TESSEL_LIBS_POLY_POLY_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

struct isl_ctx;
struct isl_set;

namespace tessel::poly {

// Owns an isl context. Not thread-safe; one per thread. Every query is given
// a budget of isl operations so that pathological constraints end in a
// ResourceExhausted error instead of a hang. A context remembers the sets it
// parsed last: callers such as the verifier ask many questions about one
// domain, and parsing is a large part of each.
class Context {
 public:
  Context();
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  isl_ctx* get() const { return ctx_; }

  // The set `text` denotes, as a new reference the caller frees; null after
  // an isl error (see isl_ctx_last_error).
  isl_set* ReadSet(absl::string_view text);

 private:
  struct ParsedSets;

  isl_ctx* ctx_;
  std::unique_ptr<ParsedSets> parsed_;
};

// A point of a domain, as "i = 63, j = 0" (parameters first when symbolic,
// e.g. "N = 1, i = 0"). Counterexamples are the lexicographically smallest
// offending points, parameters first (the smallest problem size, then the
// earliest iteration), or any offending point when the set is unbounded
// below.
using Counterexample = std::string;

// Is every image of `domain` under `access` inside `bounds`? Returns a domain
// point whose image falls outside, or nullopt when none does. `domain` is a
// set, `access` a map from its space, `bounds` a set in the access's range
// space. Malformed isl text is an Internal error (callers build it).
absl::StatusOr<std::optional<Counterexample>> FindOutOfBounds(
    Context& ctx, absl::string_view domain, absl::string_view access,
    absl::string_view bounds);

// FindOutOfBounds with where the offending point lands: `image` holds the
// coordinates of its image under `access` (one decimal string per output
// dimension), so that callers can say which value went out of range.
struct OutOfBounds {
  Counterexample point;
  std::vector<std::string> image;
};
absl::StatusOr<std::optional<OutOfBounds>> FindOutOfBoundsImage(
    Context& ctx, absl::string_view domain, absl::string_view access,
    absl::string_view bounds);

// Does `access` restricted to `domain` map two distinct points to the same
// element? Returns one of the two points (formatted as above) and the other
// after " and ", or nullopt when the access is injective on the domain.
// Parameters are written once, with the first point ("N = 2, i = 0 and
// i = 1").
absl::StatusOr<std::optional<Counterexample>> FindCollision(
    Context& ctx, absl::string_view domain, absl::string_view access);

// Is the image of `domain` under `access` exactly `bounds`?
absl::StatusOr<bool> CoversExactly(Context& ctx, absl::string_view domain,
                                   absl::string_view access,
                                   absl::string_view bounds);

// Is `domain` empty (for example a loop nest whose guard never holds)?
absl::StatusOr<bool> IsEmpty(Context& ctx, absl::string_view domain);

}  // namespace tessel::poly

#endif  // TESSEL_LIBS_POLY_POLY_H_
