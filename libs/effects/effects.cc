// EffectsOf: the location sets of a block, by kind, from ProcModel's
// accesses; configuration fields as locations of their own.
#include "libs/effects/effects.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "libs/ir/cursor.h"
#include "libs/ir/edit.h"
#include "libs/ir/views.h"

namespace tessel::effects {
namespace {

using ir::Node;
using ir::Op;

// The location of a configuration field.
std::string ConfigLocation(const Node& config, const std::string& field) {
  return absl::StrCat(config.name(), ".", field);
}

// Collects the effects of the statements it is shown.
class Collector {
 public:
  explicit Collector(const poly::ProcModel& model) : model_(model) {
    isl::union_map empty = isl::union_map::empty(model.ctx());
    effects_.reads = effects_.writes = effects_.reduces = empty;
  }

  absl::Status Statement(Node& stmt) {
    absl::Status status;
    ir::Walk(stmt, [&](Node& node) {
      if (status.ok()) status = Visit(node);
    });
    return status;
  }

  // Only the control expressions of `stmt`, not its statements.
  absl::Status Control(Node& stmt) {
    absl::Status status;
    for (Node* operand : stmt.operands()) {
      if (ir::IsBodyStatement(*operand) || operand->is(Op::kThen) ||
          operand->is(Op::kElse)) {
        continue;
      }
      ir::Walk(*operand, [&](Node& node) {
        if (status.ok() && node.is(Op::kReadConfig)) status = Visit(node);
      });
    }
    return status;
  }

  // Only what the data expression `expr` reads.
  absl::Status Expression(Node& expr) {
    const Node& stmt = model_.StatementOf(expr);
    effects_.loops[absl::StrCat("S", stmt.id())] = LoopNames(stmt);
    if (absl::Status status = Add(model_.Reads(expr), effects_.reads);
        !status.ok()) {
      return status;
    }
    absl::Status status;
    ir::Walk(expr, [&](Node& node) {
      if (status.ok() && node.is(Op::kReadConfig)) status = Visit(node);
    });
    return status;
  }

  Effects Take() { return std::move(effects_); }

 private:
  absl::Status Visit(Node& node) {
    if (ir::IsBodyStatement(node)) {
      effects_.loops[absl::StrCat("S", node.id())] = LoopNames(node);
    }
    switch (node.op()) {
      case Op::kReduce: {
        // The target is reduced, not read; only the value is read.
        ir::ReduceView reduce(node);
        auto target = AtDomain(model_.Access(*reduce.lhs()), node);
        if (!target.ok()) return target.status();
        effects_.reduces = effects_.reduces.unite(isl::union_map(*target));
        return Add(model_.Reads(*reduce.rhs()), effects_.reads);
      }
      case Op::kAssign:
        if (absl::Status status = Add(model_.Writes(node), effects_.writes);
            !status.ok()) {
          return status;
        }
        return Add(model_.Reads(*ir::AssignView(node).rhs()), effects_.reads);
      case Op::kCall: {
        if (absl::Status status = CallAccesses(node); !status.ok()) {
          return status;
        }
        // The callee's configuration effects happen at the call.
        return CalleeConfigs(*CallView(node).callee(), node);
      }
      case Op::kWriteConfig: {
        ir::WriteConfigView write(node);
        return Config(*write.config(), write.field(), node, effects_.writes);
      }
      case Op::kReadConfig: {
        ir::ReadConfigView read(node);
        return Config(*read.config(), read.field(), model_.StatementOf(node),
                      effects_.reads);
      }
      case Op::kFor:
      case Op::kIf:
        // Their statements are visited on their own.
        return absl::OkStatus();
      default:
        // Any other statement (a vector transfer, a let): what it reads and
        // writes, whole.
        if (!ir::IsBodyStatement(node)) return absl::OkStatus();
        if (absl::Status status = Add(model_.Reads(node), effects_.reads);
            !status.ok()) {
          return status;
        }
        return Add(model_.Writes(node), effects_.writes);
    }
  }

  using CallView = ir::CallView;

  // What the callee's body does at the call; its whole windows where the
  // model cannot follow the body.
  absl::Status CallAccesses(const Node& call) {
    auto body = model_.CalleeAccesses(call);
    if (!body.ok()) return body.status();
    if (body->has_value()) {
      effects_.reads = effects_.reads.unite((*body)->reads);
      effects_.writes = effects_.writes.unite((*body)->writes);
      effects_.reduces = effects_.reduces.unite((*body)->reduces);
      return absl::OkStatus();
    }
    if (absl::Status status = Add(model_.Reads(call), effects_.reads);
        !status.ok()) {
      return status;
    }
    return Add(model_.Writes(call), effects_.writes);
  }

  absl::StatusOr<isl::map> AtDomain(absl::StatusOr<isl::map> map,
                                    const Node& stmt) {
    if (!map.ok()) return map;
    auto domain = model_.Domain(stmt);
    if (!domain.ok()) return domain.status();
    return map->intersect_domain(*domain);
  }

  static absl::Status Add(absl::StatusOr<isl::union_map> map,
                          isl::union_map& into) {
    if (!map.ok()) return map.status();
    into = into.unite(*map);
    return absl::OkStatus();
  }

