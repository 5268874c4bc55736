#include "libs/primitives/stage_mem.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "isl/cpp.h"
#include "libs/ir/build.h"
#include "libs/ir/edit.h"
#include "libs/ir/syntax.h"
#include "libs/ir/types.h"
#include "libs/ir/views.h"
#include "libs/primitives/buffer_uses.h"
#include "libs/poly/model.h"
#include "libs/poly/poly.h"
#include "libs/primitives/linear_form.h"
#include "libs/primitives/write_support.h"
#include "libs/sexpr/printer.h"

namespace tessel::primitives {
namespace {

using ir::Build;
using ir::Node;
using ir::Op;

std::string Text(const Node& node) { return PrintFlat(ir::WriteNode(node)); }

// A selector of the staged window: the point `lo`, or the interval
// [lo, hi).
struct Selector {
  Node* lo;
  Node* hi = nullptr;
  bool is_point() const { return hi == nullptr; }
};

// The staged window: its buffer and one selector per dimension.
struct Window {
  Node* buffer;
  std::vector<Selector> selectors;
};

// An access of the staged buffer inside the block: an element read or
// written (a Load), or a window passed to a call.
struct Access {
  Node* node;
  bool reads = false;
  bool writes = false;
  bool reduces = false;  // a reduce's place: it reads and writes
};

absl::StatusOr<Window> ParseWindow(const Node& win_expr) {
  Window window{nullptr, {}};
  if (win_expr.is(Op::kLoad)) {
    ir::LoadView load(const_cast<Node&>(win_expr));
    window.buffer = load.buffer();
    for (Node* index : load.indices()) window.selectors.push_back({index});
  } else if (win_expr.is(Op::kWindow)) {
    if (!ir::WindowView::IsBox(win_expr)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "stage_mem stages a box of a tensor; '", Text(win_expr),
          "' has a step, a split or a permutation"));
    }
    ir::WindowView view(const_cast<Node&>(win_expr));
    window.buffer = view.buffer();
    for (Node* sel : view.selectors()) {
      if (sel->is(Op::kInterval)) {
        ir::IntervalView interval(*sel);
        window.selectors.push_back({interval.lo(), interval.hi()});
      } else {
        window.selectors.push_back({sel});
      }
    }
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("stage_mem expects a window such as A[i, 0:16], not '",
                     Text(win_expr), "'"));
  }
  if (window.buffer == nullptr || !IsStageable(*window.buffer)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "stage_mem stages a window of a tensor parameter or alloc; '",
        Text(win_expr), "' is not one"));
  }
  return window;
}

// Whether `node` names a window (through lets) of `buffer`.
bool ViewsOf(const Node* node, const Node* buffer) {
  while (node != nullptr && node->is(Op::kLet)) {
    Node* window = ir::LetView(const_cast<Node&>(*node)).window();
    node = window->is(Op::kWindow) ? ir::WindowView(*window).buffer()
                                   : window->def();
  }
  return node == buffer;
}

// The parameter of `call`'s callee that argument `position` binds.
const Node* ParamOf(const Node& call, size_t position) {
  std::vector<Node*> params =
      ir::ProcView(*ir::CallView(const_cast<Node&>(call)).callee()).params();
  return position < params.size() ? params[position] : nullptr;
}

