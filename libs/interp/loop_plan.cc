#include "libs/interp/loop_plan.h"

#include <algorithm>
#include <memory>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/types/span.h"
#include "libs/interp/column_ops.h"

namespace tessel {
namespace loop {
namespace {

using Slots = absl::flat_hash_set<int32_t>;

bool IsVector(const Expr& e) {
  return e.op >= ExprOp::kVectorVar || e.op == ExprOp::kReduction ||
         e.op == ExprOp::kExtractLane;
}

bool HasVector(const Expr& e) {
  if (IsVector(e)) return true;
  return std::any_of(e.args.begin(), e.args.end(), HasVector);
}

bool UsesVariable(const Expr& e, const Slots& vars) {
  if (e.op == ExprOp::kControlVar) return vars.contains(e.slot);
  return std::any_of(e.args.begin(), e.args.end(),
                     [&](const Expr& arg) { return UsesVariable(arg, vars); });
}

bool SameExpr(const Expr& a, const Expr& b) {
  if (a.op != b.op || a.value != b.value || a.slot != b.slot ||
      a.compare != b.compare || a.args.size() != b.args.size()) {
    return false;
  }
  for (size_t i = 0; i < a.args.size(); ++i) {
    if (!SameExpr(a.args[i], b.args[i])) return false;
  }
  return true;
}

bool SameIndices(absl::Span<const Expr> a, absl::Span<const Expr> b) {
  if (a.size() != b.size()) return false;
  for (size_t k = 0; k < a.size(); ++k) {
    if (!SameExpr(a[k], b[k])) return false;
  }
  return true;
}

// The region variable `e` is c * v + u of (c nonzero, u free of region
// variables), or -1.
int32_t LinearVariable(const Expr& e, const Slots& vars) {
  switch (e.op) {
    case ExprOp::kControlVar:
      return vars.contains(e.slot) ? e.slot : -1;
    case ExprOp::kNegIndex:
      return LinearVariable(e.args[0], vars);
    case ExprOp::kAddIndex:
    case ExprOp::kSubIndex: {
      const bool left = UsesVariable(e.args[0], vars);
      const bool right = UsesVariable(e.args[1], vars);
      if (left == right) return -1;
      return LinearVariable(e.args[left ? 0 : 1], vars);
    }
    case ExprOp::kMulIndex: {
      const int constant = e.args[0].op == ExprOp::kIntConst ? 0 : 1;
      if (e.args[constant].op != ExprOp::kIntConst ||
          e.args[constant].value == 0) {
        return -1;
      }
      return LinearVariable(e.args[1 - constant], vars);
    }
    default:
      return -1;
  }
}

// Whether distinct iterations of the region always give distinct index
// tuples: every variable of it is alone, linearly, in some index.
bool OneToOne(absl::Span<const Expr> indices, const Slots& vars) {
  Slots covered;
  for (const Expr& index : indices) {
    const int32_t var = LinearVariable(index, vars);
    if (var >= 0) covered.insert(var);
  }
  return covered.size() == vars.size();
}

// An element access of a region's body.
struct Access {
  int32_t slot = -1;
  absl::Span<const Expr> indices;
  const Stmt* stmt = nullptr;
  bool write = false;
};

// The target's position in the value of an assignment (OP TARGET X) or
// (OP X TARGET), TARGET reading the element assigned, or -1.
int8_t AccumulatedOperand(const Stmt& stmt) {
  if (stmt.op != StmtOp::kAssign) return -1;
  const Expr& value = stmt.exprs.back();
  if (value.op != ExprOp::kArith) return -1;
  const absl::Span<const Expr> target(stmt.exprs.data(),
                                      stmt.exprs.size() - 1);
  for (int8_t k = 0; k < 2; ++k) {
    const Expr& operand = value.args[k];
    if (operand.op == ExprOp::kLoad && operand.slot == stmt.slot &&
        SameIndices(operand.args, target)) {
      return k;
    }
  }
  return -1;
}

void Loads(const Expr& e, const Stmt& stmt, std::vector<Access>& out) {
  if (e.op == ExprOp::kLoad) {
    out.push_back(Access{e.slot, e.args, &stmt, false});
  }
  for (const Expr& arg : e.args) Loads(arg, stmt, out);
}

// The accesses of a region's body, or false when it holds anything but
// assignments, reductions and ifs of them, or vectors.
bool BodyAccesses(const std::vector<Stmt>& block, std::vector<Access>& out) {
  for (const Stmt& stmt : block) {
    switch (stmt.op) {
      case StmtOp::kIf:
        if (HasVector(stmt.exprs[0])) return false;
        Loads(stmt.exprs[0], stmt, out);
        if (!BodyAccesses(stmt.body, out) || !BodyAccesses(stmt.orelse, out)) {
          return false;
        }
        break;
      case StmtOp::kAssign:
      case StmtOp::kReduce: {
        for (const Expr& e : stmt.exprs) {
          if (HasVector(e)) return false;
        }
        const absl::Span<const Expr> target(stmt.exprs.data(),
                                            stmt.exprs.size() - 1);
        out.push_back(Access{stmt.slot, target, &stmt, true});
        const int8_t accumulated = AccumulatedOperand(stmt);
        const Expr& value = stmt.exprs.back();
        if (accumulated >= 0) {
          // The target's own read is part of its update.
          Loads(value.args[1 - accumulated], stmt, out);
        } else {
          Loads(value, stmt, out);
        }
        break;
      }
      default:
        return false;
    }
  }
  return true;
}

// Whether the accesses allow a batch (loop_plan.h, "Regions").
bool BatchesAlike(const std::vector<Access>& accesses, const Slots& vars) {
  absl::flat_hash_map<int32_t, std::vector<const Access*>> by_view;
  for (const Access& access : accesses) {
    by_view[access.slot].push_back(&access);
  }
  for (const auto& [slot, list] : by_view) {
    int writes = 0;
    for (const Access* access : list) writes += access->write;
    if (writes == 0) continue;
    if (list.size() == 1) continue;  // one statement's update alone
    const Access& first = *list.front();
    if (!OneToOne(first.indices, vars)) return false;
    for (const Access* access : list) {
      if (!SameIndices(access->indices, first.indices)) return false;
    }
  }
  return true;
}

// The coefficients of `e` for each of the `count` variables of `region`
// when it is a weighted sum of them plus what does not vary; else empty.
std::vector<int64_t> AffineCoefficients(const Expr& e, const Region& region) {
  const size_t count = region.loops.size();
  if (!e.varying) return std::vector<int64_t>(count, 0);
  switch (e.op) {
    case ExprOp::kControlVar: {
      std::vector<int64_t> unit(count, 0);
      unit[e.value] = 1;
      return unit;
    }
    case ExprOp::kNegIndex:
    case ExprOp::kMulIndex: {
      const bool negate = e.op == ExprOp::kNegIndex;
      const Expr* factor = negate ? nullptr
                           : e.args[0].op == ExprOp::kIntConst ? &e.args[0]
                           : e.args[1].op == ExprOp::kIntConst ? &e.args[1]
                                                               : nullptr;
      if (!negate && factor == nullptr) return {};
      const Expr& term = negate || factor == &e.args[1] ? e.args[0] : e.args[1];
      std::vector<int64_t> coefficients = AffineCoefficients(term, region);
      for (int64_t& c : coefficients) {
        if (__builtin_mul_overflow(c, negate ? -1 : factor->value, &c)) {
          return {};
        }
      }
      return coefficients;
    }
    case ExprOp::kAddIndex:
    case ExprOp::kSubIndex: {
      std::vector<int64_t> a = AffineCoefficients(e.args[0], region);
      const std::vector<int64_t> b = AffineCoefficients(e.args[1], region);
      if (a.empty() || b.empty()) return {};
      for (size_t k = 0; k < count; ++k) {
        if (e.op == ExprOp::kAddIndex ? __builtin_add_overflow(a[k], b[k], &a[k])
                                      : __builtin_sub_overflow(a[k], b[k], &a[k])) {
          return {};
        }
      }
      return a;
    }
    default:
      return {};
  }
}

// The coefficients of the varying indices of the element accesses in `e`.
void AffineIndices(absl::Span<Expr> indices, const Region& region) {
  for (Expr& index : indices) {
    if (index.varying) index.affine = AffineCoefficients(index, region);
  }
}

void AffineAccesses(Expr& e, const Region& region) {
  if (e.op == ExprOp::kLoad) AffineIndices(absl::MakeSpan(e.args), region);
  for (Expr& arg : e.args) AffineAccesses(arg, region);
}

void MarkAccumulations(std::vector<Stmt>& block) {
  for (Stmt& stmt : block) {
    if (stmt.op == StmtOp::kIf) {
      MarkAccumulations(stmt.body);
      MarkAccumulations(stmt.orelse);
    } else {
      stmt.accumulates = AccumulatedOperand(stmt);
    }
  }
}

// The lanes a vector expression has.
int VectorLanes(const Expr& e) {
  int64_t lanes = 1;
  for (int64_t extent : e.shape) lanes *= extent;
  return static_cast<int>(lanes);
}

}  // namespace

int32_t Planner::NewColumn(int lanes) {
  const int32_t column = words_;
  words_ += lanes;
  return column;
}

void Planner::Columns(Expr& e, int lanes) {
  const bool vector = e.op >= ExprOp::kVectorVar;
  const int own = vector ? VectorLanes(e) : lanes;
  // A vector's scalar operands (a broadcast value, a transfer's indices and
  // pad) are single values; its vector operands have their own lanes.
  for (Expr& arg : e.args) Columns(arg, vector ? 1 : lanes);
  if (region_ != nullptr && e.op == ExprOp::kControlVar) {
    for (size_t k = 0; k < region_->loops.size(); ++k) {
      if (region_->loops[k]->slot == e.slot) {
        e.column = region_->var_columns[k];
        e.varying = true;
        e.value = static_cast<int64_t>(k);
        return;
      }
    }
  }
  e.column = NewColumn(own);
  e.lanes = own;
  if (e.op == ExprOp::kIntConst || e.op == ExprOp::kDataConst) {
    proc_.constants.emplace_back(&e, own);
    return;
  }
  e.varying = region_ != nullptr &&
              std::any_of(e.args.begin(), e.args.end(),
                          [](const Expr& arg) { return arg.varying; });
}

void Planner::Window(WindowRef& ref) {
  for (Selector& selector : ref.selectors) {
    Columns(selector.lo, 1);
    if (!selector.point) Columns(selector.hi, 1);
  }
  if (ref.is_descriptor) Columns(ref.offset, 1);
}

void Planner::RegionColumns(std::vector<Stmt>& body) {
  for (Stmt& stmt : body) {
    for (Expr& e : stmt.exprs) {
      Columns(e, kBatchLanes);
      AffineAccesses(e, *region_);
    }
    if (stmt.op != StmtOp::kIf) {
      // The target's indices.
      AffineIndices(absl::MakeSpan(stmt.exprs).first(stmt.exprs.size() - 1),
                    *region_);
    }
    RegionColumns(stmt.body);
    RegionColumns(stmt.orelse);
  }
}

bool Planner::TryRegion(Stmt& loop) {
  std::vector<Stmt*> nest = {&loop};
  while (nest.back()->body.size() == 1 &&
         nest.back()->body[0].op == StmtOp::kFor) {
    nest.push_back(&nest.back()->body[0]);
  }
  Slots vars;
  for (const Stmt* stmt : nest) vars.insert(stmt->slot);
  for (size_t k = 1; k < nest.size(); ++k) {
    if (UsesVariable(nest[k]->exprs[0], vars) ||
        UsesVariable(nest[k]->exprs[1], vars)) {
      return false;
    }
  }
  std::vector<Stmt>& body = nest.back()->body;
  std::vector<Access> accesses;
  if (!BodyAccesses(body, accesses) || !BatchesAlike(accesses, vars)) {
    return false;
  }
  auto region = std::make_unique<Region>();
  region->index = proc_.regions++;
  for (Stmt* stmt : nest) {
    for (Expr& bound : stmt->exprs) Columns(bound, 1);
    stmt->var_column = NewColumn(kBatchLanes);
    stmt->region_index = region->index;
    region->loops.push_back(stmt);
    region->var_columns.push_back(stmt->var_column);
  }
  for (const Access& access : accesses) {
    auto it = std::find(region->views.begin(), region->views.end(),
                        access.slot);
    if (it == region->views.end()) {
      region->views.push_back(access.slot);
      region->written.push_back(access.write);
    } else {
      region->written[it - region->views.begin()] =
          region->written[it - region->views.begin()] || access.write;
    }
  }
  MarkAccumulations(body);
  region_ = region.get();
  RegionColumns(body);
  region_ = nullptr;
  loop.region = std::move(region);
  return true;
}

void Planner::Statement(Stmt& stmt) {
  if (stmt.op == StmtOp::kFor && TryRegion(stmt)) return;
  for (Expr& e : stmt.exprs) Columns(e, 1);
  if (stmt.op == StmtOp::kLet) Window(stmt.window);
  for (CallArg& arg : stmt.args) {
    if (arg.is_data) {
      Window(arg.window);
    } else {
      Columns(arg.control, 1);
    }
  }
  Block(stmt.body);
  Block(stmt.orelse);
}

void Planner::Block(std::vector<Stmt>& block) {
  for (Stmt& stmt : block) Statement(stmt);
}

void Planner::PlanProc() {
  for (CompiledParam& param : proc_.params) {
    for (Expr& dim : param.dims) Columns(dim, 1);
  }
  for (Expr& assertion : proc_.asserts) Columns(assertion, 1);
  Block(proc_.body);
}

void PlanLoopProgram(LoopProgram& program) {
  for (size_t i = 0; i < program.procs.size(); ++i) {
    CompiledProc& proc = *program.procs[i];
    proc.index = static_cast<int32_t>(i);
    Planner planner(proc);
    planner.PlanProc();
    planner.Finish();
  }
}

}  // namespace loop
}  // namespace tessel
