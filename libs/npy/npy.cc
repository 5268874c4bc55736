#include "libs/npy/npy.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstring>
#include <optional>

#include "absl/strings/str_cat.h"
#include "libs/support/file.h"

namespace tessel {
namespace {

constexpr absl::string_view kMagic = "\x93NUMPY";
// NumPy pads the header so that the data starts at a multiple of 64 bytes.
constexpr size_t kHeaderAlignment = 64;
// The longest header read, as in the C harness (libs/emitc/runtime): room
// for a rank of a hundred thousand.
constexpr size_t kMaxHeaderBytes = size_t{1} << 20;
// The largest file ReadNpy reads: the largest tensor with room for a header,
// so that a file run-sim can write is one it can read back.
constexpr int64_t kMaxNpyFileBytes = kMaxTensorBytes + (int64_t{1} << 20);

absl::Status NpyError(absl::string_view name, absl::string_view message) {
  return absl::InvalidArgumentError(absl::StrCat(name, ": error: ", message));
}

// The `descr` of a readable dtype.
struct Dtype {
  ElemType elem;
  bool big_endian;
};

std::optional<Dtype> ParseDescr(absl::string_view descr) {
  bool big_endian = std::endian::native == std::endian::big;
  char order = descr.empty() ? '\0' : descr[0];
  if (order == '<' || order == '>' || order == '=' || order == '|') {
    if (order == '<') big_endian = false;
    if (order == '>') big_endian = true;
    descr.remove_prefix(1);
  } else {
    order = '=';
  }
  std::optional<ElemType> elem;
  for (const ElemTypeInfo& info : kElemTypes) {
    // The table's descr without its byte order.
    if (info.npy_descr.substr(1) == descr) elem = info.type;
  }
  // '|' means "byte order not applicable", which NumPy only writes for
  // one-byte types.
  if (!elem || (order == '|' && ElemTypeBytes(*elem) != 1)) {
    return std::nullopt;
  }
  return Dtype{*elem, big_endian};
}

// The header is a Python dict literal:
//   {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
struct Header {
  std::string descr;
  bool fortran_order = false;
  std::vector<int64_t> shape;
};

class HeaderParser {
 public:
  explicit HeaderParser(absl::string_view text) : text_(text) {}

  // Returns an error message, or "" on success.
  std::string Parse(Header& header) {
    bool seen_descr = false, seen_order = false, seen_shape = false;
    SkipSpace();
    if (!Consume('{')) return "the header is not a dict";
    while (true) {
      SkipSpace();
      if (Consume('}')) break;
      std::optional<std::string> key = ParseString();
      if (!key) return "expected a quoted key in the header";
      SkipSpace();
      if (!Consume(':')) return absl::StrCat("expected ':' after '", *key, "'");
      SkipSpace();
      if (*key == "descr") {
        std::optional<std::string> descr = ParseString();
        if (!descr) {
          return "the header's 'descr' is not a simple dtype string";
        }
        header.descr = *descr;
        seen_descr = true;
      } else if (*key == "fortran_order") {
        if (ConsumeWord("True")) {
          header.fortran_order = true;
        } else if (ConsumeWord("False")) {
          header.fortran_order = false;
        } else {
          return "the header's 'fortran_order' is not True or False";
        }
        seen_order = true;
      } else if (*key == "shape") {
        if (!ParseShape(header.shape)) {
          return "the header's 'shape' is not a tuple of integers";
        }
        seen_shape = true;
      } else {
        return absl::StrCat("unexpected key '", *key, "' in the header");
      }
      SkipSpace();
      if (Consume(',')) continue;
      SkipSpace();
      if (Consume('}')) break;
      return "expected ',' or '}' in the header";
    }
    SkipSpace();
    if (pos_ != text_.size()) return "unexpected text after the header dict";
    if (!seen_descr || !seen_order || !seen_shape) {
      return "the header lacks one of 'descr', 'fortran_order' and 'shape'";
    }
    return "";
  }

