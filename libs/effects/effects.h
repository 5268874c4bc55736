// Exo's effect analysis (Exo paper, sections 5-6) on the polyhedral model
// of libs/poly: what a block of statements reads, writes and reduces, as
// location sets (isl maps from statement instances to locations), and the
// questions scheduling primitives ask of them: do two sets of instances
// commute, and which instances run before which.
//
// Locations are the elements of tensors (the space named after the data
// parameter, alloc or scalar, as ProcModel names it) and configuration
// fields (a zero-dimensional space `@CFG.field`). Instances are the points
// of ProcModel's statement domains (`S<id>[loops...]`).
//
// Effects kinds: a read, a write (an assignment, a write-config, a call's
// written window) and a reduction (the target of `+=`), which is neither:
// two reductions of one location commute, a reduction and a read or a
// write do not.
//
// Exactness: wherever control expressions are quasi-affine the sets are
// exact, and so are the answers. Where they are not (ProcModel's Affine
// fails), the question is an error, which every primitive turns into a
// rejection: nothing is accepted that is not proven. A call's effects are
// its callee's body's, instantiated at the call (ProcModel::CalleeAccesses:
// a reduction in the callee is a reduction at the call); where the model
// does not follow the body (a call inside it, a vector transfer), they are
// over-approximated ("maybe" effects in Exo's terms): the call reads every
// window it passes for reading and writes every window it passes for
// writing, and an over-approximation never makes a check accept what the
// exact sets would reject.
//
// Every failed check returns a witness: two instances, by their loops'
// values, and the location they both touch, with the kinds that clash:
//   "(i = 1, j = 0) and (i = 0, j = 1) both access A[1, 1]: the first
//    writes, the second reads"
// prefixed by the values of the parameters it depends on ("N = 2: ...").
#ifndef TESSEL_LIBS_EFFECTS_EFFECTS_H_
#define TESSEL_LIBS_EFFECTS_EFFECTS_H_

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "isl/cpp.h"
#include "libs/ir/node.h"
#include "libs/poly/model.h"

namespace tessel::effects {

// The effects of a block: from the instances of the statements inside it
// (at any depth) to the locations they touch.
struct Effects {
  isl::union_map reads;
  isl::union_map writes;
  isl::union_map reduces;
  // For witnesses: the loop variables of each instance space, outermost
  // first, by tuple name (`S12` -> {"i", "j"}).
  absl::flat_hash_map<std::string, std::vector<std::string>> loops;

  // Everything touched, whatever the kind.
  isl::union_map All() const { return reads.unite(writes).unite(reduces); }
  // The instances of the block's statements that touch something.
  isl::union_set Instances() const { return All().domain(); }
};

// The effects of `stmts` (statements of one proc, each with everything
// inside it), in `model`'s terms: element reads, writes and reductions,
// configuration reads (wherever a read-config is, control expressions
// included) and writes. Allocations declared inside `stmts` are left out:
// each instance of the body declaring one has storage of its own, so two
// instances never clash on it, and what lies outside the statements cannot
// see it (a primitive that moves statements out of a declaration's scope
// checks that apart).
absl::StatusOr<Effects> EffectsOf(const poly::ProcModel& model,
                                  absl::Span<ir::Node* const> stmts);

// The names of the locations `accesses` (a map of Effects) touch: tensors
// by their buffers' names, configuration fields.
absl::flat_hash_set<std::string> LocationNames(const isl::union_map& accesses);

// The effects of the control expressions of `stmt` (a for's bounds, an
// if's condition) at its instances: the configuration fields they read
// (every other value in them is immutable).
absl::StatusOr<Effects> ControlEffectsOf(const poly::ProcModel& model,
                                         ir::Node& stmt);

// The effects of the data expression `expr` at the instances of its
// statement: what it reads, elements and configuration fields (bind_expr
// asks whether they change before another place that computes it).
absl::StatusOr<Effects> ExpressionEffectsOf(const poly::ProcModel& model,
                                            ir::Node& expr);

// An isl context and the model of one proc, for the questions of one
// rewrite (built after the previous rewrite, so never stale).
class ProcAnalysis {
 public:
  explicit ProcAnalysis(const ir::Node& proc);
  ~ProcAnalysis();
  ProcAnalysis(const ProcAnalysis&) = delete;
  ProcAnalysis& operator=(const ProcAnalysis&) = delete;
  const poly::ProcModel& model() const { return *model_; }

