// How the executor runs a compiled procedure (loop_program.h): which loop
// nests run a batch of iterations at a time, and where each expression
// keeps its values. Internal to libs/interp.
//
// Regions. A loop nest runs a batch of iterations at a time (a Region) when
// its loops are perfectly nested, no loop's bounds use another's variable,
// its body holds only assignments, reductions and ifs of them (no vectors),
// and running each statement for all iterations of a batch before the next
// computes what running the iterations one by one computes. The planner
// checks the last on the accesses of the body, taking distinct views as
// distinct memory (the executor checks that before each run of the nest,
// and runs it iteration by iteration where two views share elements):
//   - a view no statement writes may be read with any index;
//   - a view that one statement writes and nothing else accesses may be
//     written with any index: the executor writes in the order of the
//     iterations, and a reduction (or an assignment of (OP TARGET X),
//     TARGET reading the element written) reads each element just before
//     writing it;
//   - any other view written is accessed everywhere in the body through one
//     index tuple, one-to-one over the iterations: then no iteration
//     touches an element that another touches, and each statement still
//     sees what the statements before it wrote in its own iteration.
// Everything else runs iteration by iteration.
//
// Columns. Every expression gets a column in its procedure's arena: as many
// lanes as a batch holds in a region, as a vector has lanes for a vector
// expression, else one. A loop variable of a region is read from the
// region's column of it.
#ifndef TESSEL_LIBS_INTERP_LOOP_PLAN_H_
#define TESSEL_LIBS_INTERP_LOOP_PLAN_H_

#include "libs/interp/loop_program.h"

namespace tessel {
namespace loop {

class Planner {
 public:
  explicit Planner(CompiledProc& proc) : proc_(proc) {}

  // The procedure's parameters, assertions and body.
  void PlanProc();
  // An expression the executor evaluates outside the body, for one lane
  // (the CS-1 level's offsets and task conditions).
  void PlanExpr(Expr& e) { Columns(e, 1); }
  // A statement the executor runs outside the body (a CS-1 task's call).
  void PlanStatement(Stmt& stmt) { Statement(stmt); }
  // Sets the procedure's arena size; call last.
  void Finish() { proc_.arena_words = words_; }

 private:
  void Block(std::vector<Stmt>& block);
  void Statement(Stmt& stmt);
  void Window(WindowRef& ref);
  // Makes `loop` hold a region when its nest qualifies.
  bool TryRegion(Stmt& loop);
  // Columns of `lanes` lanes for `e` and its operands (vector expressions
  // take their lane count); in a region, a variable of it reads the
  // region's column.
  void Columns(Expr& e, int lanes);
  void RegionColumns(std::vector<Stmt>& body);
  int32_t NewColumn(int lanes);

  CompiledProc& proc_;
  int32_t words_ = 0;
  // While planning a region's body: its variables' slots and columns.
  const Region* region_ = nullptr;
};

// Plans every procedure of `program`.
void PlanLoopProgram(LoopProgram& program);

}  // namespace loop
}  // namespace tessel

#endif  // TESSEL_LIBS_INTERP_LOOP_PLAN_H_
