// Polyhedral questions Tessel asks of isl. Sets and maps are written in isl's
// own notation (for example "[N] -> { S[i, j] : 0 <= i < N and 0 <= j < 4 }"
// and "{ S[i, j] -> A[i + 1, j] }"), which keeps callers readable and lets
// isl do all of the integer arithmetic. A counterexample is a point in isl
// notation, e.g. "{ S[i = 63, j = 0] }" printed as "i = 63, j = 0".
#ifndef TESSEL_LIBS_POLY_POLY_H_
#define TESSEL_LIBS_POLY_POLY_H_

#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

struct isl_ctx;

namespace tessel::poly {

// Owns an isl context. Not thread-safe; one per thread.
class Context {
 public:
  Context();
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  isl_ctx* get() const { return ctx_; }

 private:
  isl_ctx* ctx_;
};

// A point of a domain, as "i = 63, j = 0" (parameters first when symbolic,
// e.g. "N = 1, i = 0").
using Counterexample = std::string;

// Is every image of `domain` under `access` inside `bounds`? Returns a domain
// point whose image falls outside, or nullopt when none does. `domain` is a
// set, `access` a map from its space, `bounds` a set in the access's range
// space. Malformed isl text is an Internal error (callers build it).
absl::StatusOr<std::optional<Counterexample>> FindOutOfBounds(
    Context& ctx, absl::string_view domain, absl::string_view access,
    absl::string_view bounds);

// Does `access` restricted to `domain` map two distinct points to the same
// element? Returns one of the two points (formatted as above) and the other
// after " and ", or nullopt when the access is injective on the domain.
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
