// The parts of the typed IR's top-level forms that emit-c reads: a proc's
// or instr's parameters, template, assertions and body (the operands of the
// form, in that order), a config's fields, a memory's clauses, and where
// data lives.
#ifndef TESSEL_LIBS_EMITC_FORMS_H_
#define TESSEL_LIBS_EMITC_FORMS_H_

#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "libs/ir/node.h"
#include "libs/support/source.h"

namespace tessel::emitc {

// The Param operands of a proc or instr, in order.
std::vector<const ir::Node*> ParamsOf(const ir::Node& proc);
// The (assert COND) operands of a proc or instr.
std::vector<const ir::Node*> AssertsOf(const ir::Node& proc);
// The statements of a proc or instr: the operands after its parameters,
// template and assertions.
absl::Span<ir::Node* const> BodyOf(const ir::Node& proc);
// The statements of a block: a For's after its bounds, a Then's or an
// Else's.
absl::Span<ir::Node* const> StatementsOf(const ir::Node& block);
// The Template of an instr.
const ir::Node& TemplateOf(const ir::Node& instr);

// The parameter of `proc` named `name`, or null.
const ir::Node* FindParam(const ir::Node& proc, absl::string_view name);
// The Field of `config` named `name`, or null.
const ir::Node* FindField(const ir::Node& config, absl::string_view name);
// The `alloc` or `free` Clause of `memory`, or null.
const ir::Node* FindClause(const ir::Node& memory, absl::string_view kind);

// Parameters of kind in, out or inout; of those, the ones read (in, inout)
// and written (out, inout).
bool IsDataParam(const ir::Node& param);
bool IsReadParam(const ir::Node& param);
bool IsWrittenParam(const ir::Node& param);

// The memory a data Param or an Alloc lives in: its `@MEM`, else @DRAM.
const ir::Node& MemoryOf(const ir::Module& module, const ir::Node& decl);

// Whether `pred` holds for `root` or a node under it.
bool AnyNode(const ir::Node& root,
             absl::FunctionRef<bool(const ir::Node&)> pred);

}  // namespace tessel::emitc

#endif  // TESSEL_LIBS_EMITC_FORMS_H_
