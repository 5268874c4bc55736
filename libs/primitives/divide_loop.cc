#include "libs/primitives/divide_loop.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "isl/cpp.h"
#include "libs/ir/build.h"
#include "libs/ir/cursor.h"
#include "libs/ir/edit.h"
#include "libs/ir/node.h"
#include "libs/poly/model.h"
#include "libs/poly/poly.h"
#include "libs/primitives/names.h"
#include "libs/primitives/simplify_expr.h"

namespace tessel::primitives {
namespace {

using ir::Build;
using ir::Module;
using ir::Node;

// The first point where the trip count of `loop` (wherever it runs) is
// in the set `fails` builds from it; nullopt when there is none.
absl::StatusOr<std::optional<poly::Violation>> TripCountWhere(
    const Node& proc, const Node& loop,
    absl::FunctionRef<isl::set(const isl::pw_aff&)> fails) {
  poly::Context context;
  poly::ProcModel model(isl::ctx(context.get()), proc);
  absl::StatusOr<isl::pw_aff> lo = model.Affine(*loop.operand(0), loop);
  if (!lo.ok()) return lo.status();
  absl::StatusOr<isl::pw_aff> hi = model.Affine(*loop.operand(1), loop);
  if (!hi.ok()) return hi.status();
  return model.FindViolation(
      loop, {hi->sub(*lo)},
      [&](const std::vector<isl::pw_aff>& values) { return fails(values[0]); });
}

std::string At(const poly::Violation& at) {
  return at.at.empty() ? "" : absl::StrCat(" (at ", at.at, ")");
}

// Proves that the trip count of `loop` is a multiple of `quot` wherever
// the loop runs; FailedPrecondition with a counterexample otherwise.
absl::Status ProveDivisible(const Node& proc, const Node& loop, int64_t quot) {
  auto violation = TripCountWhere(proc, loop, [quot](const isl::pw_aff& trip) {
    return trip.mod(quot).ne_set(poly::ConstantOn(trip, 0));
  });
  if (!violation.ok()) return violation.status();
  if (!violation->has_value()) return absl::OkStatus();
  return absl::FailedPreconditionError(absl::StrCat(
      "divide_loop: cannot divide loop '", loop.name(), "' perfectly by ", quot,
      ": its trip count can be ", (*violation)->values[0], At(**violation)));
}

// A cut tail runs N % quot times: right only when N >= 0 (a loop whose
// upper bound is below its lower runs no times, but its remainder is not 0).
absl::Status ProveNotNegative(const Node& proc, const Node& loop) {
  auto violation = TripCountWhere(proc, loop, [](const isl::pw_aff& trip) {
    return trip.lt_set(poly::ConstantOn(trip, 0));
  });
  if (!violation.ok()) return violation.status();
  if (!violation->has_value()) return absl::OkStatus();
  return absl::FailedPreconditionError(
      absl::StrCat("divide_loop: cannot cut the tail of loop '", loop.name(),
                   "': its upper bound can be below its lower bound, by ",
                   (*violation)->values[0].substr(1), At(**violation)));
}

Node* Simplified(Module& module, Node* expr) {
  return SimplifyExpr(module, *expr);
}

// `stmts` with every reference to `old_loop` replaced by `value`.
void SubstituteAll(Module& module, const std::vector<Node*>& stmts,
                   const Node* old_loop, const Node& value) {
  for (Node* stmt : stmts) ir::Substitute(module, stmt, old_loop, value);
}

}  // namespace

absl::StatusOr<TailStrategy> ParseTailStrategy(absl::string_view text) {
  if (text == "guard") return TailStrategy::kGuard;
  if (text == "cut") return TailStrategy::kCut;
  if (text == "cut_and_guard") return TailStrategy::kCutAndGuard;
  return absl::InvalidArgumentError(
      absl::StrCat("divide_loop: tail must be \"guard\", \"cut\" or "
                   "\"cut_and_guard\", not \"",
                   text, "\""));
}

absl::StatusOr<DividedLoop> DivideLoop(Module& module, const ir::Cursor& loop,
                                       int64_t quot,
                                       const std::string& outer_name,
                                       const std::string& inner_name,
                                       TailStrategy tail, bool perfect) {
  if (absl::Status status = loop.status(); !status.ok()) return status;
  Node* old = loop.node();
  if (!old->is(ir::Op::kFor)) {
    return absl::InvalidArgumentError("divide_loop: expected a loop");
  }
  if (quot <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("divide_loop: div_const must be positive, not ", quot));
  }
  Node& proc = *loop.proc().node();
  for (const std::string& name : {outer_name, inner_name}) {
    if (absl::Status s = CheckNewName(module, proc, name, "divide_loop");
        !s.ok()) {
      return s;
    }
  }
  if (outer_name == inner_name) {
    return absl::InvalidArgumentError(
        "divide_loop: the two new names must differ");
  }
  if (perfect) {
    if (absl::Status s = ProveDivisible(proc, *old, quot); !s.ok()) return s;
  } else if (tail != TailStrategy::kGuard) {
    if (absl::Status s = ProveNotNegative(proc, *old); !s.ok()) return s;
  }

