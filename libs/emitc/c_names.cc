#include "libs/emitc/c_names.h"

#include <initializer_list>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace tessel::emitc {
namespace {

// clang-format off
// Keywords of C99, C23 (alignas ... typeof_unqual) and GNU C (asm), and the
// macros of <stdbool.h>.
constexpr std::initializer_list<absl::string_view> kKeywords = {
    "auto", "break", "case", "char", "const", "continue", "default", "do",
    "double", "else", "enum", "extern", "float", "for", "goto", "if",
    "inline", "int", "long", "register", "restrict", "return", "short",
    "signed", "sizeof", "static", "struct", "switch", "typedef", "union",
    "unsigned", "void", "volatile", "while", "alignas", "alignof", "bool",
    "constexpr", "false", "nullptr", "static_assert", "thread_local", "true",
    "typeof", "typeof_unqual", "asm",
};

// Object-like macros of <stdlib.h>, <stdio.h>, <math.h> and <string.h>, and
// main's parameters. Names ending in `_t` (POSIX reserves them for types)
// and the prefixes in kReservedPrefixes are handled separately.
constexpr std::initializer_list<absl::string_view> kMacros = {
    "NULL", "EXIT_SUCCESS", "EXIT_FAILURE", "RAND_MAX", "MB_CUR_MAX", "EOF",
    "BUFSIZ", "FILENAME_MAX", "FOPEN_MAX", "L_tmpnam", "L_ctermid",
    "P_tmpdir", "TMP_MAX", "SEEK_SET", "SEEK_CUR", "SEEK_END", "stdin",
    "stdout", "stderr", "HUGE_VAL", "HUGE_VALF", "HUGE_VALL", "INFINITY",
    "NAN", "MATH_ERRNO", "MATH_ERREXCEPT", "math_errhandling", "signgam",
    "WNOHANG", "WUNTRACED", "FILE", "main", "argc", "argv",
};

// Prefixes of macro families: <stdint.h>'s limits (INT8_MAX, UINT64_C,
// INTPTR_MIN, ...), <math.h>'s FP_*, glibc's M_PI and <sys/stat.h>'s S_*. A name with one
// of them gets a 'v' prefix (a suffix would not help).
constexpr std::initializer_list<absl::string_view> kReservedPrefixes = {
    "INT8_", "INT16_", "INT32_", "INT64_", "INT_LEAST", "INT_FAST",
    "INTPTR_", "INTMAX_", "UINT8_", "UINT16_", "UINT32_", "UINT64_",
    "UINT_LEAST", "UINT_FAST", "UINTPTR_", "UINTMAX_", "PTRDIFF_", "SIZE_",
    "WCHAR_", "WINT_", "SIG_ATOMIC_", "FP_", "M_", "S_",
};

bool HasReservedPrefix(absl::string_view name) {
  for (absl::string_view prefix : kReservedPrefixes) {
    if (absl::StartsWith(name, prefix)) return true;
  }
  return false;
}

// Functions (and function-like macros) of the included headers, with the
// POSIX and GNU extensions glibc declares by default: a procedure or a
// configuration, which are global, must not take their names.
constexpr std::initializer_list<absl::string_view> kLibraryFunctions = {
    // <stdlib.h>
    "abort", "abs", "atexit", "at_quick_exit", "atof", "atoi", "atol",
    "atoll", "bsearch", "calloc", "div", "exit", "free", "getenv", "labs",
    "ldiv", "llabs", "lldiv", "malloc", "mblen", "mbstowcs", "mbtowc",
    "qsort", "quick_exit", "rand", "realloc", "srand", "strtod", "strtof",
    "strtol", "strtold", "strtoll", "strtoul", "strtoull", "system",
    "wcstombs", "wctomb", "aligned_alloc", "random", "srandom", "initstate",
    "setstate", "drand48", "erand48", "lrand48", "nrand48", "mrand48",
    "jrand48", "srand48", "seed48", "lcong48", "rand_r", "setenv", "unsetenv",
    "putenv", "clearenv", "mkstemp", "mkdtemp", "mktemp", "realpath",
    "posix_memalign", "valloc", "reallocarray", "alloca", "getloadavg",
    "ecvt", "fcvt", "gcvt", "a64l", "l64a", "grantpt", "ptsname", "unlockpt",
    "posix_openpt", "getsubopt",
    // <stdio.h>
    "remove", "rename", "tmpfile", "tmpnam", "fclose", "fflush", "fopen",
    "freopen", "setbuf", "setvbuf", "fprintf", "fscanf", "printf", "scanf",
    "snprintf", "sprintf", "sscanf", "vfprintf", "vfscanf", "vprintf",
    "vscanf", "vsnprintf", "vsprintf", "vsscanf", "fgetc", "fgets", "fputc",
    "fputs", "getc", "getchar", "gets", "putc", "putchar", "puts", "ungetc",
    "fread", "fwrite", "fgetpos", "fseek", "fsetpos", "ftell", "rewind",
    "clearerr", "feof", "ferror", "perror", "fdopen", "fileno", "popen",
    "pclose", "getline", "getdelim", "dprintf", "vdprintf", "fmemopen",
    "open_memstream", "ctermid", "tempnam", "flockfile", "ftrylockfile",
    "funlockfile", "getc_unlocked", "getchar_unlocked", "putc_unlocked",
    "putchar_unlocked", "fseeko", "ftello", "renameat", "getw", "putw",
    "setbuffer", "setlinebuf",
    // <string.h> (and <strings.h>, which glibc's <string.h> includes)
    "memcpy", "memmove", "memchr", "memcmp", "memset", "strcat", "strncat",
    "strchr", "strcmp", "strncmp", "strcoll", "strcpy", "strncpy", "strcspn",
    "strerror", "strlen", "strpbrk", "strrchr", "strspn", "strstr", "strtok",
    "strxfrm", "strdup", "strndup", "strtok_r", "stpcpy", "stpncpy",
    "strnlen", "strsignal", "memccpy", "strerror_r", "strcasecmp",
    "strncasecmp", "bcmp", "bcopy", "bzero", "index", "rindex", "ffs",
    "explicit_bzero", "strsep",
    // <math.h> classification macros and glibc's extensions
    "fpclassify", "isfinite", "isinf", "isnan", "isnormal", "signbit",
    "isgreater", "isgreaterequal", "isless", "islessequal", "islessgreater",
    "isunordered", "j0", "j1", "jn", "y0", "y1", "yn", "gamma", "drem",
    "finite", "significand", "exp10", "sincos", "lgamma_r", "scalb",
    // <sys/stat.h>, which the harness includes for mkdir
    "mkdir", "stat", "lstat", "fstat", "fstatat", "chmod", "fchmod",
    "fchmodat", "mkfifo", "mkfifoat", "mknod", "mknodat", "mkdirat", "umask",
    "futimens", "utimensat",
    // <stdarg.h>, which tsl_error needs
    "va_list", "va_start", "va_arg", "va_end", "va_copy",
};

// <math.h> functions, each also declared with an `f` and an `l` suffix.
constexpr std::initializer_list<absl::string_view> kMathFunctions = {
    "acos", "asin", "atan", "atan2", "cos", "sin", "tan", "acosh", "asinh",
    "atanh", "cosh", "sinh", "tanh", "exp", "exp2", "expm1", "frexp",
    "ilogb", "ldexp", "log", "log10", "log1p", "log2", "logb", "modf",
    "scalbn", "scalbln", "cbrt", "fabs", "hypot", "pow", "sqrt", "erf",
    "erfc", "lgamma", "tgamma", "ceil", "floor", "nearbyint", "rint",
    "lrint", "llrint", "round", "lround", "llround", "trunc", "fmod",
    "remainder", "remquo", "copysign", "nan", "nextafter", "nexttoward",
    "fdim", "fmax", "fmin", "fma",
};
// clang-format on

bool IsIdentifierChar(char c) {
  return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '_';
}

const absl::flat_hash_set<std::string>& ReservedSet() {
  static const auto* reserved = [] {
    auto* set = new absl::flat_hash_set<std::string>();
    for (auto list : {kKeywords, kMacros, kLibraryFunctions}) {
      for (absl::string_view name : list) set->emplace(name);
    }
    for (absl::string_view name : kMathFunctions) {
      set->emplace(name);
      set->insert(absl::StrCat(name, "f"));
      set->insert(absl::StrCat(name, "l"));
    }
    return set;
  }();
  return *reserved;
}

}  // namespace