 private:
  isl::ctx ctx_;
  std::unique_ptr<poly::ProcModel> model_;
};

// A relation between the instances of `first`'s and `second`'s statements
// (x -> y) by how their loop dimensions compare: the first `equal` loop
// dimensions equal, then each of `compare` at its dimension (which must be
// at or after `equal` and inside both statements).
enum class Cmp { kLess, kGreater };
struct DimCmp {
  size_t dim;
  Cmp cmp;  // x[dim] < y[dim] or x[dim] > y[dim]
};
absl::StatusOr<isl::union_map> InstancePairs(
    const poly::ProcModel& model, const Effects& first, const Effects& second,
    size_t equal, const std::vector<DimCmp>& compare = {});

// The order query. The time each instance of a statement inside `root`
// (itself included) runs at: a map to a vector `T[...]`, compared
// lexicographically, of the positions of the statements on its path in
// their bodies and the values of the loops on it, alternating.
absl::StatusOr<isl::union_map> ScheduleOf(const poly::ProcModel& model,
                                          const ir::Node& root);

// The pairs (x -> y), x an instance of a statement inside `a` and y one
// inside `b` (statements of one proc), such that x runs before y.
absl::StatusOr<isl::union_map> Before(const poly::ProcModel& model,
                                      const ir::Node& a, const ir::Node& b);

// The commute condition on instance pairs: the first pair (x -> y) of
// `pairs` (x of `first`, y of `second`) such that x and y do not commute
// (they touch one location, one of them writes it, or one reduces it and
// the other reads it), as a witness; nullopt when every pair commutes.
// Configuration fields count as locations.
absl::StatusOr<std::optional<std::string>> FindConflict(
    const poly::ProcModel& model, const Effects& first, const Effects& second,
    const isl::union_map& pairs);

// Exo's Shadows(a, a) (section 5.7), the idempotence of a block whose
// effects do not depend on a loop around it (remove_loop, add_loop):
// running it twice is running it once when nothing it modifies is read by
// it and it reduces nothing (a second `+=` adds again). The first
// instance pair and location that break it, as a witness.
absl::StatusOr<std::optional<std::string>> FindNotIdempotent(
    const poly::ProcModel& model, const Effects& effects);

// Whether two whole blocks commute: every instance of `first` with every
// instance of `second` in the same iteration of their `shared` common
// loops (the loops around both). The witness of the first clash.
absl::StatusOr<std::optional<std::string>> FindConflictInSharedIteration(
    const poly::ProcModel& model, const Effects& first, const Effects& second,
    size_t shared);

// Whether a buffer can be private to each iteration of a loop (sink_alloc,
// a fresh buffer per iteration): every element of `buffer` (a tensor
// space name) that an instance of `body` (the loop's statements, the loop
// being `shared` loops deep, so its dimension is `shared`) reads or
// reduces is written before it in the same iteration. The first read that
// is not, as a witness.
absl::StatusOr<std::optional<std::string>> FindReadFromEarlierIteration(
    const poly::ProcModel& model, const ir::Node& loop, const Effects& body,
    const std::string& buffer);

// The loops around `node` inside its proc, outermost first.
std::vector<const ir::Node*> LoopsAround(const ir::Node& node);

}  // namespace tessel::effects

#endif  // TESSEL_LIBS_EFFECTS_EFFECTS_H_