// Every access of `buffer` in `block`; an error for a use the stage cannot
// redirect (the whole buffer passed on, a let of a window of it).
absl::StatusOr<std::vector<Access>> CollectAccesses(
    absl::Span<Node* const> block, const Node* buffer) {
  std::vector<Access> accesses;
  absl::Status status;
  for (Node* stmt : block) {
    ir::Walk(*stmt, [&](Node& node) {
      if (!status.ok() || !node.is(Op::kRef)) return;
      Node* parent = node.parent();
      if (node.def() != buffer) {
        if (node.def() != nullptr && node.def()->is(Op::kLet) &&
            ViewsOf(node.def(), buffer)) {
          status = absl::FailedPreconditionError(absl::StrCat(
              "cannot stage '", buffer->name(), "': '", node.name(),
              "' names a window of it (", Text(*parent), ")"));
        }
        return;
      }
      Access access{parent};
      if (parent->is(Op::kLoad) && node.position() == 0) {
        Node* owner = parent->parent();
        bool place = owner != nullptr && parent->position() == 0 &&
                     (owner->is(Op::kAssign) || owner->is(Op::kReduce));
        access.reduces = place && owner->is(Op::kReduce);
        access.writes = place;
        access.reads = !place || access.reduces;
      } else if (parent->is(Op::kWindow) && node.position() == 0 &&
                 !ir::WindowView::IsBox(*parent)) {
        status = NotABox(*buffer, *parent);
        return;
      } else if (parent->is(Op::kWindow) && node.position() == 0 &&
                 parent->parent() != nullptr &&
                 parent->parent()->is(Op::kCall)) {
        const Node* param = ParamOf(*parent->parent(), parent->position());
        ir::ParamKind kind =
            param != nullptr ? param->param_kind() : ir::ParamKind::kInOut;
        access.reads = kind != ir::ParamKind::kOut;
        access.writes = kind != ir::ParamKind::kIn;
      } else {
        status = absl::FailedPreconditionError(absl::StrCat(
            "cannot stage '", buffer->name(), "': the block uses it in '",
            Text(parent != nullptr ? *parent : node),
            "', which the stage cannot redirect to a window"));
        return;
      }
      accesses.push_back(access);
    });
  }
  if (!status.ok()) return status;
  return accesses;
}

// isl's C++ interface has no `!=` set of two functions.
isl::set Differs(const isl::pw_aff& a, const isl::pw_aff& b) {
  return a.lt_set(b).unite(a.gt_set(b));
}

// The functions `exprs` on the domain of `stmt`.
absl::StatusOr<std::vector<isl::pw_aff>> AffineAll(
    const poly::ProcModel& model, absl::Span<Node* const> exprs,
    const Node& stmt) {
  std::vector<isl::pw_aff> values;
  for (const Node* expr : exprs) {
    auto value = model.Affine(*expr, stmt);
    if (!value.ok()) return value.status();
    values.push_back(*std::move(value));
  }
  return values;
}

// The window's bounds, flattened: lo (and hi for an interval) of each
// selector.
std::vector<Node*> WindowBounds(const Window& window) {
  std::vector<Node*> bounds;
  for (const Selector& sel : window.selectors) {
    bounds.push_back(sel.lo);
    if (!sel.is_point()) bounds.push_back(sel.hi);
  }
  return bounds;
}

// The access's selectors as the window's: one per dimension of the buffer,
// each a point or an interval.
std::vector<Selector> SelectorsOf(const Access& access) {
  std::vector<Selector> selectors;
  for (Node* sel : access.node->operands().subspan(1)) {
    if (sel->is(Op::kInterval)) {
      ir::IntervalView interval(*sel);
      selectors.push_back({interval.lo(), interval.hi()});
    } else {
      selectors.push_back({sel});
    }
  }
  return selectors;
}

// Checks that `access` stays inside `window` at every instance.
absl::Status CheckInside(const poly::ProcModel& model, const Access& access,
                         const Window& window, const Node& win_expr) {
  const Node& stmt = model.StatementOf(*access.node);
  std::vector<Selector> used = SelectorsOf(access);
  std::vector<Node*> exprs = WindowBounds({nullptr, used});
  size_t own = exprs.size();
  for (Node* bound : WindowBounds(window)) exprs.push_back(bound);
  auto values = AffineAll(model, exprs, stmt);
  if (!values.ok()) return values.status();
  for (size_t d = 0; d < used.size(); ++d) {
    if (!used[d].is_point() && window.selectors[d].is_point()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "cannot stage '", Text(*access.node), "' in '", Text(win_expr),
          "': it keeps dimension ", d, ", which the window fixes"));
    }
  }
  auto violation = model.FindViolation(
      stmt, *values, [&](const std::vector<isl::pw_aff>& v) {
        isl::set fails = isl::set::empty(v[0].domain().space());
        size_t at = 0, win = own;
        for (size_t d = 0; d < used.size(); ++d) {
          const isl::pw_aff& lo = v[at];
          const isl::pw_aff& hi = used[d].is_point() ? v[at] : v[at + 1];
          at += used[d].is_point() ? 1 : 2;
          if (window.selectors[d].is_point()) {
            fails = fails.unite(Differs(lo, v[win++]));
          } else {
            // Inside [wlo, whi): lo >= wlo and the last element < whi.
            const isl::pw_aff& wlo = v[win];
            const isl::pw_aff& whi = v[win + 1];
            win += 2;
            fails = fails.unite(lo.lt_set(wlo));
            fails = fails.unite(used[d].is_point() ? hi.ge_set(whi)
                                                   : hi.gt_set(whi));
          }
        }
        return fails;
      });
  if (!violation.ok()) return violation.status();
  if (!violation->has_value()) return absl::OkStatus();
  std::vector<std::string> indices((*violation)->values.begin(),
                                   (*violation)->values.begin() + own);
  return absl::FailedPreconditionError(
      absl::StrCat("'", Text(*access.node), "' accesses '",
                   window.buffer->name(), "' outside the staged window '",
                   Text(win_expr), "' (at ", (*violation)->at,
                   ", where it selects ", absl::StrJoin(indices, ", "), ")"));
}