std::string SanitizeIdentifier(absl::string_view name) {
  if (absl::StartsWith(name, "@")) name.remove_prefix(1);
  std::string result;
  for (char c : name) result += IsIdentifierChar(c) ? c : '_';
  if (result.empty() ||
      absl::ascii_isdigit(static_cast<unsigned char>(result[0])) ||
      result[0] == '_' || absl::StartsWith(result, kRuntimePrefix) ||
      HasReservedPrefix(result)) {
    // Not result.insert(0, "v"): GCC 12's -Wrestrict misfires on it at -O2.
    result = absl::StrCat("v", result);
  }
  return result;
}

bool IsReservedIdentifier(absl::string_view name) {
  return ReservedSet().contains(name) || absl::EndsWith(name, "_t") ||
         HasReservedPrefix(name) || absl::StartsWith(name, kRuntimePrefix);
}

std::string UniqueIdentifier(
    absl::string_view name,
    const std::function<bool(absl::string_view)>& taken) {
  std::string base = SanitizeIdentifier(name);
  std::string candidate = base;
  for (int suffix = 1; IsReservedIdentifier(candidate) || taken(candidate);
       ++suffix) {
    candidate = absl::StrCat(base, "_", suffix);
  }
  return candidate;
}

void CollectIdentifiers(absl::string_view text,
                        absl::flat_hash_set<std::string>& out) {
  size_t i = 0;
  while (i < text.size()) {
    if (!IsIdentifierChar(text[i])) {
      ++i;
      continue;
    }
    size_t start = i;
    while (i < text.size() && IsIdentifierChar(text[i])) ++i;
    if (!absl::ascii_isdigit(static_cast<unsigned char>(text[start]))) {
      out.emplace(text.substr(start, i - start));
    }
  }
}

std::string CStringLiteral(absl::string_view text) {
  std::string result = "\"";
  for (size_t i = 0; i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '"' || c == '\\') {
      result += '\\';
      result += static_cast<char>(c);
    } else if (c == '?' && i > 0 && text[i - 1] == '?') {
      result += "\\?";  // `??x` would be a trigraph
    } else if (c == '\n') {
      result += "\\n";
    } else if (c == '\t') {
      result += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      absl::StrAppend(&result, "\\", c >> 6, (c >> 3) & 7, c & 7);
    } else {
      result += static_cast<char>(c);
    }
  }
  return result + "\"";
}

}  // namespace tessel::emitc
