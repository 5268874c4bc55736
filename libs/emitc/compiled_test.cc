// Compiles emit-c's output with the system C compiler and checks that the
// kernels compute what run-sim computes, bit for bit, on the values where C
// and TIR could part: wrapping i32 and i8 arithmetic, INT_MIN / -1, division
// by zero, float to integer casts out of range, and NaN and signed zeros
// through nested max and min. Each kernel is compiled twice: with UBSan
// (float-cast-overflow included, which -fsanitize=undefined leaves out),
// which turns any undefined behaviour left in the C into a failure, and
// with -O3 -march=native, where GCC exploits it.
#include <sys/wait.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "libs/emitc/emit_c.h"
#include "libs/verify/read.h"
#include "libs/npy/npy.h"

namespace tessel::emitc {
namespace {

namespace fs = std::filesystem;

constexpr const char* kRunSim = "tools/run-sim/run-sim";
constexpr const char* kCompilers[] = {
    "cc -std=c99 -O2 -Wall -Wextra -Werror "
    "-fsanitize=undefined,float-cast-overflow -fno-sanitize-recover=all",
    "cc -std=c99 -O3 -march=native -Wall -Wextra -Werror",
};

struct CommandResult {
  int status = -1;
  std::string output;  // stdout and stderr
};

CommandResult RunCommand(const std::string& command) {
  CommandResult run;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return run;
  char buffer[4096];
  size_t size;
  while ((size = fread(buffer, 1, sizeof(buffer), pipe)) > 0) {
    run.output.append(buffer, size);
  }
  int status = pclose(pipe);
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

// A fresh folder under the test's scratch space.
std::string Folder(const std::string& name) {
  const char* root = std::getenv("TEST_TMPDIR");
  fs::path path = fs::path(root != nullptr ? root : "/tmp") / "compiled" / name;
  fs::remove_all(path);
  fs::create_directories(path);
  return path.string();
}

template <typename T>
HostTensor Tensor(ElemType elem, const std::vector<T>& values) {
  HostTensor tensor =
      *MakeHostTensor(elem, {static_cast<int64_t>(values.size())});
  for (size_t i = 0; i < values.size(); ++i) tensor.Set<T>(i, values[i]);
  return tensor;
}

// An f16 tensor of `values`, each rounded to f16.
HostTensor F16Tensor(const std::vector<double>& values) {
  std::vector<uint16_t> encodings;
  for (double value : values) {
    encodings.push_back(static_cast<uint16_t>(
        EncodeFloat(RoundToFloat(ElemType::kF16, value), kBinary16)));
  }
  return Tensor<uint16_t>(ElemType::kF16, encodings);
}

// A tensor of `values` of the float type `elem`.
HostTensor FloatTensor(ElemType elem, const std::vector<double>& values) {
  if (elem == ElemType::kF16) return F16Tensor(values);
  if (elem == ElemType::kF32) {
    return Tensor<float>(elem,
                         std::vector<float>(values.begin(), values.end()));
  }
  return Tensor<double>(elem, values);
}

// A kernel: its module text and the entry's inputs.
struct Kernel {
  std::string name;
  std::string tir;
  std::map<std::string, HostTensor> inputs;
};

// Writes the kernel and its inputs under a fresh folder, returned.
std::string Prepare(const Kernel& kernel) {
  std::string dir = Folder(kernel.name);
  std::ofstream(dir + "/k.tir") << kernel.tir;
  fs::create_directories(dir + "/in");
  for (const auto& [name, tensor] : kernel.inputs) {
    EXPECT_TRUE(WriteNpy(absl::StrCat(dir, "/in/", name, ".npy"), tensor).ok());
  }
  return dir;
}

// The C of `kernel` with a harness, as emit-c writes it.
std::string EmitHarness(const Kernel& kernel) {
  auto module = ir::ReadModule(MakeSource("k.tir", kernel.tir));
  EXPECT_TRUE(module.ok()) << module.status();
  if (!module.ok()) return "";
  auto entry = ir::FindEntry(*module, "");
  EXPECT_TRUE(entry.ok()) << entry.status();
  if (!entry.ok()) return "";
  auto c = EmitC(*module, **entry, {});
  EXPECT_TRUE(c.ok()) << c.status();
  return c.ok() ? *c : "";
}

// Compiles `c` in `dir` with each compiler of kCompilers and runs it on
// dir/in; returns the output folders (dir/c0, dir/c1). A run that must fail
// gives `expected_error`, after the program's name, and status 1.
std::vector<std::string> CompileAndRun(const std::string& c,
                                       const std::string& dir,
                                       const std::string& expected_error = "") {
  int expected_status = expected_error.empty() ? 0 : 1;
  std::ofstream(dir + "/k.c") << c;
  std::vector<std::string> outputs;
  for (const char* compiler : kCompilers) {
    std::string out = absl::StrCat(dir, "/c", outputs.size());
    std::string binary = out + ".bin";
    // -lm: vector fma calls fmaf where the target has no FMA instruction.
    CommandResult build = RunCommand(
        absl::StrCat(compiler, " ", dir, "/k.c -o ", binary, " -lm"));
    EXPECT_EQ(build.status, 0) << compiler << "\n" << build.output;
    CommandResult run = RunCommand(
        absl::StrCat(binary, " --inputs ", dir, "/in --outputs ", out));
    EXPECT_EQ(run.status, expected_status) << compiler << "\n" << run.output;
    if (expected_status != 0) {
      EXPECT_NE(run.output.find(absl::StrCat("c", outputs.size(),
                                             ".bin: ", expected_error)),
                std::string::npos)
          << run.output;
    }
    outputs.push_back(out);
  }
  return outputs;
}

// Every output run-sim writes for `kernel` equals, byte for byte, the one
// the compiled C writes.
void ExpectSameAsRunSim(const Kernel& kernel) {
  std::string dir = Prepare(kernel);
  std::vector<std::string> outputs = CompileAndRun(EmitHarness(kernel), dir);
  CommandResult reference =
      RunCommand(absl::StrCat(kRunSim, " ", dir, "/k.tir --inputs ", dir,
                              "/in --outputs ", dir, "/ref"));
  ASSERT_EQ(reference.status, 0) << reference.output;
  int compared = 0;
  for (const fs::directory_entry& file : fs::directory_iterator(dir + "/ref")) {
    auto expected = ReadNpy(file.path().string());
    ASSERT_TRUE(expected.ok()) << expected.status();
    for (const std::string& out : outputs) {
      std::string path = (fs::path(out) / file.path().filename()).string();
      auto actual = ReadNpy(path);
      ASSERT_TRUE(actual.ok()) << actual.status();
      EXPECT_EQ(actual->shape, expected->shape) << path;
      EXPECT_TRUE(actual->bytes == expected->bytes)
          << path << " differs from run-sim's " << file.path();
    }
    ++compared;
  }
  EXPECT_GT(compared, 0);
}

TEST(CompiledTest, I32ArithmeticWrapsAsInRunSim) {
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
  ExpectSameAsRunSim(Kernel{
      "i32",
      R"(
(proc @wrap ((in x (i32 6)) (in y (i32 6)) (out r (i32 6 8)) (inout acc (i32 6)))
  (alloc t (i32 6))
  (for i 0 6
    (assign (t i) (+ (x i) 1))
    (assign (r i 0) (max (+ (x i) 1) (x i)))
    (assign (r i 1) (/ (* (x i) 2) 2))
    (assign (r i 2) (- (x i) (y i)))
    (assign (r i 3) (neg (x i)))
    (assign (r i 4) (/ (x i) (y i)))
    (assign (r i 5) (* (x i) (x i)))
    (assign (r i 6) (min (+ (t i) (x i)) (- (x i) 1)))
    (assign (r i 7) (cast i32 (* (cast i8 (y i)) 127)))
    (reduce (acc i) (x i))))
)",
      {{"x",
        Tensor<int32_t>(ElemType::kI32, {kMax, kMin, -1, 0, 7, -123456789})},
       {"y", Tensor<int32_t>(ElemType::kI32, {-1, -1, 3, 5, -2, 1})},
       {"acc", Tensor<int32_t>(ElemType::kI32, {1, -1, kMax, kMin, 0, 9})}}});
}

TEST(CompiledTest, I8ArithmeticWrapsAsInRunSim) {
  ExpectSameAsRunSim(
      Kernel{"i8",
             R"(
(proc @wrap ((in x (i8 5)) (in y (i8 5)) (out r (i8 5 5)))
  (for i 0 5
    (assign (r i 0) (max (+ (x i) 1) (x i)))
    (assign (r i 1) (/ (x i) (y i)))
    (assign (r i 2) (neg (x i)))
    (assign (r i 3) (* (x i) (y i)))
    (reduce (r i 3) (x i))
    (assign (r i 4) (- (min (x i) (y i)) 100))))
)",
             {{"x", Tensor<int8_t>(ElemType::kI8, {127, -128, -1, 0, 100})},
              {"y", Tensor<int8_t>(ElemType::kI8, {-1, -1, 3, 5, -2})}}});
}

TEST(CompiledTest, DivisionByZeroIsAnErrorInBoth) {
  for (const char* type : {"i32", "i8"}) {
    ElemType elem = *ParseElemType(type);
    Kernel kernel{absl::StrCat("zero_", type),
                  absl::StrCat("(proc @divide ((in x (", type, " 2)) (in y (",
                               type, " 2)) (out q (", type,
                               " 2)))\n  (for i 0 2 (assign (q i) (/ (x i) (y "
                               "i)))))\n"),
                  {}};
    HostTensor x = *MakeHostTensor(elem, {2});
    HostTensor y = *MakeHostTensor(elem, {2});
    if (elem == ElemType::kI8) {
      x.Set<int8_t>(0, 5);
      y.Set<int8_t>(0, 1);
    } else {
      x.Set<int32_t>(0, 5);
      y.Set<int32_t>(0, 1);
    }
    kernel.inputs = {{"x", x}, {"y", y}};
    std::string dir = Prepare(kernel);
    CompileAndRun(EmitHarness(kernel), dir, "integer division by zero");
    CommandResult reference = RunCommand(
        absl::StrCat(kRunSim, " ", dir, "/k.tir --inputs ", dir, "/in"));
    EXPECT_EQ(reference.status, 1);
    EXPECT_NE(reference.output.find("integer division by zero"),
              std::string::npos)
        << reference.output;
  }
}

// A float to integer cast the integer type cannot hold (or of NaN) is
// undefined in C; run-sim reports it, and the compiled kernel stops with
// the same message and status 1.
TEST(CompiledTest, OutOfRangeCastIsAnErrorInBoth) {
  struct Case {
    const char* from;
    const char* to;
    double value;
  };
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const Case& test :
       {Case{"f32", "i8", 1e10}, Case{"f32", "i8", -129.0},
        Case{"f64", "i32", 2147483648.0}, Case{"f64", "i32", -300000000000.5},
        Case{"f64", "i8", nan}, Case{"f16", "i8", 200.0},
        Case{"f16", "i32", -std::numeric_limits<double>::infinity()}}) {
    ElemType from = *ParseElemType(test.from);
    Kernel kernel{
        absl::StrCat("cast_", test.from, "_", test.to, "_", test.value),
        absl::StrCat("(proc @narrow ((in x (", test.from, " 2)) (out y (",
                     test.to, " 2)))\n  (for i 0 2 (assign (y i) (cast ",
                     test.to, " (x i)))))\n"),
        {{"x", FloatTensor(from, {1.5, test.value})}}};
    std::string dir = Prepare(kernel);
    CommandResult reference = RunCommand(
        absl::StrCat(kRunSim, " ", dir, "/k.tir --inputs ", dir, "/in"));
    EXPECT_EQ(reference.status, 1) << reference.output;
    // run-sim's message, after its location.
    size_t start = reference.output.find("error: ");
    ASSERT_NE(start, std::string::npos) << reference.output;
    start += 7;
    std::string message = reference.output.substr(
        start, reference.output.find('\n', start) - start);
    EXPECT_NE(message.find("cannot cast"), std::string::npos) << message;
    CompileAndRun(EmitHarness(kernel), dir, message);
  }
}

