// A tensor value as the loop level sees it: elements of a buffer (a data
// parameter or an alloc) reached through an index map. Transposes, slices,
// squeezes, reshapes, windows and `index` of a tensor are views of their
// operand's buffer: they compose maps and copy nothing.
#ifndef TESSEL_LIBS_BUFFERIZE_VIEW_H_
#define TESSEL_LIBS_BUFFERIZE_VIEW_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tessel::bufferize {

// Control expressions (TIR text) of the indices of one element.
using Indices = std::vector<std::string>;

struct View {
  std::string buffer;             // the parameter or alloc it reads
  std::vector<int64_t> buffer_dims;
  std::vector<int64_t> dims;      // the view's extents
  // The buffer's indices of the view's element at the given indices.
  std::function<Indices(const Indices&)> map;
  // How `map` moves along the buffer, while it is affine with a fixed
  // buffer dimension per view dimension (a window's): index x of view
  // dimension k moves `scale * x` along buffer dimension `buffer_dim`, or
  // (-1) along none (a broadcast, an inserted dimension); nullopt once a
  // reshape merges dimensions the layout does not let it.
  struct Step {
    int buffer_dim;
    int64_t scale;
  };
  std::optional<std::vector<Step>> steps;

  // The whole of `buffer`.
  static View Whole(std::string buffer, std::vector<int64_t> dims);

  int rank() const { return static_cast<int>(dims.size()); }
  // The element at `indices` (one per dimension) as TIR: `(B i j)`, or
  // `B` for a scalar buffer.
  std::string Element(const Indices& indices) const;
  // Whether the view is all of its buffer, element for element.
  bool IsWhole() const;
  // Whether both views reach the same elements at the same indices.
  bool SameAs(const View& other) const;
  // The loop level's window of the same elements, `(window B SEL...
  // [(perm P...)])`, when there is one: each buffer dimension no view
  // dimension steps along a point, one that one view dimension steps along
  // an interval (stepped by its scale), one that two do a split (rows and
  // the unit steps within them); permuted into the view's order. With
  // `unit_last`, a view of rank 2 or more must also end in unit steps
  // along the buffer's last dimension (BLAS's row-major matrices).
  std::optional<std::string> WindowText(bool unit_last) const;

  // Dimension `dim` fixed at `index` (dropped).
  View Fix(int dim, std::string index) const;
  // Dimension `dim` restricted to [lo, hi).
  View Slice(int dim, int64_t lo, int64_t hi) const;
  // Dimensions permuted: dimension k of the result is dimension
  // `perm[k]` of this view.
  View Transpose(const std::vector<int64_t>& perm) const;
  // The same elements in row-major order with other extents.
  View Reshape(std::vector<int64_t> dims) const;
  // The steps of the view reshaped to `to`, when its layout allows.
  std::optional<std::vector<Step>> ReshapedSteps(
      const std::vector<int64_t>& to) const;
  // A new dimension of extent 1 inserted at `dim`.
  View Unsqueeze(int dim) const;
  // Glenside's windows over the trailing dimensions (from `first`):
  // `v[a, p, q] = this[a, p * stride + q]`.
  View Windows(int first, const std::vector<int64_t>& window,
               const std::vector<int64_t>& stride) const;
  // The view with `count` dimensions of the given extents inserted at
  // `dim` that it does not depend on (a broadcast).
  View Broadcast(int dim, const std::vector<int64_t>& extents) const;
};

// Placeholder indices `?0`, `?1`, ...: symbolic positions to compare maps.
Indices Symbols(int rank);

}  // namespace tessel::bufferize

#endif  // TESSEL_LIBS_BUFFERIZE_VIEW_H_
