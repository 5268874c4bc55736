/* The C runtime of emit-c's output: errors and checked allocations for the
 * kernels, and for the --harness main, the command line and NumPy .npy files
 * (versions 1.0 to 3.0 read, 1.0 written; little-endian, of any `descr`
 * the kernel's element types have: `<f2`, `<f4`, `<f8`, `|i1`, `<i4`; C
 * order), with messages such as
 * "k: A.npy: shape (3, 4) does not match (4, 4)".
 *
 * emit-c embeds this file (see BUILD) and copies into its output only the
 * parts between `tsl:begin NAME` and `tsl:end` markers that the output uses,
 * so that -Wunused-function never fires; text outside the parts is for
 * compiling this file on its own (tessel_npy_test.c). The runtime is plain
 * C99 plus POSIX's mkdir and names everything tsl_, which TIR names never map
 * to (c_names.h). */

/* tsl:begin posix_feature */
#define _POSIX_C_SOURCE 200809L
/* tsl:end */

/* What the kernels include (emit-c writes these itself). */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

/* tsl:begin stdio */
#include <stdarg.h>
#include <stdio.h>
/* tsl:end */

/* tsl:begin posix */
#include <string.h>
#include <sys/stat.h>
/* tsl:end */

/* tsl:begin program */
/* The name messages start with: argv[0]'s file name once the harness has
   read its command line. */
static const char *tsl_program = "kernel";
/* tsl:end */

/* tsl:begin error */
/* Stops the program after an error TIR gives no value to (an integer
   division by zero, an allocation that cannot be made): C has no way to go
   on, and the harness reports its own errors the same way, with status 1. */
static void tsl_error(const char *format, ...) {
  va_list arguments;
  va_start(arguments, format);
  fprintf(stderr, "%s: ", tsl_program);
  vfprintf(stderr, format, arguments);
  fprintf(stderr, "\n");
  va_end(arguments);
  exit(1);
}
/* tsl:end */

/* tsl:begin allocate */
/* Uninitialised room for a `name` of `rank` dimensions `shape` (TIR leaves
   fresh data undefined), or the end of the program with a message when the
   size overflows or malloc cannot give it. */
static void *tsl_allocate(const char *name, size_t elem_size, int rank,
                          const int64_t *shape) {
  size_t bytes = elem_size;
  for (int d = 0; d < rank; d++) {
    if (shape[d] <= 0) {
      tsl_error("cannot allocate '%s': dimension %d is %lld", name, d,
                (long long)shape[d]);
    }
    if ((uint64_t)shape[d] > SIZE_MAX / bytes) {
      tsl_error("cannot allocate '%s': its size overflows", name);
    }
    bytes *= (size_t)shape[d];
  }
  void *data = malloc(bytes);
  if (data == NULL) {
    tsl_error("out of memory: cannot allocate %zu bytes for '%s'", bytes, name);
  }
  return data;
}
/* tsl:end */

/* tsl:begin cast_error */
/* Stops the program after a float to integer cast of a value the integer
   type `type` cannot hold, or of NaN: C leaves the conversion undefined.
   The value is written as run-sim writes it (C++'s std::to_chars): the
   fewest digits that read back as the same double, in fixed notation unless
   scientific notation is shorter, whole numbers ending in ".0" ("1e+10",
   "-300.5", "128.0"). Only stdio and stdlib: kernels without a harness
   include no <string.h>. */
static void tsl_cast_error(double value, const char *type) {
  char text[48];
  int length;
  if (isnan(value) || isinf(value)) {
    length = snprintf(text, sizeof(text), "%s",
                      isnan(value) ? "nan" : value < 0 ? "-inf" : "inf");
  } else {
    int digits = 1;
    for (; digits < 17; digits++) {
      snprintf(text, sizeof(text), "%.*e", digits - 1, value);
      if (strtod(text, NULL) == value) break;
    }
    length = snprintf(text, sizeof(text), "%.*e", digits - 1, value);
    int at = length - 1;
    while (text[at] != 'e') at--;
    int exponent = atoi(text + at + 1);
    int fixed_length = (value < 0) + (exponent < 0 ? 1 - exponent + digits
                                      : exponent >= digits - 1
                                          ? exponent + 1
                                          : digits + 1);
    if (fixed_length <= length) {
      int decimals = exponent >= digits - 1 ? 0 : digits - 1 - exponent;
      length = snprintf(text, sizeof(text), "%.*f", decimals, value);
    }
    bool whole = true;
    for (int i = 0; i < length; i++) {
      if (text[i] == '.' || text[i] == 'e') whole = false;
    }
    if (whole) snprintf(text + length, sizeof(text) - (size_t)length, ".0");
  }
  tsl_error("cannot cast %s to %s: the value is out of its range", text,
            type);
}
/* tsl:end */

