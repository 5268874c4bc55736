/* Tests of emit-c's C runtime, compiled as C99 like emit-c's output: .npy
 * files written and read back, files in each format version, malformed
 * headers, wrong dtypes and shapes, truncated files and bytes after the
 * data, the cases run-sim's reader must treat alike (libs/npy/testdata/
 * reader/cases.txt), the command line, and
 * the errors and allocations that stop a program (in child processes).
 * Prints every failed check and exits with status 1 if there is one. */
#include "libs/emitc/runtime/tessel_npy.c"

#include <sys/wait.h>
#include <unistd.h>

static int failures = 0;

#define CHECK(condition) Check((condition), #condition, __LINE__)

static void Check(bool ok, const char *what, int line) {
  if (ok) return;
  printf("tessel_npy_test.c:%d: check failed: %s\n", line, what);
  failures++;
}

/* The scratch folder, and the file stderr goes to so that messages can be
   checked; `seen` is how much of it the checks have read. */
static char scratch[1024];
static char stderr_path[1100];
static long seen = 0;

static void Path(char *out, size_t size, const char *name) {
  snprintf(out, size, "%s/%s", scratch, name);
}

/* True when what the runtime printed since the last call contains
   `expected`; prints it otherwise. */
static bool Printed(const char *expected) {
  fflush(stderr);
  FILE *file = fopen(stderr_path, "rb");
  if (file == NULL) return false;
  char text[4096] = {0};
  fseek(file, seen, SEEK_SET);
  size_t length = fread(text, 1, sizeof(text) - 1, file);
  seen += (long)length;
  fclose(file);
  if (strstr(text, expected) != NULL) return true;
  printf("  expected a message containing \"%s\", got \"%s\"\n", expected,
         text);
  return false;
}

/* Writes `bytes` as NAME.npy in the scratch folder. */
static void WriteBytes(const char *name, const void *bytes, size_t size) {
  char path[1100];
  snprintf(path, sizeof(path), "%s/%s.npy", scratch, name);
  FILE *file = fopen(path, "wb");
  CHECK(file != NULL && fwrite(bytes, 1, size, file) == size);
  if (file != NULL) fclose(file);
}

/* Writes `name` as a .npy file of format version `major`.0 with the header
   text `header` (padded as NumPy pads it) and `size` bytes of data. */
static void WriteNpy(const char *name, int major, const char *header,
                     const void *data, size_t size) {
  unsigned char file[4096];
  size_t length_bytes = major == 1 ? 2 : 4;
  size_t start = 8 + length_bytes;
  size_t length = strlen(header) + 1;
  while ((start + length) % 64 != 0) length++;
  memcpy(file, "\x93NUMPY", 6);
  file[6] = (unsigned char)major;
  file[7] = 0;
  for (size_t i = 0; i < length_bytes; i++) {
    file[8 + i] = (unsigned char)(length >> (8 * i));
  }
  memset(file + start, ' ', length);
  memcpy(file + start, header, strlen(header));
  file[start + length - 1] = '\n';
  memcpy(file + start + length, data, size);
  WriteBytes(name, file, start + length + size);
}

