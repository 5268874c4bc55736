// The polyhedral model: spaces, parameters, domains, and the questions
// about control expressions.
#include "libs/poly/model.h"

#include <algorithm>

#include "libs/ir/forms.h"
#include "libs/ir/syntax.h"
#include "libs/poly/model_nodes.h"
#include "libs/sexpr/printer.h"
#include "libs/support/source.h"

namespace tessel::poly {

using ir::Node;
using ir::Op;

std::string Text(const Node& node) { return PrintFlat(ir::WriteNode(node)); }

absl::Status NotAffine(const Node& expr) {
  return ErrorAt(expr.loc(),
                 absl::StrCat("'", Text(expr), "' is not quasi-affine"));
}

std::string TupleName(const Node& stmt) { return absl::StrCat("S", stmt.id()); }

bool IsControlParam(const Node& node) {
  return node.is(Op::kParam) && node.param_kind() < ir::ParamKind::kIn;
}

bool IsDataRoot(const Node& node) {
  return (node.is(Op::kParam) && node.param_kind() >= ir::ParamKind::kIn) ||
         node.is(Op::kAlloc) || node.is(Op::kLocal) || node.is(Op::kRecv);
}

const Node* RecvOf(const Node& node) {
  if (!node.is(Op::kTask) || node.num_operands() == 0) return nullptr;
  const Node* first = node.operand(0);
  return first->is(Op::kRecv) ? first : nullptr;
}

const Node& Unalias(const Node& view) {
  const Node* at = &view;
  while (true) {
    if (at->is(Op::kRef) && at->def() != nullptr) {
      at = at->def();
    } else if (at->is(Op::kLet) && at->num_operands() > 0) {
      at = at->operand(0);
    } else {
      return *at;
    }
  }
}

namespace {

isl::set Unnamed(isl::set set) {
  return isl::manage(isl_set_reset_tuple_id(set.release()));
}

}  // namespace

isl::pw_aff ConstantOn(const isl::pw_aff& like, int64_t value) {
  isl::space domain = isl::manage(isl_pw_aff_get_domain_space(like.get()));
  return isl::pw_aff(isl::aff::zero_on_domain(domain).add_constant(value));
}

isl::pw_aff DimOn(const isl::space& space, unsigned pos) {
  return isl::pw_aff(isl::manage(isl_aff_var_on_domain(
      isl_local_space_from_space(space.copy()), isl_dim_set, pos)));
}

ProcModel::ProcModel(isl::ctx ctx, const Node& proc) : ctx_(ctx), proc_(proc) {
  for (const Node* param : ir::ParamsOf(proc)) {
    if (!IsControlParam(*param)) continue;
    ir::ParamKind kind = param->param_kind();
    NewParam(param->name(), nullptr,
             kind == ir::ParamKind::kSize   ? Range::kPositive
             : kind == ir::ParamKind::kBool ? Range::kBool
                                            : Range::kAny);
  }
  control_params_ = params_.size();
  for (const Node* operand : proc.operands()) {
    if (operand->is(Op::kGrid)) grid_ = operand;
  }
}

const Node& ProcModel::StatementOf(const Node& node) const {
  const Node* at = &node;
  while (at->parent() != nullptr && at->info().op_class != ir::OpClass::kStmt) {
    // A recv's condition is about the instances of its task's call.
    if (at->is(Op::kRecv)) return *at->parent()->operands().back();
    at = at->parent();
  }
  return *at;
}

void ProcModel::BindConfigRead(const Node& read, ConfigValue value) {
  config_[&read] = value;
}

std::vector<const Node*> ProcModel::DimsAround(const Node& stmt) const {
  // Collected innermost first, then reversed: inserting at the front would
  // take time quadratic in the depth.
  std::vector<const Node*> dims;
  for (const Node* at = stmt.parent(); at != nullptr; at = at->parent()) {
    if (at->is(Op::kFor)) dims.push_back(at);
    if (const Node* recv = RecvOf(*at)) {
      std::vector<const Node*> indices;
      for (const Node* operand : recv->operands()) {
        if (operand->is(Op::kCoord)) indices.push_back(operand);
      }
      dims.insert(dims.end(), indices.rbegin(), indices.rend());
    }
  }
  if (grid_ != nullptr) {
    dims.insert(dims.end(), grid_->operands().rbegin(),
                grid_->operands().rend());
  }
  std::reverse(dims.begin(), dims.end());
  return dims;
}

isl::space ProcModel::DomainSpace(const Node& stmt) const {
  auto it = spaces_.find(&stmt);
  if (it != spaces_.end()) return it->second;
  isl::space space = isl::space::unit(ctx_);
  for (size_t i = 0; i < control_params_; ++i) {
    space = space.add_param(params_[i].id);
  }
  space = space.add_named_tuple(TupleName(stmt),
                                static_cast<unsigned>(DimsAround(stmt).size()));
  spaces_.emplace(&stmt, space);
  return space;
}

isl::space ProcModel::FrameSpace(const Frame& frame) const {
  isl::space space = DomainSpace(*frame.stmt);
  if (frame.extra == 0) return space;
  return isl::manage(isl_space_add_dims(space.release(), isl_dim_set,
                                        static_cast<unsigned>(frame.extra)));
}

isl::set ProcModel::Universe(const Frame& frame) const {
  return isl::set::universe(FrameSpace(frame));
}

isl::id ProcModel::NewParam(const std::string& name, const void* user,
                            Range range) const {
  isl::id id = isl::manage(
      isl_id_alloc(ctx_.get(), name.c_str(), const_cast<void*>(user)));
  param_index_.emplace(id.get(), params_.size());
  params_.push_back(Param{id, range});
  return id;
}

isl::set ProcModel::TypeConstraints(const isl::space& space) const {
  isl::set universe = isl::set::universe(space);
  isl::set constraints = universe;
  isl::pw_aff zero(isl::aff::zero_on_domain(space));
  isl_size count = isl_space_dim(space.get(), isl_dim_param);
  for (int pos = 0; pos < count; ++pos) {
    isl::id id =
        isl::manage(isl_space_get_dim_id(space.get(), isl_dim_param, pos));
    auto it = param_index_.find(id.get());
    if (it == param_index_.end()) continue;
    Range range = params_[it->second].range;
    if (range == Range::kAny) continue;
    isl::pw_aff value = isl::pw_aff::param_on_domain(universe, id);
    constraints = constraints.intersect(
        range == Range::kPositive
            ? value.gt_set(zero)
            : value.ge_set(zero).intersect(value.le_set(zero.add_constant(1))));
  }
  return constraints;
}

const Node& ProcModel::BlockOf(const Node& stmt) const {
  const Node* child = &stmt;
  for (const Node* at = stmt.parent(); at != nullptr;
       child = at, at = at->parent()) {
    if ((at->is(Op::kFor) && child->position() >= 2) || at->is(Op::kThen) ||
        at->is(Op::kElse) || at->is(Op::kTask) || at == &proc_) {
      return *at;
    }
  }
  return proc_;
}

absl::StatusOr<isl::set> ProcModel::BlockDomain(const Node& block) const {
  auto it = block_domains_.find(&block);
  if (it != block_domains_.end()) return it->second;
  isl::set domain;
  isl_size outer_params = -1;
  if (&block == &proc_) {
    Frame frame{&proc_};
    domain = Universe(frame);
    // A pe-program runs on every PE of its grid.
    isl::multi_aff identity =
        isl::multi_aff::identity_on_domain(domain.space());
    isl::pw_aff zero(isl::aff::zero_on_domain(domain.space()));
    std::vector<const Node*> coords = DimsAround(proc_);
    for (size_t i = 0; i < coords.size(); ++i) {
      isl::pw_aff coord(identity.at(static_cast<int>(i)));
      domain = domain.intersect(coord.ge_set(zero))
                   .intersect(
                       coord.lt_set(zero.add_constant(coords[i]->int_value())));
    }
    for (const Node* assertion : ir::AssertsOf(proc_)) {
      auto holds = EvalCondition(*assertion->operand(0), frame);
      if (!holds.ok()) return holds.status();
      domain = domain.intersect(*holds);
    }
    domain = Unnamed(domain);
  } else if (block.is(Op::kTask)) {
    auto task = TaskDomain(block);
    if (!task.ok()) return task;
    domain = *std::move(task);
  } else {
    // The domain of the block around, restricted by the loop's bounds (with
    // its variable as a new dimension) or by the branch's condition.
    const Node& stmt = block.is(Op::kFor) ? block : *block.parent();
    auto outer = BlockDomain(BlockOf(stmt));
    if (!outer.ok()) return outer;
    outer_params = isl_set_dim(outer->get(), isl_dim_param);
    Frame frame{&stmt};
    if (block.is(Op::kFor)) {
      auto lo = Eval(*block.operand(0), frame);
      if (!lo.ok()) return lo.status();
      auto hi = Eval(*block.operand(1), frame);
      if (!hi.ok()) return hi.status();
      unsigned loops = static_cast<unsigned>(DimsAround(block).size());
      auto inside = [&](isl::pw_aff bound) {
        return isl::manage(isl_pw_aff_add_dims(bound.release(), isl_dim_in, 1));
      };
      isl::set around =
          isl::manage(isl_set_add_dims(outer->copy(), isl_dim_set, 1));
      isl::pw_aff var = DimOn(around.space(), loops);
      domain = around.intersect(var.ge_set(inside(*lo)))
                   .intersect(var.lt_set(inside(*hi)));
    } else {
      auto holds = EvalCondition(*block.parent()->operand(0), frame);
      if (!holds.ok()) return holds.status();
      isl::set cond = Unnamed(*holds);
      domain =
          block.is(Op::kThen) ? outer->intersect(cond) : outer->subtract(cond);
    }
  }
  // What the types of its parameters guarantee, unless the block around
  // said it already.
  if (isl_set_dim(domain.get(), isl_dim_param) != outer_params) {
    domain = domain.intersect(TypeConstraints(domain.space()));
  }
  block_domains_.emplace(&block, domain);
  return domain;
}

absl::StatusOr<isl::set> ProcModel::TaskDomain(const Node& task) const {
  auto grid = BlockDomain(proc_);
  if (!grid.ok()) return grid;
  const Node* recv = RecvOf(task);
  if (recv == nullptr) return grid;
  // The indices of the element received are dimensions after the grid's,
  // bounded by the tensor it comes from and by the recv's condition.
  const Node& call = *task.operands().back();
  Frame frame{&call};
  isl::set received = Universe(frame);
  isl::multi_aff identity =
      isl::multi_aff::identity_on_domain(received.space());
  isl::pw_aff zero(isl::aff::zero_on_domain(received.space()));
  auto extents = ExtentsIn(*recv->operand(0), frame);
  if (!extents.ok()) return extents.status();
  size_t first = DimsAround(call).size() - extents->size();
  for (size_t k = 0; k < extents->size(); ++k) {
    isl::pw_aff index(identity.at(static_cast<int>(first + k)));
    received = received.intersect(index.ge_set(zero))
                   .intersect(index.lt_set((*extents)[k]));
  }
  const Node* cond = recv->operands().back();
  if (!cond->is(Op::kCoord) && cond != recv->operand(0)) {
    auto holds = EvalCondition(*cond, frame);
    if (!holds.ok()) return holds;
    received = received.intersect(*holds);
  }
  isl::set around = isl::manage(isl_set_add_dims(
      grid->copy(), isl_dim_set, static_cast<unsigned>(extents->size())));
  return around.intersect(Unnamed(received));
}

absl::StatusOr<isl::set> ProcModel::DomainOf(const Node& stmt) const {
  auto domain = BlockDomain(&stmt == &proc_ ? proc_ : BlockOf(stmt));
  if (!domain.ok()) return domain;
  return isl::manage(isl_set_set_tuple_id(
      domain->copy(), isl::id(ctx_, TupleName(stmt)).release()));
}

absl::StatusOr<isl::set> ProcModel::Context() const {
  return Guard<isl::set>([&]() -> absl::StatusOr<isl::set> {
    auto context = BlockDomain(proc_);
    if (!context.ok()) return context;
    return context->params();
  });
}

absl::StatusOr<isl::set> ProcModel::Domain(const Node& stmt) const {
  return Guard<isl::set>([&]() { return DomainOf(stmt); });
}

absl::StatusOr<bool> ProcModel::IsDead(const Node& stmt) const {
  return Guard<bool>([&]() -> absl::StatusOr<bool> {
    auto domain = DomainOf(stmt);
    if (!domain.ok()) return domain.status();
    return domain->is_empty();
  });
}

absl::StatusOr<isl::pw_aff> ProcModel::Affine(const Node& expr) const {
  return Affine(expr, StatementOf(expr));
}

absl::StatusOr<isl::pw_aff> ProcModel::Affine(const Node& expr,
                                              const Node& stmt) const {
  return Guard<isl::pw_aff>([&]() { return Eval(expr, Frame{&stmt}); });
}

absl::StatusOr<isl::set> ProcModel::Condition(const Node& cond) const {
  return Guard<isl::set>(
      [&]() { return EvalCondition(cond, Frame{&StatementOf(cond)}); });
}

absl::StatusOr<isl::pw_aff> ProcModel::Constant(int64_t value,
                                                const Node& stmt) const {
  return Guard<isl::pw_aff>([&]() {
    return isl::pw_aff(
        isl::aff::zero_on_domain(DomainSpace(stmt)).add_constant(value));
  });
}

absl::StatusOr<isl::pw_aff> ProcModel::AffineAtCall(const Node& expr,
                                                    const Node& call) const {
  return Guard<isl::pw_aff>([&]() {
    return Eval(expr, Frame{&call, 0, &call});
  });
}

absl::StatusOr<isl::set> ProcModel::ConditionAtCall(const Node& cond,
                                                    const Node& call) const {
  return Guard<isl::set>([&]() {
    return EvalCondition(cond, Frame{&call, 0, &call});
  });
}

}  // namespace tessel::poly
