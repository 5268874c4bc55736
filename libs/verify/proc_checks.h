// The checks VerifyProc (verifier.h) may leave out while a procedure is
// being edited, made on the finished procedure instead.
#ifndef TESSEL_LIBS_VERIFY_PROC_CHECKS_H_
#define TESSEL_LIBS_VERIFY_PROC_CHECKS_H_

namespace tessel::ir {

// What VerifyProc checks besides types, names and the kinds and types of
// calls' arguments.
struct ProcChecks {
  // Which memory each buffer lives in: non-addressable memories touched
  // only by instrs, arguments in their parameters' memories, registers'
  // shapes. Exo makes these back-end checks (section 3.1.1) because a
  // schedule passes through procedures where they fail for a step (a
  // buffer staged with stage_mem, then its loops replaced by instructions,
  // then set_memory): a scheduler defers them to the end of a schedule.
  bool memories = true;
  // That every index, window and in-bounds transfer stays inside its
  // buffer at every instance: isl's most costly questions (70 % of a
  // 200-directive SGEMM schedule's time when asked after each step). A
  // scheduler whose primitives prove their own conditions asks them once,
  // of the finished procedure (schedule-check's --verify-each asks them
  // after every step too).
  bool bounds = true;
  // That every call establishes its callee's contract at every instance:
  // size arguments positive, each data argument's extents the parameter's
  // dimensions, no written argument overlapping another, the callee's
  // assertions. Each is an isl question per call: after bounds, the
  // costliest (two thirds of what a 200-directive SGEMM schedule then
  // spent checking after each step), and like them proven by the
  // primitives that make or move calls, so asked once of the finished
  // procedure. Argument kinds, types and memories are checked regardless.
  bool contracts = true;
};

}  // namespace tessel::ir

#endif  // TESSEL_LIBS_VERIFY_PROC_CHECKS_H_
