// TIR's concrete syntax for the typed IR: reading S-expressions into a
// module (every name resolved to its binder, every `@NAME` to its form) and
// writing nodes back. The op table drives both: a form with generic syntax
// is read and written from its operand list in ops.def; only forms with
// syntax of their own (top-level forms, parameters, names, literals,
// element reads) have code here.
//
// Reading checks structure and names; types are given by elaboration
// (elaborate.h), which every tool runs through ReadAndVerify.
#ifndef TESSEL_LIBS_IR_SYNTAX_H_
#define TESSEL_LIBS_IR_SYNTAX_H_

#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "libs/ir/node.h"
#include "libs/sexpr/sexpr.h"
#include "libs/support/source.h"

namespace tessel::ir {

// Reads the top-level forms of a module. Errors are located diagnostics.
absl::StatusOr<Module> ReadForms(const std::vector<Sexpr>& forms,
                                 SourceRef source = nullptr);
// Reads a module from source text; a module needs at least one form.
absl::StatusOr<Module> ReadText(const SourceRef& source);
// Reads `forms` into `module`, after its forms: their `@NAME`s may name the
// module's forms and each other. The module's nodes are left as they are
// (cursors into them stay valid); on an error none of `forms` is added.
// The new forms are not elaborated: verify them (VerifyProc).
absl::Status AppendForms(Module& module, const std::vector<Sexpr>& forms);

// Reads `term`, a pattern of a rewrite rule (formats/rules/README.md): a
// tensor-level term in which `?NAME` is a pattern variable (an Op::kMeta
// leaf) and De Bruijn variables may be free. The result is detached in
// `module` and not elaborated: its literals have no types.
absl::StatusOr<Node*> ReadPattern(const Sexpr& term, Module& module);

// The S-expression a node is written as.
Sexpr WriteNode(const Node& node);
// The S-expression of a declared type.
Sexpr WriteType(const Type& type);
// The module in canonical form (formats/tir/README.md, "Canonical form").
std::string PrintModule(const Module& module);
// The same text, a form at a time to `write` (which may write it out), so
// that a large module's text is never held whole; the first error of
// `write` ends it.
using TextSink = absl::FunctionRef<absl::Status(absl::string_view)>;
absl::Status PrintModule(const Module& module, TextSink write);
// A tool's output: the module written to `path` ("-": stdout) a form at a
// time, as libs/support/file.h's WriteOutput does.
absl::Status WriteModule(const std::string& path, const Module& module);
// Form `i` of the module as PrintModule writes it, with the blank line
// that separates it from the previous one.
std::string PrintForm(const Module& module, size_t i);

}  // namespace tessel::ir

#endif  // TESSEL_LIBS_IR_SYNTAX_H_