 private:
  void SkipSpace() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\n' || text_[pos_] == '\t' ||
            text_[pos_] == '\r')) {
      ++pos_;
    }
  }
  bool Consume(char c) {
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool ConsumeWord(absl::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }
  std::optional<std::string> ParseString() {
    if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"')) {
      return std::nullopt;
    }
    char quote = text_[pos_++];
    size_t end = text_.find(quote, pos_);
    if (end == absl::string_view::npos) return std::nullopt;
    std::string value(text_.substr(pos_, end - pos_));
    pos_ = end + 1;
    return value;
  }
  bool ParseShape(std::vector<int64_t>& shape) {
    if (!Consume('(')) return false;
    while (true) {
      SkipSpace();
      if (Consume(')')) return true;
      int64_t dim = 0;
      const char* begin = text_.data() + pos_;
      const char* end = text_.data() + text_.size();
      auto result = std::from_chars(begin, end, dim);
      if (result.ec != std::errc() || result.ptr == begin) return false;
      pos_ += result.ptr - begin;
      Consume('L');  // Python 2 wrote long integers as 3L.
      shape.push_back(dim);
      SkipSpace();
      if (Consume(',')) continue;
      SkipSpace();
      return Consume(')');
    }
  }

  absl::string_view text_;
  size_t pos_ = 0;
};

void ByteSwapElements(std::vector<uint8_t>& bytes, int width) {
  for (size_t i = 0; i + width <= bytes.size(); i += width) {
    std::reverse(bytes.begin() + i, bytes.begin() + i + width);
  }
}

// Reorders a column-major array into row-major order.
std::vector<uint8_t> FortranToRowMajor(const std::vector<uint8_t>& bytes,
                                       const std::vector<int64_t>& shape,
                                       int width) {
  std::vector<uint8_t> result(bytes.size());
  const size_t rank = shape.size();
  const int64_t count = static_cast<int64_t>(bytes.size()) / width;
  std::vector<int64_t> index(rank, 0);
  for (int64_t row_major = 0; row_major < count; ++row_major) {
    int64_t column_major = 0;
    for (size_t k = rank; k-- > 0;)
      column_major = column_major * shape[k] + index[k];
    std::copy_n(bytes.begin() + column_major * width, width,
                result.begin() + row_major * width);
    for (size_t k = rank; k-- > 0;) {
      if (++index[k] < shape[k]) break;
      index[k] = 0;
    }
  }
  return result;
}

uint32_t ReadLittleEndian(absl::string_view bytes) {
  uint32_t value = 0;
  for (size_t i = bytes.size(); i-- > 0;) {
    value = (value << 8) | static_cast<uint8_t>(bytes[i]);
  }
  return value;
}

}  // namespace