/* tsl:begin arguments */
/* Command line of the harness: --inputs DIR --outputs DIR. */
static bool tsl_parse_arguments(int argc, char **argv, bool need_inputs,
                                bool need_outputs, const char **inputs,
                                const char **outputs) {
  if (argc > 0 && argv[0] != NULL) {
    const char *slash = strrchr(argv[0], '/');
    tsl_program = slash != NULL ? slash + 1 : argv[0];
  }
  for (int i = 1; i < argc; i++) {
    const char **target = NULL;
    if (strcmp(argv[i], "--inputs") == 0) {
      target = inputs;
    } else if (strcmp(argv[i], "--outputs") == 0) {
      target = outputs;
    } else {
      fprintf(stderr, "%s: unknown argument '%s'\n", tsl_program, argv[i]);
      fprintf(stderr, "usage: %s --inputs DIR --outputs DIR\n", tsl_program);
      return false;
    }
    if (i + 1 >= argc) {
      fprintf(stderr, "%s: %s needs a value (DIR)\n", tsl_program, argv[i]);
      return false;
    }
    *target = argv[++i];
  }
  if (need_inputs && *inputs == NULL) {
    fprintf(stderr, "%s: --inputs DIR is required\n", tsl_program);
    return false;
  }
  if (need_outputs && *outputs == NULL) {
    fprintf(stderr, "%s: --outputs DIR is required\n", tsl_program);
    return false;
  }
  return true;
}
/* tsl:end */

/* tsl:begin files */
/* .npy files (NumPy format versions 1.0 to 3.0), little-endian and in C
   order, as DIR/NAME.npy. */
enum { tsl_max_rank = 32 };

static char *tsl_path(const char *dir, const char *name) {
  size_t size = strlen(dir) + strlen(name) + sizeof("/.npy");
  char *path = malloc(size);
  if (path == NULL) {
    fprintf(stderr, "%s: out of memory\n", tsl_program);
    return NULL;
  }
  snprintf(path, size, "%s/%s.npy", dir, name);
  return path;
}

/* The host must store numbers as .npy files do. */
static bool tsl_little_endian(void) {
  const uint16_t one = 1;
  if (*(const unsigned char *)&one == 1) return true;
  fprintf(stderr, "%s: .npy files need a little-endian host\n", tsl_program);
  return false;
}

/* A shape as Python prints a tuple: (), (3,), (3, 4). */
static void tsl_format_shape(char *out, size_t size, int rank,
                             const int64_t *shape) {
  size_t used = (size_t)snprintf(out, size, "(");
  for (int d = 0; d < rank && used < size; d++) {
    used += (size_t)snprintf(out + used, size - used, "%s%lld",
                             d == 0 ? "" : ", ", (long long)shape[d]);
  }
  if (used < size) snprintf(out + used, size - used, rank == 1 ? ",)" : ")");
}
/* tsl:end */

/* tsl:begin reader */
/* A cursor over the header, a Python dict literal such as
   {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), } */
static void tsl_skip_blanks(const char **p) {
  while (**p == ' ' || **p == '\t' || **p == '\n' || **p == '\r') ++*p;
}

static bool tsl_expect(const char **p, char c) {
  tsl_skip_blanks(p);
  if (**p != c) return false;
  ++*p;
  return true;
}

static bool tsl_parse_string(const char **p, char *out, size_t size) {
  tsl_skip_blanks(p);
  char quote = **p;
  if (quote != '\'' && quote != '"') return false;
  size_t length = 0;
  for (++*p; **p != quote; ++*p) {
    if (**p == '\0' || length + 1 >= size) return false;
    out[length++] = **p;
  }
  ++*p;
  out[length] = '\0';
  return true;
}

static bool tsl_parse_bool(const char **p, bool *value) {
  tsl_skip_blanks(p);
  if (strncmp(*p, "True", 4) == 0) {
    *value = true;
    *p += 4;
    return true;
  }
  if (strncmp(*p, "False", 5) == 0) {
    *value = false;
    *p += 5;
    return true;
  }
  return false;
}

