#include "libs/npy/npy.h"

#include <cmath>
#include <fstream>
#include <sstream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "gtest/gtest.h"

namespace tessel {
namespace {

// Fixtures written by NumPy 1.24 (see BUILD for the commands).
std::string Fixture(const std::string& name) {
  return "libs/npy/testdata/" + name;
}

std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

testing::AssertionResult FailsWith(const absl::StatusOr<HostTensor>& result,
                                   const std::string& fragment) {
  if (result.ok()) return testing::AssertionFailure() << "parsed";
  if (std::string(result.status().message()).find(fragment) ==
      std::string::npos) {
    return testing::AssertionFailure() << result.status().message();
  }
  return testing::AssertionSuccess();
}

TEST(NpyTest, ReadsFloat32Matrix) {
  auto tensor = ReadNpy(Fixture("f32_2x3.npy"));
  ASSERT_TRUE(tensor.ok()) << tensor.status();
  EXPECT_EQ(tensor->elem, ElemType::kF32);
  EXPECT_EQ(tensor->shape, (std::vector<int64_t>{2, 3}));
  for (int i = 0; i < 6; ++i) EXPECT_EQ(tensor->Get<float>(i), i / 4.0f);
}

TEST(NpyTest, ReadsScalarsAndOtherDtypes) {
  auto scalar = ReadNpy(Fixture("f64_scalar.npy"));
  ASSERT_TRUE(scalar.ok()) << scalar.status();
  EXPECT_EQ(scalar->elem, ElemType::kF64);
  EXPECT_TRUE(scalar->shape.empty());
  EXPECT_EQ(scalar->Get<double>(0), -2.5);

  auto bytes = ReadNpy(Fixture("i8_vec.npy"));
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  EXPECT_EQ(bytes->elem, ElemType::kI8);
  EXPECT_EQ(bytes->shape, (std::vector<int64_t>{5}));
  EXPECT_EQ(bytes->Get<int8_t>(0), -128);
  EXPECT_EQ(bytes->Get<int8_t>(4), 127);
}

TEST(NpyTest, ReadsFloat16) {
  for (const char* name : {"f16_2x3.npy", "f16_be.npy"}) {
    auto tensor = ReadNpy(Fixture(name));
    ASSERT_TRUE(tensor.ok()) << tensor.status();
    EXPECT_EQ(tensor->elem, ElemType::kF16);
    EXPECT_EQ(tensor->shape, (std::vector<int64_t>{2, 3}));
    // The binary16 encodings NumPy gives 1.5, -0.0, 65504, 2^-24, inf, 0.1.
    EXPECT_EQ(tensor->Get<uint16_t>(0), 0x3e00) << name;
    EXPECT_EQ(tensor->Get<uint16_t>(1), 0x8000) << name;
    EXPECT_EQ(tensor->Get<uint16_t>(5), 0x2e66) << name;
    EXPECT_EQ(tensor->GetDouble(0), 1.5);
    EXPECT_TRUE(std::signbit(tensor->GetDouble(1)));
    EXPECT_EQ(tensor->GetDouble(2), 65504.0);
    EXPECT_EQ(tensor->GetDouble(3), std::ldexp(1, -24));
    EXPECT_TRUE(std::isinf(tensor->GetDouble(4)));
    EXPECT_EQ(tensor->GetDouble(5), 0.0999755859375);
  }
}

TEST(NpyTest, SwapsBigEndianData) {
  auto tensor = ReadNpy(Fixture("i32_be.npy"));
  ASSERT_TRUE(tensor.ok()) << tensor.status();
  EXPECT_EQ(tensor->elem, ElemType::kI32);
  EXPECT_EQ(tensor->Get<int32_t>(1), -2);
  EXPECT_EQ(tensor->Get<int32_t>(2), 70000);
  EXPECT_EQ(tensor->Get<int32_t>(3), -70000);
}

TEST(NpyTest, ConvertsFortranOrderToRowMajor) {
  auto fortran = ReadNpy(Fixture("f32_fortran.npy"));
  auto row_major = ReadNpy(Fixture("f32_2x3.npy"));
  ASSERT_TRUE(fortran.ok()) << fortran.status();
  ASSERT_TRUE(row_major.ok()) << row_major.status();
  EXPECT_EQ(fortran->shape, row_major->shape);
  EXPECT_EQ(fortran->bytes, row_major->bytes);
}

TEST(NpyTest, ReadsVersions2And3) {
  auto v2 = ReadNpy(Fixture("f64_v2.npy"));
  ASSERT_TRUE(v2.ok()) << v2.status();
  EXPECT_EQ(v2->Get<double>(1), -0.25);
  auto v3 = ReadNpy(Fixture("i32_v3.npy"));
  ASSERT_TRUE(v3.ok()) << v3.status();
  EXPECT_EQ(v3->shape, (std::vector<int64_t>{2, 2, 1}));
  EXPECT_EQ(v3->Get<int32_t>(3), 4);
}

TEST(NpyTest, WritesWhatNumPyWrites) {
  for (const char* name :
       {"f16_2x3.npy", "f32_2x3.npy", "f64_scalar.npy", "i8_vec.npy"}) {
    std::string bytes = ReadBytes(Fixture(name));
    auto tensor = ParseNpy(bytes, name);
    ASSERT_TRUE(tensor.ok()) << tensor.status();
    EXPECT_EQ(SerializeNpy(*tensor), bytes) << name;
  }
}

TEST(NpyTest, RoundTripsThroughAFile) {
  auto tensor = MakeHostTensor(ElemType::kI32, {3, 1});
  ASSERT_TRUE(tensor.ok());
  tensor->Set<int32_t>(2, -7);
  std::string path = std::string(getenv("TEST_TMPDIR")) + "/t.npy";
  ASSERT_TRUE(WriteNpy(path, *tensor).ok());
  auto back = ReadNpy(path);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->shape, tensor->shape);
  EXPECT_EQ(back->bytes, tensor->bytes);
}

TEST(NpyTest, RoundTripsFloat16) {
  auto tensor = MakeHostTensor(ElemType::kF16, {4});
  ASSERT_TRUE(tensor.ok());
  EXPECT_EQ(tensor->bytes.size(), 8u);
  const uint16_t encodings[] = {0x0001, 0x3c00, 0xfbff, 0xfc00};
  for (int i = 0; i < 4; ++i) tensor->Set<uint16_t>(i, encodings[i]);
  std::string bytes = SerializeNpy(*tensor);
  EXPECT_NE(bytes.find("'descr': '<f2'"), std::string::npos);
  auto back = ParseNpy(bytes, "f16.npy");
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->elem, ElemType::kF16);
  EXPECT_EQ(back->bytes, tensor->bytes);
  EXPECT_EQ(back->GetDouble(2), -65504.0);
}

