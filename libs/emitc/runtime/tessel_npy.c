/* The C runtime of emit-c's output: errors and checked allocations for the
 * kernels, and for the --harness main, the command line and NumPy .npy files
 * (read as run-sim reads them: versions 1.0 to 3.0, either byte order, C or
 * Fortran order, of the `descr` of the kernel's element types: `<f2`,
 * `<f4`, `<f8`, `|i1`, `<i4`; written as version 1.0, little-endian, C
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
   fresh data undefined), 64 bytes aligned, or the end of the program with a
   message when the size overflows or malloc cannot give it. The alignment
   is a cache line's: malloc's large blocks start 16 bytes past a page,
   where a vector of a row would span two lines (an AVX2 matmul reading a
   256 x 256 transposed copy ran at 58-83 GFLOP/s so, 82-91 aligned). The
   block malloc gave lies in the pointer before the data: tsl_free frees
   it. */
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
  if (bytes > SIZE_MAX - 64) {
    tsl_error("cannot allocate '%s': its size overflows", name);
  }
  unsigned char *block = malloc(bytes + 64);
  if (block == NULL) {
    tsl_error("out of memory: cannot allocate %zu bytes for '%s'", bytes, name);
  }
  unsigned char *data = block + 64 - (uintptr_t)block % 64;
  ((void **)data)[-1] = block;
  return data;
}

