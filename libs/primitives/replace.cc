#include "libs/primitives/replace.h"

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "libs/ir/build.h"
#include "libs/ir/edit.h"
#include "libs/ir/syntax.h"
#include "libs/verify/verifier.h"
#include "libs/ir/views.h"
#include "libs/primitives/linear_form.h"
#include "libs/sexpr/printer.h"

namespace tessel::primitives {
namespace {

using ir::Build;
using ir::Node;
using ir::Op;
using Var = LinearForm::Var;

std::string Text(const Node& node) { return PrintFlat(ir::WriteNode(node)); }

bool IsControlParam(const Node& node) {
  return node.is(Op::kParam) && node.param_kind() < ir::ParamKind::kIn;
}

int Rank(const Node& buffer) {
  const ir::Type& type = buffer.declared_type();
  return type.is_shaped() ? type.rank() : 0;
}

// An equation `form == 0` that matching `callee` against `block` asks for.
struct Equation {
  LinearForm form;
  const Node* callee;
  const Node* block;
};

// An access of a data parameter of the callee matched with one of a
// caller's buffer.
struct Use {
  const Node* param;
  std::vector<const Node*> callee_indices;
  std::vector<const Node*> block_indices;
  const Node* callee;
  const Node* block;
};

// Matches a callee's body with a block, statement by statement, and
// collects the equations that bind the callee's parameters.
class Unifier {
 public:
  // `block_loops`: the binders of the block, which terms of the block's
  // control expressions taken whole (`(/ N 64)`) may not name.
  Unifier(const Node& callee, absl::flat_hash_set<const Node*> block_loops)
      : callee_(callee), block_terms_(std::move(block_loops)) {}

  absl::Status MatchBody(absl::Span<Node* const> callee,
                         absl::Span<Node* const> block) {
    if (callee.size() != block.size()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "the block has ", block.size(), " statements and the body of ",
          callee_.name(), " has ", callee.size()));
    }
    for (size_t i = 0; i < callee.size(); ++i) {
      if (absl::Status s = MatchStmt(*callee[i], *block[i]); !s.ok()) return s;
    }
    return absl::OkStatus();
  }

  // The callee's expression as a form over the block's loops and the
  // callee's control parameters (unknowns).
  std::optional<LinearForm> CalleeForm(const Node& expr) const {
    return LinearForm::From(
        expr, [&](const Node& binder) -> std::optional<LinearForm> {
          if (auto it = loops_.find(&binder); it != loops_.end()) {
            return LinearForm::Of(it->second);
          }
          if (IsControlParam(binder)) return LinearForm::Of(&binder);
          return std::nullopt;
        });
  }

  // A control expression of the block as a form over its loops, the
  // control parameters and terms of them it does not vary (the callee's
  // parameters solve to such forms).
  std::optional<LinearForm> BlockForm(const Node& expr) {
    return block_terms_.Form(expr);
  }
  // A solved form as an argument: references and copies of the terms.
  Node* Build(ir::Module& module, const LinearForm& form) const {
    return block_terms_.Build(module, form);
  }

  const std::vector<Equation>& equations() const { return equations_; }
  const std::vector<Use>& uses() const { return uses_; }
  const absl::flat_hash_map<const Node*, const Node*>& buffers() const {
    return buffers_;
  }

 private:
  absl::Status Mismatch(const Node& callee, const Node& block) const {
    return absl::FailedPreconditionError(
        absl::StrCat("the block does not match the body of ", callee_.name(),
                     ": '", Text(block), "' against '", Text(callee), "'"));
  }

  static bool IsControlInt(const Node& expr) {
    return expr.type().is_control() &&
           !expr.type().is_control(ControlType::kBool);
  }

  // Asks that the callee's form `fc` of `c` equal the block's form `fb` of
  // `b`.
  absl::Status Equate(const Node& c, std::optional<LinearForm> fc,
                      const Node& b, std::optional<LinearForm> fb) {
    if (!fc || !fb) {
      return absl::FailedPreconditionError(
          absl::StrCat("replace compares linear control expressions; '",
                       Text(c), "' against '", Text(b), "' is not one"));
    }
    equations_.push_back({fc->Plus(fb->Times(-1)), &c, &b});
    return absl::OkStatus();
  }

