// The loop-level checks of verifier.h for one `proc` or `instr`. The class
// is one walk over the procedure; its parts live in files by concern, as in
// a compiler's semantic analysis:
//   verify_proc.cc     parameters, preconditions, scopes;
//   verify_stmt.cc     statements;
//   verify_data.cc     data expressions, element accesses and windows;
//   verify_control.cc  control expressions and their isl form;
//   verify_call.cc     calls;
//   verify_config.cc   configuration state between statements.
#ifndef TESSEL_LIBS_IR_VERIFY_PROC_H_
#define TESSEL_LIBS_IR_VERIFY_PROC_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/node_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "libs/ir/module.h"
#include "libs/ir/types.h"
#include "libs/ir/verify_call_graph.h"
#include "libs/ir/verify_domain.h"
#include "libs/ir/verify_scalar.h"
#include "libs/poly/poly.h"
#include "libs/sexpr/sexpr.h"

namespace tessel {

// A control expression checked and translated for isl: an integer
// expression or a condition.
struct ControlValue {
  bool is_condition = false;
  Affine affine;
};

// What a data name or window expression denotes: a scalar, a tensor or a
// window onto a tensor (its "root", a data parameter or an alloc).
struct View {
  DataType type;                // dimensions as written, for messages
  std::vector<Affine> extents;  // the dimensions for isl
  std::string memory;
  bool writable = false;
  std::string read_only_source;  // the `in` parameter behind a read-only view
  int root = -1;
  std::vector<int> root_dims;  // the root dimension behind each dimension
};

// A name bound at the loop level.
struct LoopName {
  bool is_data = false;
  // Control values: parameters are isl parameters, loop variables set
  // dimensions.
  ControlType control = ControlType::kIndex;
  std::string isl;
  int param = -1;
  // Data.
  View view;
};

class ProcVerifier {
 public:
  ProcVerifier(const Module& module, const Procedure& proc,
               const CallGraph& calls, poly::Context& ctx);

  // The parameters and the preconditions.
  absl::Status CheckSignature();
  // The statements; call after CheckSignature().
  absl::Status CheckBody();

 private:
  // A tensor that views refer to, for `stride`: dense tensors know their
  // strides, window parameters do not (each stride is then an opaque isl
  // parameter).
  struct Root {
    std::string name;
    bool dense = false;
    std::vector<Affine> extents;
    std::map<int, int> stride_params;  // dimension -> parameter id
  };
  // The callee's parameters bound to a call's arguments, for translating
  // the callee's dimensions and assertions into the caller's terms.
  struct Binding {
    std::optional<ControlValue> control;
    const View* data = nullptr;
  };
  using Substitution = absl::flat_hash_map<std::string, Binding>;

  // verify_proc.cc
  absl::Status BindParam(const Param& param);
  absl::Status Bind(const Sexpr& name, LoopName entry, absl::string_view what);
  void EnterBlock();
  void LeaveBlock();
  const LoopName* Find(absl::string_view name) const;
  // Checks a dimension of a declared type: an integer control expression
  // of sizes and literals.
  absl::StatusOr<Affine> CheckDimension(const Sexpr& dim);
  // Checks that each of `values` is positive everywhere in the domain.
  absl::Status CheckPositive(const std::vector<Affine>& values,
                             const DataType& type, absl::string_view name);
  int AddRoot(absl::string_view name, const DataType& type,
              const std::vector<Affine>& extents);
  View RootView(int root, const DataType& type,
                const std::vector<Affine>& extents, const std::string& memory,
                bool writable, const std::string& read_only_source) const;

  // verify_stmt.cc
  absl::Status CheckBlock(const std::vector<const Sexpr*>& stmts);
  absl::Status CheckBlockItems(const Sexpr& form, size_t first);
  absl::Status CheckStmt(const Sexpr& stmt);
  absl::Status CheckFor(const Sexpr& stmt);
  absl::Status CheckIf(const Sexpr& stmt);
  absl::Status CheckAlloc(const Sexpr& stmt);
  absl::Status CheckAssign(const Sexpr& stmt);
  absl::Status CheckLet(const Sexpr& stmt);
  absl::Status CheckWriteConfig(const Sexpr& stmt);

  // verify_data.cc
  absl::StatusOr<ScalarType> InferData(const Sexpr& expr,
                                       std::optional<ElemType> expected);
  // The condition of a `select`: a control condition or comparisons of
  // data values.
  absl::Status CheckSelectCondition(const Sexpr& cond);
  // Does `expr` compute a data value (rather than a control value)?
  bool IsDataExpression(const Sexpr& expr) const;
  // A scalar name or an element `(NAME I...)`, read or written.
  absl::StatusOr<ElemType> CheckLocation(const Sexpr& location, bool write);
  absl::StatusOr<const LoopName*> FindData(const Sexpr& name) const;
  absl::Status CheckAddressable(const Sexpr& at, const LoopName& data) const;
  absl::StatusOr<View> CheckWindow(const Sexpr& window);
  // A data argument of a call: a name or a window expression.
  absl::StatusOr<View> CheckDataArgument(const Sexpr& arg);
  // The field `(OP @CFG FIELD ...)` names (write-config, read-config).
  absl::StatusOr<const ConfigField*> FindConfigField(const Sexpr& form);

  // verify_control.cc
  absl::StatusOr<ControlValue> Control(const Sexpr& expr,
                                       const Substitution* subst = nullptr);
  absl::StatusOr<Affine> ControlInt(const Sexpr& expr,
                                    const Substitution* subst = nullptr);
  absl::StatusOr<Affine> ControlCondition(const Sexpr& expr,
                                          const Substitution* subst = nullptr);
  absl::StatusOr<ControlValue> ControlName(const Sexpr& name,
                                           const Substitution* subst);
  absl::StatusOr<ControlValue> ControlOperation(const Sexpr& expr,
                                                const Substitution* subst);
  absl::StatusOr<Affine> Stride(const Sexpr& expr, const Substitution* subst);
  absl::StatusOr<ControlValue> ReadControlConfig(const Sexpr& expr);

  // verify_config.cc
  // Control fields keep their value between writes: a `write-config` of a
  // control expression makes the field's value known, and a statement that
  // may write a field (a loop or branch containing a write, a call whose
  // callee writes it, transitively) makes it unknown again.
  void RememberConfig(const Sexpr& form, ControlValue value);
  const ControlValue* KnownConfig(const Sexpr& form) const;
  void ForgetConfigWrittenBy(const Sexpr& stmt);

  // verify_call.cc
  absl::Status CheckCall(const Sexpr& call);
  absl::Status CheckDataBinding(const Sexpr& arg, const Procedure& callee,
                                const Param& param, const View& view,
                                const Substitution& subst);

  const Module& module_;
  const Procedure& proc_;
  const CallGraph& calls_;
  PolyDomain domain_;
  // Scopes: no name is bound twice at a time, so one map and, per block,
  // the names to unbind at its end. Nodes keep LoopName addresses stable.
  absl::node_hash_map<std::string, LoopName> names_;
  std::vector<std::vector<std::string>> blocks_;
  std::vector<Root> roots_;
  int config_reads_ = 0;
  // The value of each control field ("@CFG.field") where it is known.
  absl::flat_hash_map<std::string, ControlValue> config_values_;
};

}  // namespace tessel

#endif  // TESSEL_LIBS_IR_VERIFY_PROC_H_