/* Frees what tsl_allocate returned (nothing for NULL). */
static void tsl_free(void *data) {
  if (data != NULL) free(((void **)data)[-1]);
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
/* .npy files (NumPy format versions 1.0 to 3.0) as DIR/NAME.npy. */
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

/* The host must store numbers as the files the harness writes do. */
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
/* The reader accepts and rejects the files run-sim's reader (libs/npy)
   does: the cases of libs/npy/testdata/reader/cases.txt, which both test
   suites read. The header is a Python dict literal such as
   {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
   and nothing but blanks may follow it. */
enum { tsl_max_header = 1 << 20 };

/* A cursor over the header, which ends at `end`. */
typedef struct {
  const char *p;
  const char *end;
} tsl_cursor;

static void tsl_skip_blanks(tsl_cursor *c) {
  while (c->p < c->end &&
         (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r')) {
    c->p++;
  }
}

static bool tsl_expect(tsl_cursor *c, char expected) {
  tsl_skip_blanks(c);
  if (c->p == c->end || *c->p != expected) return false;
  c->p++;
  return true;
}

static bool tsl_parse_string(tsl_cursor *c, char *out, size_t size) {
  tsl_skip_blanks(c);
  if (c->p == c->end || (*c->p != '\'' && *c->p != '"')) return false;
  char quote = *c->p++;
  size_t length = 0;
  for (; c->p < c->end && *c->p != quote; c->p++) {
    if (length + 1 >= size) return false;
    out[length++] = *c->p;
  }
  if (c->p == c->end) return false;
  c->p++;
  out[length] = '\0';
  return true;
}

static bool tsl_parse_word(tsl_cursor *c, const char *word) {
  size_t length = strlen(word);
  if ((size_t)(c->end - c->p) < length || memcmp(c->p, word, length) != 0) {
    return false;
  }
  c->p += length;
  return true;
}

static bool tsl_parse_bool(tsl_cursor *c, bool *value) {
  tsl_skip_blanks(c);
  *value = tsl_parse_word(c, "True");
  return *value || tsl_parse_word(c, "False");
}

/* Dimensions go to `shape`, which has room for one per two characters of
   the header. */
static bool tsl_parse_shape(tsl_cursor *c, int *rank, int64_t *shape) {
  if (!tsl_expect(c, '(')) return false;
  *rank = 0;
  for (;;) {
    tsl_skip_blanks(c);
    if (c->p < c->end && *c->p == ')') break;
    if (c->p == c->end || *c->p < '0' || *c->p > '9') return false;
    int64_t value = 0;
    for (; c->p < c->end && *c->p >= '0' && *c->p <= '9'; c->p++) {
      if (value > (INT64_MAX - (*c->p - '0')) / 10) return false;
      value = value * 10 + (*c->p - '0');
    }
    if (c->p < c->end && *c->p == 'L') c->p++; /* Python 2 longs */
    shape[(*rank)++] = value;
    tsl_skip_blanks(c);
    if (c->p < c->end && *c->p == ',') {
      c->p++;
    } else if (c->p == c->end || *c->p != ')') {
      return false;
    }
  }
  c->p++;
  return true;
}

static bool tsl_parse_header(tsl_cursor *c, char *descr, size_t size,
                             bool *fortran_order, int *rank, int64_t *shape) {
  bool seen_descr = false, seen_order = false, seen_shape = false;
  if (!tsl_expect(c, '{')) return false;
  for (;;) {
    tsl_skip_blanks(c);
    if (c->p < c->end && *c->p == '}') break;
    char key[32];
    if (!tsl_parse_string(c, key, sizeof(key)) || !tsl_expect(c, ':')) {
      return false;
    }
    bool ok;
    if (strcmp(key, "descr") == 0) {
      ok = seen_descr = tsl_parse_string(c, descr, size);
    } else if (strcmp(key, "fortran_order") == 0) {
      ok = seen_order = tsl_parse_bool(c, fortran_order);
    } else if (strcmp(key, "shape") == 0) {
      ok = seen_shape = tsl_parse_shape(c, rank, shape);
    } else {
      ok = false;
    }
    if (!ok) return false;
    tsl_skip_blanks(c);
    if (c->p < c->end && *c->p == ',') {
      c->p++;
    } else if (c->p == c->end || *c->p != '}') {
      return false;
    }
  }
  c->p++;
  tsl_skip_blanks(c);
  return c->p == c->end && seen_descr && seen_order && seen_shape;
}

/* Does the file's dtype `actual` hold the elements of `expected` (the
   parameter's, e.g. "<f4" or "|i1")? A byte order of '<', '=' (native:
   little-endian, tsl_little_endian) or none reads as is, '>' needs its
   bytes swapped; one-byte types may have any order, wider ones not '|'. */
static bool tsl_same_dtype(const char *actual, const char *expected,
                           size_t elem_size, bool *swap) {
  char order = actual[0];
  const char *type = actual;
  if (order == '<' || order == '>' || order == '=' || order == '|') type++;
  *swap = order == '>' && elem_size > 1;
  if (order == '|' && elem_size > 1) return false;
  return strcmp(type, expected + 1) == 0;
}

static void tsl_swap_bytes(unsigned char *data, size_t count,
                           size_t elem_size) {
  for (size_t i = 0; i < count; i++) {
    unsigned char *elem = data + i * elem_size;
    for (size_t a = 0, b = elem_size - 1; a < b; a++, b--) {
      unsigned char byte = elem[a];
      elem[a] = elem[b];
      elem[b] = byte;
    }
  }
}

/* The elements of a column-major array in row-major order, or NULL when
   memory runs out. */
static void *tsl_to_row_major(const unsigned char *data, size_t count,
                              size_t elem_size, int rank,
                              const int64_t *shape) {
  unsigned char *result = malloc(count * elem_size);
  int64_t *index = calloc((size_t)rank, sizeof(int64_t));
  if (result == NULL || index == NULL) {
    free(result);
    free(index);
    return NULL;
  }
  for (size_t row_major = 0; row_major < count; row_major++) {
    size_t column_major = 0;
    for (int d = rank; d-- > 0;) {
      column_major = column_major * (size_t)shape[d] + (size_t)index[d];
    }
    memcpy(result + row_major * elem_size, data + column_major * elem_size,
           elem_size);
    for (int d = rank; d-- > 0;) {
      if (++index[d] < shape[d]) break;
      index[d] = 0;
    }
  }
  free(index);
  return result;
}

/* Reads the header; returns false after printing why it is not one. */
static bool tsl_read_header(FILE *file, const char *name, char *descr,
                            size_t size, bool *fortran_order, int *rank,
                            int64_t **shape) {
  unsigned char prefix[12];
  if (fread(prefix, 1, 8, file) != 8 || memcmp(prefix, "\x93NUMPY", 6) != 0) {
    fprintf(stderr, "%s: %s.npy: not a .npy file\n", tsl_program, name);
    return false;
  }
  int major = prefix[6], minor = prefix[7];
  if (major < 1 || major > 3 || minor != 0) {
    fprintf(stderr, "%s: %s.npy: unsupported .npy format version %d.%d\n",
            tsl_program, name, major, minor);
    return false;
  }
  size_t length_bytes = major == 1 ? 2 : 4;
  if (fread(prefix + 8, 1, length_bytes, file) != length_bytes) {
    fprintf(stderr, "%s: %s.npy: truncated header\n", tsl_program, name);
    return false;
  }
  size_t header_length = prefix[8] | (size_t)prefix[9] << 8;
  if (length_bytes == 4) {
    header_length |= (size_t)prefix[10] << 16 | (size_t)prefix[11] << 24;
  }
  if (header_length > tsl_max_header) {
    fprintf(stderr, "%s: %s.npy: the header is longer than %d bytes\n",
            tsl_program, name, tsl_max_header);
    return false;
  }
  char *header = malloc(header_length + 1);
  *shape = malloc((header_length / 2 + 1) * sizeof(int64_t));
  if (header == NULL || *shape == NULL) {
    fprintf(stderr, "%s: out of memory\n", tsl_program);
    free(header);
    return false;
  }
  bool ok = fread(header, 1, header_length, file) == header_length;
  if (!ok) {
    fprintf(stderr, "%s: %s.npy: truncated header\n", tsl_program, name);
  } else {
    tsl_cursor cursor = {header, header + header_length};
    ok = tsl_parse_header(&cursor, descr, size, fortran_order, rank, *shape);
    if (!ok) {
      fprintf(stderr, "%s: %s.npy: the header is malformed\n", tsl_program,
              name);
    }
  }
  free(header);
  return ok;
}

/* Reads the data of `count` elements after the header, which must end the
   file; returns it (to free) or NULL after printing why not. */
static unsigned char *tsl_read_data(FILE *file, const char *name,
                                    size_t count, size_t elem_size) {
  size_t bytes = count * elem_size;
  unsigned char *data = malloc(bytes > 0 ? bytes : 1);
  if (data == NULL) {
    fprintf(stderr, "%s: out of memory\n", tsl_program);
    return NULL;
  }
  size_t got = fread(data, 1, bytes, file);
  if (got != bytes) {
    fprintf(stderr,
            "%s: %s.npy: truncated data: the header promises %zu bytes, the "
            "file holds %zu\n",
            tsl_program, name, bytes, got);
    free(data);
    return NULL;
  }
  size_t extra = 0;
  unsigned char rest[4096];
  for (size_t n; (n = fread(rest, 1, sizeof(rest), file)) > 0;) extra += n;
  if (extra > 0) {
    fprintf(stderr, "%s: %s.npy: %zu unexpected bytes after the data\n",
            tsl_program, name, extra);
    free(data);
    return NULL;
  }
  return data;
}

static void *tsl_read_npy_file(FILE *file, const char *name, const char *descr,
                               size_t elem_size, int rank,
                               const int64_t *shape) {
  char actual_descr[16];
  bool fortran_order = false;
  int actual_rank = 0;
  int64_t *actual_shape = NULL;
  if (!tsl_read_header(file, name, actual_descr, sizeof(actual_descr),
                       &fortran_order, &actual_rank, &actual_shape)) {
    free(actual_shape);
    return NULL;
  }
  bool swap = false;
  bool same_dtype = tsl_same_dtype(actual_descr, descr, elem_size, &swap);
  bool same_shape = actual_rank == rank;
  for (int d = 0; same_shape && d < rank; d++) {
    same_shape = actual_shape[d] == shape[d];
  }
  if (!same_dtype) {
    fprintf(stderr, "%s: %s.npy: dtype '%s' does not match '%s'\n", tsl_program,
            name, actual_descr, descr);
  } else if (!same_shape) {
    char actual_text[640], expected_text[640];
    tsl_format_shape(actual_text, sizeof(actual_text), actual_rank,
                     actual_shape);
    tsl_format_shape(expected_text, sizeof(expected_text), rank, shape);
    fprintf(stderr, "%s: %s.npy: shape %s does not match %s\n", tsl_program,
            name, actual_text, expected_text);
  }
  free(actual_shape);
  if (!same_dtype || !same_shape) return NULL;
  size_t count = 1;
  for (int d = 0; d < rank; d++) count *= (size_t)shape[d];
  unsigned char *data = tsl_read_data(file, name, count, elem_size);
  if (data == NULL) return NULL;
  if (swap) tsl_swap_bytes(data, count, elem_size);
  if (fortran_order && rank > 1) {
    unsigned char *row_major =
        tsl_to_row_major(data, count, elem_size, rank, shape);
    free(data);
    if (row_major == NULL) fprintf(stderr, "%s: out of memory\n", tsl_program);
    return row_major;
  }
  return data;
}

/* Reads DIR/NAME.npy, which must hold an array of the parameter's dtype
   `descr` (its little-endian form) and shape; returns its elements in
   row-major order and the host's byte order (to free), or NULL after
   printing why not. */
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