  absl::Status MatchStmt(const Node& c, const Node& b) {
    // A for-par is not a for (ir::AlphaEquivalent).
    if (c.op() != b.op() || c.is_parallel() != b.is_parallel()) {
      return Mismatch(c, b);
    }
    switch (c.op()) {
      case Op::kFor: {
        loops_[&c] = &b;
        ir::ForView fc(const_cast<Node&>(c)), fb(const_cast<Node&>(b));
        if (absl::Status s = MatchValue(*fc.lo(), *fb.lo()); !s.ok()) return s;
        if (absl::Status s = MatchValue(*fc.hi(), *fb.hi()); !s.ok()) return s;
        return MatchBody(fc.body(), fb.body());
      }
      case Op::kIf: {
        ir::IfView ic(const_cast<Node&>(c)), ib(const_cast<Node&>(b));
        if ((ic.else_block() == nullptr) != (ib.else_block() == nullptr)) {
          return Mismatch(c, b);
        }
        if (absl::Status s = MatchValue(*ic.cond(), *ib.cond()); !s.ok()) {
          return s;
        }
        if (absl::Status s = MatchBody(ic.then_body(), ib.then_body());
            !s.ok()) {
          return s;
        }
        return MatchBody(ic.else_body(), ib.else_body());
      }
      case Op::kAssign:
      case Op::kReduce:
        if (absl::Status s = MatchAccess(*c.operand(0), *b.operand(0));
            !s.ok()) {
          return s;
        }
        return MatchValue(*c.operand(1), *b.operand(1));
      case Op::kWriteConfig:
        if (c.def() != b.def() || c.name() != b.name()) return Mismatch(c, b);
        return MatchValue(*c.operand(0), *b.operand(0));
      default:
        return absl::FailedPreconditionError(absl::StrCat(
            "replace matches loops, ifs, assignments, reductions and "
            "configuration writes; the body of ",
            callee_.name(), " has '", Text(c), "'"));
    }
  }

  // Two values: control expressions equal as linear forms, comparisons of
  // them by the same operator whose two sides differ by equal forms (so
  // `i < N` matches `16 * io + i < 4`: N = 4 - 16 io), data expressions of
  // the same operators on matching accesses.
  absl::Status MatchValue(const Node& c, const Node& b) {
    if (IsControlInt(c)) {
      return Equate(c, CalleeForm(c), b, BlockForm(b));
    }
    if (c.op() != b.op()) return Mismatch(c, b);
    if (ir::IsComparison(c.op()) && IsControlInt(*c.operand(0))) {
      auto difference = [](std::optional<LinearForm> lhs,
                           std::optional<LinearForm> rhs) {
        return lhs && rhs ? std::optional(lhs->Plus(rhs->Times(-1)))
                          : std::nullopt;
      };
      return Equate(c,
                    difference(CalleeForm(*c.operand(0)),
                               CalleeForm(*c.operand(1))),
                    b,
                    difference(BlockForm(*b.operand(0)),
                               BlockForm(*b.operand(1))));
    }
    if (c.is(Op::kLoad) || c.is(Op::kRef)) return MatchAccess(c, b);
    if (c.num_operands() != b.num_operands()) return Mismatch(c, b);
    switch (c.op()) {
      case Op::kConst:
        if (c.is_float_literal() != b.is_float_literal() ||
            c.int_value() != b.int_value() ||
            c.float_value() != b.float_value()) {
          return Mismatch(c, b);
        }
        return absl::OkStatus();
      case Op::kReadConfig:
        if (c.def() != b.def() || c.name() != b.name()) return Mismatch(c, b);
        return absl::OkStatus();
      case Op::kCast:
        if (c.declared_type() != b.declared_type()) return Mismatch(c, b);
        break;
      case Op::kStride:
      case Op::kWindow:
        return absl::FailedPreconditionError(
            absl::StrCat("replace does not match '", Text(c), "'"));
      default:
        break;
    }
    for (size_t i = 0; i < c.num_operands(); ++i) {
      if (absl::Status s = MatchValue(*c.operand(i), *b.operand(i)); !s.ok()) {
        return s;
      }
    }
    return absl::OkStatus();
  }

