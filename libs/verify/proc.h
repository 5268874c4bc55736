// Elaboration and the loop-level checks of verifier.h for one `proc` or
// `instr`. The class is one walk over the procedure that types every node
// and checks it; its parts live in files by concern, as in a compiler's
// semantic analysis:
//   proc.cc     parameters, preconditions, scopes, the module-level order;
//   stmt.cc     statements;
//   data.cc     data expressions, element accesses and windows;
//   control.cc  control expressions;
//   call.cc     calls;
//   vector.cc   the vector level: vector values, transfers, contractions;
//   config.cc   configuration state between statements;
//   cs1.cc      the CS-1 level: a pe-program, whose tasks are calls checked
//               as calls are, and cs1_descriptor.cc its SIMD descriptors.
#ifndef TESSEL_LIBS_VERIFY_PROC_H_
#define TESSEL_LIBS_VERIFY_PROC_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/node_hash_map.h"
#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "libs/ir/forms.h"
#include "libs/ir/node.h"
#include "libs/verify/call_graph.h"
#include "libs/verify/proc_checks.h"
#include "libs/verify/scalar.h"
#include "libs/poly/model.h"
#include "libs/poly/poly.h"

namespace tessel::ir {

// Types and checks every proc and instr of `module`: all signatures first
// (checking a call translates the callee's parameter types and assertions,
// which must be valid wherever the callee is), then each form in file
// order. Other top-level forms are given to `other_form` in their place, so
// that the first error in file order is the one reported.
absl::Status VerifyProcedures(
    Module& module, poly::Context& ctx,
    absl::FunctionRef<absl::Status(Node& form)> other_form);

// Types and checks one proc, instr or pe-program of `module`, whose other
// forms have been verified (VerifyProcedures): they are not checked again.
absl::Status VerifyProcedure(Module& module, Node& proc, poly::Context& ctx,
                             ProcChecks checks = ProcChecks());

// What a data name, window or descriptor denotes: a scalar, a tensor or a
// window onto a tensor (its "root", a data parameter, an alloc, a local
// array or a recv's value). Its extents and the elements it covers are the
// polyhedral model's (libs/poly/model.h), asked of `source`.
struct View {
  Type type;  // dimensions as written, for messages
  // The binder of a root, or the window or descriptor expression.
  const Node* source = nullptr;
  const Node* root = nullptr;
  const Node* memory = nullptr;
  bool writable = false;
  std::string read_only_source;  // the `in` parameter behind a read-only view
};

// A name bound at the loop level, by its binder (Param, For, Alloc, Let).
struct LoopName {
  bool is_data = false;
  ControlType control = ControlType::kIndex;  // of a control value
  View view;                                  // of data
};

class ProcVerifier {
 public:
  ProcVerifier(Module& module, Node& proc, const CallGraph& calls,
               poly::Context& ctx, ProcChecks checks = ProcChecks());

  // The parameters and the preconditions.
  absl::Status CheckSignature();
  // All of a pe-program, in place of CheckSignature and CheckBody: its
  // grid coordinates and a task's recv indices are the domain's
  // dimensions, its local arrays and received values are data, and each
  // task is a call (cs1.cc).
  absl::Status CheckPeProgram();
  // The statements; call after CheckSignature().
  absl::Status CheckBody();

 private:
  // The callee's parameters bound to a call's arguments, for checking the
  // callee's dimensions and assertions in the caller's terms: the type of
  // a control argument, the view of a data argument.
  struct Binding {
    std::optional<Type> control;
    const View* data = nullptr;
  };
  using Substitution = absl::flat_hash_map<const Node*, Binding>;

  // proc.cc
  absl::Status BindParam(Node& param);
  absl::Status Bind(const Node& binder, LoopName entry);
  void EnterBlock();
  void LeaveBlock();
  const LoopName* Find(const Node* binder) const;
  // The memory a data parameter or alloc lives in (@DRAM unless written).
  absl::StatusOr<const Node*> MemoryOf(const Node& decl, size_t item) const;
  // Checks the dimensions of a declared type: integer control expressions
  // of sizes and literals.
  absl::Status CheckDimensions(const Type& type);
  absl::Status CheckDimension(Node& dim);
  // Checks that the dimensions of `type` are positive at every instance of
  // `stmt` (the procedure itself for a parameter's).
  absl::Status CheckPositive(const Type& type, const std::string& name,
                             const Node& stmt);
  // The view of all of `root` (a data parameter, alloc, local or recv).
  View RootView(const Node& root, const Node* memory, bool writable,
                const std::string& read_only_source) const;
  // A node of a declared type's dimension, which types hold as const.
  Node& Mutable(const Node* node) const { return *module_.Get(node->id()); }