  absl::Status Config(const Node& config, const std::string& field,
                      const Node& stmt, isl::union_map& into) {
    effects_.loops[absl::StrCat("S", stmt.id())] = LoopNames(stmt);
    auto domain = model_.Domain(stmt);
    if (!domain.ok()) return domain.status();
    // Not isl::id's constructor, which parses its text as isl syntax.
    std::string name = ConfigLocation(config, field);
    isl::set location = isl::manage(isl_set_set_tuple_id(
        isl::set::universe(isl::space::unit(domain->ctx()).add_unnamed_tuple(0))
            .release(),
        isl_id_alloc(domain->ctx().get(), name.c_str(), nullptr)));
    into = into.unite(isl::union_map(isl::manage(
        isl_map_from_domain_and_range(domain->copy(), location.release()))));
    return absl::OkStatus();
  }

  // Every configuration field `callee` (and what it calls) reads or
  // writes, at the instances of `call`: Exo's maybe-effects of a call.
  absl::Status CalleeConfigs(Node& callee, const Node& call) {
    absl::Status status;
    ir::Walk(callee, [&](Node& node) {
      if (!status.ok()) return;
      if (node.is(Op::kWriteConfig)) {
        ir::WriteConfigView write(node);
        status = Config(*write.config(), write.field(), call, effects_.writes);
      } else if (node.is(Op::kReadConfig)) {
        ir::ReadConfigView read(node);
        status = Config(*read.config(), read.field(), call, effects_.reads);
      } else if (node.is(Op::kCall) && &node != &call) {
        status = CalleeConfigs(*CallView(node).callee(), call);
      }
    });
    return status;
  }

  static std::vector<std::string> LoopNames(const Node& stmt) {
    std::vector<std::string> names;
    for (const Node* loop : LoopsAround(stmt)) names.push_back(loop->name());
    return names;
  }

  const poly::ProcModel& model_;
  Effects effects_;
};

}  // namespace

std::vector<const Node*> LoopsAround(const Node& node) {
  std::vector<const Node*> loops;
  for (const Node* at = node.parent(); at != nullptr; at = at->parent()) {
    if (at->is(Op::kFor)) loops.insert(loops.begin(), at);
  }
  return loops;
}

namespace {

// The names of the allocations declared inside `stmts` that name nothing
// else there (the model names a tensor space after its binder's name).
absl::flat_hash_set<std::string> LocalAllocs(absl::Span<Node* const> stmts) {
  absl::flat_hash_set<const Node*> locals;
  absl::flat_hash_set<std::string> names;
  for (Node* stmt : stmts) {
    ir::Walk(*stmt, [&](Node& node) {
      if (node.is(Op::kAlloc)) {
        locals.insert(&node);
        names.insert(node.name());
      }
    });
  }
  for (Node* stmt : stmts) {
    ir::Walk(*stmt, [&](Node& node) {
      if (node.is(Op::kRef) && node.def() != nullptr &&
          !locals.contains(node.def())) {
        names.erase(node.def()->name());
      }
    });
  }
  return names;
}

isl::union_map Without(const isl::union_map& map,
                       const absl::flat_hash_set<std::string>& names) {
  isl::union_map kept = isl::union_map::empty(map.ctx());
  map.foreach_map([&](isl::map m) {
    const char* name = isl_map_get_tuple_name(m.get(), isl_dim_out);
    if (name == nullptr || !names.contains(name)) kept = kept.unite(m);
  });
  return kept;
}

}  // namespace

absl::flat_hash_set<std::string> LocationNames(const isl::union_map& accesses) {
  absl::flat_hash_set<std::string> names;
  accesses.foreach_map([&](isl::map map) {
    if (const char* name = isl_map_get_tuple_name(map.get(), isl_dim_out)) {
      names.insert(name);
    }
  });
  return names;
}

absl::StatusOr<Effects> EffectsOf(const poly::ProcModel& model,
                                  absl::Span<Node* const> stmts) {
  Collector collector(model);
  for (Node* stmt : stmts) {
    if (absl::Status status = collector.Statement(*stmt); !status.ok()) {
      return status;
    }
  }
  Effects effects = collector.Take();
  absl::flat_hash_set<std::string> locals = LocalAllocs(stmts);
  if (!locals.empty()) {
    auto kept = poly::Ask<Effects>(model.ctx(), [&] {
      effects.reads = Without(effects.reads, locals);
      effects.writes = Without(effects.writes, locals);
      effects.reduces = Without(effects.reduces, locals);
      return effects;
    });
    if (!kept.ok()) return kept.status();
    effects = *std::move(kept);
  }
  return effects;
}

absl::StatusOr<Effects> ControlEffectsOf(const poly::ProcModel& model,
                                         Node& stmt) {
  Collector collector(model);
  if (absl::Status status = collector.Control(stmt); !status.ok()) {
    return status;
  }
  return collector.Take();
}

absl::StatusOr<Effects> ExpressionEffectsOf(const poly::ProcModel& model,
                                            Node& expr) {
  Collector collector(model);
  if (absl::Status status = collector.Expression(expr); !status.ok()) {
    return status;
  }
  return collector.Take();
}

ProcAnalysis::ProcAnalysis(const Node& proc)
    : ctx_(isl_ctx_alloc()),
      model_(std::make_unique<poly::ProcModel>(ctx_, proc)) {}

ProcAnalysis::~ProcAnalysis() {
  model_.reset();
  isl_ctx_free(ctx_.release());
}

}  // namespace tessel::effects