TEST(NpyTest, UsesVersion2ForLongHeaders) {
  HostTensor tensor;
  tensor.elem = ElemType::kI8;
  tensor.shape.assign(25000, 1);
  tensor.bytes.assign(1, 5);
  std::string bytes = SerializeNpy(tensor);
  EXPECT_EQ(bytes[6], 2);
  auto back = ParseNpy(bytes, "long.npy");
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->shape.size(), 25000u);
}

TEST(NpyTest, RejectsUnsupportedDtypes) {
  EXPECT_TRUE(FailsWith(ReadNpy(Fixture("i64.npy")),
                        "i64.npy: error: unsupported dtype '<i8'"));
  EXPECT_TRUE(
      FailsWith(ReadNpy(Fixture("c64.npy")), "unsupported dtype '<c8'"));
  EXPECT_TRUE(
      FailsWith(ReadNpy(Fixture("object.npy")), "unsupported dtype '|O'"));
}

TEST(NpyTest, RejectsMissingAndMalformedFiles) {
  auto missing = ReadNpy("no/such/file.npy");
  EXPECT_TRUE(absl::IsNotFound(missing.status()));
  EXPECT_TRUE(FailsWith(missing, "no/such/file.npy: error: cannot open file"));

  EXPECT_TRUE(FailsWith(ParseNpy("", "e.npy"), "e.npy: error: not a .npy"));
  EXPECT_TRUE(FailsWith(ParseNpy("PK\x03\x04", "z.npy"), "bad magic"));
  EXPECT_TRUE(FailsWith(ParseNpy(std::string("\x93NUMPY\x01\x00\x40", 9), "t"),
                        "truncated header"));
  EXPECT_TRUE(
      FailsWith(ParseNpy(std::string("\x93NUMPY\x04\x00\x00\x00", 10), "t"),
                "unsupported .npy format version 4.0"));

  std::string good = ReadBytes(Fixture("f32_2x3.npy"));
  EXPECT_TRUE(FailsWith(ParseNpy(good.substr(0, good.size() - 1), "t.npy"),
                        "t.npy: error: truncated data"));
  EXPECT_TRUE(FailsWith(ParseNpy(good + "xx", "t.npy"),
                        "2 unexpected bytes after the data"));
}

std::string WithHeader(const std::string& dict) {
  std::string bytes("\x93NUMPY\x01\x00", 8);
  bytes.push_back(static_cast<char>(dict.size()));
  bytes.push_back(0);
  return bytes + dict;
}