// Casts of values the integer type holds truncate as in run-sim, up to the
// ends of its range.
TEST(CompiledTest, CastsInRangeTruncateAsInRunSim) {
  ExpectSameAsRunSim(Kernel{
      "casts",
      R"(
(proc @narrow ((in x (f64 6)) (in s (f32 6)) (out a (i32 6)) (out b (i8 6))
               (out c (i8 6)))
  (for i 0 6
    (assign (a i) (cast i32 (x i)))
    (assign (b i) (cast i8 (* (x i) 0.0)))
    (assign (c i) (cast i8 (s i)))))
)",
      {{"x", Tensor<double>(ElemType::kF64, {-2147483648.9, 2147483647.9, -0.5,
                                             0.0, 7.99, -123456.5})},
       {"s", Tensor<float>(ElemType::kF32,
                           {-128.9f, 127.9f, -0.0f, 0.75f, -5.5f, 100.0f})}}});
}

// 40 nested max and min of each float type, over NaNs, infinities and
// signed zeros, in both operand orders: the C stays small and computes
// exactly what run-sim computes.
TEST(CompiledTest, NestedMaxMinStayLinearAndExact) {
  for (const char* type : {"f16", "f32", "f64"}) {
    std::string e = "(x i)";
    for (int level = 0; level < 40; ++level) {
      switch (level % 4) {
        case 0:
          e = absl::StrCat("(max (+ ", e, " 1.0) -0.0)");
          break;
        case 1:
          e = absl::StrCat("(min (* ", e, " -0.5) 3.0)");
          break;
        case 2:
          e = absl::StrCat("(max -0.0 (- ", e, " 0.25))");
          break;
        default:
          e = absl::StrCat("(min 0.0 (neg ", e, "))");
          break;
      }
    }
    Kernel kernel{
        absl::StrCat("nested_", type),
        absl::StrCat("(proc @nested ((in x (", type, " 9)) (out y (", type,
                     " 9)))\n  (for i 0 9 (assign (y i) ", e, ")))\n"),
        {}};
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    kernel.inputs = {
        {"x", FloatTensor(*ParseElemType(type), {nan, -0.0, 0.0, inf, -inf, 1.5,
                                                 -2.5, -nan, 1e300})}};
    std::string c = EmitHarness(kernel);
    size_t kernel_start = c.find("void nested(");
    size_t kernel_end = c.find("\n}\n", kernel_start);
    ASSERT_NE(kernel_end, std::string::npos);
    EXPECT_LT(kernel_end - kernel_start, 2500u) << c.substr(kernel_start);
    ExpectSameAsRunSim(kernel);
  }
}

