// The polyhedral model of the loop level, on isl's C++ interface: for a
// procedure of the typed IR (elaborated: vector transfers take their lane
// counts from types), the iteration domain of each statement, its
// control expressions as piecewise quasi-affine functions, and the access
// relations of its element reads and writes, followed through windows to
// the tensors they view; and counterexamples, the first point where a
// property fails, in TIR's names. The verifier's static checks (bounds,
// assertions, calls, aliasing), and the tools that reason about schedules,
// placements and vectors (schedule-check, polysimd, vectorize), ask their
// questions of this model.
//
// Spaces: a statement's domain is named `S<id>` (the statement's node id)
// with one dimension per enclosing loop, outermost first; the procedure's
// control parameters (sizes, indices, strides, bools) are isl parameters of
// the same names, sizes positive and bools 0 or 1 (1 is true). A value isl
// cannot see into is a parameter of its own, named as TIR writes it: the
// stride of a window parameter, or of a tensor whose row-major stride is
// not affine, `(stride A 0)`; a configuration field whose value is
// unknown, `(read-config @CFG FIELD)`. The element space of a tensor is
// named after its data parameter, alloc or local array.
//
// In a pe-program (the CS-1 level), the PE's grid coordinates are the
// first dimensions of every domain, bounded by the grid, and the indices of
// the element a task receives follow them, bounded by the tensor it comes
// from and by the recv's condition.
#ifndef TESSEL_LIBS_POLY_MODEL_H_
#define TESSEL_LIBS_POLY_MODEL_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "isl/cpp.h"
#include "libs/ir/node.h"

namespace tessel::poly {

// A point where a property fails (ProcModel::FindViolation).
struct Violation {
  // "n = 1, i = 0": the parameters the property depends on, then the loops
  // around the statement; "" when there are none.
  std::string at;
  // The values asked about, at that point, as decimals.
  std::vector<std::string> values;
};

// The constant `value` on the domain of `like`, to compare `like` with.
isl::pw_aff ConstantOn(const isl::pw_aff& like, int64_t value);

// Runs `body`, which builds isl objects in `ctx` and asks about them, as
// one question: with a new isl operation budget (isl_ctx_set_max_operations;
// exceeding it is a ResourceExhausted error) and isl's errors, which its
// C++ interface throws, as statuses. Questions are well-formed by
// construction, so any other isl error is Internal.
template <typename T, typename Body>
absl::StatusOr<T> Ask(isl::ctx ctx, Body body) {
  isl_ctx_reset_error(ctx.get());
  isl_ctx_reset_operations(ctx.get());
  try {
    return body();
  } catch (const isl::exception& error) {
    // A call of isl's C interface that ran out leaves the quota error
    // behind; the C++ interface then finds a null object.
    if (dynamic_cast<const isl::exception_quota*>(&error) != nullptr ||
        isl_ctx_last_error(ctx.get()) == isl_error_quota) {
      return absl::ResourceExhaustedError(
          "isl gave up: the constraints are too complex");
    }
    return absl::InternalError(absl::StrCat("isl: ", error.what()));
  }
}

// A map from `domain`'s space to a zero-dimensional tensor space `name`.
isl::map ToScalar(const isl::set& domain, const std::string& name);

// The map `indices` define, from their domain to tensor space `name`
// (ToScalar's without indices), restricted to `domain`.
isl::map ToTensor(const isl::set& domain,
                  const std::vector<isl::pw_aff>& indices,
                  const std::string& name);

// The lexicographically least point of the set `build` gives (a set
// without parameters; built inside the question), its coordinates as
// decimals; nullopt when it is empty.
absl::StatusOr<std::optional<std::vector<std::string>>> FirstPoint(
    isl::ctx ctx, absl::FunctionRef<isl::set()> build);

class ProcModel {
 public:
  // The model of `proc` (a proc, an instr or a pe-program of the IR).
  // `ctx` must outlive the model and everything taken from it. Each
  // question is asked as Ask does: with a new isl operation budget.
  ProcModel(isl::ctx ctx, const ir::Node& proc);

