// CalleeAccesses: a callee's accesses instantiated at a call, so that a
// call's effects are what its body does rather than its whole windows.
#include <optional>
#include <vector>

#include "libs/ir/cursor.h"
#include "libs/ir/views.h"
#include "libs/poly/model.h"
#include "libs/poly/model_nodes.h"

namespace tessel::poly {

using ir::Node;
using ir::Op;

absl::StatusOr<std::optional<ProcModel::CallAccesses>>
ProcModel::CalleeAccesses(const Node& call) const {
  using Result = std::optional<CallAccesses>;
  return Guard<Result>([&]() -> absl::StatusOr<Result> {
    auto domain = DomainOf(call);
    if (!domain.ok()) return domain.status();
    isl::union_map empty = isl::union_map::empty(ctx_);
    CallAccesses accesses{empty, empty, empty};
    std::vector<const Node*> loops;
    bool followed = true;
    for (const Node* stmt : ir::Body(*call.def())) {
      if (auto status = CollectCalleeAccesses(*stmt, call, loops, *domain,
                                              accesses, followed);
          !status.ok()) {
        return status;
      }
      if (!followed) return Result(std::nullopt);
    }
    // Back on the call's own instances.
    isl::id tuple = isl::manage(isl_set_get_tuple_id(domain->get()));
    for (isl::union_map* map :
         {&accesses.reads, &accesses.writes, &accesses.reduces}) {
      isl::union_map named = isl::union_map::empty(ctx_);
      map->foreach_map([&](isl::map m) {
        named = named.unite(isl::manage(
            isl_map_set_tuple_id(m.release(), isl_dim_in, tuple.copy())));
      });
      *map = named;
    }
    return Result(std::move(accesses));
  });
}

absl::Status ProcModel::CollectCalleeAccesses(
    const Node& stmt, const Node& call, std::vector<const Node*>& loops,
    const isl::set& where, CallAccesses& into, bool& followed) const {
  Frame frame{&call, loops.size(), &call, &loops};
  switch (stmt.op()) {
    case Op::kFor: {
      loops.push_back(&stmt);
      Frame inner{&call, loops.size(), &call, &loops};
      isl::set within =
          isl::manage(isl_set_add_dims(where.copy(), isl_dim_set, 1));
      auto lo = Eval(*stmt.operand(0), inner);
      if (!lo.ok()) return lo.status();
      auto hi = Eval(*stmt.operand(1), inner);
      if (!hi.ok()) return hi.status();
      isl::space space = FrameSpace(inner);
      isl::pw_aff var(isl::manage(isl_aff_var_on_domain(
          isl_local_space_from_space(space.release()), isl_dim_set,
          static_cast<unsigned>(DimsAround(call).size() + loops.size() - 1))));
      within = within.intersect(var.ge_set(*lo)).intersect(var.lt_set(*hi));
      for (const Node* inside : ir::ForView(const_cast<Node&>(stmt)).body()) {
        if (auto status = CollectCalleeAccesses(*inside, call, loops, within,
                                                into, followed);
            !status.ok() || !followed) {
          loops.pop_back();
          return status;
        }
      }
      loops.pop_back();
      return absl::OkStatus();
    }
    case Op::kIf: {
      ir::IfView view(const_cast<Node&>(stmt));
      auto holds = EvalCondition(*view.cond(), frame);
      if (!holds.ok()) return holds.status();
      for (bool then : {true, false}) {
        isl::set branch =
            then ? where.intersect(*holds) : where.subtract(*holds);
        for (const Node* inside : then ? view.then_body() : view.else_body()) {
          if (auto status = CollectCalleeAccesses(*inside, call, loops, branch,
                                                  into, followed);
              !status.ok() || !followed) {
            return status;
          }
        }
      }
      return absl::OkStatus();
    }
    case Op::kAssign:
    case Op::kReduce: {
      const Node& target = *stmt.operand(0);
      isl::union_map& written =
          stmt.is(Op::kReduce) ? into.reduces : into.writes;
      if (auto status = AddCalleeAccess(target, frame, where, written);
          !status.ok()) {
        return status;
      }
      absl::Status status;
      std::vector<const Node*> work = {stmt.operand(1)};
      while (!work.empty() && status.ok()) {
        const Node& node = *work.back();
        work.pop_back();
        if (node.is(Op::kLoad) || (node.is(Op::kRef) && node.def() != nullptr &&
                                   IsDataRoot(*node.def()) &&
                                   node.def()->declared_type().is_elem())) {
          status = AddCalleeAccess(node, frame, where, into.reads);
          continue;  // a load's indices are control
        }
        for (const Node* operand : node.operands()) work.push_back(operand);
      }
      return status;
    }
    case Op::kAlloc:
    case Op::kWriteConfig:
      // Its own storage; configuration effects are the caller's to track.
      return absl::OkStatus();
    default:
      followed = false;
      return absl::OkStatus();
  }
}

absl::Status ProcModel::AddCalleeAccess(const Node& access, const Frame& frame,
                                        const isl::set& where,
                                        isl::union_map& into) const {
  const Node& view = access.is(Op::kLoad) ? *access.operand(0) : access;
  std::vector<isl::pw_aff> indices;
  for (size_t i = 1; access.is(Op::kLoad) && i < access.num_operands(); ++i) {
    auto index = Eval(*access.operand(i), frame);
    if (!index.ok()) return index.status();
    indices.push_back(*index);
  }
  auto root = ThroughWindows(view, std::move(indices), frame);
  if (!root.ok()) return root.status();
  // The callee's own allocation.
  if (ir::IsInside(root->root, frame.call->def())) return absl::OkStatus();
  isl::map map = ToTensor(where, root->indices, root->root->name());
  map = isl::manage(
      isl_map_project_out(map.release(), isl_dim_in,
                          static_cast<unsigned>(DimsAround(*frame.stmt).size()),
                          static_cast<unsigned>(frame.extra)));
  into = into.unite(isl::union_map(map));
  return absl::OkStatus();
}

}  // namespace tessel::poly
