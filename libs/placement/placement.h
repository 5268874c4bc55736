// Placement files (formats/placement/README.md): where the instances of a
// kernel's statements run on a rectangle of CS-1 processing elements, how
// its inputs arrive there and how its outputs leave, as isl maps
// (Verdoolaege et al., IMPACT 2020, section 4.1.2). ReadPlacement reads the
// text and checks each clause on its own; CheckPlacement checks the clauses
// against a kernel: every instance placed once, on the grid, every element
// of an input arriving or resident, every element of an output leaving
// from, or kept on, one PE. Errors are `PLACEMENT:LINE:COL: error:`
// diagnostics at the clause (its `{` for what is wrong with its map).
#ifndef TESSEL_LIBS_PLACEMENT_PLACEMENT_H_
#define TESSEL_LIBS_PLACEMENT_PLACEMENT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "isl/cpp.h"
#include "libs/support/source.h"

namespace tessel::placement {

// `in NAME stream dense|sparse { ... }`, `in NAME resident { ... }`,
// `out NAME stream { ... }` or `out NAME resident { ... }`.
struct TensorClause {
  enum class Kind { kStream, kResident };
  std::string tensor;
  Kind kind = Kind::kStream;
  // A streamed input arrives as value-index pairs, its zeros not sent.
  bool sparse = false;
  Location loc;      // the clause's first word
  Location map_loc;  // its '{'
  // A stream: NAME[...] -> [PE[x, y] -> index[...]], the adjacent PE each
  // element arrives from (or leaves to) and its index values, the last one
  // the index sent with it, the others the outer index values (the order of
  // arrival). Resident: NAME[...] -> PE[x, y], the PEs holding each element.
  isl::map map;

  bool stream() const { return kind == Kind::kStream; }
};

struct Placement {
  SourceRef source;
  // grid { PE[NX, NY] }: the rectangle PE[0:NX-1, 0:NY-1].
  Location grid_loc;
  int64_t nx = 0;
  int64_t ny = 0;
  // place { S[...] -> PE[x, y]; ... }: the PE of each statement instance.
  Location place_loc;
  isl::union_map place;
  std::vector<TensorClause> inputs;
  std::vector<TensorClause> outputs;

  // The PEs of the grid, { PE[0:NX-1, 0:NY-1] }.
  isl::set Grid() const;
  // The PEs outside the grid next to one of its sides.
  isl::set Border() const;
  // The clause of input (output) `tensor`, or null.
  const TensorClause* Input(const std::string& tensor) const;
  const TensorClause* Output(const std::string& tensor) const;
};

// Reads a placement file. Each clause is checked on its own: the isl text
// reads, the grid is one point of positive coordinates, maps have no
// parameters and relate the spaces their clause says (a stream's range is
// [PE[x, y] -> index[...]]), and each of grid, place and every tensor's
// clause is given once.
absl::StatusOr<Placement> ReadPlacement(isl::ctx ctx, const SourceRef& source);

// What a placement is checked against: the statements of a kernel, each
// its instances (a set named after the statement), and its tensors.
struct KernelStatement {
  std::string name;
  isl::set instances;
};
struct KernelTensor {
  std::string name;
  bool input = false;  // else an output; internal tensors are not listed
  isl::set elements;   // named after the tensor
};

// Checks that `placement` places `statements` (each with instances: a
// statement is never empty) and the tensors: every
// instance on exactly one PE of the grid and no statement that the kernel
// lacks; every input and output with a clause (and no other tensor); every
// element of an input arriving from PEs adjacent to the grid with index
// values no other element arriving from that PE has, or resident on PEs of
// the grid; every element of an output leaving to one adjacent PE (with
// index values of its own) or kept on one PE of the grid.
absl::Status CheckPlacement(const Placement& placement,
                            absl::Span<const KernelStatement> statements,
                            absl::Span<const KernelTensor> tensors);

// The lexicographically first point of a non-empty `set` as isl writes
// it, without braces: "ff[0, 3]", "[PE[0, -1] -> index[2]]".
std::string FirstPoint(const isl::set& set);

}  // namespace tessel::placement

#endif  // TESSEL_LIBS_PLACEMENT_PLACEMENT_H_