  // An element (or scalar) of a data parameter against one of a buffer
  // of the caller.
  absl::Status MatchAccess(const Node& c, const Node& b) {
    const Node* param = c.is(Op::kLoad) ? c.operand(0)->def() : c.def();
    const Node* buffer = b.is(Op::kLoad) ? b.operand(0)->def() : b.def();
    if (param == nullptr || !ir::IsDataParam(*param)) {
      return absl::FailedPreconditionError(
          absl::StrCat("replace matches accesses of the parameters of ",
                       callee_.name(), "; '", Text(c), "' is not one"));
    }
    if (buffer == nullptr ||
        !(ir::IsDataParam(*buffer) || buffer->is(Op::kAlloc)) ||
        c.is(Op::kLoad) != b.is(Op::kLoad) || Rank(*buffer) < Rank(*param) ||
        buffer->declared_type().elem() != param->declared_type().elem()) {
      return Mismatch(c, b);
    }
    auto [it, added] = buffers_.emplace(param, buffer);
    if (it->second != buffer) {
      return absl::FailedPreconditionError(
          absl::StrCat("the block does not match the body of ", callee_.name(),
                       ": '", param->name(), "' would stand for both '",
                       it->second->name(), "' and '", buffer->name(), "'"));
    }
    Use use{param, {}, {}, &c, &b};
    for (size_t i = 1; i < c.num_operands(); ++i) {
      use.callee_indices.push_back(c.operand(i));
    }
    for (size_t i = 1; i < b.num_operands(); ++i) {
      use.block_indices.push_back(b.operand(i));
    }
    uses_.push_back(std::move(use));
    return absl::OkStatus();
  }

  const Node& callee_;
  OpaqueTerms block_terms_;
  absl::flat_hash_map<const Node*, const Node*> loops_;
  absl::flat_hash_map<const Node*, const Node*> buffers_;
  std::vector<Equation> equations_;
  std::vector<Use> uses_;
};

// Solves `equations` for `unknowns` by elimination (each step takes an
// unknown of coefficient 1 or -1); the failing equation when one that is
// left is not identically zero or still has an unknown.
struct Solution {
  absl::flat_hash_map<Var, LinearForm> values;
  const Equation* failed = nullptr;
};

Solution Solve(const std::vector<Equation>& equations,
               const absl::flat_hash_set<Var>& unknowns) {
  Solution solution;
  std::vector<LinearForm> forms;
  for (const Equation& eq : equations) forms.push_back(eq.form);
  std::vector<bool> used(forms.size(), false);
  while (true) {
    // An unused equation with an unknown of coefficient 1 or -1.
    size_t e = 0;
    Var var = nullptr;
    int64_t k = 0;
    for (; e < forms.size() && var == nullptr; ++e) {
      if (used[e]) continue;
      for (const auto& [v, coefficient] : forms[e].terms()) {
        if (!unknowns.contains(v) || std::abs(coefficient) != 1) continue;
        var = v;
        k = coefficient;
        break;
      }
    }
    if (var == nullptr) break;
    --e;
    // k var + rest == 0: var == -k rest.
    LinearForm value = forms[e].Plus(LinearForm::Of(var, -k)).Times(-k);
    for (LinearForm& form : forms) form = form.Substituted(var, value);
    for (auto& [_, known] : solution.values) {
      known = known.Substituted(var, value);
    }
    solution.values.emplace(var, value);
    used[e] = true;
  }
  for (size_t e = 0; e < forms.size(); ++e) {
    if (!used[e] && !forms[e].is_zero()) {
      solution.failed = &equations[e];
      break;
    }
  }
  return solution;
}