absl::StatusOr<HostTensor> ParseNpy(absl::string_view bytes,
                                    absl::string_view name) {
  if (bytes.substr(0, kMagic.size()) != kMagic) {
    return NpyError(name, "not a .npy file (bad magic string)");
  }
  if (bytes.size() < kMagic.size() + 2) {
    return NpyError(name, "truncated header");
  }
  const int major = static_cast<uint8_t>(bytes[6]);
  const int minor = static_cast<uint8_t>(bytes[7]);
  if (major < 1 || major > 3 || minor != 0) {
    return NpyError(name, absl::StrCat("unsupported .npy format version ",
                                       major, ".", minor));
  }
  const size_t length_bytes = major == 1 ? 2 : 4;
  const size_t prefix = kMagic.size() + 2 + length_bytes;
  if (bytes.size() < prefix) return NpyError(name, "truncated header");
  const size_t header_length =
      ReadLittleEndian(bytes.substr(kMagic.size() + 2, length_bytes));
  if (header_length > kMaxHeaderBytes) {
    return NpyError(name, absl::StrCat("the header is longer than ",
                                       kMaxHeaderBytes, " bytes"));
  }
  if (bytes.size() - prefix < header_length) {
    return NpyError(name, "truncated header");
  }
  Header header;
  std::string problem =
      HeaderParser(bytes.substr(prefix, header_length)).Parse(header);
  if (!problem.empty()) return NpyError(name, problem);

  std::optional<Dtype> dtype = ParseDescr(header.descr);
  if (!dtype) {
    return NpyError(
        name, absl::StrCat("unsupported dtype '", header.descr, "' (expected ",
                           ElemTypeNames(&ElemTypeInfo::numpy_name), ")"));
  }
  auto count = CheckedElementCount(dtype->elem, header.shape);
  if (!count.ok()) return NpyError(name, count.status().message());
  const int width = ElemTypeBytes(dtype->elem);
  const size_t data_bytes = static_cast<size_t>(*count) * width;
  absl::string_view data = bytes.substr(prefix + header_length);
  if (data.size() < data_bytes) {
    return NpyError(
        name, absl::StrCat("truncated data: the header promises ", data_bytes,
                           " bytes, the file holds ", data.size()));
  }
  if (data.size() > data_bytes) {
    return NpyError(name, absl::StrCat(data.size() - data_bytes,
                                       " unexpected bytes after the data"));
  }
  HostTensor tensor;
  tensor.elem = dtype->elem;
  tensor.shape = std::move(header.shape);
  // One copy, not a conversion of each char.
  tensor.bytes.resize(data_bytes);
  std::memcpy(tensor.bytes.data(), data.data(), data_bytes);
  if (dtype->big_endian != (std::endian::native == std::endian::big)) {
    ByteSwapElements(tensor.bytes, width);
  }
  if (header.fortran_order) {
    tensor.bytes = FortranToRowMajor(tensor.bytes, tensor.shape, width);
  }
  return tensor;
}

absl::string_view NpyDescr(ElemType elem) { return ElemInfo(elem).npy_descr; }

std::string SerializeNpy(const HostTensor& tensor) {
  std::string dict = absl::StrCat("{'descr': '", NpyDescr(tensor.elem),
                                  "', 'fortran_order': False, 'shape': ",
                                  NumpyShapeText(tensor.shape), ", }");
  // Version 1.0 stores the header length in 2 bytes; 2.0 in 4.
  int major = 1;
  size_t prefix = kMagic.size() + 4;
  size_t padded = (prefix + dict.size() + 1 + kHeaderAlignment - 1) /
                  kHeaderAlignment * kHeaderAlignment;
  if (padded - prefix > 0xffff) {
    major = 2;
    prefix += 2;
    padded = (prefix + dict.size() + 1 + kHeaderAlignment - 1) /
             kHeaderAlignment * kHeaderAlignment;
  }
  const size_t header_length = padded - prefix;
  dict.resize(header_length - 1, ' ');
  dict.push_back('\n');

  std::string out(kMagic);
  out.push_back(static_cast<char>(major));
  out.push_back(0);
  for (size_t i = 0; i < (major == 1 ? 2u : 4u); ++i) {
    out.push_back(static_cast<char>((header_length >> (8 * i)) & 0xff));
  }
  out += dict;
  std::vector<uint8_t> data = tensor.bytes;
  if (std::endian::native == std::endian::big) {
    ByteSwapElements(data, ElemTypeBytes(tensor.elem));
  }
  out.append(data.begin(), data.end());
  return out;
}

absl::StatusOr<HostTensor> ReadNpy(const std::string& path) {
  auto bytes = ReadFile(path, kMaxNpyFileBytes);
  if (!bytes.ok()) return bytes.status();
  return ParseNpy(*bytes, path);
}

absl::Status WriteNpy(const std::string& path, const HostTensor& tensor) {
  return WriteFile(path, SerializeNpy(tensor));
}

}  // namespace tessel