static void TestRoundTrip(void) {
  const int64_t shape[2] = {2, 3};
  const float data[6] = {1.5f, -2.0f, 0.0f, 3.25f, 1e30f, -0.0f};
  CHECK(tsl_write_npy(scratch, "round", "<f4", sizeof(float), 2, shape, data));
  float *back = tsl_read_npy(scratch, "round", "<f4", sizeof(float), 2, shape);
  CHECK(back != NULL && memcmp(back, data, sizeof(data)) == 0);
  free(back);

  /* Version 1.0, the header NumPy writes, data 64-aligned. */
  char path[1100];
  Path(path, sizeof(path), "round.npy");
  FILE *file = fopen(path, "rb");
  unsigned char bytes[256];
  size_t size = file != NULL ? fread(bytes, 1, sizeof(bytes), file) : 0;
  if (file != NULL) fclose(file);
  const char header[] =
      "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
  size_t length = (size_t)bytes[8] | (size_t)bytes[9] << 8;
  CHECK(size == 10 + length + sizeof(data));
  CHECK(memcmp(bytes, "\x93NUMPY\x01\x00", 8) == 0);
  CHECK((10 + length) % 64 == 0);
  CHECK(memcmp(bytes + 10, header, sizeof(header) - 1) == 0);
  CHECK(bytes[10 + length - 1] == '\n');

  /* Scalars are 0-d arrays, vectors have a trailing comma. */
  const double scalar = 2.5;
  CHECK(tsl_write_npy(scratch, "scalar", "<f8", sizeof(double), 0, NULL,
                      &scalar));
  double *scalar_back =
      tsl_read_npy(scratch, "scalar", "<f8", sizeof(double), 0, NULL);
  CHECK(scalar_back != NULL && *scalar_back == 2.5);
  free(scalar_back);
  const int64_t three[1] = {3};
  const int32_t ints[3] = {INT32_MIN, -1, INT32_MAX};
  CHECK(tsl_write_npy(scratch, "ints", "<i4", sizeof(int32_t), 1, three, ints));
  int32_t *ints_back =
      tsl_read_npy(scratch, "ints", "<i4", sizeof(int32_t), 1, three);
  CHECK(ints_back != NULL && memcmp(ints_back, ints, sizeof(ints)) == 0);
  free(ints_back);

  /* f16 as NumPy's '<f2', kept as its encodings: 1.0, -2.0, 65504, 2^-24,
     -inf, NaN. */
  const uint16_t halves[6] = {0x3c00, 0xc000, 0x7bff, 0x0001, 0xfc00, 0x7e00};
  CHECK(tsl_write_npy(scratch, "halves", "<f2", 2, 2, shape, halves));
  uint16_t *halves_back = tsl_read_npy(scratch, "halves", "<f2", 2, 2, shape);
  CHECK(halves_back != NULL &&
        memcmp(halves_back, halves, sizeof(halves)) == 0);
  free(halves_back);
  /* A '<f2' file is not read as '<f4'. */
  CHECK(tsl_read_npy(scratch, "halves", "<f4", sizeof(float), 2, shape) ==
        NULL);
}

static void TestFormatVersions(void) {
  const int64_t shape[1] = {4};
  const int8_t bytes[4] = {-128, -1, 0, 127};
  const char header[] =
      "{'descr': '|i1', 'fortran_order': False, 'shape': (4,), }";
  const char *names[3] = {"v1", "v2", "v3"};
  for (int major = 1; major <= 3; major++) {
    WriteNpy(names[major - 1], major, header, bytes, sizeof(bytes));
    int8_t *back = tsl_read_npy(scratch, names[major - 1], "|i1", 1, 1, shape);
    CHECK(back != NULL && memcmp(back, bytes, sizeof(bytes)) == 0);
    free(back);
  }
  /* Keys in any order, double quotes, Python 2 longs, Fortran order of a
     vector (the same bytes), native byte order. */
  const float data[2] = {1.0f, 2.0f};
  const int64_t two[1] = {2};
  WriteNpy("variants", 1,
           "{\"shape\": (2L,), \"fortran_order\": True, \"descr\": \"=f4\"}",
           data, sizeof(data));
  float *back = tsl_read_npy(scratch, "variants", "<f4", 4, 1, two);
  CHECK(back != NULL && back[0] == 1.0f && back[1] == 2.0f);
  free(back);
}

/* Reading `name` as a `<f4` array of shape (2, 3) fails with `message`. */
static void ExpectReadError(const char *name, const char *message) {
  const int64_t shape[2] = {2, 3};
  void *data = tsl_read_npy(scratch, name, "<f4", sizeof(float), 2, shape);
  CHECK(data == NULL);
  free(data);
  CHECK(Printed(message));
}