static bool tsl_parse_shape(const char **p, int *rank, int64_t *shape) {
  if (!tsl_expect(p, '(')) return false;
  *rank = 0;
  for (;;) {
    tsl_skip_blanks(p);
    if (**p == ')') break;
    if (*rank == tsl_max_rank || **p < '0' || **p > '9') return false;
    int64_t value = 0;
    for (; **p >= '0' && **p <= '9'; ++*p) {
      if (value > (INT64_MAX - (**p - '0')) / 10) return false;
      value = value * 10 + (**p - '0');
    }
    if (**p == 'L') ++*p; /* Python 2 longs */
    shape[(*rank)++] = value;
    tsl_skip_blanks(p);
    if (**p == ',') {
      ++*p;
    } else if (**p != ')') {
      return false;
    }
  }
  ++*p;
  return true;
}

static bool tsl_parse_header(const char *header, char *descr, size_t size,
                             bool *fortran_order, int *rank, int64_t *shape) {
  const char *p = header;
  bool seen_descr = false, seen_order = false, seen_shape = false;
  if (!tsl_expect(&p, '{')) return false;
  for (;;) {
    tsl_skip_blanks(&p);
    if (*p == '}') break;
    char key[32];
    if (!tsl_parse_string(&p, key, sizeof(key)) || !tsl_expect(&p, ':')) {
      return false;
    }
    bool ok;
    if (strcmp(key, "descr") == 0) {
      ok = seen_descr = tsl_parse_string(&p, descr, size);
    } else if (strcmp(key, "fortran_order") == 0) {
      ok = seen_order = tsl_parse_bool(&p, fortran_order);
    } else if (strcmp(key, "shape") == 0) {
      ok = seen_shape = tsl_parse_shape(&p, rank, shape);
    } else {
      ok = false;
    }
    if (!ok) return false;
    tsl_skip_blanks(&p);
    if (*p == ',') {
      p++;
    } else if (*p != '}') {
      return false;
    }
  }
  return seen_descr && seen_order && seen_shape;
}

/* Do two dtypes agree? The byte order of one-byte types does not matter,
   and '=' (native) is little-endian on the hosts the harness runs on. */
static bool tsl_same_dtype(const char *actual, const char *expected) {
  if (strcmp(actual + 1, expected + 1) != 0) return false;
  if (strcmp(expected + 2, "1") == 0) return true;
  return actual[0] == '<' || actual[0] == '=';
}

static void *tsl_read_npy_file(FILE *file, const char *name, const char *descr,
                               size_t elem_size, int rank,
                               const int64_t *shape) {
  unsigned char prefix[12];
  if (fread(prefix, 1, 8, file) != 8 || memcmp(prefix, "\x93NUMPY", 6) != 0) {
    fprintf(stderr, "%s: %s.npy: not a .npy file\n", tsl_program, name);
    return NULL;
  }
  int major = prefix[6];
  size_t length_bytes = major == 1 ? 2 : 4;
  if ((major < 1 || major > 3) ||
      fread(prefix + 8, 1, length_bytes, file) != length_bytes) {
    fprintf(stderr, "%s: %s.npy: unsupported .npy version %d.%d\n", tsl_program,
            name, major, prefix[7]);
    return NULL;
  }
  size_t header_length = prefix[8] | (size_t)prefix[9] << 8;
  if (length_bytes == 4) {
    header_length |= (size_t)prefix[10] << 16 | (size_t)prefix[11] << 24;
  }
  char *header = header_length < (1u << 20) ? malloc(header_length + 1) : NULL;
  if (header == NULL ||
      fread(header, 1, header_length, file) != header_length) {
    fprintf(stderr, "%s: %s.npy: the header is malformed\n", tsl_program, name);
    free(header);
    return NULL;
  }
  header[header_length] = '\0';
  char actual_descr[16];
  bool fortran_order = false;
  int actual_rank = 0;
  int64_t actual_shape[tsl_max_rank];
  bool parsed = tsl_parse_header(header, actual_descr, sizeof(actual_descr),
                                 &fortran_order, &actual_rank, actual_shape);
  free(header);
  if (!parsed) {
    fprintf(stderr, "%s: %s.npy: the header is malformed\n", tsl_program, name);
    return NULL;
  }
  if (!tsl_same_dtype(actual_descr, descr)) {
    fprintf(stderr, "%s: %s.npy: dtype '%s' does not match '%s'\n", tsl_program,
            name, actual_descr, descr);
    return NULL;
  }
  if (fortran_order && actual_rank > 1) {
    fprintf(stderr,
            "%s: %s.npy: the array is in Fortran order; save it in C "
            "order\n",
            tsl_program, name);
    return NULL;
  }
  bool same_shape = actual_rank == rank;
  for (int d = 0; same_shape && d < rank; d++) {
    same_shape = actual_shape[d] == shape[d];
  }
  if (!same_shape) {
    char actual_text[640], expected_text[640];
    tsl_format_shape(actual_text, sizeof(actual_text), actual_rank,
                     actual_shape);
    tsl_format_shape(expected_text, sizeof(expected_text), rank, shape);
    fprintf(stderr, "%s: %s.npy: shape %s does not match %s\n", tsl_program,
            name, actual_text, expected_text);
    return NULL;
  }
  size_t count = 1;
  for (int d = 0; d < rank; d++) count *= (size_t)shape[d];
  void *data = malloc(count * elem_size);
  if (data == NULL) {
    fprintf(stderr, "%s: out of memory\n", tsl_program);
    return NULL;
  }
  if (fread(data, elem_size, count, file) != count) {
    fprintf(stderr, "%s: %s.npy: the file is truncated\n", tsl_program, name);
    free(data);
    return NULL;
  }
  return data;
}