  // The statement `node` (an expression, a statement) belongs to.
  const ir::Node& StatementOf(const ir::Node& node) const;
  // The isl context of the model's objects.
  isl::ctx ctx() const { return ctx_; }

  // What a read-config denotes where it is read, which depends on the
  // writes before it (the verifier follows them): the expression last
  // written to the field, or an unknown value, the same for every read
  // bound to the same `unknown` node (the read that first saw it). An
  // unbound read is an unknown of its own. A callee's read is bound anew
  // at each call.
  struct ConfigValue {
    const ir::Node* written = nullptr;
    const ir::Node* unknown = nullptr;
  };
  void BindConfigRead(const ir::Node& read, ConfigValue value);

  // What holds everywhere in the procedure: the types of the parameters
  // and the assertions. A set of parameters.
  absl::StatusOr<isl::set> Context() const;

  // The instances of `stmt`: the values of the loops enclosing it for which
  // it runs (inside their bounds, on the branch of each enclosing `if` that
  // leads to it), within Context(). The procedure itself stands for a
  // statement outside every loop.
  absl::StatusOr<isl::set> Domain(const ir::Node& stmt) const;
  // Does `stmt` never run (contradictory assertions, a dead branch)?
  absl::StatusOr<bool> IsDead(const ir::Node& stmt) const;

  // A control expression as a function of the domain of the statement it
  // is in, or of `stmt` for one that is in none (a dimension of a declared
  // type) or that `stmt` uses from elsewhere. Not quasi-affine (a product
  // of two variables, a division by a variable) is an InvalidArgument
  // error at the expression.
  absl::StatusOr<isl::pw_aff> Affine(const ir::Node& expr) const;
  absl::StatusOr<isl::pw_aff> Affine(const ir::Node& expr,
                                     const ir::Node& stmt) const;
  // A condition (a comparison, and, or, not, a bool) as the subset of the
  // domain of its statement where it holds.
  absl::StatusOr<isl::set> Condition(const ir::Node& cond) const;
  // The constant `value` on the domain of `stmt`.
  absl::StatusOr<isl::pw_aff> Constant(int64_t value,
                                       const ir::Node& stmt) const;

  // A callee's expression (a dimension of a parameter's type, an
  // assertion) at `call`, a call statement of this procedure: the callee's
  // parameters are the call's arguments.
  absl::StatusOr<isl::pw_aff> AffineAtCall(const ir::Node& expr,
                                           const ir::Node& call) const;
  absl::StatusOr<isl::set> ConditionAtCall(const ir::Node& cond,
                                           const ir::Node& call) const;

  // Views: a data name, a window expression, a descriptor (dsd, as its
  // four-dimensional type says), or the binder of a data name (a data
  // parameter, an alloc, a `let`, a local array, a recv's value).
  // The dimensions of `view` (the lanes of a vector) at the instances of
  // `stmt`.
  absl::StatusOr<std::vector<isl::pw_aff>> Extents(const ir::Node& view,
                                                   const ir::Node& stmt) const;
  // Every element `view` covers at each instance of `stmt`: a map from the
  // domain of `stmt` to the tensor behind the view.
  absl::StatusOr<isl::map> Region(const ir::Node& view,
                                  const ir::Node& stmt) const;

  // The leading indices (rows) of the tensor behind `view` that it reaches
  // at each instance of `stmt`, from the first to the last (a map to the
  // tensor's first dimension, or to none for a scalar): a window's rows,
  // or the rows from a descriptor's first element to its last, whatever it
  // skips between them.
  absl::StatusOr<isl::map> Rows(const ir::Node& view,
                                const ir::Node& stmt) const;
  // The least and the greatest position in its tensor (row-major, from 0)
  // that a descriptor reaches, at the instances of its statement.
  absl::StatusOr<std::vector<isl::pw_aff>> Reach(const ir::Node& dsd) const;
  // Where a pe-program's data lives: the elements of a parameter that the
  // local array `local` holds (it has a `holds`), on each PE of the grid: a
  // map from the domain of the pe-program to the parameter.
  absl::StatusOr<isl::map> Held(const ir::Node& local) const;

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

