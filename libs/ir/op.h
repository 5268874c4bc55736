// The op table (ops.def) as C++: an enumerator per form of every level and
// what the table says about it. Everything that reads, prints, types,
// verifies, runs or emits TIR dispatches on an Op, never on a head symbol.
#ifndef TESSEL_LIBS_IR_OP_H_
#define TESSEL_LIBS_IR_OP_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/strings/string_view.h"
#include "libs/sexpr/sexpr.h"

namespace tessel::ir {

enum class Op : uint16_t {
#define TIR_OP(id, spelling, op_class, operands, header) k##id,
#include "libs/ir/ops.def"
#undef TIR_OP
};

inline constexpr int kNumOps = 0
#define TIR_OP(id, spelling, op_class, operands, header) +1
#include "libs/ir/ops.def"
#undef TIR_OP
    ;

enum class OpClass : uint8_t {
  kTop,     // a top-level form of a module
  kDecl,    // a parameter, result, field, clause or template
  kLeaf,    // a literal, a name, a literal list
  kStmt,    // a loop-level statement
  kBlock,   // (then ...) and (else ...)
  kExpr,    // an expression, at the loop level and in tensor-level terms
  kTerm,    // a tensor-level term (LIAR)
  kAccess,  // an access pattern (Glenside)
};

// One operand position of a form with generic syntax (ops.def lists them).
enum class OperandKind : uint8_t {
  kValue,       // value: an expression or term child
  kValues,      // value*: any number of them
  kValuesPlus,  // value+: one or more
  kStmts,       // stmt*: statements, to the end of the form
  kLam,         // lam: a (lam ...) child
  kInt,         // int: an integer literal child
  kInts,        // int*: integer literal children
  kName,        // name: the name the form binds over its later operands
  kGlobal,      // global: @NAME, a top-level form
  kKey,         // key: a keyword attribute
  kElem,        // elem: an element type attribute
  kType,        // type: a type attribute, e.g. (vector f32 8)
  kThen,        // then: a (then ...) child
  kElseOpt,     // else?: an optional (else ...) child
};

struct OpInfo {
  Op op;
  absl::string_view spelling;  // empty: written without a head of its own
  OpClass op_class;
  // The generic syntax; empty and `custom` set for forms whose reader and
  // printer are registered in syntax.cc.
  std::vector<OperandKind> operands;
  bool custom = false;
  // Operands kept on the head's line by the canonical printer; -1 keeps the
  // leading atoms.
  int header = -1;

  // The least and the most operands the generic syntax accepts; variadic
  // forms (ending in value*, value+, stmt* or int*) have no most.
  size_t min_operands() const;
  std::optional<size_t> max_operands() const;
};

const OpInfo& Info(Op op);
absl::string_view Spelling(Op op);
// The op spelled `head`, for forms with a head of their own.
std::optional<Op> FindOp(absl::string_view head);
// The head of a parallel For (ops.def): read as a For marked parallel, and
// written for one.
inline constexpr absl::string_view kParallelForSpelling = "for-par";

// The operators a dimension of a type may use besides sizes and literals
// (formats/tir/README.md, "Types"): + - * / % neg min max.
bool IsDimensionOperator(Op op);

// Arithmetic on numbers (and, at the tensor level, elementwise on arrays):
// + - * / max min neg.
bool IsArithmetic(Op op);
// A comparison: < <= > >= == !=.
bool IsComparison(Op op);
// The ops whose value is a condition: comparisons, and, or, not.
bool IsCondition(Op op);

// The canonical printer's layout rule for TIR (printer.h, HeaderRule): how
// many operands of `form` stay on its head's line, from the op table.
int HeaderOperands(const Sexpr& form);

}  // namespace tessel::ir

#endif  // TESSEL_LIBS_IR_OP_H_
