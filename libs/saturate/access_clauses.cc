#include "libs/saturate/access_clauses.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "libs/egraph/egraph.h"
#include "libs/ir/op.h"

namespace tessel::saturate {
namespace {

using egraph::ClassId;
using egraph::EGraph;
using egraph::Subst;
using egraph::VarId;
using egraph::rules::Binder;
using egraph::rules::Binding;
using egraph::rules::Call;
using egraph::rules::RuleScope;

bool IsVariable(const Sexpr& arg) {
  return arg.is_symbol() && absl::StartsWith(arg.text(), "?");
}

// An integer argument: a literal, or a ?variable bound to a class that
// holds an integer literal.
struct IntArg {
  std::optional<VarId> var;
  int64_t value = 0;

  std::optional<int64_t> Get(const TirAnalysis& analysis, const EGraph& g,
                             const Subst& s) const {
    if (!var) return value;
    return analysis.Get(g, s[*var]).integer;
  }
};

absl::StatusOr<IntArg> ReadInt(const Call& call, size_t i, RuleScope& scope) {
  const Sexpr& arg = call.args[i];
  if (arg.is_int()) return IntArg{std::nullopt, arg.int_value()};
  if (!IsVariable(arg)) {
    return scope.Error(
        arg.loc(),
        absl::StrCat("'", call.name, "' needs an integer or a ?variable here"));
  }
  auto var = scope.BoundVar(arg);
  if (!var.ok()) return var.status();
  return IntArg{*var, 0};
}

// A shape argument: a literal (shape N...), or a ?variable bound to a class
// that holds one.
struct ShapeArg {
  std::optional<VarId> var;
  std::vector<int64_t> extents;

  std::optional<std::vector<int64_t>> Get(const TirAnalysis& analysis,
                                          const EGraph& g,
                                          const Subst& s) const {
    if (!var) return extents;
    return analysis.ListOf(g, s[*var], ir::Op::kShape);
  }
};

absl::StatusOr<ShapeArg> ReadShape(const Call& call, size_t i,
                                   RuleScope& scope) {
  const Sexpr& arg = call.args[i];
  if (IsVariable(arg)) {
    auto var = scope.BoundVar(arg);
    if (!var.ok()) return var.status();
    return ShapeArg{*var, {}};
  }
  ShapeArg shape;
  bool literal = arg.is_list() && arg.is_form("shape");
  for (size_t k = 1; literal && k < arg.size(); ++k) {
    literal = arg[k].is_int() && arg[k].int_value() > 0;
    if (literal) shape.extents.push_back(arg[k].int_value());
  }
  if (!literal) {
    return scope.Error(arg.loc(),
                       absl::StrCat("'", call.name,
                                    "' needs a ?variable or (shape N...) with "
                                    "extents > 0 here"));
  }
  return shape;
}

// What the analysis knows of a class's shape: its extents, and for an
// access pattern how many are access dimensions. A literal (shape N...) has
// its extents as dimensions.
struct Shape {
  std::vector<int64_t> dims;
  int split = -1;  // not an access pattern

  bool is_access() const { return split >= 0; }
  int64_t rank() const { return static_cast<int64_t>(dims.size()); }
  std::vector<int64_t> access() const {
    return std::vector<int64_t>(dims.begin(), dims.begin() + split);
  }
  std::vector<int64_t> compute() const {
    return std::vector<int64_t>(dims.begin() + split, dims.end());
  }
};

std::optional<Shape> ShapeOf(const TirAnalysis& analysis, const EGraph& g,
                             ClassId id) {
  const std::optional<ir::Type>& type = analysis.Get(g, id).type;
  if (!type) {
    std::optional<std::vector<int64_t>> extents =
        analysis.ListOf(g, id, ir::Op::kShape);
    if (!extents) return std::nullopt;
    return Shape{*std::move(extents), -1};
  }
  if (type->is_elem()) return Shape{};
  if (!type->is_shaped()) return std::nullopt;
  std::optional<std::vector<int64_t>> dims = type->ConstantDims();
  if (!dims) return std::nullopt;
  int split = type->kind() == ir::TypeKind::kAccess ? type->split() : -1;
  return Shape{*std::move(dims), split};
}

// A call (NAME ?a N...) with `ints` integer arguments after ?a, and what it
// reads for one match.
struct ShapeCall {
  VarId pattern;
  std::vector<IntArg> ints;

