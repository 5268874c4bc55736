#include "libs/schedule/expr_build.h"

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "libs/ir/build.h"
#include "libs/ir/cursor.h"
#include "libs/ir/forms.h"
#include "libs/schedule/py_expr.h"
#include "libs/schedule/resolve.h"

namespace tessel::schedule {
namespace {

// The binders in scope at `scope`, innermost first.
std::vector<const ir::Node*> BindersInScope(const ir::Node& proc,
                                            const ir::Node* scope) {
  std::vector<const ir::Node*> binders;
  for (const ir::Node* stmt = scope; stmt != nullptr && stmt != &proc;) {
    const ir::Node* owner = stmt->parent();
    if (owner == nullptr) break;
    // Earlier allocs and lets of the same body, nearest first.
    for (size_t i = stmt->position(); i-- > 0;) {
      const ir::Node* before = owner->operand(i);
      if (before->is(ir::Op::kAlloc) || before->is(ir::Op::kLet)) {
        binders.push_back(before);
      }
    }
    // A branch's statements are the if's.
    if (owner->is(ir::Op::kThen) || owner->is(ir::Op::kElse)) {
      owner = owner->parent();
    }
    if (owner->is(ir::Op::kFor)) binders.push_back(owner);
    stmt = owner;
  }
  for (const ir::Node* param : ir::ParamsOf(proc)) binders.push_back(param);
  return binders;
}

class Builder {
 public:
  Builder(ir::Module& module, std::vector<const ir::Node*> binders)
      : module_(module), binders_(std::move(binders)) {}

  absl::StatusOr<ir::Node*> Build(const PyExpr& e) {
    using Kind = PyExpr::Kind;
    switch (e.kind) {
      case Kind::kHole:
        return Error(e, "'_' is a pattern's hole, not an expression");
      case Kind::kName: {
        absl::StatusOr<const ir::Node*> binder = Lookup(e);
        if (!binder.ok()) return binder.status();
        return ir::Build::Ref(module_, **binder);
      }
      case Kind::kInt:
        return ir::Build::Int(module_, e.int_value);
      case Kind::kFloat:
        return ir::Build::Float(module_, e.float_value);
      case Kind::kBinary: {
        absl::StatusOr<ir::Node*> a = Build(e.operands[0]);
        if (!a.ok()) return a;
        absl::StatusOr<ir::Node*> b = Build(e.operands[1]);
        if (!b.ok()) return b;
        return ir::Build::Binary(module_, e.op, *a, *b);
      }
      case Kind::kUnary: {
        absl::StatusOr<ir::Node*> a = Build(e.operands[0]);
        if (!a.ok()) return a;
        return ir::Build::Unary(module_, e.op, *a);
      }
      case Kind::kIndex: {
        absl::StatusOr<const ir::Node*> tensor = Lookup(e);
        if (!tensor.ok()) return tensor.status();
        std::vector<ir::Node*> selectors;
        bool window = false;
        for (const PyExpr& selector : e.operands) {
          absl::StatusOr<ir::Node*> built = BuildSelector(selector);
          if (!built.ok()) return built;
          window = window || (*built)->is(ir::Op::kInterval);
          selectors.push_back(*built);
        }
        return window ? ir::Build::Window(module_, **tensor, selectors)
                      : ir::Build::Load(module_, **tensor, selectors);
      }
      case Kind::kSlice:
        return Error(e, "a slice 'lo:hi' is only a window's selector");
      case Kind::kCall:
        return BuildCall(e);
      case Kind::kField: {
        absl::StatusOr<ir::Node*> config = ResolveForm(module_, e.name);
        if (!config.ok() || !(*config)->is(ir::Op::kConfig)) {
          return Error(e, absl::StrCat("'", e.name, "' is not a config"));
        }
        if (ir::FindField(**config, e.field) == nullptr) {
          return Error(e, absl::StrCat("config @", e.name, " has no field '",
                                       e.field, "'"));
        }
        return ir::Build::ReadConfig(module_, **config, e.field);
      }
    }
    return Error(e, "not an expression");
  }

 private:
  absl::Status Error(const PyExpr& e, absl::string_view message) const {
    return absl::InvalidArgumentError(
        absl::StrCat(message, " at column ", e.offset + 1));
  }

  absl::StatusOr<const ir::Node*> Lookup(const PyExpr& e) const {
    for (const ir::Node* binder : binders_) {
      if (binder->name() == e.name) return binder;
    }
    return Error(e, absl::StrCat("'", e.name, "' is not in scope"));
  }

  absl::StatusOr<ir::Node*> BuildSelector(const PyExpr& e) {
    if (e.kind != PyExpr::Kind::kSlice) return Build(e);
    absl::StatusOr<ir::Node*> lo = Build(e.operands[0]);
    if (!lo.ok()) return lo;
    absl::StatusOr<ir::Node*> hi = Build(e.operands[1]);
    if (!hi.ok()) return hi;
    return ir::Build::Interval(module_, *lo, *hi);
  }

  // stride(A, K), max(a, b), min(a, b), select(c, a, b).
  absl::StatusOr<ir::Node*> BuildCall(const PyExpr& e) {
    if (e.name == "stride") {
      if (e.operands.size() != 2 || e.operands[0].kind != PyExpr::Kind::kName ||
          e.operands[1].kind != PyExpr::Kind::kInt) {
        return Error(e, "stride takes a buffer and a dimension: stride(A, 0)");
      }
      absl::StatusOr<const ir::Node*> tensor = Lookup(e.operands[0]);
      if (!tensor.ok()) return tensor.status();
      return ir::Build::Stride(module_, **tensor, e.operands[1].int_value);
    }
    size_t arity = e.name == "select" ? 3 : 2;
    if ((e.name != "max" && e.name != "min" && e.name != "select") ||
        e.operands.size() != arity) {
      return Error(e, absl::StrCat("unknown function '", e.name,
                                   "' (stride, max, min, select)"));
    }
    std::vector<ir::Node*> args;
    for (const PyExpr& operand : e.operands) {
      absl::StatusOr<ir::Node*> arg = Build(operand);
      if (!arg.ok()) return arg;
      args.push_back(*arg);
    }
    if (e.name == "select") {
      return ir::Build::Select(module_, args[0], args[1], args[2]);
    }
    return ir::Build::Binary(module_,
                             e.name == "max" ? ir::Op::kMax : ir::Op::kMin,
                             args[0], args[1]);
  }

  ir::Module& module_;
  std::vector<const ir::Node*> binders_;
};

}  // namespace

absl::StatusOr<ir::Node*> BuildExprText(ir::Module& module,
                                        const ir::Node& proc,
                                        const ir::Node* scope,
                                        absl::string_view text) {
  absl::StatusOr<PyParser> parser = PyParser::Create(text);
  if (!parser.ok()) return parser.status();
  absl::StatusOr<PyExpr> expr = parser->ParseExpr();
  if (!expr.ok()) return expr.status();
  if (!parser->AtEnd()) return parser->Error("unexpected text");
  return Builder(module, BindersInScope(proc, scope)).Build(*expr);
}

}  // namespace tessel::schedule