// f16 arithmetic, computed in float and rounded once in both, agrees bit
// for bit: ties to even, overflow to infinity, subnormals, every operation,
// casts from and to every type, literals and reductions, over values
// chosen for that and pseudo-random ones of every magnitude.
TEST(CompiledTest, F16ArithmeticIsExactAsInRunSim) {
  const double tiny = std::ldexp(1, -24);  // the smallest subnormal
  const double inf = std::numeric_limits<double>::infinity();
  // (x, y): ties, overflows, subnormals, signed zeros, infinities.
  const std::pair<double, double> chosen[] = {{1, std::ldexp(1, -11)},
                                              {2048, 1},
                                              {65504, 16},
                                              {65504, 15},
                                              {-65504, -16},
                                              {tiny, 0.5},
                                              {tiny, -0.5},
                                              {3 * tiny, 2},
                                              {std::ldexp(1, -14), tiny},
                                              {0.1, 3},
                                              {-0.0, 0},
                                              {inf, -inf},
                                              {1, 3},
                                              {0, 0},
                                              {300, -7},
                                              {-200, 0.1}};
  std::vector<double> x, y;
  for (auto [a, b] : chosen) {
    x.push_back(a);
    y.push_back(b);
  }
  uint64_t state = 7;
  while (y.size() < 512) {
    // Finite f16 values of every exponent.
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    uint64_t bits = state >> 48;
    if ((bits & 0x7c00) == 0x7c00) bits &= 0xbfff;
    (x.size() == y.size() ? x : y).push_back(DecodeFloat(bits, kBinary16));
  }
  std::vector<double> d;  // f64 values that f32 would round to a tie first
  std::vector<int32_t> k;
  for (int i = 0; i < 512; ++i) {
    d.push_back(x[i] * (1 + std::ldexp(1, -11) + std::ldexp(1, -40)));
    k.push_back(static_cast<int32_t>(i * 977 % 140000) - 70000);
  }
  ExpectSameAsRunSim(Kernel{"f16",
                            R"(
(proc @half ((in x (f16 512)) (in y (f16 512)) (in d (f64 512)) (in k (i32 512))
             (out r (f16 512 14)) (out s (f32 512 2)) (out c (i8 512))
             (out m (i32 512)) (inout acc (f16 1)))
  (for i 0 512
    (assign (r i 0) (+ (x i) (y i)))
    (assign (r i 1) (- (x i) (y i)))
    (assign (r i 2) (* (x i) (y i)))
    (assign (r i 3) (/ (x i) (y i)))
    (assign (r i 4) (max (x i) (neg (y i))))
    (assign (r i 5) (min (x i) (y i)))
    (assign (r i 6) (select (< (x i) (y i)) (* (x i) 0.1) 65504))
    (assign (r i 7) (cast f16 (d i)))
    (assign (r i 8) (cast f16 (k i)))
    (assign (r i 9) (cast f16 (* (cast f32 (x i)) (cast f32 (y i)))))
    (assign (r i 10) (+ (* (x i) (y i)) (/ (x i) 3)))
    (assign (r i 11) (- (x i) 6e-8))
    (assign (r i 12) (cast f16 (cast f64 (x i))))
    (assign (r i 13) (neg (+ (x i) -inf)))
    (assign (s i 0) (cast f32 (/ (y i) (x i))))
    (assign (s i 1) (* (cast f32 (x i)) 1e-5))
    (assign (c i) (cast i8 (min (max (x i) -128.5) 127.5)))
    (assign (m i) (cast i32 (min (max (x i) -65504) 65504)))
    (reduce (acc 0) (* (min (max (x i) -1.0) 1.0) (min (max (y i) -1.0) 1.0)))))
)",
                            {{"x", F16Tensor(x)},
                             {"y", F16Tensor(y)},
                             {"d", Tensor<double>(ElemType::kF64, d)},
                             {"k", Tensor<int32_t>(ElemType::kI32, k)},
                             {"acc", F16Tensor({0.5})}}});
}