// The binders inside the block: what a call outside it cannot see.
absl::flat_hash_set<Var> InnerBinders(absl::Span<Node* const> block) {
  absl::flat_hash_set<Var> inner;
  for (Node* stmt : block) {
    ir::Walk(*stmt, [&](Node& node) {
      if (node.is(Op::kFor) || node.is(Op::kAlloc) || node.is(Op::kLet)) {
        inner.insert(&node);
      }
    });
  }
  return inner;
}

// For each use of a window parameter of rank r on a buffer of rank R: which
// R - r dimensions of the buffer the window fixes. Enumerates the choices of
// every parameter, in order, until `try_one` accepts one.
using Kept = absl::flat_hash_map<const Node*, std::vector<bool>>;

bool NextChoice(std::vector<bool>& kept) {
  // The next subset of the same size, lexicographically after `kept` in
  // the order of std::prev_permutation (first kept dimensions first).
  return std::prev_permutation(kept.begin(), kept.end());
}

// The call's arguments, given the solution.
absl::StatusOr<std::vector<Node*>> BuildArgs(
    ir::Module& module, const Node& callee, const Unifier& unifier,
    const Kept& kept, const absl::flat_hash_map<Var, LinearForm>& values,
    const std::deque<std::vector<int>>& offsets,
    const absl::flat_hash_map<const Node*, size_t>& offset_of) {
  std::vector<Node*> args;
  for (Node* param : ir::ProcView(const_cast<Node&>(callee)).params()) {
    if (IsControlParam(*param)) {
      args.push_back(unifier.Build(module, values.at(param)));
      continue;
    }
    auto bound = unifier.buffers().find(param);
    const Node& buffer = *bound->second;
    if (Rank(*param) == 0) {
      args.push_back(Build::Ref(module, buffer));
      continue;
    }
    const std::vector<int>& slots = offsets[offset_of.at(param)];
    const std::vector<bool>& keep = kept.at(param);
    const ir::Type& type = param->declared_type();
    std::vector<Node*> selectors;
    size_t t = 0;
    for (size_t d = 0; d < keep.size(); ++d) {
      const LinearForm& lo = values.at(&slots[d]);
      if (!keep[d]) {
        selectors.push_back(unifier.Build(module, lo));
        continue;
      }
      const ir::Dim& dim = type.dims()[t++];
      std::optional<LinearForm> extent =
          dim.is_constant()
              ? LinearForm::Constant(dim.value)
              : LinearForm::From(
                    *dim.expr, [&](const Node& b) -> std::optional<LinearForm> {
                      auto it = values.find(&b);
                      if (it == values.end()) return std::nullopt;
                      return it->second;
                    });
      if (!extent) {
        return absl::FailedPreconditionError(
            absl::StrCat("the extent of '", param->name(), "' in ",
                         callee.name(), " is not linear in its parameters"));
      }
      selectors.push_back(
          Build::Interval(module, unifier.Build(module, lo),
                          unifier.Build(module, lo.Plus(*extent))));
    }
    if (type.kind() != ir::TypeKind::kWindow) {
      return absl::FailedPreconditionError(
          absl::StrCat("replace passes windows; '", param->name(), "' of ",
                       callee.name(), " is not a window parameter"));
    }
    args.push_back(Build::Window(module, buffer, selectors));
  }
  return args;
}

