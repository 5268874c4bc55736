// The polyhedral model of the loop level, on isl's C++ interface: for a
// procedure of the typed IR (elaborated: vector transfers take their lane
// counts from types), the iteration domain of each statement, its
// control expressions as piecewise quasi-affine functions, and the access
// relations of its element reads and writes, followed through windows to
// the tensors they view. The static checks, and the tools that reason about
// schedules, placements and vectors (schedule-check, polysimd, vectorize),
// ask their questions of this model.
//
// Spaces: a statement's domain is named `S<id>` (the statement's node id)
// with one dimension per enclosing loop, outermost first; the procedure's
// control parameters (sizes, indices, strides, bools) are isl parameters of
// the same names; a value isl cannot see into (the stride of a window
// parameter, a configuration field) is a parameter of its own. The element
// space of a tensor is named after its data parameter or alloc.
#ifndef TESSEL_LIBS_POLY_MODEL_H_
#define TESSEL_LIBS_POLY_MODEL_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "isl/cpp.h"
#include "libs/ir/node.h"

namespace tessel::poly {

class ProcModel {
 public:
  // The model of `proc` (a proc or an instr of the IR). `ctx` must outlive
  // the model and everything taken from it.
  ProcModel(isl::ctx ctx, const ir::Node& proc);

  // What holds everywhere in the procedure: sizes are positive and the
  // assertions hold. A set of parameters.
  absl::StatusOr<isl::set> Context() const;

  // The instances of `stmt`: the values of the loops enclosing it for which
  // it runs (inside their bounds, on the branch of each enclosing `if` that
  // leads to it), within Context().
  absl::StatusOr<isl::set> Domain(const ir::Node& stmt) const;

  // A control expression as a function of the domain of the statement it
  // is in. Not quasi-affine (a product of two variables, a division by a
  // variable) is an InvalidArgument error at the expression.
  absl::StatusOr<isl::pw_aff> Affine(const ir::Node& expr) const;
  // A condition (a comparison, and, or, not) as the subset of the domain of
  // its statement where it holds.
  absl::StatusOr<isl::set> Condition(const ir::Node& cond) const;

  // The elements an access touches, from the domain of its statement to
  // the index space of the tensor behind it: an element read or the place
  // of an assignment `(NAME I...)`, a scalar name, or a window (all the
  // elements it views).
  absl::StatusOr<isl::map> Access(const ir::Node& access) const;

  // Every element `subtree` (a statement or a block of them) may read or
  // write, over the domains of the statements inside it: Exo's location
  // sets. A call reads (writes) all of each window it passes for reading
  // (writing); a vector transfer the lanes inside its tensor.
  absl::StatusOr<isl::union_map> Reads(const ir::Node& subtree) const;
  absl::StatusOr<isl::union_map> Writes(const ir::Node& subtree) const;

 private:
  // The statement an expression belongs to and the loops around it.
  const ir::Node& StatementOf(const ir::Node& node) const;
  std::vector<const ir::Node*> LoopsAround(const ir::Node& stmt) const;
  isl::space DomainSpace(const ir::Node& stmt) const;
  isl::set Universe(const ir::Node& stmt) const;
  absl::StatusOr<isl::pw_aff> AffineIn(const ir::Node& expr,
                                       const ir::Node& stmt) const;
  absl::StatusOr<isl::set> ConditionIn(const ir::Node& cond,
                                       const ir::Node& stmt) const;
  // The parameter standing for a value isl cannot see into.
  isl::id OpaqueParam(const ir::Node& expr) const;

  // Where expressions are evaluated: the domain space of `stmt`, with
  // `extra` set dimensions after its loops (the indices of a view).
  struct Frame {
    const ir::Node& stmt;
    size_t extra = 0;
  };
  absl::StatusOr<isl::pw_aff> AffineInFrame(const ir::Node& expr,
                                            const Frame& frame) const;
  // The tensor behind a view (a data name, a let-bound window or a window
  // expression) and the indices of its elements that `indices` of the view
  // denote: intervals add their offsets, points stay.
  struct RootIndices {
    const ir::Node* root;
    std::vector<isl::pw_aff> indices;
  };
  absl::StatusOr<RootIndices> ThroughWindows(const ir::Node& view,
                                             std::vector<isl::pw_aff> indices,
                                             const Frame& frame) const;
  // The [lo, hi) bounds of each index of a view.
  absl::StatusOr<std::vector<std::pair<isl::pw_aff, isl::pw_aff>>> Extents(
      const ir::Node& view, const Frame& frame) const;
  // Every element a view covers, from the domain of `stmt` to its root.
  absl::StatusOr<isl::map> Region(const ir::Node& view,
                                  const ir::Node& stmt) const;
  // The elements a transfer-read or transfer-write of a vector of
  // `vector`'s shape touches in `view` at `indices`: the lanes that fall
  // inside the view (the others read their padding or are dropped).
  absl::StatusOr<isl::map> TransferRegion(const ir::Node& view,
                                          absl::Span<ir::Node* const> indices,
                                          const ir::Type& vector,
                                          const ir::Node& stmt) const;
  absl::Status CollectAccesses(const ir::Node& node, bool writes,
                               isl::union_map& into) const;

  isl::ctx ctx_;
  const ir::Node& proc_;
  mutable absl::flat_hash_map<const ir::Node*, isl::id> opaque_;
};

}  // namespace tessel::poly

#endif  // TESSEL_LIBS_POLY_MODEL_H_