// A 3x3 max pool written with max reads each of the 9 elements once.
TEST(CompiledTest, MaxPoolReadsNineElements) {
  std::string e = "(x i j)";
  for (int di = 0; di < 3; ++di) {
    for (int dj = di == 0 ? 1 : 0; dj < 3; ++dj) {
      e = absl::StrCat("(max ", e, " (x (+ i ", di, ") (+ j ", dj, ")))");
    }
  }
  Kernel kernel{
      "pool",
      absl::StrCat("(proc @pool ((in x (f32 6 6)) (out y (f32 4 4)))\n"
                   "  (for i 0 4 (for j 0 4 (assign (y i j) ",
                   e, "))))\n"),
      {}};
  HostTensor x = *MakeHostTensor(ElemType::kF32, {6, 6});
  for (int k = 0; k < 36; ++k) {
    x.Set<float>(k, k % 7 == 3   ? std::numeric_limits<float>::quiet_NaN()
                    : k % 5 == 1 ? -0.0f
                                 : static_cast<float>((k * 37) % 11) - 5.0f);
  }
  kernel.inputs = {{"x", x}};
  std::string c = EmitHarness(kernel);
  size_t start = c.find("void pool(");
  std::string body = c.substr(start, c.find("\n}\n", start) - start);
  size_t reads = 0;
  for (size_t at = body.find("x["); at != std::string::npos;
       at = body.find("x[", at + 1)) {
    ++reads;
  }
  EXPECT_EQ(reads, 9u) << body;
  ExpectSameAsRunSim(kernel);
}