  // N = HI - LO; its remainder by quot, when a literal.
  Node* lo = old->operand(0);
  Node* trip = Simplified(
      module,
      Build::Sub(module, module.Clone(old->operand(1)), module.Clone(lo)));
  std::optional<int64_t> remainder;
  if (trip->is(ir::Op::kConst)) remainder = trip->int_value() % quot;
  // A guard is left out where a literal trip count divides exactly, except
  // a count of 0: as a cut keeps its tail of 0 iterations, a guarded loop
  // that never runs keeps its guard, so that a schedule finds the same
  // code at every size (a tail of the columns that a size leaves none of).
  bool exact = perfect || (remainder == 0 && trip->int_value() > 0);
  auto q = [&] { return Build::Int(module, quot); };
  auto n = [&] { return module.Clone(trip); };

  Node* outer_hi = Simplified(
      module,
      exact || tail != TailStrategy::kGuard
          ? Build::Div(module, n(), q())
          : Build::Div(module,
                       Build::Add(module, n(), Build::Int(module, quot - 1)),
                       q()));
  Node* outer =
      Build::For(module, outer_name, Build::Int(module, 0), outer_hi, {});
  Node* inner = Build::For(module, inner_name, Build::Int(module, 0), q(), {});
  module.Append(outer, inner);
  // q*io + ii, and i = LO + that.
  Node* offset = Simplified(
      module,
      Build::Add(module, Build::Mul(module, q(), Build::Ref(module, *outer)),
                 Build::Ref(module, *inner)));
  Node* index = Simplified(
      module, Build::Add(module, module.Clone(lo), module.Clone(offset)));

  std::vector<Node*> body(ir::Body(*old).begin(), ir::Body(*old).end());
  // The tail's copy, made before the body moves.
  Node* tail_stmt = nullptr;
  if (!perfect && tail != TailStrategy::kGuard) {
    Node* tail_loop =
        Build::For(module, inner_name, Build::Int(module, 0),
                   Simplified(module, Build::Mod(module, n(), q())), {});
    // The loop's copy, so that a statement's references to an alloc of an
    // earlier one follow the copies; its statements leave it.
    Node* copy_loop = module.Clone(old);
    std::vector<Node*> copies(ir::Body(*copy_loop).begin(),
                              ir::Body(*copy_loop).end());
    for (Node* copy : copies) module.Detach(copy);
    Node* start = Simplified(
        module, Build::Add(module,
                           Build::Add(module, module.Clone(lo),
                                      Build::Mul(module, q(),
                                                 Build::Div(module, n(), q()))),
                           Build::Ref(module, *tail_loop)));
    SubstituteAll(module, copies, copy_loop, *start);
    for (Node* copy : copies) module.Append(tail_loop, copy);
    tail_stmt = tail_loop;
    if (tail == TailStrategy::kCutAndGuard && !remainder.has_value()) {
      tail_stmt = Build::If(
          module,
          Build::Binary(module, ir::Op::kGt,
                        Simplified(module, Build::Mod(module, n(), q())),
                        Build::Int(module, 0)),
          {tail_loop});
    }
  }
  for (Node* stmt : body) module.Detach(stmt);
  SubstituteAll(module, body, old, *index);
  Node* holder = inner;
  if (!exact && tail == TailStrategy::kGuard) {
    holder = Build::If(module, Build::Lt(module, offset, n()), {});
    module.Append(inner, holder);
  }
  // An if's statements go in its then-branch, operand 1.
  Node* target = holder == inner ? inner : holder->operand(1);
  for (Node* stmt : body) module.Append(target, stmt);

  loop.Replace(outer);
  DividedLoop result{ir::Cursor(module, outer), ir::Cursor(module, inner), {}};
  if (tail_stmt != nullptr) {
    result.outer.InsertAfter(tail_stmt);
    result.tail = ir::Cursor(module, tail_stmt);
  }
  return result;
}

namespace {

absl::Status RunDivideLoop(Target& target, const Args& args) {
  const std::vector<std::string>& names = args["new_iters"].names;
  if (names.size() != 2) {
    return absl::InvalidArgumentError(
        "divide_loop: new_iters must be two names");
  }
  absl::StatusOr<TailStrategy> tail = ParseTailStrategy(args["tail"].text);
  if (!tail.ok()) return tail.status();
  return DivideLoop(target.module, args["loop_cursor"].cursor,
                    args["div_const"].int_value, names[0], names[1], *tail,
                    args["perfect"].bool_value)
      .status();
}

}  // namespace

PrimitiveSpec DivideLoopSpec() {
  return {"divide_loop",
          {{"loop_cursor", ArgKind::kLoop, std::nullopt},
           {"div_const", ArgKind::kInt, std::nullopt},
           {"new_iters", ArgKind::kNames, std::nullopt},
           {"tail", ArgKind::kString, "\"guard\""},
           {"perfect", ArgKind::kBool, "False"}},
          &RunDivideLoop};
}

}  // namespace tessel::primitives
