// The interface of a scheduling primitive (Exo's scheduling operations,
// formats/schedule/README.md): what parameters it takes, and the rewrite
// itself. The schedule reader (libs/schedule) binds a directive's
// arguments to a primitive's parameters by their kinds (a pattern string
// becomes a cursor, `@name` a top-level form); the primitive checks that
// the rewrite is safe with the analyses of libs/effects, then edits the
// procedure through cursors and builders (libs/ir).
//
// Every primitive is also a C++ function of its own, with typed arguments
// (DivideLoop(module, loop, 16, {"io", "ii"}, TailStrategy::kCut)), so
// that other tools (vectorize) call the same rewrite without a schedule.
#ifndef TESSEL_LIBS_PRIMITIVES_PRIMITIVE_H_
#define TESSEL_LIBS_PRIMITIVES_PRIMITIVE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "libs/ir/cursor.h"
#include "libs/ir/node.h"
#include "libs/verify/verifier.h"

namespace tessel::primitives {

// What a parameter takes, and so how the reader binds its argument.
enum class ArgKind {
  kLoop,      // a for: "for i in _", "for i in _: _" or just "i"
  kLoopPair,  // two perfectly nested loops: "i j" (the cursor is the outer)
  kStmt,      // one statement: any statement pattern
  kBlock,     // a run of statements: "s1 ; s2 ; ..." or one statement
  kGap,       // after(PATTERN) or before(PATTERN)
  kAlloc,     // an alloc: "x : _" or just "x"
  kExpr,      // an expression in the body: "n % 4", "A[_] * B[_]"
  kInt,
  kBool,
  kString,     // a name to create, a keyword value ("cut"), or TIR-side text
               // parsed by the primitive in the scope of another argument
               // (stage_mem's window "A[i, 0:16]", specialize's condition)
  kNames,      // ["io", "ii"]
  kInts,       // [0, 2, 1]
  kStrings,    // ["n % 4 == 0", "m > 8"]
  kProc,       // @name of a proc
  kInstr,      // @name of an instr (or a proc, for call_eqv/replace)
  kMemory,     // @name of a memory
  kConfig,     // @name of a config
  kExprText,   // an expression or window in Exo's syntax ("A[i, 0:16]",
               // "n % 4 == 0"), built as TIR in the scope of the statement
               // the directive's first cursor argument points at
  kExprTexts,  // a list of them (or one, as a list of one): ["n % 4 == 0"]
};

// A parameter of a primitive. One without a default is required.
struct ParamSpec {
  std::string name;
  ArgKind kind;
  // The default, written as a directive's argument would be ("False",
  // "\"guard\"", "0"); none: the parameter is required.
  std::optional<std::string> default_text;
};

// Where an argument was written in the schedule, for diagnostics.
struct ArgLoc {
  int line = 0;
  int col = 0;
};

// A bound argument. Which fields hold it depends on the kind.
struct Arg {
  ArgKind kind = ArgKind::kInt;
  ArgLoc loc;
  // kLoop, kLoopPair (the outer loop), kStmt, kAlloc, kExpr (the first
  // match in program order, or the one `#N` picked).
  ir::Cursor cursor;
  // kExpr without `#N`: every match, in program order (bind_expr and
  // rewrite_expr take them all, as Exo's expression cursors do).
  std::vector<ir::Cursor> matches;
  ir::BlockCursor block;  // kBlock (a kStmt argument is a block of one too)
  ir::GapCursor gap;      // kGap
  int64_t int_value = 0;
  bool bool_value = false;
  std::string text;                // kString; the pattern text otherwise
  std::vector<std::string> names;  // kNames, kStrings
  std::vector<int64_t> ints;       // kInts
  const ir::Node* form = nullptr;  // kProc, kInstr, kMemory, kConfig
  // kExprText: a detached tree of the module (names resolved to their
  // binders in scope), which a primitive clones where it uses it.
  const ir::Node* node = nullptr;
  std::vector<const ir::Node*> nodes;  // kExprTexts, likewise
};

// The arguments of one directive, by parameter name, in the primitive's
// parameter order; every parameter has one (defaults are bound too).
class Args {
 public:
  Args() = default;
  void Add(std::string name, Arg arg);
  // The argument of parameter `name`; the primitive's spec names it, so a
  // missing one is a programming error (it aborts).
  const Arg& operator[](absl::string_view name) const;
  size_t size() const { return args_.size(); }

 private:
  std::vector<std::pair<std::string, Arg>> args_;
};

// The procedure being scheduled, in its module.
struct Target {
  ir::Module& module;
  ir::Node& proc;
};

// What a primitive's verification of an edited procedure checks: all but
// memories, which a schedule checks once at its end (ir::ProcChecks).
inline constexpr ir::ProcChecks kEditChecks{.memories = false};

// A primitive checks before it edits: when it returns an error the module
// is unchanged. An error says which condition failed and gives a witness
// (the instances or locations that violate it), as FailedPrecondition; an
// argument that does not fit (a loop pattern naming an if, a factor of 0)
// is InvalidArgument. After it succeeds, the caller re-verifies the
// procedure (ir::VerifyProc; a schedule checks bounds once, on its result,
// schedule::ApplyOptions): a result that fails is a bug in the primitive,
// reported and never accepted.
using PrimitiveFn = absl::Status (*)(Target& target, const Args& args);

struct PrimitiveSpec {
  std::string name;               // Exo's name: "divide_loop"
  std::vector<ParamSpec> params;  // Exo's names and order, proc left out
  PrimitiveFn run;
};

// Every primitive, by name.
class Registry {
 public:
  // Every primitive of libs/primitives.
  static const Registry& Builtin();

  absl::Status Add(PrimitiveSpec spec);
  const PrimitiveSpec* Find(absl::string_view name) const;
  const std::vector<PrimitiveSpec>& all() const { return specs_; }

 private:
  std::vector<PrimitiveSpec> specs_;
};

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_PRIMITIVE_H_