// Vector lanes under UBSan: i32 and i8 lanes that overflow, INT32_MIN / -1,
// f32 fma rounded once, and casts, on lanes partly past their tensors.
TEST(CompiledTest, VectorLanesAreExactAsInRunSim) {
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
  ExpectSameAsRunSim(Kernel{
      "vectors",
      R"(
(proc @lanes ((in x (i32 5)) (in y (i32 5)) (in p (i8 5)) (in f (f32 5))
              (out r (i32 5 5)) (out s (i8 2 5)) (out g (f32 2 5)))
  (alloc a (vector i32 8))
  (alloc b (vector i32 8))
  (assign a (transfer-read (vector i32 8) x 0 1))
  (assign b (transfer-read (vector i32 8) y -1 -1))
  (transfer-write (+ a b) r 0 0)
  (transfer-write (* a b) r 1 0)
  (transfer-write (/ a b) r 2 0)
  (transfer-write (neg a) r 3 0)
  (transfer-write (fma a b a) r 4 0)
  (alloc c (vector i8 8))
  (assign c (transfer-read (vector i8 8) p 0 1))
  (transfer-write (- (neg c) (* c c)) s 0 0)
  (transfer-write (cast i8 a) s 1 0)
  (alloc h (vector f32 8))
  (assign h (transfer-read (vector f32 8) f 0 0.0))
  (transfer-write (fma h h (broadcast (vector f32 8) -1.0)) g 0 0)
  (transfer-write (cast f32 (cast i32 h)) g 1 0))
)",
      {{"x", Tensor<int32_t>(ElemType::kI32, {kMax, kMin, kMin, -7, 65536})},
       {"y", Tensor<int32_t>(ElemType::kI32, {kMax, 1, -1, 2, -1})},
       {"p", Tensor<int8_t>(ElemType::kI8, {127, -128, 100, -1, 0})},
       {"f", Tensor<float>(ElemType::kF32, {1.0f + 0x1p-12f, -3.75f, 1e9f,
                                            -0.0f, 2.5f})}}});
}

