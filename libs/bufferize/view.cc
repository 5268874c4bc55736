#include "libs/bufferize/view.h"

#include <algorithm>
#include <utility>

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
  view.steps.emplace();
  for (int k = 0; k < view.rank(); ++k) view.steps->push_back({k, 1});
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
  if (!steps.has_value()) return std::nullopt;
  // The view dimensions along each buffer dimension, outermost first.
  std::vector<std::vector<int>> along(buffer_dims.size());
  for (int k = 0; k < rank(); ++k) {
    const Step& step = (*steps)[k];
    if (step.buffer_dim < 0 || step.scale <= 0) return std::nullopt;
    along[step.buffer_dim].push_back(k);
  }
  if (unit_last && rank() >= 2) {
    const Step& last = steps->back();
    if (last.buffer_dim + 1 != static_cast<int>(buffer_dims.size()) ||
        last.scale != 1) {
      return std::nullopt;
    }
  }
  const Indices first = map(Indices(rank(), "0"));
  std::vector<std::string> selectors;
  std::vector<int> natural(rank());  // each view dimension's
  int next = 0;
  for (size_t b = 0; b < along.size(); ++b) {
    std::vector<int>& dims_here = along[b];
    const std::string& lo = first[b];
    if (dims_here.empty()) {
      selectors.push_back(lo);
      continue;
    }
    std::sort(dims_here.begin(), dims_here.end(), [&](int x, int y) {
      return (*steps)[x].scale > (*steps)[y].scale;
    });
    if (dims_here.size() == 1) {
      const int k = dims_here[0];
      const int64_t scale = (*steps)[k].scale;
      natural[k] = next++;
      selectors.push_back(
          scale == 1
              ? absl::StrCat("(: ", lo, " ", Add(lo, dims[k]), ")")
              : absl::StrCat("(: ", lo, " ", Add(lo, (dims[k] - 1) * scale + 1),
                             " ", scale, ")"));
      continue;
    }
    // Rows of unit steps: a split, whose bounds are literals.
    int64_t start;
    const int outer = dims_here[0], inner = dims_here[1];
    if (dims_here.size() != 2 || (*steps)[inner].scale != 1 ||
        (*steps)[outer].scale != dims[inner] || !Literal(lo, &start)) {
      return std::nullopt;
    }
    natural[outer] = next++;
    natural[inner] = next++;
    selectors.push_back(absl::StrCat("(split ", start, " ",
                                     start + dims[outer] * dims[inner], " ",
                                     dims[inner], ")"));
  }
  std::string perm;
  for (int k = 0; k < rank(); ++k) {
    if (natural[k] != k) {
      perm = absl::StrCat(" (perm ", absl::StrJoin(natural, " "), ")");
      break;
    }
  }
  return absl::StrCat("(window ", buffer, " ", absl::StrJoin(selectors, " "),
                      perm, ")");
}

View View::Fix(int dim, std::string index) const {
  View view = *this;
  view.dims.erase(view.dims.begin() + dim);
  if (view.steps) view.steps->erase(view.steps->begin() + dim);
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
  if (steps) {
    for (size_t k = 0; k < perm.size(); ++k) {
      (*view.steps)[k] = (*steps)[perm[k]];
    }
  }
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
  view.steps = ReshapedSteps(view.dims);
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

std::optional<std::vector<View::Step>> View::ReshapedSteps(
    const std::vector<int64_t>& to) const {
  if (!steps) return std::nullopt;
  // Groups of dimensions of equal products, from the outside in; a group
  // of this view's dimensions must be one run of its buffer dimension (each
  // step the extent of the next times its step), which the new dimensions
  // of the group then divide. Extent-1 dimensions step along nothing.
  std::vector<Step> reshaped(to.size(), Step{-1, 0});
  size_t i = 0, j = 0;
  while (j < to.size()) {
    if (to[j] == 1) {
      ++j;
      continue;
    }
    while (i < dims.size() && dims[i] == 1) ++i;
    if (i == dims.size()) return std::nullopt;
    const size_t i0 = i, j0 = j;
    int64_t from_product = dims[i++], to_product = to[j++];
    while (from_product != to_product) {
      if (from_product < to_product) {
        if (i == dims.size()) return std::nullopt;
        from_product *= dims[i++];
      } else {
        if (j == to.size()) return std::nullopt;
        to_product *= to[j++];
      }
    }
    // The run: this view's non-unit dimensions i0..i-1, innermost last;
    // `inner` the step of its innermost, `next` what the one outside a
    // dimension must step by.
    std::optional<Step> inner;
    Step next{-1, 0};
    for (size_t k = i; k-- > i0;) {
      if (dims[k] == 1) continue;
      const Step& step = (*steps)[k];
      if (inner && (step.buffer_dim != next.buffer_dim ||
                    step.scale != next.scale)) {
        return std::nullopt;
      }
      if (!inner) inner = step;
      next = Step{step.buffer_dim, step.scale * dims[k]};
    }
    for (size_t k = j; k-- > j0;) {
      if (to[k] == 1) continue;
      reshaped[k] = *inner;
      inner->scale *= to[k];
    }
  }
  return reshaped;
}

View View::Unsqueeze(int dim) const {
  View view = *this;
  view.dims.insert(view.dims.begin() + dim, 1);
  if (view.steps) view.steps->insert(view.steps->begin() + dim, {-1, 0});
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
  if (steps) {
    // Position p * stride + q: the window's start, then within it.
    view.steps->resize(first);
    for (int k = 0; k < count; ++k) {
      Step along = (*steps)[first + k];
      along.scale *= stride[k];
      view.steps->push_back(along);
    }
    for (int k = 0; k < count; ++k) view.steps->push_back((*steps)[first + k]);
  }
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
  if (view.steps) {
    view.steps->insert(view.steps->begin() + dim, extents.size(), {-1, 0});
  }
  view.map = [base = map, dim, count = extents.size()](const Indices& indices) {
    Indices at = indices;
    at.erase(at.begin() + dim, at.begin() + dim + count);
    return base(at);
  };
  return view;
}

}  // namespace tessel::bufferize