  // stmt.cc
  absl::Status CheckBlock(absl::Span<Node* const> stmts);
  absl::Status CheckStmt(Node& stmt);
  absl::Status CheckFor(Node& stmt);
  absl::Status CheckIf(Node& stmt);
  absl::Status CheckAlloc(Node& stmt);
  absl::Status CheckAssign(Node& stmt);
  absl::Status CheckLet(Node& stmt);
  absl::Status CheckWriteConfig(Node& stmt);
  // A prefetch's tensor and indices: one integer per dimension, unbounded.
  absl::Status CheckPrefetch(Node& stmt);

  // data.cc
  absl::StatusOr<ScalarType> InferData(Node& expr,
                                       std::optional<ElemType> expected);
  // The condition of a `select`: a control condition or comparisons of
  // data values.
  absl::Status CheckSelectCondition(Node& cond);
  // Does `expr` compute a data value (rather than a control value)?
  bool IsDataExpression(const Node& expr) const;
  // A scalar name or an element `(NAME I...)`, read or written.
  absl::StatusOr<ElemType> CheckLocation(Node& location, bool write);
  absl::StatusOr<const LoopName*> FindData(Node& name);
  absl::Status CheckAddressable(const Node& name, const LoopName& data) const;
  absl::StatusOr<View> CheckWindow(Node& window);
  // The dimensions an interval or a split keeps, its step and row length
  // checked.
  absl::StatusOr<std::vector<Dim>> CheckKeptShape(Node& selector);
  // The natural dimension of each dimension of `window`, which keeps
  // `kept`, its (perm P...) checked to be a permutation of them.
  absl::StatusOr<std::vector<int>> CheckPermutation(Node& window, int kept);
  // Checks that `indices` (control expressions) lie in the first
  // indices.size() dimensions of `view`, at every instance of their
  // statement.
  absl::Status CheckIndices(absl::Span<Node* const> indices, const View& view,
                            const std::string& name);
  // A data argument of a call: a name or a window expression.
  absl::StatusOr<View> CheckDataArgument(Node& arg);
  // The field `(OP @CFG FIELD ...)` names (write-config, read-config).
  absl::StatusOr<const Node*> FindConfigField(const Node& form) const;

  // control.cc: each types and checks a control expression and returns
  // its type (a condition is a bool); the polyhedral model translates it.
  absl::StatusOr<Type> Control(Node& expr, const Substitution* subst = nullptr);
  absl::StatusOr<Type> ControlInt(Node& expr,
                                  const Substitution* subst = nullptr);
  absl::StatusOr<Type> ControlCondition(Node& expr,
                                        const Substitution* subst = nullptr);
  absl::StatusOr<Type> ControlName(Node& ref, const Substitution* subst);
  absl::StatusOr<Type> ControlOperation(Node& expr, const Substitution* subst);
  absl::Status CheckStride(Node& expr, const Substitution* subst);
  absl::StatusOr<Type> ReadControlConfig(Node& expr);

  // config.cc
  // Control fields keep their value between writes: a `write-config` of a
  // control expression makes the field's value known, and a statement that
  // may write a field (a loop or branch containing a write, a call whose
  // callee writes it, transitively) makes it unknown again. What a read
  // sees is told to the polyhedral model.
  using ConfigValue = poly::ProcModel::ConfigValue;
  void RememberConfig(const Node* field, ConfigValue value);
  const ConfigValue* KnownConfig(const Node* field) const;
  void ForgetConfigWrittenBy(const Node& stmt);
  // After `call`: the fields its callee's body last writes with a literal or
  // one of its control parameters, outside loops, branches and calls, hold
  // that literal or the call's argument (a configuration instruction such
  // as Gemmini's config_ld, hoisted out of the loops it configures).
  void RememberConfigWrittenByCall(const Node& call);
  // Clobbered fields (formats/tir/README.md, "Target level"): after a call
  // of a proc that declares (clobbers @CFG FIELD), the field's value is no
  // part of what the callee computes, so nothing may read it (a read-config,
  // a callee that reads it, the end of this proc unless it declares the
  // field too) before a write-config writes it again. Each field maps to
  // the call that clobbered it.
  absl::Status CheckClobbersDeclarations();
  absl::Status CheckNotClobbered(const Node& read, const Node* field) const;
  absl::Status CheckCalleeReadsNoClobbered(const Node& call) const;
  // The fields the calls under `stmt` may clobber become clobbered (a loop's
  // later iterations, an `if`'s branch).
  void ClobberConfigMaybeBy(const Node& stmt);
  absl::Status CheckClobberedAtEnd() const;