// A vector written in one iteration and read back, shifted by one lane,
// in the next (vectorize's `y[a + b + c] += x[a, b]`, lanes c): GCC 12's
// predictive commoning at -O3 took the written vector for the read one
// (3 of 10 elements wrong) until emit-c turned it off for vector code.
TEST(CompiledTest, OverlappingVectorsOfConsecutiveIterations) {
  ExpectSameAsRunSim(Kernel{
      "overlap",
      R"(
(proc @overlap ((in x (f64 12)) (out y (f64 10)))
  (alloc zero (vector f64 8))
  (assign zero (broadcast (vector f64 8) 0.0))
  (transfer-write zero y 0)
  (transfer-write zero y 2)
  (for a 0 4
    (for b 0 3
      (alloc acc (vector f64 4))
      (assign acc (transfer-read (vector f64 4) y (+ a b) 0.0))
      (assign acc (+ acc (broadcast (vector f64 4) (x (+ (* 3 a) b)))))
      (transfer-write acc y (+ a b)))))
)",
      {{"x", FloatTensor(ElemType::kF64, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
                                          12})}}});
}

// Windows of one tensor passed to distinct parameters must be disjoint
// where one is written; the C (with `restrict`) then agrees with run-sim.
TEST(CompiledTest, DisjointWindowsOfOneTensor) {
  HostTensor x = *MakeHostTensor(ElemType::kF32, {12});
  for (int k = 0; k < 12; ++k) x.Set<float>(k, 0.5f * static_cast<float>(k));
  ExpectSameAsRunSim(
      Kernel{"windows",
             R"(
(proc @add ((size n) (in a (window f32 n)) (in b (window f32 n))
            (out c (window f32 n)))
  (for i 0 n (assign (c i) (+ (a i) (b i)))))

(proc @main ((inout x (f32 12)) (in y (f32 4)) (out z (f32 4)))
  (call @add 4 (window x (: 0 4)) (window x (: 4 8)) (window x (: 8 12)))
  (call @add 4 (window x (: 8 12)) (window x (: 8 12)) (window x (: 0 4)))
  (call @add 4 (window y (: 0 4)) (window x (: 0 4)) (window z (: 0 4))))
)",
             {{"x", x},
              {"y", Tensor<float>(ElemType::kF32, {1.0f, 2.0f, 3.0f, 4.0f})}}});
}

}  // namespace
}  // namespace tessel::emitc
