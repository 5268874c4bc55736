// The class behind EmitProcedure (proc_emitter.h): one walk over a proc's
// statements that writes its C lines. Its parts live in files by concern:
//   proc_writer.cc  the function, blocks and the plain statements;
//   proc_alloc.cc   allocations and their release;
//   proc_call.cc    calls of procs and instrs;
// vector expressions and statements are the VectorEmitter's, whose lines
// come before the statement that needs them.
#ifndef TESSEL_LIBS_EMITC_PROC_WRITER_H_
#define TESSEL_LIBS_EMITC_PROC_WRITER_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "libs/emitc/expr_emitter.h"
#include "libs/emitc/extensions.h"
#include "libs/emitc/globals.h"
#include "libs/emitc/scope.h"
#include "libs/emitc/uses.h"
#include "libs/emitc/vector_emitter.h"
#include "libs/ir/node.h"

namespace tessel::emitc {

class ProcWriter {
 public:
  // `proc` is the proc to write, or for EmitBody the node statements are
  // reported against.
  ProcWriter(const ir::Module& module, const GlobalNames& globals,
             const ir::Node& proc, Needs& needs, const Extensions& extensions)
      : module_(module),
        globals_(globals),
        proc_(proc),
        needs_(needs),
        extensions_(extensions),
        scope_(globals.taken),
        expr_(globals, scope_),
        vectors_(expr_, scope_) {
    expr_.set_vectors(&vectors_);
  }

  absl::StatusOr<std::string> Emit();
  // EmitStatements (extensions.h).
  absl::StatusOr<Statements> EmitBody(absl::Span<const OuterBinder> outer,
                                      const ir::Node* guard,
                                      absl::Span<ir::Node* const> stmts,
                                      int depth);

 private:
  struct Line {
    int depth = 0;
    std::string text;
    const Binding* if_used = nullptr;  // an allocation, dropped when unused
  };
  // An allocation of the current block, released at its end.
  struct Allocation {
    Binding* binding;
    const ir::Node* memory;  // null for a scalar local
    CExpr size;
    std::vector<CExpr> dims;
    Uses uses;  // of the declaration, committed if the allocation is used
    bool on_stack = false;  // a @DRAM local array, not freed
    size_t line = 0;        // of the declaration in `lines_`
    bool pooled = false;    // in the proc's block of temporaries, not freed
  };
  enum class ArgumentMode { kCall, kTemplateValue, kTemplatePointer };

  // proc_writer.cc
  void AddLine(int depth, std::string text, const Uses& uses,
               const Binding* if_used = nullptr);
  // `proc_body`: the statements are the proc's body, whose heap
  // temporaries share one block (PoolTemporaries).
  absl::Status Block(absl::Span<ir::Node* const> stmts, int depth,
                     bool proc_body = false);
  absl::Status Statement(const ir::Node& stmt, absl::Span<ir::Node* const> rest,
                         int depth, std::vector<Allocation>& allocations);
  absl::Status For(const ir::Node& stmt, int depth);
  absl::Status If(const ir::Node& stmt, int depth);
  absl::Status Assign(const ir::Node& stmt, int depth);
  absl::Status Let(const ir::Node& stmt);
  absl::Status WriteConfig(const ir::Node& stmt, int depth);
  absl::Status Prefetch(const ir::Node& stmt, int depth);
  absl::Status VectorStatement(const ir::Node& stmt, int depth);
  // Writes the lines the vector emitter collected, at `depth`.
  void AddVectorLines(int depth);

  // proc_alloc.cc
  absl::Status Alloc(const ir::Node& stmt, absl::Span<ir::Node* const> rest,
                     int depth, std::vector<Allocation>& allocations);
  absl::Status AllocVector(const ir::Node& stmt,
                           absl::Span<ir::Node* const> rest, int depth,
                           std::vector<Allocation>& allocations);
  absl::Status Release(const Allocation& allocation, int depth);
  // Gives the @DRAM tensors of constant size that `allocations`, the
  // proc body's, take from the heap one block, when there are several;
  // returns whether it did (the block is then freed last).
  bool PoolTemporaries(std::vector<Allocation>& allocations, int depth);
  // Adds the headers a memory or an instr names ((include "...")) to
  // `needs`.
  static void NeedIncludes(const ir::Node& form, Needs& needs);
  absl::StatusOr<std::string> ExpandMemoryTemplate(absl::string_view clause,
                                                   const Allocation& allocation,
                                                   Uses& uses);

  // proc_call.cc
  absl::Status Call(const ir::Node& stmt, int depth);
  absl::StatusOr<CExpr> Argument(const ir::Node& param, const ir::Node& arg,
                                 ArgumentMode mode);
  absl::StatusOr<CExpr> Descriptor(const ir::Node& dsd, ArgumentMode mode);
  // The register a window `arg` (of `view`) of a register buffer denotes.
  static absl::StatusOr<CExpr> RegisterOf(const ir::Node& arg,
                                          const View& view);

  const ir::Module& module_;
  const GlobalNames& globals_;
  const ir::Node& proc_;
  Needs& needs_;
  const Extensions& extensions_;
  Scope scope_;
  ExprEmitter expr_;
  VectorEmitter vectors_;
  std::vector<Line> lines_;
};

}  // namespace tessel::emitc

#endif  // TESSEL_LIBS_EMITC_PROC_WRITER_H_
