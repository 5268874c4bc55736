// The parts of the typed IR's top-level forms: a proc's or instr's
// parameters, template, assertions and body (the operands of the form, in
// that order), a config's fields, a memory's clauses, and where data lives.
#ifndef TESSEL_LIBS_IR_FORMS_H_
#define TESSEL_LIBS_IR_FORMS_H_

#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "libs/ir/node.h"

namespace tessel::ir {

// The Param operands of a proc or instr, in order.
std::vector<Node*> ParamsOf(const Node& proc);
// The (assert COND) operands that open a proc's or instr's statements.
std::vector<Node*> AssertsOf(const Node& proc);
// The (clobbers @CFG FIELD) declarations of a proc, before its assertions.
std::vector<Node*> ClobbersOf(const Node& proc);
// The statements of a proc or instr: the operands after its parameters,
// template, clobbers declarations and assertions.
absl::Span<Node* const> BodyOf(const Node& proc);
// The statements of a block: a For's after its bounds, a Then's or an
// Else's.
absl::Span<Node* const> StatementsOf(const Node& block);
// The Template of an instr.
const Node& TemplateOf(const Node& instr);

// The parameter of `proc` named `name`, or null.
const Node* FindParam(const Node& proc, absl::string_view name);
// The Field of `config` named `name`, or null.
const Node* FindField(const Node& config, absl::string_view name);
// The `alloc` or `free` Clause of `memory`, or null.
const Node* FindClause(const Node& memory, absl::string_view kind);

// Parameters of kind in, out or inout; of those, the ones read (in, inout)
// and written (out, inout).
bool IsDataParam(const Node& param);
bool IsReadParam(const Node& param);
bool IsWrittenParam(const Node& param);

// The memory a data Param or an Alloc lives in: its `@MEM`, else @DRAM.
const Node& MemoryOf(const Module& module, const Node& decl);

// Whether `pred` holds for `root` or a node under it.
bool AnyNode(const Node& root, absl::FunctionRef<bool(const Node&)> pred);

}  // namespace tessel::ir

#endif  // TESSEL_LIBS_IR_FORMS_H_