// Unifies and returns the call's arguments.
absl::StatusOr<std::vector<Node*>> Unify(ir::Module& module, const Node& callee,
                                         absl::Span<Node* const> block) {
  absl::flat_hash_set<Var> inner = InnerBinders(block);
  absl::flat_hash_set<const Node*> block_binders;
  for (Var binder : inner) {
    block_binders.insert(static_cast<const Node*>(binder));
  }
  Unifier unifier(callee, std::move(block_binders));
  if (absl::Status s = unifier.MatchBody(
          ir::ProcView(const_cast<Node&>(callee)).body(), block);
      !s.ok()) {
    return s;
  }
  absl::flat_hash_set<Var> unknowns;
  absl::flat_hash_set<Var> params;
  for (Node* param : ir::ProcView(const_cast<Node&>(callee)).params()) {
    if (IsControlParam(*param)) {
      unknowns.insert(param);
      params.insert(param);
    } else if (!unifier.buffers().contains(param)) {
      return absl::FailedPreconditionError(
          absl::StrCat("the block does not determine '", param->name(), "' of ",
                       callee.name()));
    }
  }
  // One unknown offset per dimension of each bound buffer.
  std::deque<std::vector<int>> offsets;
  absl::flat_hash_map<const Node*, size_t> offset_of;
  Kept kept;
  std::vector<const Node*> windows;
  for (const auto& [param, buffer] : unifier.buffers()) {
    if (Rank(*param) == 0) continue;
    windows.push_back(param);
  }
  std::sort(windows.begin(), windows.end(),
            [](const Node* a, const Node* b) { return a->id() < b->id(); });
  for (const Node* param : windows) {
    int rank = Rank(*unifier.buffers().at(param));
    offset_of[param] = offsets.size();
    offsets.emplace_back(rank);
    for (int& slot : offsets.back()) unknowns.insert(&slot);
    std::vector<bool> keep(rank, false);
    std::fill(keep.begin(), keep.begin() + Rank(*param), true);
    kept[param] = keep;
  }
  for (const auto& [param, buffer] : unifier.buffers()) {
    if (inner.contains(buffer)) {
      return absl::FailedPreconditionError(
          absl::StrCat("the block does not match the body of ", callee.name(),
                       ": '", param->name(), "' would stand for '",
                       buffer->name(), "', which the block allocates"));
    }
  }
  absl::Status last = absl::OkStatus();
  while (true) {
    std::vector<Equation> equations = unifier.equations();
    bool linear = true;
    for (const Use& use : unifier.uses()) {
      if (Rank(*use.param) == 0) continue;
      const std::vector<int>& slots = offsets[offset_of[use.param]];
      const std::vector<bool>& keep = kept[use.param];
      size_t t = 0;
      for (size_t d = 0; d < keep.size(); ++d) {
        LinearForm form = LinearForm::Of(&slots[d]);
        if (keep[d]) {
          auto index = unifier.CalleeForm(*use.callee_indices[t++]);
          if (!index) linear = false;
          if (index) form = form.Plus(*index);
        }
        auto block_index = unifier.BlockForm(*use.block_indices[d]);
        if (!block_index) linear = false;
        if (block_index) form = form.Plus(block_index->Times(-1));
        equations.push_back({form, use.callee, use.block});
      }
    }
    if (!linear) {
      return absl::FailedPreconditionError(
          "replace compares linear indices; an access of the block or the "
          "body is not linear");
    }
    Solution solution = Solve(equations, unknowns);
    if (solution.failed != nullptr) {
      last = absl::FailedPreconditionError(
          absl::StrCat("the block does not match the body of ", callee.name(),
                       ": '", Text(*solution.failed->block), "' cannot equal '",
                       Text(*solution.failed->callee), "' for any arguments"));
    } else {
      bool complete = true;
      for (Var unknown : unknowns) {
        auto it = solution.values.find(unknown);
        if (it == solution.values.end()) {
          complete = false;
          last = absl::FailedPreconditionError(absl::StrCat(
              "the block does not determine ",
              params.contains(unknown)
                  ? absl::StrCat("'", static_cast<const Node*>(unknown)->name(),
                                 "'")
                  : "the offsets of every window",
              " of ", callee.name()));
          break;
        }
        for (const auto& [var, k] : it->second.terms()) {
          if (!inner.contains(var) && !unknowns.contains(var)) continue;
          complete = false;
          last = absl::FailedPreconditionError(
              absl::StrCat("the block does not match the body of ",
                           callee.name(), ": an argument would depend on '",
                           static_cast<const Node*>(var)->name(),
                           "', which the block binds"));
        }
        if (!complete) break;
      }
      if (complete) {
        return BuildArgs(module, callee, unifier, kept, solution.values,
                         offsets, offset_of);
      }
    }
    // The next choice of fixed dimensions, as an odometer over windows.
    size_t w = 0;
    while (w < windows.size() && !NextChoice(kept[windows[w]])) ++w;
    if (w == windows.size()) return last;
  }
}