// Checks that the window is a part of its buffer wherever the block runs,
// so that the copies stay in bounds. It may be empty (a tail of no
// elements at this size).
absl::Status CheckWindowInBounds(const poly::ProcModel& model,
                                 const Window& window, const Node& win_expr,
                                 const Node& first) {
  auto extents = model.Extents(*window.buffer, first);
  if (!extents.ok()) return extents.status();
  std::vector<Node*> bounds = WindowBounds(window);
  auto values = AffineAll(model, bounds, first);
  if (!values.ok()) return values.status();
  size_t num_bounds = values->size();
  for (const isl::pw_aff& extent : *extents) values->push_back(extent);
  auto violation = model.FindViolation(
      first, *values, [&](const std::vector<isl::pw_aff>& v) {
        isl::set fails = isl::set::empty(v[0].domain().space());
        size_t at = 0;
        for (size_t d = 0; d < window.selectors.size(); ++d) {
          const isl::pw_aff& lo = v[at];
          const isl::pw_aff& extent = v[num_bounds + d];
          isl::pw_aff zero = poly::ConstantOn(lo, 0);
          fails = fails.unite(lo.lt_set(zero));
          if (window.selectors[d].is_point()) {
            fails = fails.unite(lo.ge_set(extent));
            at += 1;
          } else {
            const isl::pw_aff& hi = v[at + 1];
            fails = fails.unite(hi.gt_set(extent)).unite(hi.lt_set(lo));
            at += 2;
          }
        }
        return fails;
      });
  if (!violation.ok()) return violation.status();
  if (!violation->has_value()) return absl::OkStatus();
  std::vector<std::string> shown((*violation)->values.begin(),
                                 (*violation)->values.begin() + num_bounds);
  std::vector<std::string> dims((*violation)->values.begin() + num_bounds,
                                (*violation)->values.end());
  return absl::FailedPreconditionError(absl::StrCat(
      "the window '", Text(win_expr), "' is not a part of '",
      window.buffer->name(), "' (at ", (*violation)->at, ", its bounds are ",
      absl::StrJoin(shown, ", "), " in dimensions of ",
      absl::StrJoin(dims, ", "), ")"));
}

// Whether the block's writes of the window cover all of it at every
// instance of the block, so that nothing needs copying in.
absl::StatusOr<bool> WritesCover(ir::Module& module,
                                 const poly::ProcModel& model,
                                 const std::vector<Access>& accesses,
                                 const Window& window, const Node& first) {
  std::vector<Node*> selectors;
  for (const Selector& sel : window.selectors) {
    selectors.push_back(sel.is_point()
                            ? module.Clone(sel.lo)
                            : Build::Interval(module, module.Clone(sel.lo),
                                              module.Clone(sel.hi)));
  }
  Node* view = Build::Window(module, *window.buffer, selectors);
  auto region = model.Region(*view, first);
  if (!region.ok()) return region.status();
  std::vector<isl::map> written;
  for (const Access& access : accesses) {
    if (!access.writes) continue;
    auto map = model.Access(*access.node);
    if (!map.ok()) return map.status();
    written.push_back(*std::move(map));
  }
  return poly::Ask<bool>(model.ctx(), [&]() -> absl::StatusOr<bool> {
    isl::map uncovered = *region;
    isl_size outer = isl_map_dim(region->get(), isl_dim_in);
    isl::id tuple =
        isl::manage(isl_map_get_tuple_id(region->get(), isl_dim_in));
    for (const isl::map& map : written) {
      isl_size dims = isl_map_dim(map.get(), isl_dim_in);
      isl::map projected = isl::manage(
          isl_map_project_out(map.copy(), isl_dim_in, outer, dims - outer));
      projected = isl::manage(
          isl_map_set_tuple_id(projected.release(), isl_dim_in, tuple.copy()));
      uncovered = uncovered.subtract(projected);
    }
    return uncovered.is_empty();
  });
}