  // vector.cc
  // A vector lives in addressable memory (it is read and written whole).
  absl::Status CheckVectorMemory(const Node& decl, const Node& memory) const;
  // Whether `decl` (a data Param or an Alloc) fits its memory: vectors in
  // addressable memory, a register memory's buffers of whole registers.
  absl::Status CheckMemory(const Node& decl, const Node& memory) const;
  // Is `location` the name of a vector variable?
  bool IsVectorVariable(const Node& location) const;
  // The rank of the vector `expr` computes, or 0 for a scalar: what decides
  // whether an operand is typed as a vector or a scalar.
  int VectorRank(const Node& expr) const;
  // Types a vector expression: its type follows from the expression.
  absl::StatusOr<Type> InferVector(Node& expr);
  // A vector op where a scalar is expected: extract of a lane, reduction.
  absl::StatusOr<ScalarType> InferVectorScalar(
      Node& expr, std::optional<ElemType> expected);
  absl::Status CheckVectorAssign(Node& stmt);
  absl::Status CheckTransferWrite(Node& stmt);
  // The tensor or window of a transfer of `vector`, and its indices.
  absl::Status CheckTransfer(Node& transfer, const Type& vector, bool write);
  absl::StatusOr<Type> InferElementwise(Node& expr);
  absl::StatusOr<Type> InferBroadcast(Node& expr);
  absl::StatusOr<Type> InferContract(Node& expr);
  absl::StatusOr<Type> InferInsert(Node& expr);
  // The dimensions left after the positions operand(first...) of `expr`.
  absl::StatusOr<std::vector<int64_t>> CheckPositions(Node& expr, size_t first,
                                                      const Type& vector);
  // The condition of a select of vectors of `type`: lane comparisons.
  absl::Status CheckLaneMask(Node& cond, const Type& type);
  // vector_ops.cc: the ops that reshape, slice, transpose, reduce along
  // dimensions and take outer products, and the clauses of transfers.
  absl::StatusOr<Type> InferTranspose(Node& expr);
  absl::StatusOr<Type> InferShapeCast(Node& expr);
  absl::StatusOr<Type> InferOuterProduct(Node& expr);
  absl::StatusOr<Type> InferStridedSlice(Node& expr);
  absl::StatusOr<Type> InferInsertStridedSlice(Node& expr);
  absl::StatusOr<Type> InferMultiReduction(Node& expr);
  // A multi-reduction's optional (reduction-order ...) clause, for the
  // `reduced` dimensions of a vector of `shape`.
  absl::Status CheckReductionOrder(Node& expr, absl::Span<const int64_t> shape,
                                   absl::Span<const int64_t> reduced);
  absl::Status CheckCreateMask(Node& mask, const Type& type);
  absl::Status CheckContractKind(Node& expr);
  // A (list ...) operand of `expr` with `count` integers (any count when
  // negative), each in [0, limit) when limit >= 0.
  absl::StatusOr<std::vector<int64_t>> CheckIntList(Node& list,
                                                    absl::string_view what,
                                                    int64_t count,
                                                    int64_t limit);
  // The tensor dimension each lane dimension of a transfer of `vector`
  // on a tensor of `rank` runs along, from its clauses (checked).
  absl::StatusOr<std::vector<int64_t>> CheckTransferClauses(
      Node& transfer, const Type& vector, int rank);
  // Proves `index + span - 1` inside dimension `dim` of `view` and `index`
  // >= 0 at every instance of the statement (data.cc).
  absl::Status CheckSpanInside(Node& index, int64_t span, const View& view,
                               int dim, const std::string& name);

  // cs1.cc
  absl::Status CheckPeParams();
  absl::Status CheckGrid(Node& grid);
  absl::Status CheckLocal(Node& local);
  absl::Status CheckTask(Node& task);
  absl::Status CheckSparse(Node& sparse);
  absl::Status CheckRecv(Node& recv);
  // Every element of a written parameter is held by the local array of
  // exactly one PE, which gives it back when the program ends.
  absl::Status CheckGather(const Node& param);
  absl::Status CheckHeldOnce(const Node& param, const Node& local);
  absl::Status CheckHeldEverywhere(const Node& param, const Node& local);
  // cs1_descriptor.cc: (dsd NAME BASE (EXTENT STRIDE)...), a window of at
  // most four dimensions onto the tensor NAME seen as flat memory, every
  // element of which lies inside NAME.
  absl::StatusOr<View> CheckDescriptor(Node& dsd);

  // call.cc
  absl::Status CheckCall(Node& call);
  absl::Status CheckDataBinding(const Node& arg, const Node& callee,
                                const Node& param, const View& view,
                                const Substitution& subst);

  Module& module_;
  Node& proc_;
  const CallGraph& calls_;
  ProcChecks checks_;
  poly::ProcModel model_;
  // Scopes: no name is bound twice at a time, so one map from names to
  // their binders and, per block, the binders to unbind at its end. Nodes
  // keep LoopName addresses stable.
  absl::node_hash_map<const Node*, LoopName> bound_;
  absl::flat_hash_map<std::string, const Node*> names_;
  std::vector<std::vector<const Node*>> blocks_;
  // The value of each control field (by its Field node) where it is known.
  absl::flat_hash_map<const Node*, ConfigValue> config_values_;
  absl::flat_hash_map<const Node*, const Node*> clobbered_;
};

// The type a reference to `binder` (a Param, For, Alloc or Let) has.
Type BinderType(const Node& binder);

}  // namespace tessel::ir

#endif  // TESSEL_LIBS_VERIFY_PROC_H_