static void TestBadFiles(void) {
  const float data[6] = {0};
  ExpectReadError("missing", "cannot open ");

  WriteBytes("junk", "not a numpy file", 16);
  ExpectReadError("junk", "junk.npy: not a .npy file");

  WriteNpy("version", 4,
           "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", data,
           sizeof(data));
  ExpectReadError("version", "version.npy: unsupported .npy format version 4.0");

  const char *malformed[] = {
      "['descr', '<f4']",
      "{'descr': '<f4', 'fortran_order': False}",
      "{'descr': '<f4', 'fortran_order': False, 'shape': (2, x), }",
      "{'descr': '<f4', 'fortran_order': Maybe, 'shape': (2, 3), }",
      "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), 'x': 1}",
      "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3)",
      "{'descr': '<f4', 'fortran_order': False, "
      "'shape': (99999999999999999999, 3), }",
  };
  for (size_t i = 0; i < sizeof(malformed) / sizeof(malformed[0]); i++) {
    WriteNpy("malformed", 1, malformed[i], data, sizeof(data));
    ExpectReadError("malformed", "malformed.npy: the header is malformed");
  }
  /* A header longer than the file, and one longer than 1 MiB. */
  const unsigned char short_header[] = {0x93, 'N', 'U', 'M', 'P', 'Y',
                                        1,    0,   200, 0,   '{', '}'};
  WriteBytes("cut", short_header, sizeof(short_header));
  ExpectReadError("cut", "cut.npy: truncated header");
  const unsigned char long_header[] = {0x93, 'N', 'U', 'M', 'P', 'Y', 2,
                                       0,    1,   0,   16,  0,   '{', '}'};
  WriteBytes("long", long_header, sizeof(long_header));
  ExpectReadError("long", "long.npy: the header is longer than 1048576 bytes");

  WriteNpy("dtype", 1,
           "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }", data,
           sizeof(data));
  ExpectReadError("dtype", "dtype.npy: dtype '<f8' does not match '<f4'");
  WriteNpy("endian", 1,
           "{'descr': '>f8', 'fortran_order': False, 'shape': (2, 3), }", data,
           sizeof(data));
  ExpectReadError("endian", "endian.npy: dtype '>f8' does not match '<f4'");

  WriteNpy("shape", 1,
           "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 2), }", data,
           sizeof(data));
  ExpectReadError("shape", "shape.npy: shape (3, 2) does not match (2, 3)");
  WriteNpy("rank", 1,
           "{'descr': '<f4', 'fortran_order': False, 'shape': (6,), }", data,
           sizeof(data));
  ExpectReadError("rank", "rank.npy: shape (6,) does not match (2, 3)");

  WriteNpy("truncated", 1,
           "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", data,
           sizeof(data) - 1);
  ExpectReadError("truncated",
                  "truncated.npy: truncated data: the header promises 24 "
                  "bytes, the file holds 23");
  const float seven[7] = {0};
  WriteNpy("trailing", 1,
           "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }",
           seven, sizeof(seven));
  ExpectReadError("trailing",
                  "trailing.npy: 4 unexpected bytes after the data");
}

/* The cases of libs/npy/testdata/reader/cases.txt, which run-sim's reader
   must treat alike (libs/npy/npy_test.cc): each file is read for a
   parameter of the case's dtype and shape, and is read with the elements of
   its reference, or rejected with a message naming it. */