// Whether each buffer the call passes lives in its parameter's memory.
absl::Status CheckMemories(const Node& call, const Node& callee) {
  std::vector<Node*> params = ir::ProcView(const_cast<Node&>(callee)).params();
  for (size_t i = 0; i < params.size(); ++i) {
    if (!ir::IsDataParam(*params[i])) continue;
    const Node* arg = call.operand(i);
    const Node* buffer = arg->is(Op::kWindow)
                             ? ir::WindowView(const_cast<Node&>(*arg)).buffer()
                             : arg->def();
    auto memory = [](const Node* node) {
      return node->def() == nullptr ? std::string("@DRAM")
                                    : node->def()->name();
    };
    if (memory(buffer) != memory(params[i])) {
      return absl::FailedPreconditionError(
          absl::StrCat("'", buffer->name(), "' is in ", memory(buffer),
                       " but '", params[i]->name(), "' of ", callee.name(),
                       " is in ", memory(params[i])));
    }
  }
  return absl::OkStatus();
}

absl::Status DoReplace(ir::Module& module, const ir::BlockCursor& block_cursor,
                       const Node& subproc, bool memory_aware) {
  if (!block_cursor.is_valid()) return block_cursor.status();
  if (!ir::ProcView::Is(subproc)) {
    return absl::InvalidArgumentError(
        absl::StrCat("replace needs a proc or instr, not ", subproc.name()));
  }
  std::vector<Node*> block = block_cursor.statements();
  if (block.empty()) {
    return absl::InvalidArgumentError("replace needs a non-empty block");
  }
  auto args = Unify(module, subproc, block);
  if (!args.ok()) return args.status();
  Node* call = Build::Call(module, subproc, *args);
  if (memory_aware) {
    if (absl::Status s = CheckMemories(*call, subproc); !s.ok()) return s;
  }
  Node* proc = ir::FormOf(block.front());
  ir::BlockCursor replaced = block_cursor.Replace({call});
  // The verifier proves the callee's assertions at the call, each read of
  // the configuration seeing what the proc last wrote there.
  absl::Status status = ir::VerifyProc(module, *proc, kEditChecks);
  if (status.ok()) return status;
  // Rejected: the block goes back, as it was.
  replaced.Replace(block);
  if (absl::Status again = ir::VerifyProc(module, *proc, kEditChecks);
      !again.ok()) {
    return absl::InternalError(
        absl::StrCat("replace could not restore the block: ", again.message()));
  }
  return absl::FailedPreconditionError(
      absl::StrCat("the call of ", subproc.name(),
                   " that replaces the block is wrong: ", status.message()));
}

std::vector<ParamSpec> ReplaceParams() {
  return {{"block_cursor", ArgKind::kBlock, std::nullopt},
          {"subproc", ArgKind::kInstr, std::nullopt},
          {"quiet", ArgKind::kBool, "False"}};
}

}  // namespace

absl::Status Replace(ir::Module& module, const ir::BlockCursor& block_cursor,
                     const Node& subproc, bool /*quiet*/) {
  return DoReplace(module, block_cursor, subproc, false);
}

absl::Status CallSiteMemAwareReplace(ir::Module& module,
                                     const ir::BlockCursor& block_cursor,
                                     const Node& subproc, bool /*quiet*/) {
  return DoReplace(module, block_cursor, subproc, true);
}

PrimitiveSpec ReplaceSpec() {
  return {"replace", ReplaceParams(), [](Target& target, const Args& args) {
            return Replace(target.module, args["block_cursor"].block,
                           *args["subproc"].form, args["quiet"].bool_value);
          }};
}

PrimitiveSpec CallSiteMemAwareReplaceSpec() {
  return {"call_site_mem_aware_replace", ReplaceParams(),
          [](Target& target, const Args& args) {
            return CallSiteMemAwareReplace(
                target.module, args["block_cursor"].block,
                *args["subproc"].form, args["quiet"].bool_value);
          }};
}

}  // namespace tessel::primitives