  // What a call's callee reads, writes and reduces (the target of a
  // `reduce`) at each instance of `call` (a call statement of this
  // procedure): its body's accesses, instantiated at the call (its sizes the
  // call's arguments, its data parameters followed through the windows
  // passed to the caller's tensors), from the domain of `call`. The
  // callee's own allocations are its own and left out. nullopt when the
  // body holds what this does not follow (a call, a let, a vector
  // transfer): Reads and Writes then take the whole windows.
  struct CallAccesses {
    isl::union_map reads;
    isl::union_map writes;
    isl::union_map reduces;
  };
  absl::StatusOr<std::optional<CallAccesses>> CalleeAccesses(
      const ir::Node& call) const;

  // The first instance of `stmt` where `fails` holds, and `values` there;
  // nullopt when there is none. `values` are functions on the domain of
  // `stmt` (from Affine, Extents...); `fails` builds a subset of that
  // domain from them (it runs inside the question, so isl's errors in it
  // are statuses too). First is the lexicographically least point,
  // parameters first (the smallest problem size, then the earliest
  // iteration); where the set is unbounded below (an index parameter), the
  // least point of the smallest box around 0 that holds one. The point
  // names only the parameters the property depends on.
  absl::StatusOr<std::optional<Violation>> FindViolation(
      const ir::Node& stmt, const std::vector<isl::pw_aff>& values,
      absl::FunctionRef<isl::set(const std::vector<isl::pw_aff>&)> fails) const;

 private:
  // Where expressions are evaluated: the domain space of `stmt`, with
  // `extra` set dimensions after its loops (the indices of a view); at a
  // call, the callee's parameters are the call's arguments.
  struct Frame {
    const ir::Node* stmt;
    size_t extra = 0;
    const ir::Node* call = nullptr;
    // Inside a callee at `call`: its loops, outermost first, are the extra
    // dimensions (CalleeAccesses).
    const std::vector<const ir::Node*>* callee_loops = nullptr;
  };
  // What the type of a parameter guarantees about it.
  enum class Range { kAny, kPositive, kBool };
  struct Param {
    isl::id id;
    Range range;
  };
  // The tensor behind a view (a data parameter or an alloc) and the
  // indices of its elements that indices of the view denote.
  struct RootIndices {
    const ir::Node* root;
    std::vector<isl::pw_aff> indices;
  };

  // Runs `body` of a question (Ask).
  template <typename T, typename Body>
  absl::StatusOr<T> Guard(Body body) const {
    return Ask<T>(ctx_, body);
  }

  // model.cc: spaces, parameters and domains.
  // The binders of the dimensions of the domain of `stmt`, outermost
  // first: a pe-program's grid coordinates, a task's recv indices, the
  // enclosing loops.
  std::vector<const ir::Node*> DimsAround(const ir::Node& stmt) const;
  isl::space DomainSpace(const ir::Node& stmt) const;
  isl::space FrameSpace(const Frame& frame) const;
  isl::set Universe(const Frame& frame) const;
  isl::id NewParam(const std::string& name, const void* user,
                   Range range) const;
  // What the types of the parameters of `space` guarantee.
  isl::set TypeConstraints(const isl::space& space) const;
  // The innermost block around `stmt`: the loop or branch whose statements
  // it is among, or the procedure.
  const ir::Node& BlockOf(const ir::Node& stmt) const;
  // The instances of the statements of `block`, in a space of their own
  // (no name).
  absl::StatusOr<isl::set> BlockDomain(const ir::Node& block) const;
  // The instances of a task's call: the grid's, with the indices of the
  // element it receives.
  absl::StatusOr<isl::set> TaskDomain(const ir::Node& task) const;
  absl::StatusOr<isl::set> DomainOf(const ir::Node& stmt) const;