  // ?a's shape and the integers' values, or nullopt if one is unknown.
  std::optional<std::pair<Shape, std::vector<int64_t>>> Eval(
      const TirAnalysis& analysis, const EGraph& g, const Subst& s) const {
    std::optional<Shape> shape = ShapeOf(analysis, g, s[pattern]);
    if (!shape) return std::nullopt;
    std::vector<int64_t> values;
    for (const IntArg& arg : ints) {
      std::optional<int64_t> value = arg.Get(analysis, g, s);
      if (!value) return std::nullopt;
      values.push_back(*value);
    }
    return std::make_pair(*std::move(shape), std::move(values));
  }
};

absl::StatusOr<ShapeCall> ReadShapeCall(const Call& call, size_t ints,
                                        RuleScope& scope) {
  if (auto status = scope.ExpectArgs(call, 1 + ints); !status.ok()) {
    return status;
  }
  auto pattern = scope.BoundVar(call.args[0]);
  if (!pattern.ok()) return pattern.status();
  ShapeCall read{*pattern, {}};
  for (size_t i = 1; i <= ints; ++i) {
    auto arg = ReadInt(call, i, scope);
    if (!arg.ok()) return arg.status();
    read.ints.push_back(*arg);
  }
  return read;
}

using ShapePredicate =
    std::function<bool(const Shape&, absl::Span<const int64_t>)>;
// The integers a let yields for a shape and integer arguments.
using ShapeFunction = std::function<std::vector<int64_t>(
    const Shape&, absl::Span<const int64_t>)>;

// How lets make their results: integer literals (of type index, as the
// verifier types the literal operands of access patterns) and literal
// shapes.
struct Literals {
  egraph::OpId integer;
  egraph::OpId shape;

