// polysimd's analysis (Verdoolaege et al., IMPACT 2020, sections 4 and 5):
// for a kernel and a placement, the rectangle of PEs that compute, the
// local memory of each tensor on a PE (the fixed-size box hull of section
// 4.3) and, for each task, its instance set and the SIMD decision of
// section 5 in the paper's order: variable compression (5.2), then a box
// hull approximation whose extra instances write apart from the proper
// ones and read in bounds (5.3), else the base case (5.1), else size
// enumeration (5.4), else explicit loops from isl's AST builder. Every set,
// map, hull and AST is isl's.
//
// Symbolic constants (isl parameters): PE_X and PE_Y, the coordinates of
// the PE in the rectangle of computation PEs; for a task triggered by the
// arrival of an element of a streamed input, its index values index_0,
// index_1, ... (the outer ones) and index (the last), as in the paper.
#ifndef TESSEL_LIBS_POLYSIMD_ANALYSIS_H_
#define TESSEL_LIBS_POLYSIMD_ANALYSIS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "isl/cpp.h"
#include "libs/placement/placement.h"
#include "libs/polysimd/kernel.h"

namespace tessel::polysimd {

// The most SIMD configurations size enumeration may set up on a PE.
inline constexpr int64_t kMaxConfigurations = 8;
// The depth of the SIMD engine's loop nest.
inline constexpr int kMaxSimdDims = 4;

// Section 4.2: the computations run on the bounding rectangle of the PEs
// the placement uses; PE coordinates are relative to its corner.
struct ComputeGrid {
  int64_t x0 = 0, y0 = 0;  // its corner in the placement's grid
  int64_t nx = 0, ny = 0;
  isl::union_map place;  // the placement, shifted to the rectangle

  // { PE[x, y] } of the rectangle.
  isl::set Pes(isl::ctx ctx) const;
  // The placement's PEs to the rectangle's.
  isl::map Shift(isl::ctx ctx) const;
  // The PE in the rectangle of each instance of `statement`.
  isl::map PlaceOf(const Statement& statement) const;
};

// The name of index value `k` of a stream with `count` of them, a symbolic
// constant as the paper names them: index_0, index_1, ..., and index for
// the last.
std::string IndexName(int k, int count);

// Section 4.3: the local array of a tensor on each PE.
struct LocalArray {
  std::string tensor;
  isl::map accessed;     // PE[x, y] -> T[...]: what each PE touches
  isl::multi_aff offset;  // PE[x, y] -> T[...]: of the box hull
  std::vector<int64_t> size;
  // The local array after extensions for extra instances (5.3): its size
  // and the shift of the accesses (<= 0 per dimension).
  std::vector<int64_t> extended;
  std::vector<int64_t> shift;
  // T[...] -> T_local[...], with PE_X and PE_Y (the accesses, shifted).
  isl::map ToLocal() const;
  // PE[x, y] -> T[...]: the elements of the tensor (`elements`) that the
  // local array's box covers on each PE of `pes`, as a `holds` clause
  // gives them.
  isl::map Covered(const isl::set& elements, const isl::set& pes) const;
};

enum class Method { kBoxHull, kBaseCase, kSizeEnumeration, kLoops };

struct Task {
  const Statement* statement = nullptr;
  // The streamed input whose arrival triggers the task, or null for a task
  // over local memory.
  const placement::TensorClause* trigger = nullptr;
  isl::set instances;  // with PE_X, PE_Y and the index values
  isl::set known;      // K: the constraints on the symbolic constants
  // Section 5.2.
  isl::multi_aff compression;  // [i0, ...] -> S[...]
  isl::set compressed;
  // The method chosen, the SIMD domain (offset and sizes, in the
  // compressed space) or the configurations, and why not the others.
  Method method = Method::kLoops;
  // Box hull: [params] -> [i0, ...], and its sizes; the elements of the
  // written tensor its extra instances write (of PE_X and PE_Y), if it has
  // any.
  std::optional<isl::multi_aff> offset;
  std::vector<int64_t> sizes;
  std::optional<isl::set> extra_elements;
  // Base case and size enumeration: the least point of the set, and the
  // size of each dimension (the set is the box they give).
  std::optional<isl::multi_pw_aff> minimum;
  std::optional<isl::multi_pw_aff> size;
  // Size enumeration: the identifiers of the configurations, and the
  // offset that gives their sizes.
  std::optional<isl::set> configurations;
  std::optional<isl::multi_aff> configuration_offset;
  std::string instruction;  // the SIMD instruction, or empty
};

struct Analysis {
  ComputeGrid grid;
  std::vector<LocalArray> locals;
  std::vector<Task> tasks;
  // --explain's text, when asked for.
  std::string explanation;

  const LocalArray* Local(const std::string& tensor) const;
};

// Analyses `kernel` on `placement`, which it first checks against the
// kernel (placement::CheckPlacement).
// With `explain`, Analysis::explanation holds the isl objects of each
// decision in the paper's notation. With `simd` false, every task gets
// explicit loops.
absl::StatusOr<Analysis> Analyse(const Kernel& kernel,
                                 const placement::Placement& placement,
                                 bool explain, bool simd);

}  // namespace tessel::polysimd

#endif  // TESSEL_LIBS_POLYSIMD_ANALYSIS_H_