static void TestReaderCases(void) {
  const char *dir = "libs/npy/testdata/reader";
  FILE *cases = fopen("libs/npy/testdata/reader/cases.txt", "r");
  CHECK(cases != NULL);
  if (cases == NULL) return;
  char line[256];
  int count = 0;
  while (fgets(line, sizeof(line), cases) != NULL) {
    char name[64], descr[8], dims[64], verdict[80];
    if (line[0] == '#' || line[0] == '\n') continue;
    if (sscanf(line, "%63s %7s %63s %79s", name, descr, dims, verdict) != 4) {
      printf("cases.txt: malformed line: %s", line);
      failures++;
      continue;
    }
    int64_t shape[8];
    int rank = 0;
    for (char *dim = strtok(dims, ","); dim != NULL && rank < 8;
         dim = strtok(NULL, ",")) {
      shape[rank++] = strtoll(dim, NULL, 10);
    }
    size_t elem_size = (size_t)(descr[2] - '0');
    size_t bytes = elem_size;
    for (int d = 0; d < rank; d++) bytes *= (size_t)shape[d];
    void *data = tsl_read_npy(dir, name, descr, elem_size, rank, shape);
    if (strncmp(verdict, "ok=", 3) == 0) {
      void *reference =
          tsl_read_npy(dir, verdict + 3, descr, elem_size, rank, shape);
      bool same = data != NULL && reference != NULL &&
                  memcmp(data, reference, bytes) == 0;
      if (!same) printf("  case %s: not read as %s\n", name, verdict + 3);
      CHECK(same);
      free(reference);
    } else {
      CHECK(strcmp(verdict, "error") == 0);
      if (data != NULL) printf("  case %s: read, but it is an error\n", name);
      CHECK(data == NULL);
      char file[80];
      snprintf(file, sizeof(file), "%s.npy: ", name);
      CHECK(Printed(file));
    }
    free(data);
    count++;
  }
  fclose(cases);
  CHECK(count >= 30);
}

static void TestDirectories(void) {
  char nested[1100], probe[1200];
  Path(nested, sizeof(nested), "made/a/b");
  CHECK(tsl_make_directories(nested));
  CHECK(tsl_make_directories(nested)); /* existing folders are fine */
  const float value = 1.0f;
  CHECK(tsl_write_npy(nested, "x", "<f4", sizeof(float), 0, NULL, &value));
  snprintf(probe, sizeof(probe), "%s/x.npy", nested);
  struct stat status;
  CHECK(stat(probe, &status) == 0);

  /* A folder cannot be made under a file, nor a file written there. */
  snprintf(probe, sizeof(probe), "%s/x.npy/sub", nested);
  CHECK(!tsl_make_directories(probe));
  CHECK(Printed("cannot create directory "));
  CHECK(!tsl_write_npy(probe, "y", "<f4", sizeof(float), 0, NULL, &value));
  CHECK(Printed("cannot write "));
}

static void TestArguments(void) {
  const char *inputs = NULL, *outputs = NULL;
  char *good[] = {"/bin/k", "--inputs", "in", "--outputs", "out", NULL};
  CHECK(tsl_parse_arguments(5, good, true, true, &inputs, &outputs));
  CHECK(inputs != NULL && strcmp(inputs, "in") == 0);
  CHECK(outputs != NULL && strcmp(outputs, "out") == 0);
  CHECK(strcmp(tsl_program, "k") == 0);

  char *unknown[] = {"k", "--frobnicate", NULL};
  CHECK(!tsl_parse_arguments(2, unknown, false, false, &inputs, &outputs));
  CHECK(
      Printed("k: unknown argument '--frobnicate'\n"
              "usage: k --inputs DIR --outputs DIR"));
  char *no_value[] = {"k", "--outputs", NULL};
  CHECK(!tsl_parse_arguments(2, no_value, false, true, &inputs, &outputs));
  CHECK(Printed("k: --outputs needs a value (DIR)"));
  const char *none = NULL;
  char *missing[] = {"k", NULL};
  CHECK(!tsl_parse_arguments(1, missing, true, false, &none, &outputs));
  CHECK(Printed("k: --inputs DIR is required"));
}

/* Runs `body` in a child process, which must exit with status 1 after
   printing `message`. */
static void ExpectExit(void (*body)(void), const char *message) {
  fflush(stdout);
  fflush(stderr);
  pid_t child = fork();
  if (child == 0) {
    body();
    _exit(0);
  }
  int status = 0;
  CHECK(child > 0 && waitpid(child, &status, 0) == child);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 1);
  CHECK(Printed(message));
}

static void AllocateOverflowing(void) {
  const int64_t shape[2] = {INT64_C(1) << 40, INT64_C(1) << 40};
  tsl_allocate("big", sizeof(float), 2, shape);
}