TEST(NpyTest, RejectsMalformedHeaders) {
  EXPECT_TRUE(FailsWith(ParseNpy(WithHeader("[1, 2]"), "h"), "not a dict"));
  EXPECT_TRUE(
      FailsWith(ParseNpy(WithHeader("{'descr': '<f4', 'shape': (1,)}"), "h"),
                "lacks one of"));
  EXPECT_TRUE(
      FailsWith(ParseNpy(WithHeader("{'descr': '<f4', 'fortran_order': Maybe, "
                                    "'shape': ()}"),
                         "h"),
                "'fortran_order' is not True or False"));
  EXPECT_TRUE(
      FailsWith(ParseNpy(WithHeader("{'descr': '<f4', 'fortran_order': False, "
                                    "'shape': (2, x)}"),
                         "h"),
                "'shape' is not a tuple of integers"));
  EXPECT_TRUE(FailsWith(
      ParseNpy(WithHeader("{'descr': [('a', '<f4')], 'fortran_order': False, "
                          "'shape': ()}"),
               "h"),
      "'descr' is not a simple dtype"));
  EXPECT_TRUE(
      FailsWith(ParseNpy(WithHeader("{'descr': '<f4', 'fortran_order': False, "
                                    "'shape': (-1,)}"),
                         "h"),
                "negative dimension"));
  EXPECT_TRUE(
      FailsWith(ParseNpy(WithHeader("{'descr': '<f4', 'fortran_order': False, "
                                    "'shape': (1000000, 1000000, 1000000)}"),
                         "h"),
                "exceeds the limit"));
  EXPECT_TRUE(
      FailsWith(ParseNpy(WithHeader("{'descr': '|f4', 'fortran_order': False, "
                                    "'shape': ()}"),
                         "h"),
                "unsupported dtype '|f4'"));
}

TEST(NpyTest, RejectsHeadersOverOneMebibyte) {
  std::string bytes("\x93NUMPY\x02\x00\x01\x00\x10\x00{}", 14);
  EXPECT_TRUE(FailsWith(ParseNpy(bytes, "long.npy"),
                        "long.npy: error: the header is longer than 1048576 "
                        "bytes"));
}

// The cases of testdata/reader/cases.txt, which the C harness's reader must
// treat alike (libs/emitc/runtime/tessel_npy_test.c): each file is read as
// run-sim reads an input (ReadNpy, then the parameter's dtype and shape,
// libs/runsim/bind_inputs.cc), and gives the elements of its reference or
// an error that names it.
TEST(NpyTest, ReaderCases) {
  const std::string dir = "libs/npy/testdata/reader/";
  std::istringstream cases(ReadBytes(dir + "cases.txt"));
  auto read_as =
      [&](const std::string& name, const std::string& descr,
          const std::vector<int64_t>& shape) -> absl::StatusOr<HostTensor> {
    auto tensor = ReadNpy(dir + name + ".npy");
    if (!tensor.ok()) return tensor.status();
    if (NpyDescr(tensor->elem) != descr || tensor->shape != shape) {
      return absl::InvalidArgumentError(name + ".npy: other dtype or shape");
    }
    return tensor;
  };
  int count = 0;
  for (std::string line; std::getline(cases, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string name, descr, dims, verdict;
    ASSERT_TRUE(fields >> name >> descr >> dims >> verdict) << line;
    std::vector<int64_t> shape;
    for (absl::string_view dim : absl::StrSplit(dims, ',')) {
      ASSERT_TRUE(absl::SimpleAtoi(dim, &shape.emplace_back())) << line;
    }
    auto tensor = read_as(name, descr, shape);
    if (absl::string_view reference_name = verdict;
        absl::ConsumePrefix(&reference_name, "ok=")) {
      auto reference = read_as(std::string(reference_name), descr, shape);
      ASSERT_TRUE(reference.ok()) << reference.status();
      ASSERT_TRUE(tensor.ok()) << name << ": " << tensor.status();
      EXPECT_EQ(tensor->bytes, reference->bytes) << name;
    } else {
      EXPECT_EQ(verdict, "error") << line;
      EXPECT_TRUE(FailsWith(tensor, name + ".npy: ")) << name;
    }
    ++count;
  }
  EXPECT_GE(count, 30);
}

TEST(NpyTest, AcceptsHandWrittenHeaders) {
  // A one-byte type without a byte order, double quotes, no trailing comma.
  std::string bytes = WithHeader(
      "{\"shape\": (2,), \"fortran_order\": True, \"descr\": \"i1\"}\n");
  bytes += std::string("\x05\xfb", 2);
  auto tensor = ParseNpy(bytes, "h");
  ASSERT_TRUE(tensor.ok()) << tensor.status();
  EXPECT_EQ(tensor->elem, ElemType::kI8);
  EXPECT_EQ(tensor->Get<int8_t>(1), -5);
}

}  // namespace
}  // namespace tessel