  ClassId Integer(EGraph& g, int64_t value) const {
    return g.Add(integer, g.payloads().Int(value));
  }
  ClassId ShapeOf(EGraph& g, const std::vector<int64_t>& extents) const {
    std::vector<ClassId> items;
    for (int64_t extent : extents) items.push_back(Integer(g, extent));
    return g.Add(shape, egraph::PayloadTable::kNone, items);
  }
};

bool InRange(int64_t k, int64_t lo, int64_t hi) { return k >= lo && k < hi; }

void DefineShapeCondition(Binding& binding, const TirAnalysis* analysis,
                          std::string name, size_t ints, ShapePredicate holds) {
  binding.DefineCondition(
      std::move(name),
      [analysis, ints, holds = std::move(holds)](
          const Call& call,
          RuleScope& scope) -> absl::StatusOr<egraph::Condition> {
        auto read = ReadShapeCall(call, ints, scope);
        if (!read.ok()) return read.status();
        return [analysis, holds, read = *std::move(read)](EGraph& g, ClassId,
                                                          const Subst& s) {
          auto values = read.Eval(*analysis, g, s);
          return values && holds(values->first, values->second);
        };
      });
}

void DefineIntBinder(Binding& binding, const TirAnalysis* analysis,
                     Literals literals, std::string name, size_t ints,
                     ShapeFunction yields) {
  binding.DefineBinder(
      std::move(name),
      [analysis, literals, ints, yields = std::move(yields)](
          const Call& call, RuleScope& scope) -> absl::StatusOr<Binder> {
        auto read = ReadShapeCall(call, ints, scope);
        if (!read.ok()) return read.status();
        return
            [analysis, literals, yields, read = *std::move(read)](
                EGraph& g, ClassId, const Subst& s, std::vector<ClassId>* out) {
              auto values = read.Eval(*analysis, g, s);
              if (!values) return;
              for (int64_t value : yields(values->first, values->second)) {
                out->push_back(literals.Integer(g, value));
              }
            };
      });
}

// (access-shape ?a) and (compute-shape ?a).
void DefineShapeBinder(Binding& binding, const TirAnalysis* analysis,
                       Literals literals, std::string name,
                       std::vector<int64_t> (Shape::*part)() const) {
  binding.DefineBinder(
      std::move(name),
      [analysis, literals, part](const Call& call,
                                 RuleScope& scope) -> absl::StatusOr<Binder> {
        auto read = ReadShapeCall(call, 0, scope);
        if (!read.ok()) return read.status();
        return
            [analysis, literals, part, read = *std::move(read)](
                EGraph& g, ClassId, const Subst& s, std::vector<ClassId>* out) {
              auto values = read.Eval(*analysis, g, s);
              if (!values || !values->first.is_access()) return;
              out->push_back(literals.ShapeOf(g, (values->first.*part)()));
            };
      });
}

void DefineConditions(Binding& binding, const TirAnalysis* analysis,
                      TirEncoding* encoding) {
  DefineShapeCondition(
      binding, analysis, "access-pattern", 0,
      [](const Shape& a, absl::Span<const int64_t>) { return a.is_access(); });
  DefineShapeCondition(binding, analysis, "access-rank", 1,
                       [](const Shape& a, absl::Span<const int64_t> n) {
                         return a.is_access() && a.split == n[0];
                       });
  DefineShapeCondition(binding, analysis, "rank-above", 1,
                       [](const Shape& a, absl::Span<const int64_t> n) {
                         return a.rank() > n[0];
                       });
  DefineShapeCondition(binding, analysis, "dim-at-most", 2,
                       [](const Shape& a, absl::Span<const int64_t> kn) {
                         return InRange(kn[0], 0, a.rank()) &&
                                a.dims[kn[0]] <= kn[1];
                       });
  DefineShapeCondition(binding, analysis, "access-dim", 1,
                       [](const Shape& a, absl::Span<const int64_t> d) {
                         return a.is_access() && InRange(d[0], 0, a.split);
                       });
  DefineShapeCondition(binding, analysis, "compute-dim", 1,
                       [](const Shape& a, absl::Span<const int64_t> d) {
                         return a.is_access() &&
                                InRange(d[0], a.split, a.rank());
                       });
  DefineShapeCondition(binding, analysis, "summed-dim", 1,
                       [](const Shape& a, absl::Span<const int64_t> d) {
                         return a.is_access() &&
                                InRange(d[0], a.split + 1, a.rank());
                       });

  binding.DefineCondition(
      "operand-of",
      [encoding](const Call& call,
                 RuleScope& scope) -> absl::StatusOr<egraph::Condition> {
        if (call.args.size() != 2 && call.args.size() != 3) {
          return scope.Error(call.loc,
                             "'operand-of' takes ?a, an op and optionally "
                             "an operand position");
        }
        auto a = scope.BoundVar(call.args[0]);
        if (!a.ok()) return a.status();
        const Sexpr& head = call.args[1];
        std::optional<egraph::OpId> op;
        if (head.is_symbol() && !IsVariable(head)) {
          op = encoding->OpNamed(head.text());
        }
        if (!op) {
          return scope.Error(head.loc(), "'operand-of' needs an op name here");
        }
        std::optional<size_t> position;
        if (call.args.size() == 3) {
          if (!call.args[2].is_int() || call.args[2].int_value() < 0) {
            return scope.Error(call.args[2].loc(),
                               "'operand-of' needs an operand position here");
          }
          position = call.args[2].int_value();
        }
        return
            [a = *a, op = *op, position](EGraph& g, ClassId, const Subst& s) {
              ClassId id = g.Find(s[a]);
              for (egraph::NodeId n : g.Parents(id)) {
                if (!g.InClass(n)) continue;
                egraph::ENodeRef node = g.Node(n);
                if (node.op != op) continue;
                for (size_t i = 0; i < node.children.size(); ++i) {
                  if ((!position || i == *position) &&
                      g.Find(node.children[i]) == id) {
                    return true;
                  }
                }
              }
              return false;
            };
      });
  binding.DefineCondition(
      "same-compute-shape",
      [analysis](const Call& call,
                 RuleScope& scope) -> absl::StatusOr<egraph::Condition> {
        if (auto status = scope.ExpectArgs(call, 2); !status.ok()) {
          return status;
        }
        auto a = scope.BoundVar(call.args[0]);
        if (!a.ok()) return a.status();
        auto b = scope.BoundVar(call.args[1]);
        if (!b.ok()) return b.status();
        return [analysis, a = *a, b = *b](EGraph& g, ClassId, const Subst& s) {
          std::optional<Shape> x = ShapeOf(*analysis, g, s[a]);
          std::optional<Shape> y = ShapeOf(*analysis, g, s[b]);
          return x && y && x->is_access() && y->is_access() &&
                 x->compute() == y->compute();
        };
      });
  binding.DefineCondition(
      "has-shape",
      [analysis](const Call& call,
                 RuleScope& scope) -> absl::StatusOr<egraph::Condition> {
        if (auto status = scope.ExpectArgs(call, 3); !status.ok()) {
          return status;
        }
        auto a = scope.BoundVar(call.args[0]);
        if (!a.ok()) return a.status();
        auto access = ReadShape(call, 1, scope);
        if (!access.ok()) return access.status();
        auto compute = ReadShape(call, 2, scope);
        if (!compute.ok()) return compute.status();
        return [analysis, a = *a, access = *access, compute = *compute](
                   EGraph& g, ClassId, const Subst& s) {
          std::optional<Shape> x = ShapeOf(*analysis, g, s[a]);
          return x && x->is_access() &&
                 access.Get(*analysis, g, s) == x->access() &&
                 compute.Get(*analysis, g, s) == x->compute();
        };
      });
}

void DefineBinders(Binding& binding, const TirAnalysis* analysis,
                   Literals literals) {
  DefineIntBinder(binding, analysis, literals, "dim", 1,
                  [](const Shape& a, absl::Span<const int64_t> k) {
                    if (!InRange(k[0], 0, a.rank())) {
                      return std::vector<int64_t>{};
                    }
                    return std::vector<int64_t>{a.dims[k[0]]};
                  });
  DefineIntBinder(binding, analysis, literals, "access-rank", 0,
                  [](const Shape& a, absl::Span<const int64_t>) {
                    if (!a.is_access()) return std::vector<int64_t>{};
                    return std::vector<int64_t>{a.split};
                  });
  DefineIntBinder(
      binding, analysis, literals, "split-point", 2,
      [](const Shape& a, absl::Span<const int64_t> dn) {
        int64_t d = dn[0];
        int64_t n = dn[1];
        if (!InRange(d, 0, a.rank()) || n <= 0 || a.dims[d] <= n) {
          return std::vector<int64_t>{};
        }
        // n * ceil(extent / 2n): strictly inside the extent when it is > n.
        return std::vector<int64_t>{n * ((a.dims[d] + 2 * n - 1) / (2 * n))};
      });
  DefineShapeBinder(binding, analysis, literals, "access-shape",
                    &Shape::access);
  DefineShapeBinder(binding, analysis, literals, "compute-shape",
                    &Shape::compute);

  binding.DefineBinder(
      "sum",
      [analysis, literals](const Call& call,
                           RuleScope& scope) -> absl::StatusOr<Binder> {
        std::vector<IntArg> terms;
        for (size_t i = 0; i < call.args.size(); ++i) {
          auto term = ReadInt(call, i, scope);
          if (!term.ok()) return term.status();
          terms.push_back(*term);
        }
        return [analysis, literals, terms](EGraph& g, ClassId, const Subst& s,
                                           std::vector<ClassId>* out) {
          int64_t sum = 0;
          for (const IntArg& term : terms) {
            std::optional<int64_t> value = term.Get(*analysis, g, s);
            if (!value || __builtin_add_overflow(sum, *value, &sum)) return;
          }
          out->push_back(literals.Integer(g, sum));
        };
      });
  binding.DefineBinder(
      "shape-concat",
      [analysis, literals](const Call& call,
                           RuleScope& scope) -> absl::StatusOr<Binder> {
        std::vector<ShapeArg> parts;
        for (size_t i = 0; i < call.args.size(); ++i) {
          auto part = ReadShape(call, i, scope);
          if (!part.ok()) return part.status();
          parts.push_back(*std::move(part));
        }
        return [analysis, literals, parts](EGraph& g, ClassId, const Subst& s,
                                           std::vector<ClassId>* out) {
          std::vector<int64_t> extents;
          for (const ShapeArg& part : parts) {
            auto value = part.Get(*analysis, g, s);
            if (!value) return;
            extents.insert(extents.end(), value->begin(), value->end());
          }
          out->push_back(literals.ShapeOf(g, extents));
        };
      });
}

}  // namespace

void DefineAccessClauses(Binding& binding, TirEncoding* encoding,
                         const TirAnalysis* analysis) {
  Literals literals{encoding->LiteralOp(ir::Type::Control(ControlType::kIndex)),
                    *encoding->OpNamed("shape")};
  DefineConditions(binding, analysis, encoding);
  DefineBinders(binding, analysis, literals);
}

}  // namespace tessel::saturate