static void AllocateTooMuch(void) {
  /* 2^50 bytes: more than the address space of any host this runs on. */
  const int64_t shape[1] = {INT64_C(1) << 48};
  tsl_allocate("huge", sizeof(float), 1, shape);
}

static void AllocateEmpty(void) {
  const int64_t shape[2] = {4, 0};
  tsl_allocate("empty", sizeof(float), 2, shape);
}

static void Fail(void) { tsl_error("%s %d", "failure", 42); }

static void CastLarge(void) { tsl_cast_error(1e10, "i8"); }
static void CastFraction(void) { tsl_cast_error(-300.5, "i8"); }
static void CastWhole(void) { tsl_cast_error(2147483648.0, "i32"); }
static void CastSmall(void) { tsl_cast_error(-0.001, "i8"); }
static void CastFloat(void) { tsl_cast_error(0.1f, "i32"); }
static void CastNan(void) { tsl_cast_error(-NAN, "i32"); }
static void CastInfinity(void) { tsl_cast_error(-INFINITY, "i8"); }

static void TestAllocateAndError(void) {
  const int64_t shape[2] = {3, 5};
  float *data = tsl_allocate("t", sizeof(float), 2, shape);
  CHECK(data != NULL);
  if (data != NULL) data[14] = 1.0f;
  tsl_free(data);
  double *scalar = tsl_allocate("s", sizeof(double), 0, NULL);
  CHECK(scalar != NULL);
  tsl_free(scalar);
  tsl_free(NULL);
  /* Aligned to 64 bytes whatever the size (malloc's large blocks start 16
     bytes past a page), every byte writable. */
  for (int64_t count = 1; count <= (INT64_C(1) << 20); count *= 7) {
    const int64_t size[1] = {count};
    unsigned char *bytes = tsl_allocate("b", 1, 1, size);
    CHECK(bytes != NULL && (uintptr_t)bytes % 64 == 0);
    if (bytes != NULL) memset(bytes, 0xff, (size_t)count);
    tsl_free(bytes);
  }

  ExpectExit(AllocateOverflowing,
             "k: cannot allocate 'big': its size overflows");
  ExpectExit(AllocateTooMuch,
             "k: out of memory: cannot allocate 1125899906842624 bytes for "
             "'huge'");
  ExpectExit(AllocateEmpty, "k: cannot allocate 'empty': dimension 1 is 0");
  ExpectExit(Fail, "k: failure 42\n");
}

/* Values are written as run-sim writes them. */
static void TestCastErrors(void) {
  ExpectExit(CastLarge,
             "k: cannot cast 1e+10 to i8: the value is out of its range\n");
  ExpectExit(CastFraction, "k: cannot cast -300.5 to i8:");
  ExpectExit(CastWhole, "k: cannot cast 2147483648.0 to i32:");
  ExpectExit(CastSmall, "k: cannot cast -0.001 to i8:");
  ExpectExit(CastFloat, "k: cannot cast 0.10000000149011612 to i32:");
  ExpectExit(CastNan, "k: cannot cast nan to i32:");
  ExpectExit(CastInfinity, "k: cannot cast -inf to i8:");
}

int main(void) {
  const char *root = getenv("TEST_TMPDIR");
  snprintf(scratch, sizeof(scratch), "%s/tessel_npy_test",
           root != NULL ? root : "/tmp");
  if (!tsl_make_directories(scratch)) return 1;
  snprintf(stderr_path, sizeof(stderr_path), "%s/stderr.txt", scratch);
  if (freopen(stderr_path, "w", stderr) == NULL) return 1;
  setvbuf(stderr, NULL, _IONBF, 0);

  TestRoundTrip();
  TestFormatVersions();
  TestBadFiles();
  TestReaderCases();
  TestDirectories();
  TestArguments(); /* sets tsl_program to "k" */
  TestAllocateAndError();
  TestCastErrors();
  if (failures != 0) printf("%d checks failed\n", failures);
  return failures == 0 ? 0 : 1;
}
