#include "libs/bufferize/view.h"

#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace tessel::bufferize {
namespace {

bool Literal(const std::string& text, int64_t* value) {
  return absl::SimpleAtoi(text, value);
}

std::string Add(const std::string& a, int64_t b) {
  int64_t value;
  if (Literal(a, &value)) return absl::StrCat(value + b);
  if (b == 0) return a;
  return absl::StrCat("(+ ", a, " ", b, ")");
}

std::string Sum(const std::string& a, const std::string& b) {
  int64_t value;
  if (Literal(b, &value)) return Add(a, value);
  if (Literal(a, &value) && value == 0) return b;
  return absl::StrCat("(+ ", a, " ", b, ")");
}

std::string Scale(const std::string& a, int64_t b) {
  int64_t value;
  if (Literal(a, &value)) return absl::StrCat(value * b);
  if (b == 1) return a;
  return absl::StrCat("(* ", a, " ", b, ")");
}

int64_t Product(const std::vector<int64_t>& dims, size_t from) {
  int64_t product = 1;
  for (size_t i = from; i < dims.size(); ++i) product *= dims[i];
  return product;
}

}  // namespace

Indices Symbols(int rank) {
  Indices symbols;
  for (int i = 0; i < rank; ++i) symbols.push_back(absl::StrCat("?", i));
  return symbols;
}

View View::Whole(std::string buffer, std::vector<int64_t> dims) {
  View view;
  view.buffer = std::move(buffer);
  view.buffer_dims = dims;
  view.dims = std::move(dims);
  view.map = [](const Indices& indices) { return indices; };
  return view;
}

std::string View::Element(const Indices& indices) const {
  Indices at = map(indices);
  if (at.empty()) return buffer;
  return absl::StrCat("(", buffer, " ", absl::StrJoin(at, " "), ")");
}

bool View::IsWhole() const {
  return dims == buffer_dims && map(Symbols(rank())) == Symbols(rank());
}

bool View::SameAs(const View& other) const {
  return buffer == other.buffer && dims == other.dims &&
         map(Symbols(rank())) == other.map(Symbols(rank()));
}

std::optional<std::string> View::WindowText(bool unit_last) const {
  const Indices at = map(Symbols(rank()));
  std::vector<std::string> selectors;
  int next = 0;  // the view dimension the next interval must be
  for (size_t k = 0; k < at.size(); ++k) {
    const std::string& index = at[k];
    if (index.find('?') == std::string::npos) {
      selectors.push_back(index);
      continue;
    }
    // `?d`, `(+ ?d LO)` or `(+ LO ?d)` with d the next view dimension.
    const std::string symbol = absl::StrCat("?", next);
    std::string lo;
    if (index == symbol) {
      lo = "0";
    } else if (absl::StartsWith(index, absl::StrCat("(+ ", symbol, " "))) {
      lo = index.substr(symbol.size() + 4, index.size() - symbol.size() - 5);
    } else if (absl::StartsWith(index, "(+ ") &&
               absl::EndsWith(index, absl::StrCat(" ", symbol, ")"))) {
      lo = index.substr(3, index.size() - symbol.size() - 5);
    } else {
      return std::nullopt;
    }
    if (lo.find('?') != std::string::npos) return std::nullopt;
    if (unit_last && rank() >= 2 && next == rank() - 1 && k + 1 != at.size()) {
      return std::nullopt;
    }
    selectors.push_back(
        absl::StrCat("(: ", lo, " ", Add(lo, dims[next]), ")"));
    ++next;
  }
  if (next != rank()) return std::nullopt;
  return absl::StrCat("(window ", buffer, " ", absl::StrJoin(selectors, " "),
                      ")");
}

View View::Fix(int dim, std::string index) const {
  View view = *this;
  view.dims.erase(view.dims.begin() + dim);
  view.map = [base = map, dim, index](const Indices& indices) {
    Indices full = indices;
    full.insert(full.begin() + dim, index);
    return base(full);
  };
  return view;
}

View View::Slice(int dim, int64_t lo, int64_t hi) const {
  View view = *this;
  view.dims[dim] = hi - lo;
  view.map = [base = map, dim, lo](const Indices& indices) {
    Indices moved = indices;
    moved[dim] = Add(moved[dim], lo);
    return base(moved);
  };
  return view;
}

View View::Transpose(const std::vector<int64_t>& perm) const {
  View view = *this;
  for (size_t k = 0; k < perm.size(); ++k) view.dims[k] = dims[perm[k]];
  view.map = [base = map, perm](const Indices& indices) {
    Indices at(indices.size());
    for (size_t k = 0; k < perm.size(); ++k) at[perm[k]] = indices[k];
    return base(at);
  };
  return view;
}

View View::Reshape(std::vector<int64_t> new_dims) const {
  if (new_dims == dims) return *this;
  View view = *this;
  view.dims = std::move(new_dims);
  view.map = [base = map, from = view.dims, to = dims](const Indices& indices) {
    // The row-major position, then the indices of that position in `to`.
    std::string position = "0";
    for (size_t k = 0; k < from.size(); ++k) {
      position = Sum(position, Scale(indices[k], Product(from, k + 1)));
    }
    Indices at;
    for (size_t k = 0; k < to.size(); ++k) {
      std::string index = position;
      int64_t inner = Product(to, k + 1);
      if (inner != 1) index = absl::StrCat("(/ ", index, " ", inner, ")");
      if (k > 0) index = absl::StrCat("(% ", index, " ", to[k], ")");
      at.push_back(index);
    }
    return base(at);
  };
  return view;
}

View View::Unsqueeze(int dim) const {
  View view = *this;
  view.dims.insert(view.dims.begin() + dim, 1);
  view.map = [base = map, dim](const Indices& indices) {
    Indices at = indices;
    at.erase(at.begin() + dim);
    return base(at);
  };
  return view;
}

View View::Windows(int first, const std::vector<int64_t>& window,
                   const std::vector<int64_t>& stride) const {
  View view = *this;
  const int count = static_cast<int>(window.size());
  view.dims.resize(first);
  for (int k = 0; k < count; ++k) {
    view.dims.push_back((dims[first + k] - window[k]) / stride[k] + 1);
  }
  for (int k = 0; k < count; ++k) view.dims.push_back(window[k]);
  view.map = [base = map, first, count, stride](const Indices& indices) {
    Indices at(indices.begin(), indices.begin() + first);
    for (int k = 0; k < count; ++k) {
      at.push_back(Sum(Scale(indices[first + k], stride[k]),
                       indices[first + count + k]));
    }
    return base(at);
  };
  return view;
}

View View::Broadcast(int dim, const std::vector<int64_t>& extents) const {
  View view = *this;
  view.dims.insert(view.dims.begin() + dim, extents.begin(), extents.end());
  view.map = [base = map, dim, count = extents.size()](const Indices& indices) {
    Indices at = indices;
    at.erase(at.begin() + dim, at.begin() + dim + count);
    return base(at);
  };
  return view;
}

}  // namespace tessel::bufferize