/* Reads DIR/NAME.npy, which must hold a `descr` array of the given shape;
   returns its elements (to free), or NULL after printing why not. */
static void *tsl_read_npy(const char *dir, const char *name, const char *descr,
                          size_t elem_size, int rank, const int64_t *shape) {
  if (!tsl_little_endian()) return NULL;
  char *path = tsl_path(dir, name);
  if (path == NULL) return NULL;
  FILE *file = fopen(path, "rb");
  if (file == NULL) {
    fprintf(stderr, "%s: cannot open %s\n", tsl_program, path);
    free(path);
    return NULL;
  }
  free(path);
  void *data = tsl_read_npy_file(file, name, descr, elem_size, rank, shape);
  fclose(file);
  return data;
}
/* tsl:end */

/* tsl:begin writer */
/* Creates DIR and its parents, like mkdir -p. */
static bool tsl_make_directories(const char *dir) {
  size_t length = strlen(dir);
  char *path = malloc(length + 1);
  if (path == NULL) {
    fprintf(stderr, "%s: out of memory\n", tsl_program);
    return false;
  }
  memcpy(path, dir, length + 1);
  bool ok = true;
  for (size_t i = 1; i <= length && ok; i++) {
    if (path[i] != '/' && path[i] != '\0') continue;
    char separator = path[i];
    path[i] = '\0';
    struct stat status;
    if (mkdir(path, 0777) != 0 &&
        (stat(path, &status) != 0 || !S_ISDIR(status.st_mode))) {
      ok = false;
    }
    path[i] = separator;
  }
  if (!ok)
    fprintf(stderr, "%s: cannot create directory %s\n", tsl_program, dir);
  free(path);
  return ok;
}

/* Writes `data` as DIR/NAME.npy (format version 1.0); false after printing
   why not. */
static bool tsl_write_npy(const char *dir, const char *name, const char *descr,
                          size_t elem_size, int rank, const int64_t *shape,
                          const void *data) {
  if (!tsl_little_endian()) return false;
  char shape_text[640], header[1024];
  tsl_format_shape(shape_text, sizeof(shape_text), rank, shape);
  int length = snprintf(header, sizeof(header),
                        "{'descr': '%s', 'fortran_order': False, "
                        "'shape': %s, }",
                        descr, shape_text);
  /* Pad with spaces and a newline so that the data starts 64-aligned. */
  while ((10 + length + 1) % 64 != 0) header[length++] = ' ';
  header[length++] = '\n';
  unsigned char prefix[10] = {0x93,
                              'N',
                              'U',
                              'M',
                              'P',
                              'Y',
                              1,
                              0,
                              (unsigned char)(length & 0xff),
                              (unsigned char)(length >> 8)};
  size_t count = 1;
  for (int d = 0; d < rank; d++) count *= (size_t)shape[d];
  char *path = tsl_path(dir, name);
  if (path == NULL) return false;
  FILE *file = fopen(path, "wb");
  bool ok = file != NULL && fwrite(prefix, 1, 10, file) == 10 &&
            fwrite(header, 1, (size_t)length, file) == (size_t)length &&
            fwrite(data, elem_size, count, file) == count;
  if (file != NULL && fclose(file) != 0) ok = false;
  if (!ok) fprintf(stderr, "%s: cannot write %s\n", tsl_program, path);
  free(path);
  return ok;
}
/* tsl:end */