  // model_expr.cc: control expressions.
  absl::StatusOr<isl::pw_aff> Eval(const ir::Node& expr,
                                   const Frame& frame) const;
  absl::StatusOr<isl::set> EvalCondition(const ir::Node& cond,
                                         const Frame& frame) const;
  absl::StatusOr<isl::pw_aff> EvalName(const ir::Node& ref,
                                       const Frame& frame) const;
  absl::StatusOr<isl::pw_aff> EvalStride(const ir::Node& stride,
                                         const Frame& frame) const;
  // The stride of dimension `dim` of `root`, a tensor: row-major, else a
  // parameter of the model.
  absl::StatusOr<isl::pw_aff> EvalRootStride(const ir::Node& stride,
                                             const ir::Node& root, int64_t dim,
                                             const Frame& frame) const;
  // The argument a callee's parameter stands for in `frame`, or null.
  const ir::Node* Argument(const ir::Node& param, const Frame& frame) const;
  // A read-config: the expression written to the field before it, or null
  // when unknown; the parameter for its unknown value.
  const ir::Node* WrittenValue(const ir::Node& read) const;
  isl::id UnknownValue(const ir::Node& read) const;

  // model_access.cc: views and accesses.
  absl::StatusOr<RootIndices> ThroughWindows(const ir::Node& view,
                                             std::vector<isl::pw_aff> indices,
                                             const Frame& frame) const;
  absl::StatusOr<std::vector<isl::pw_aff>> ExtentsIn(const ir::Node& view,
                                                     const Frame& frame) const;
  absl::StatusOr<isl::map> RegionIn(const ir::Node& view,
                                    const ir::Node& stmt) const;
  // The elements a transfer-read or transfer-write (`transfer`) of a
  // vector of `vector`'s shape touches: the lanes that fall inside the
  // view (the others read their padding or are dropped), along the view
  // dimensions of its permutation map, and under a create-mask only the
  // lanes it sets (under another mask, every lane may be touched).
  absl::StatusOr<isl::map> TransferRegion(const ir::Node& transfer,
                                          const ir::Type& vector,
                                          const ir::Node& stmt) const;
  absl::Status CollectAccesses(const ir::Node& node, bool writes,
                               isl::union_map& into) const;

  // model_call.cc: a callee's accesses at a call.
  absl::Status CollectCalleeAccesses(const ir::Node& stmt, const ir::Node& call,
                                     std::vector<const ir::Node*>& loops,
                                     const isl::set& where, CallAccesses& into,
                                     bool& followed) const;
  absl::Status AddCalleeAccess(const ir::Node& load, const Frame& frame,
                               const isl::set& where,
                               isl::union_map& into) const;

  // model_cs1.cc: descriptors.
  // The literal dimensions of the tensor a descriptor describes.
  absl::StatusOr<std::vector<int64_t>> DescribedShape(
      const ir::Node& dsd) const;
  // The element of its tensor that `indices` of a descriptor denote.
  absl::StatusOr<RootIndices> DescriptorIndices(
      const ir::Node& dsd, std::vector<isl::pw_aff> indices,
      const Frame& frame) const;
  absl::StatusOr<std::vector<isl::pw_aff>> ReachIn(const ir::Node& dsd,
                                                   const Frame& frame) const;

  // model_violation.cc
  absl::StatusOr<Violation> PickPoint(
      const ir::Node& stmt, const isl::set& failing,
      const std::vector<isl::pw_aff>& values) const;

  mutable isl::ctx ctx_;  // isl::ctx::get() is not const
  const ir::Node& proc_;
  const ir::Node* grid_ = nullptr;  // of a pe-program
  size_t control_params_ = 0;
  // Every parameter, in the order counterexamples name them: the control
  // parameters as declared, then the others as they were met.
  mutable std::vector<Param> params_;
  mutable absl::flat_hash_map<isl_id*, size_t> param_index_;
  // The opaque parameters: strides by tensor and dimension, unknown
  // configuration values by the read that first saw them.
  mutable absl::flat_hash_map<std::pair<const ir::Node*, int64_t>, isl::id>
      strides_;
  mutable absl::flat_hash_map<const ir::Node*, isl::id> unknowns_;
  absl::flat_hash_map<const ir::Node*, ConfigValue> config_;
  mutable absl::flat_hash_map<const ir::Node*, isl::space> spaces_;
  mutable absl::flat_hash_map<const ir::Node*, isl::set> block_domains_;
};

}  // namespace tessel::poly

#endif  // TESSEL_LIBS_POLY_MODEL_H_
