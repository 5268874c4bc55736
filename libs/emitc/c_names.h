// C identifiers for TIR names. TIR symbols may hold almost any character
// and may collide with C keywords, with what the included headers declare or
// with the emitted runtime, so every name the C output declares goes through
// here.
#ifndef TESSEL_LIBS_EMITC_C_NAMES_H_
#define TESSEL_LIBS_EMITC_C_NAMES_H_

#include <functional>
#include <string>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/string_view.h"

namespace tessel::emitc {

// The emitted runtime, window types and helpers all start with this prefix.
inline constexpr absl::string_view kRuntimePrefix = "tsl_";

// `name` (a leading '@' dropped) with every character outside [A-Za-z0-9_]
// replaced by '_'. Names C reserves for the implementation (a leading '_'),
// names starting with a digit, names in the runtime's namespace and names
// of the headers' macro families (INT8_MAX, M_PI) get a 'v' prefix.
std::string SanitizeIdentifier(absl::string_view name);

// Identifiers the output must not declare: keywords of C99 to C23 and GNU C,
// macros and functions of the headers the output includes (with glibc's
// default feature set), names ending in `_t`, the runtime's names and
// main's parameters.
bool IsReservedIdentifier(absl::string_view name);

// The sanitised `name`, or the first of `name_1`, `name_2`, ... that is
// neither reserved nor `taken`.
std::string UniqueIdentifier(
    absl::string_view name,
    const std::function<bool(absl::string_view)>& taken);

// Adds the identifiers that C text (the literal parts of a memory's or an
// instruction's template) refers to, to `out`: the emitted code must not
// shadow them.
void CollectIdentifiers(absl::string_view text,
                        absl::flat_hash_set<std::string>& out);

// Escapes `text` as the contents of a C string literal.
std::string CStringLiteral(absl::string_view text);

}  // namespace tessel::emitc

#endif  // TESSEL_LIBS_EMITC_C_NAMES_H_