// The extent of an interval selector: a literal when it is constant where
// the block runs, else `hi - lo` when that names sizes only (the loops in
// `lo` and `hi` cancel: `(% N 16)` for a tail). `may_be_empty` when it is
// 0 somewhere the block runs: a window over a tail of no elements, which
// the block's accesses (in loops of no iterations) never touch.
struct Extent {
  Node* value;
  bool may_be_empty;
};

absl::StatusOr<Extent> ExtentOf(ir::Module& module,
                                const poly::ProcModel& model,
                                const Selector& sel, const Node& first) {
  auto lo = model.Affine(*sel.lo, first);
  if (!lo.ok()) return lo.status();
  auto hi = model.Affine(*sel.hi, first);
  if (!hi.ok()) return hi.status();
  auto domain = model.Domain(first);
  if (!domain.ok()) return domain.status();
  struct Range {
    std::optional<int64_t> constant;
    bool may_be_empty;
  };
  auto range = poly::Ask<Range>(model.ctx(), [&]() -> absl::StatusOr<Range> {
    isl::pw_aff difference = hi->sub(*lo);
    isl::pw_aff extent = difference.intersect_domain(*domain);
    // A block that never runs (a tail of 0 iterations at this size): the
    // extent as written, wherever the block would be.
    if (extent.domain().is_empty()) extent = difference;
    isl::val max = extent.max_val();
    isl::val min = extent.min_val();
    Range r{std::nullopt, !min.is_int() || min.get_num_si() <= 0};
    if (max.is_int() && min.is_int() && max.eq(min)) {
      r.constant = static_cast<int64_t>(max.get_num_si());
    }
    return r;
  });
  if (!range.ok()) return range.status();
  if (range->constant.has_value()) {
    return Extent{Build::Int(module, *range->constant), range->may_be_empty};
  }
  OpaqueTerms terms({});
  std::optional<LinearForm> lo_form = terms.Form(*sel.lo);
  std::optional<LinearForm> hi_form = terms.Form(*sel.hi);
  Node* extent = nullptr;
  if (lo_form && hi_form) {
    extent = terms.Build(module, hi_form->Plus(lo_form->Times(-1)));
  }
  bool of_sizes = extent != nullptr;
  if (extent != nullptr) {
    ir::Walk(*extent, [&](Node& node) {
      if (node.is(Op::kRef) &&
          (node.def() == nullptr || !node.def()->is(Op::kParam) ||
           node.def()->param_kind() != ir::ParamKind::kSize)) {
        of_sizes = false;
      }
    });
  }
  if (!of_sizes) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the extent of '(: ", Text(*sel.lo), " ", Text(*sel.hi),
        ")' is neither constant nor an expression of sizes"));
  }
  return Extent{extent, range->may_be_empty};
}

// `lo + k`, or `k` when lo is 0.
Node* Offset(ir::Module& module, const Node* lo, Node* k) {
  if (lo->is(Op::kConst) && lo->int_value() == 0) return k;
  return Build::Add(module, module.Clone(lo), k);
}

// `index - lo`, or `index` when lo is 0.
Node* Relative(ir::Module& module, const Node* index, const Node* lo) {
  if (lo->is(Op::kConst) && lo->int_value() == 0) return module.Clone(index);
  return Build::Sub(module, module.Clone(index), module.Clone(lo));
}

