#include "libs/primitives/bind_expr.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/effects/effects.h"
#include "libs/ir/build.h"
#include "libs/ir/edit.h"
#include "libs/ir/forms.h"
#include "libs/ir/syntax.h"
#include "libs/ir/types.h"
#include "libs/ir/views.h"
#include "libs/primitives/names.h"
#include "libs/primitives/transaction.h"
#include "libs/sexpr/printer.h"

namespace tessel::primitives {

using ir::Build;
using ir::Node;
using ir::Op;

namespace {

std::string Text(const Node& node) { return PrintFlat(ir::WriteNode(node)); }

// Whether `expr` is a place a statement writes, not a value: the target of
// an assignment or a reduction, or an argument a callee writes.
bool IsPlace(Node& expr) {
  Node* parent = expr.parent();
  if (parent == nullptr) return false;
  if (parent->is(Op::kAssign) || parent->is(Op::kReduce)) {
    return expr.position() == 0;
  }
  if (parent->is(Op::kCall)) {
    std::vector<Node*> params = ir::ParamsOf(*ir::CallView(*parent).callee());
    return ir::IsWrittenParam(*params[expr.position()]);
  }
  return false;
}

// The statements around `expr`, outermost first, down to its own.
std::vector<Node*> StatementsAround(Node& expr) {
  std::vector<Node*> chain;
  for (Node* at = &expr; at != nullptr; at = at->parent()) {
    if (ir::IsBodyStatement(*at)) chain.insert(chain.begin(), at);
  }
  return chain;
}

// Where the value is bound: the statement the assignment goes before, and
// its depth in the chains (StatementsAround) of the places.
struct BindingPoint {
  Node* stmt;
  size_t depth;
};

// The statement that holds every place, or the first of the statements
// of their innermost common body that hold them.
BindingPoint FindBindingPoint(const std::vector<std::vector<Node*>>& chains) {
  size_t common = 0;
  auto agree = [&](size_t d) {
    for (const std::vector<Node*>& chain : chains) {
      if (chain.size() <= d || chain[d] != chains[0][d]) return false;
    }
    return true;
  };
  while (agree(common)) ++common;
  // Every chain goes one deeper than `common`, unless one place is in the
  // statement they share (then they all are: only statements without
  // bodies hold data values).
  for (const std::vector<Node*>& chain : chains) {
    if (chain.size() == common) return {chain[common - 1], common - 1};
  }
  Node* first = chains[0][common];
  for (const std::vector<Node*>& chain : chains) {
    Node* stmt = chain[common];
    if (stmt->parent() != first->parent()) {
      // The branches of one `if`: bind before it.
      return {chains[0][common - 1], common - 1};
    }
    if (stmt->position() < first->position()) first = stmt;
  }
  return {first, common};
}

// Whether `expr` is computed whenever its statement `stmt` runs (not in a
// branch of a select, nor a right operand of and/or).
bool AlwaysComputed(const Node& expr, const Node& stmt) {
  for (const Node* at = &expr; at != &stmt; at = at->parent()) {
    const Node& parent = *at->parent();
    bool conditional =
        parent.is(Op::kSelect) || parent.is(Op::kAnd) || parent.is(Op::kOr);
    if (conditional && at->position() > 0) return false;
  }
  return true;
}

// Whether the buffer declared by `decl` (a data parameter, an alloc, or a
// let of a window of one) may hold elements not written yet: an alloc's
// or an out parameter's.
bool MayBeUnwritten(Node& decl) {
  if (decl.is(Op::kLet)) {
    Node& window = *ir::LetView(decl).window();
    return !window.is(Op::kWindow) ||
           MayBeUnwritten(*ir::WindowView(window).buffer());
  }
  return decl.is(Op::kAlloc) ||
         (decl.is(Op::kParam) && decl.param_kind() == ir::ParamKind::kOut);
}

// Why computing `expr` where it was not always computed can fail at run
// time, or "" when it cannot.
std::string HowItCanFail(Node& expr) {
  std::string how;
  ir::Walk(expr, [&](Node& node) {
    if (!how.empty()) return;
    if (node.is(Op::kLoad) || (node.is(Op::kRef) && node.type().is_elem())) {
      Node& decl =
          node.is(Op::kLoad) ? *ir::LoadView(node).buffer() : *node.def();
      if (MayBeUnwritten(decl)) {
        how =
            absl::StrCat("reads '", decl.name(), "', which may not be written");
      }
      return;
    }
    if (!node.type().is_elem() || IsFloat(node.type().elem())) return;
    if (node.is(Op::kDiv)) how = "can divide an integer by zero";
    if (node.is(Op::kCast) &&
        IsFloat(ir::CastView(node).value()->type().elem())) {
      how = "can convert a float out of its integer type's range";
    }
  });
  return how;
}

absl::Status CheckPlaces(absl::Span<Node* const> places) {
  const Node& expr = *places[0];
  for (Node* place : places) {
    if (!place->type().is_elem()) {
      return absl::InvalidArgumentError(
          absl::StrCat("bind_expr: '", Text(*place),
                       "' is not a scalar data value (only those are bound)"));
    }
    if (IsPlace(*place)) {
      return absl::InvalidArgumentError(
          absl::StrCat("bind_expr: '", Text(*place), "' is written by '",
                       Text(*place->parent()), "', not a value"));
    }
    if (!ir::AlphaEquivalent(&expr, place) ||
        ir::FormOf(place) != ir::FormOf(places[0])) {
      return absl::InvalidArgumentError(
          absl::StrCat("bind_expr: the expressions differ: '", Text(expr),
                       "' and '", Text(*place), "'"));
    }
  }
  return absl::OkStatus();
}

// FailedPrecondition with the witness when something the value reads may
// be written after `point` and before one of `places` computes it (in the
// same iteration of the loops around `point`).
absl::Status ValueUnchanged(Node& proc, const BindingPoint& point,
                            absl::Span<Node* const> places,
                            const std::vector<std::vector<Node*>>& chains) {
  if (std::all_of(chains.begin(), chains.end(), [&](const auto& chain) {
        return chain.back() == point.stmt;
      })) {
    return absl::OkStatus();  // computed where it is bound
  }
  // The statements from the binding point to the last that holds a place.
  absl::Span<Node* const> body = ir::Body(*point.stmt->parent());
  size_t first = point.stmt->position() - ir::BodyStart(*point.stmt->parent());
  size_t last = first;
  for (const std::vector<Node*>& chain : chains) {
    last = std::max(last, chain[point.depth]->position() -
                              ir::BodyStart(*point.stmt->parent()));
  }
  std::vector<Node*> between(body.begin() + first, body.begin() + last + 1);

  effects::ProcAnalysis analysis(proc);
  const poly::ProcModel& model = analysis.model();
  auto written = effects::EffectsOf(model, between);
  if (!written.ok()) return written.status();
  effects::Effects read;
  read.reads = isl::union_map::empty(model.ctx());
  read.writes = read.reduces = read.reads;
  isl::union_map before = read.reads;
  for (size_t k = 0; k < places.size(); ++k) {
    Node& stmt = *chains[k].back();
    if (&stmt == point.stmt) continue;  // computed where it is bound
    auto value = effects::ExpressionEffectsOf(model, *places[k]);
    if (!value.ok()) return value.status();
    read.reads = read.reads.unite(value->reads);
    read.loops.insert(value->loops.begin(), value->loops.end());
    for (Node* s : between) {
      auto earlier = effects::Before(model, *s, stmt);
      if (!earlier.ok()) return earlier.status();
      before = before.unite(*earlier);
    }
  }
  auto same = effects::InstancePairs(model, *written, read,
                                     effects::LoopsAround(*point.stmt).size());
  if (!same.ok()) return same.status();
  auto clash =
      effects::FindConflict(model, *written, read, before.intersect(*same));
  if (!clash.ok()) return clash.status();
  if (clash->has_value()) {
    return absl::FailedPreconditionError(
        absl::StrCat("bind_expr: what '", Text(*places[0]),
                     "' reads may change between where it would be bound "
                     "and where it is computed: ",
                     **clash));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<ir::Cursor> BindExpr(ir::Module& module,
                                    absl::Span<const ir::Cursor> exprs,
                                    const std::string& new_name) {
  if (exprs.empty()) {
    return absl::InvalidArgumentError("bind_expr: no expression to bind");
  }
  std::vector<Node*> places;
  for (const ir::Cursor& expr : exprs) {
    if (absl::Status status = expr.status(); !status.ok()) return status;
    // A place given twice is bound once.
    if (std::find(places.begin(), places.end(), expr.node()) == places.end()) {
      places.push_back(expr.node());
    }
  }
  if (absl::Status status = CheckPlaces(places); !status.ok()) return status;
  Node& proc = *ir::FormOf(places[0]);
  if (absl::Status status = CheckNewName(module, proc, new_name, "bind_expr");
      !status.ok()) {
    return status;
  }
  std::vector<std::vector<Node*>> chains;
  for (Node* place : places) chains.push_back(StatementsAround(*place));
  BindingPoint point = FindBindingPoint(chains);

  bool computed_there = false;
  for (size_t k = 0; k < places.size(); ++k) {
    computed_there |= chains[k].back() == point.stmt &&
                      AlwaysComputed(*places[k], *point.stmt);
  }
  if (std::string how = computed_there ? "" : HowItCanFail(*places[0]);
      !how.empty()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "bind_expr: '", Text(*places[0]), "' would be computed before '",
        Text(*point.stmt), "', where it is not always computed, and it ", how));
  }
  if (absl::Status status = ValueUnchanged(proc, point, places, chains);
      !status.ok()) {
    return status;
  }

  Transaction tx(module);
  Node* alloc =
      Build::Alloc(module, new_name, ir::Type::Elem(places[0]->type().elem()));
  Node* assign = Build::Assign(module, Build::Ref(module, *alloc),
                               module.Clone(places[0]));
  Node* owner = point.stmt->parent();
  size_t position = point.stmt->position();
  tx.Insert(owner, position, alloc);
  tx.Insert(owner, position + 1, assign);
  for (Node* place : places) tx.Replace(place, Build::Ref(module, *alloc));
  if (absl::Status status = tx.Commit(proc, "bind_expr"); !status.ok()) {
    return status;
  }
  return ir::Cursor(module, alloc);
}

namespace {

absl::Status Run(Target& target, const Args& args) {
  const Arg& exprs = args["expr_cursors"];
  std::vector<ir::Cursor> values;
  for (const ir::Cursor& match : exprs.matches.empty()
                                     ? std::vector<ir::Cursor>{exprs.cursor}
                                     : exprs.matches) {
    if (!IsPlace(*match.node())) values.push_back(match);
  }
  if (values.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("bind_expr: '", exprs.text,
                     "' matches only places that are written, no value"));
  }
  if (!args["cse"].bool_value) values.resize(1);
  const Node* first = values[0].node();
  std::erase_if(values, [&](const ir::Cursor& value) {
    return !ir::AlphaEquivalent(first, value.node());
  });
  return BindExpr(target.module, values, args["new_name"].text).status();
}

}  // namespace

PrimitiveSpec BindExprSpec() {
  return {"bind_expr",
          {{"expr_cursors", ArgKind::kExpr, std::nullopt},
           {"new_name", ArgKind::kString, std::nullopt},
           {"cse", ArgKind::kBool, "False"}},
          &Run};
}

}  // namespace tessel::primitives
