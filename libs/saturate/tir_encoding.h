// Tensor-level TIR in an e-graph: how a node of the typed IR becomes an
// e-node and back. The e-graph mirrors the IR one to one: an IR node is an
// e-node with the same operands as children; its attributes (a literal's
// value, a parameter's name, a De Bruijn index, a keyword) are the payload.
// Literals are typed: `2.5` of type f32 and `2.5` of type f64 are different
// e-nodes (ops `$f32` and `$f64`), so hash-consing never merges values of
// different types.
#ifndef TESSEL_LIBS_SATURATE_TIR_ENCODING_H_
#define TESSEL_LIBS_SATURATE_TIR_ENCODING_H_

#include <optional>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "libs/egraph/pattern.h"
#include "libs/egraph/symbols.h"
#include "libs/egraph/term.h"
#include "libs/ir/node.h"

namespace tessel::saturate {

// What an e-graph op stands for.
struct OpMeaning {
  ir::Op op;
  // For literal ops: the literal's type.
  std::optional<ir::Type> literal_type;
  // For named calls (blas.gemm, ...): the callee, the op's name.
  bool is_call = false;
};

class TirEncoding {
 public:
  TirEncoding();

  egraph::OpTable& ops() { return ops_; }
  egraph::PayloadTable& payloads() { return payloads_; }
  const egraph::OpTable& ops() const { return ops_; }
  const egraph::PayloadTable& payloads() const { return payloads_; }

  // The e-graph op of `node` (which must be elaborated when it is a
  // literal), interning it if new.
  egraph::OpId OpOf(const ir::Node& node);
  egraph::PayloadId PayloadOf(const ir::Node& node);
  // The op of a literal of type `type`, and the payload of `literal` (a
  // Const) given that type.
  egraph::OpId LiteralOp(const ir::Type& type);
  egraph::PayloadId LiteralPayload(const ir::Node& literal,
                                   const ir::Type& type);
  // The op spelled `head`: a head of the op table, or a named call
  // (`LIB.NAME`); interned if new.
  std::optional<egraph::OpId> OpNamed(absl::string_view head);
  const OpMeaning& Meaning(egraph::OpId op) const { return meanings_[op]; }
  // Whether `op` binds a De Bruijn variable (its child is under one more
  // lam).
  bool IsLam(egraph::OpId op) const { return meanings_[op].op == ir::Op::kLam; }

  egraph::OpId ref_op() const { return ref_op_; }
  egraph::OpId var_op() const { return var_op_; }
  // The De Bruijn index of a `$var` e-node's payload.
  int64_t VarIndex(egraph::PayloadId payload) const {
    return payloads_.IntValue(payload);
  }

  // The term of an elaborated tensor-level IR tree.
  egraph::Term ToTerm(const ir::Node& root);

  // The IR tree of `term` (detached, in `module`), its references bound to
  // the parameters of `func`, its literals typed; not elaborated further.
  absl::StatusOr<ir::Node*> ToNode(const egraph::Term& term,
                                   const ir::Node& func,
                                   ir::Module& module) const;

 private:
  egraph::OpId Intern(absl::string_view name, OpMeaning meaning);
  egraph::OpId GenericOp(ir::Op op);

  egraph::OpTable ops_;
  egraph::PayloadTable payloads_;
  std::vector<OpMeaning> meanings_;  // by OpId
  absl::flat_hash_map<ir::Op, egraph::OpId> generic_;
  egraph::OpId ref_op_;
  egraph::OpId var_op_;
};

}  // namespace tessel::saturate

#endif  // TESSEL_LIBS_SATURATE_TIR_ENCODING_H_