// The access of the new buffer `alloc` that `access` of the window's
// buffer becomes: indices made relative to the window, its points dropped.
Node* Redirected(ir::Module& module, const Access& access, const Window& window,
                 const Node& alloc) {
  std::vector<Node*> operands;
  size_t d = 0;
  for (Node* sel : access.node->operands().subspan(1)) {
    const Selector& at = window.selectors[d++];
    if (at.is_point()) continue;
    if (sel->is(Op::kInterval)) {
      ir::IntervalView interval(*sel);
      operands.push_back(
          Build::Interval(module, Relative(module, interval.lo(), at.lo),
                          Relative(module, interval.hi(), at.lo)));
    } else {
      operands.push_back(Relative(module, sel, at.lo));
    }
  }
  if (operands.empty()) return Build::Ref(module, alloc);
  return access.node->is(Op::kWindow) ? Build::Window(module, alloc, operands)
                                      : Build::Load(module, alloc, operands);
}

// A loop nest over the new buffer's elements around `body(k...)`.
Node* CopyNest(ir::Module& module, const Node& proc,
               const std::vector<Node*>& extents,
               const std::function<Node*(const std::vector<Node*>&)>& body) {
  std::vector<Node*> loops;
  std::vector<Node*> vars;
  for (size_t d = 0; d < extents.size(); ++d) {
    std::string name = ir::FreshName(module, proc, absl::StrCat("i", d));
    loops.push_back(Build::For(module, name, Build::Int(module, 0),
                               module.Clone(extents[d]), {}));
  }
  for (Node* loop : loops) vars.push_back(loop);
  Node* inner = body(vars);
  for (size_t d = loops.size(); d-- > 0;) {
    module.Append(loops[d], inner);
    inner = loops[d];
  }
  return inner;
}

}  // namespace

absl::Status StageMem(ir::Module& module, const ir::BlockCursor& block_cursor,
                      const ir::Node& win_expr, const std::string& new_buf_name,
                      bool accum) {
  if (!block_cursor.is_valid()) return block_cursor.status();
  if (block_cursor.empty()) {
    return absl::InvalidArgumentError("stage_mem needs a non-empty block");
  }
  std::vector<Node*> block = block_cursor.statements();
  Node* proc = ir::FormOf(block.front());
  if (ir::FreshName(module, *proc, new_buf_name) != new_buf_name) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the new buffer's name '", new_buf_name, "' is already used"));
  }
  auto window = ParseWindow(win_expr);
  if (!window.ok()) return window.status();
  const ir::Type& type = window->buffer->declared_type();
  if (static_cast<size_t>(type.rank()) != window->selectors.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("the window '", Text(win_expr), "' selects ",
                     window->selectors.size(), " dimensions of '",
                     window->buffer->name(), "', which has ", type.rank()));
  }
  auto accesses = CollectAccesses(block, window->buffer);
  if (!accesses.ok()) return accesses.status();
  if (accesses->empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the block does not access '", window->buffer->name(), "'"));
  }
  bool reads = false, writes = false;
  for (const Access& access : *accesses) {
    reads |= access.reads;
    writes |= access.writes;
    if (accum && !access.reduces) {
      return absl::FailedPreconditionError(absl::StrCat(
          "stage_mem with accum=True needs the block to only reduce into '",
          window->buffer->name(), "', but '", Text(*access.node), "' in '",
          Text(*access.node->parent()), "' ", access.reads ? "reads" : "writes",
          " it"));
    }
  }
  // Accumulating from zero and adding back regroups the block's sums:
  // exact for integers only.
  if (accum) {
    if (absl::Status status = CheckExactRegrouping(
            type.elem(), Regrouping::kSum, "stage_mem with accum=True");
        !status.ok()) {
      return status;
    }
  }
  bool scalar = true;
  for (const Selector& sel : window->selectors) scalar &= sel.is_point();
  for (const Access& access : *accesses) {
    if (scalar && access.node->is(Op::kWindow)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "cannot stage a single element that the block passes as a window: '",
          Text(*access.node), "'"));
    }
  }

  poly::Context context;
  isl::ctx ctx(context.get());
  poly::ProcModel model(ctx, *proc);
  Node& first = *block.front();
  if (absl::Status s = CheckWindowInBounds(model, *window, win_expr, first);
      !s.ok()) {
    return s;
  }
  for (const Access& access : *accesses) {
    if (absl::Status s = CheckInside(model, access, *window, win_expr);
        !s.ok()) {
      return s;
    }
  }
  // The window's old values are copied in unless the block writes all of
  // them before it reads any: where it reads, its first statement must
  // write the whole window and read none of it (a tile zeroed, then
  // accumulated into).
  bool copy_in = true;
  if (!accum && writes) {
    std::vector<Access> leading;
    for (const Access& access : *accesses) {
      if (!reads || ir::IsInside(access.node, &first)) leading.push_back(access);
    }
    if (absl::c_none_of(leading, [](const Access& a) { return a.reads; })) {
      auto cover = WritesCover(module, model, leading, *window, first);
      if (!cover.ok()) return cover.status();
      copy_in = !*cover;
    }
  }
  // The copies run over the window's extents; the buffer's dimensions are
  // positive, so an extent that may be 0 is at least 1 there.
  std::vector<Node*> extents, dims;
  for (const Selector& sel : window->selectors) {
    if (sel.is_point()) continue;
    auto extent = ExtentOf(module, model, sel, first);
    if (!extent.ok()) return extent.status();
    extents.push_back(extent->value);
    Node* dim = module.Clone(extent->value);
    if (extent->may_be_empty) {
      dim = dim->is(Op::kConst)
                ? Build::Int(module, std::max<int64_t>(dim->int_value(), 1))
                : Build::Binary(module, Op::kMax, Build::Int(module, 1), dim);
    }
    dims.push_back(dim);
  }

  // Checked: edit.
  ElemType elem = type.elem();
  ir::Type new_type =
      scalar ? ir::Type::Elem(elem) : Build::Tensor(elem, dims);
  Node* alloc = Build::Alloc(module, new_buf_name, new_type);
  // The new buffer's element k, and the window's element it stages.
  auto staged = [&](const std::vector<Node*>& vars) {
    if (scalar) return Build::Ref(module, *alloc);
    std::vector<Node*> indices;
    for (Node* var : vars) indices.push_back(Build::Ref(module, *var));
    return Build::Load(module, *alloc, indices);
  };
  auto original = [&](const std::vector<Node*>& vars) {
    std::vector<Node*> indices;
    size_t k = 0;
    for (const Selector& sel : window->selectors) {
      indices.push_back(
          sel.is_point()
              ? module.Clone(sel.lo)
              : Offset(module, sel.lo, Build::Ref(module, *vars[k++])));
    }
    return Build::Load(module, *window->buffer, indices);
  };
  for (const Access& access : *accesses) {
    module.Replace(access.node, Redirected(module, access, *window, *alloc));
  }
  ir::GapCursor before = block_cursor.before();
  ir::GapCursor after = block_cursor.after();
  before.Insert(alloc);
  if (copy_in) {
    before.Insert(CopyNest(module, *proc, extents, [&](const auto& vars) {
      Node* value = accum ? (IsFloat(elem) ? Build::Float(module, 0.0)
                                           : Build::Int(module, 0))
                          : original(vars);
      return Build::Assign(module, staged(vars), value);
    }));
  }
  if (writes) {
    after.Insert(CopyNest(module, *proc, extents, [&](const auto& vars) {
      return accum ? Build::Reduce(module, original(vars), staged(vars))
                   : Build::Assign(module, original(vars), staged(vars));
    }));
  }
  return absl::OkStatus();
}

bool IsStageable(const Node& buffer) {
  return ((buffer.is(Op::kParam) &&
           buffer.param_kind() >= ir::ParamKind::kIn) ||
          buffer.is(Op::kAlloc)) &&
         buffer.declared_type().is_shaped() &&
         buffer.declared_type().rank() > 0;
}

PrimitiveSpec StageMemSpec() {
  return {"stage_mem",
          {{"block_cursor", ArgKind::kBlock, std::nullopt},
           {"win_expr", ArgKind::kExprText, std::nullopt},
           {"new_buf_name", ArgKind::kString, std::nullopt},
           {"accum", ArgKind::kBool, "False"}},
          [](Target& target, const Args& args) {
            return StageMem(target.module, args["block_cursor"].block,
                            *args["win_expr"].node, args["new_buf_name"].text,
                            args["accum"].bool_value);
          }};
}

}  // namespace tessel::primitives
