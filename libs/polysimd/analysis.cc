#include "libs/polysimd/analysis.h"

#include <functional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "isl/aff.h"
#include "isl/ast.h"
#include "isl/ast_build.h"
#include "isl/map.h"
#include "isl/set.h"
#include "isl/space.h"
#include "isl/union_map.h"
#include "isl/val.h"
#include "libs/ir/node.h"
#include "libs/polysimd/compression.h"
#include "libs/polysimd/isl_text.h"
#include "libs/polysimd/isl_to_tir.h"
#include "libs/polysimd/unimodular.h"

namespace tessel::polysimd {
namespace {

using ir::Node;
using ir::Op;

std::vector<std::string> IndexNames(int count) {
  std::vector<std::string> names;
  for (int k = 0; k < count; ++k) names.push_back(IndexName(k, count));
  return names;
}

isl::set WithoutParams(isl::set set, const std::vector<std::string>& names) {
  for (const std::string& name : names) {
    if (isl_set_find_dim_by_name(set.get(), isl_dim_param, name.c_str()) >= 0) {
      set = set.project_out_param(name);
    }
  }
  return set;
}

std::vector<int64_t> Values(const isl::multi_val& values) {
  std::vector<int64_t> out;
  for (isl_size k = 0; k < isl_multi_val_size(values.get()); ++k) {
    isl_val* value = isl_multi_val_get_at(values.get(), k);
    out.push_back(isl_val_get_num_si(value));
    isl_val_free(value);
  }
  return out;
}

// The rectangle { [0:size - 1] } in `space` (a set space).
isl::set Rectangle(const isl::space& space, const std::vector<int64_t>& size) {
  isl_set* set = isl_set_universe(space.copy());
  for (size_t d = 0; d < size.size(); ++d) {
    set = isl_set_lower_bound_si(set, isl_dim_set, static_cast<int>(d), 0);
    set = isl_set_upper_bound_si(set, isl_dim_set, static_cast<int>(d),
                                 static_cast<int>(size[d] - 1));
  }
  return isl::manage(set);
}

// The box of a fixed-size box hull: offset + [0, size).
isl::set BoxOf(const isl::space& space, const isl::multi_aff& offset,
               const std::vector<int64_t>& size) {
  isl::set at = isl::manage(isl_set_from_multi_aff(offset.copy()));
  return isl::manage(isl_set_sum(at.release(),
                                 Rectangle(space, size).release()));
}

// The minimum, maximum and size of each dimension of `set` (section 5.1).
struct Extent {
  isl::multi_pw_aff minimum, maximum, size;
  bool dense = false;  // the set is the box they bound
  bool fixed = false;  // the size does not depend on the index values
};

Extent ExtentOf(const isl::set& set, const isl::set& known,
                const std::vector<std::string>& index_names) {
  isl_size n = isl_set_dim(set.get(), isl_dim_set);
  isl::pw_aff_list lows(set.ctx(), n), highs(set.ctx(), n), sizes(set.ctx(), n);
  Extent extent;
  extent.fixed = true;
  for (int d = 0; d < n; ++d) {
    isl::pw_aff low = isl::manage(isl_set_dim_min(set.copy(), d));
    isl::pw_aff high = isl::manage(isl_set_dim_max(set.copy(), d));
    isl::pw_aff size = high.sub(low).add_constant(1);
    isl::pw_aff simplified = size.gist_params(known);
    for (const std::string& name : index_names) {
      isl::id id(set.ctx(), name);
      if (isl_pw_aff_involves_param_id(simplified.get(), id.get()) ==
          isl_bool_true) {
        extent.fixed = false;
      }
    }
    lows = lows.add(low);
    highs = highs.add(high);
    sizes = sizes.add(size);
  }
  isl::space space = set.space();
  extent.minimum = isl::multi_pw_aff(space, lows);
  extent.maximum = isl::multi_pw_aff(space, highs);
  extent.size = isl::multi_pw_aff(space, sizes);
  extent.dense = IsBoxOfItsBounds(set, known);
  return extent;
}

// The point `values` (of the symbolic constants) as a set, simplified
// with respect to `known` and without the names of the set's variables, as
// the paper writes it: ff[8PE_Y, index].
isl::set SetOf(const isl::multi_pw_aff& values, const isl::set& known) {
  isl_set* set = isl_set_from_multi_pw_aff(values.copy());
  for (isl_size d = 0; d < isl_set_dim(set, isl_dim_set); ++d) {
    set = isl_set_set_dim_name(set, isl_dim_set, d, nullptr);
  }
  return isl::manage(set).gist_params(known).coalesce();
}

// The SIMD instruction a task's statement is, or empty: an add-multiple
// of the element received, y += A * v, as in the paper's layers.
std::string InstructionOf(const Statement& statement,
                          const placement::TensorClause* trigger) {
  const Node& update = *statement.update;
  if (!update.is(Op::kReduce) || trigger == nullptr) return "";
  const Node& value = *update.operand(1);
  if (!value.is(Op::kMul)) return "";
  int received = 0;
  int local = 0;
  for (const Node* factor : value.operands()) {
    if (!factor->is(Op::kLoad)) return "";
    const Node* root = factor->operand(0)->def();
    (root != nullptr && root->name() == trigger->tensor ? received : local)++;
  }
  if (received != 1 || local != 1) return "";
  switch (update.operand(0)->type().elem()) {
    case ElemType::kF32:
      return "@fmacs";
    case ElemType::kF16:
      return "@fmach";
    default:
      return "";
  }
}

// Whether an instance of the statement computes nothing when the element
// of `tensor` it reads is zero, so that a sparse stream need not send it:
// an accumulation y += ... * x * ... with x a factor of the product and
// read nowhere else (up to the sign of a zero sum, and NaN or infinite
// factors, which the CS-1's sparse tensors do not carry).
bool ZeroAddsNothing(const Statement& statement, const std::string& tensor) {
  const Node& update = *statement.update;
  if (!update.is(Op::kReduce)) return false;
  int factors = 0;
  int reads = 0;
  std::function<void(const Node&, bool)> visit = [&](const Node& node,
                                                     bool factor) {
    if (node.is(Op::kLoad)) {
      const Node* root = node.operand(0)->def();
      if (root != nullptr && root->name() == tensor) {
        ++reads;
        factors += factor ? 1 : 0;
      }
    }
    for (const Node* operand : node.operands()) {
      visit(*operand, factor && node.is(Op::kMul));
    }
  };
  visit(*update.operand(1), true);
  return reads == 1 && factors == 1;
}

class Analyser {
 public:
  Analyser(const Kernel& kernel, const placement::Placement& placement,
           bool explain, bool simd)
      : kernel_(kernel),
        placement_(placement),
        ctx_(placement.place.ctx()),
        explain_(explain),
        simd_(simd) {}

  absl::StatusOr<Analysis> Run() {
    if (auto status = Grid(); !status.ok()) return status;
    if (auto status = Locals(); !status.ok()) return status;
    for (const Statement& statement : kernel_.statements) {
      auto status = TaskOf(statement);
      if (!status.ok()) return status;
    }
    return std::move(analysis_);
  }

 private:
  void Say(const std::string& line) {
    if (explain_) absl::StrAppend(&analysis_.explanation, line, "\n");
  }
  void Show(const std::string& what, const std::string& text) {
    Say(absl::StrCat("  ", what, ":\n    ", text));
  }

  absl::Status Error(const std::string& message) {
    return ErrorAt(placement_.place_loc, message);
  }

  // Section 4.2: the rectangle of the PEs that compute.
  absl::Status Grid() {
    isl::union_set used = isl::union_set(isl::set::empty(
        placement_.Grid().space()));
    for (const Statement& statement : kernel_.statements) {
      used = used.unite(placement_.place
                            .intersect_domain(isl::union_set(statement.instances))
                            .range());
    }
    isl::set pes = used.extract_set(placement_.Grid().space());
    ComputeGrid& grid = analysis_.grid;
    grid.x0 = pes.dim_min_val(0).get_num_si();
    grid.y0 = pes.dim_min_val(1).get_num_si();
    grid.nx = pes.dim_max_val(0).get_num_si() - grid.x0 + 1;
    grid.ny = pes.dim_max_val(1).get_num_si() - grid.y0 + 1;
    grid.place = placement_.place.apply_range(isl::union_map(Shift()));
    Say(absl::StrCat("computation PEs (section 4.2): ", Text(pes.coalesce()),
                     ", the rectangle { PE[", grid.nx, ", ", grid.ny,
                     "] } at (", grid.x0, ", ", grid.y0, ")"));
    if (explain_) {
      Say(absl::StrCat("placement on it: ", Text(grid.place.coalesce())));
    }
    return absl::OkStatus();
  }

  isl::map Shift() const { return analysis_.grid.Shift(ctx_); }

  isl::map PlaceOf(const Statement& statement) const {
    return analysis_.grid.PlaceOf(statement);
  }

  bool Streamed(const std::string& tensor) const {
    const placement::TensorClause* clause = placement_.Input(tensor);
    return clause != nullptr && clause->stream();
  }

  // Section 4.3: the local arrays.
  absl::Status Locals() {
    for (const Tensor& tensor : kernel_.tensors) {
      if (Streamed(tensor.name)) continue;
      isl::union_map accessed;
      for (const Statement& statement : kernel_.statements) {
        std::vector<const Access*> accesses = {&statement.write};
        for (const Access& read : statement.reads) accesses.push_back(&read);
        for (const Access* access : accesses) {
          if (access->tensor != tensor.name) continue;
          isl::union_map per_pe =
              isl::union_map(access->map.apply_domain(PlaceOf(statement)));
          accessed = accessed.is_null() ? per_pe : accessed.unite(per_pe);
        }
      }
      if (accessed.is_null()) continue;
      LocalArray local;
      local.tensor = tensor.name;
      local.accessed = isl::map(accessed.as_map()).coalesce();
      isl::fixed_box box = local.accessed.range_simple_fixed_box_hull();
      if (!box.is_valid()) {
        return Error(absl::StrCat("the elements of '", tensor.name,
                                  "' that a PE touches have no fixed-size box "
                                  "hull: ",
                                  Text(local.accessed)));
      }
      local.offset = box.offset();
      local.size = Values(box.size());
      local.extended = local.size;
      local.shift.assign(local.size.size(), 0);
      if (const placement::TensorClause* clause =
              placement_.Input(tensor.name)) {
        // A resident input: each PE must hold what it touches.
        isl::map held = clause->map.apply_range(Shift()).reverse();
        isl::map missing = local.accessed.subtract(held);
        if (!missing.is_empty()) {
          isl::set pe(missing.domain().lexmin());
          return ErrorAt(clause->map_loc,
                         absl::StrCat(
                             "the PE at ", placement::FirstPoint(pe),
                             " of the computation rectangle reads ",
                             placement::FirstPoint(
                                 missing.intersect_domain(pe).range()),
                             ", which this clause does not put there"));
        }
      }
      Say(absl::StrCat("local memory of ", tensor.name, " (section 4.3):"));
      Show("elements per PE", Text(local.accessed));
      Show("box hull", absl::StrCat("offset ", Text(local.offset), ", size ",
                                    Text(box.size())));
      Show("to local memory", Text(local.ToLocal()));
      analysis_.locals.push_back(std::move(local));
    }
    return absl::OkStatus();
  }

  LocalArray* Local(const std::string& tensor) {
    for (LocalArray& local : analysis_.locals) {
      if (local.tensor == tensor) return &local;
    }
    return nullptr;
  }

  absl::Status TaskOf(const Statement& statement) {
    Task task;
    task.statement = &statement;
    const Access* trigger_read = nullptr;
    for (const Access& read : statement.reads) {
      if (!Streamed(read.tensor)) continue;
      if (trigger_read != nullptr && trigger_read->tensor != read.tensor) {
        return ErrorAt(statement.update->loc(),
                       absl::StrCat("statement '", statement.name,
                                    "' reads two streamed inputs, '",
                                    trigger_read->tensor, "' and '",
                                    read.tensor,
                                    "'; polysimd triggers a task by one"));
      }
      trigger_read = &read;
      task.trigger = placement_.Input(read.tensor);
    }
    if (task.trigger != nullptr && task.trigger->sparse &&
        !ZeroAddsNothing(statement, task.trigger->tensor)) {
      return ErrorAt(
          task.trigger->loc,
          absl::StrCat("'", task.trigger->tensor,
                       "' arrives sparse, its zeros not sent, but statement '",
                       statement.name, "' computes something from a zero '",
                       task.trigger->tensor, "' (a sparse input is a factor "
                       "of what a statement adds up, y[...] += ... * ",
                       task.trigger->tensor, "[...])"));
    }
    // Section 5.1: the placement bound to PE_X and PE_Y, and the order of
    // the trigger bound to the index values through the inverse access.
    isl::map place = PlaceOf(statement);
    isl::set instances =
        place.bind_range(NamedIds(place.range().space(), {"PE_X", "PE_Y"}));
    std::vector<std::string> index_names;
    std::string title = absl::StrCat("task ", statement.name);
    if (task.trigger != nullptr) {
      isl::map order = task.trigger->map.range_factor_range().intersect_domain(
          kernel_.Find(task.trigger->tensor)->elements);
      index_names = IndexNames(static_cast<int>(order.range_tuple_dim()));
      isl::set bound = order.bind_range(NamedIds(order.range().space(), index_names));
      instances = instances.intersect(bound.apply(trigger_read->map.reverse()));
      absl::StrAppend(&title, ", on the arrival of ", task.trigger->tensor,
                      "[...] (", task.trigger->sparse ? "sparse" : "dense",
                      ")");
    } else {
      absl::StrAppend(&title, ", over local memory");
    }
    task.instances = instances.coalesce();
    task.known = task.instances.params();
    Say(absl::StrCat(title, ":"));
    Show("instance set (5.1)", Text(task.instances));
    Show("known constraints K", Text(task.known));
    Extent original = ExtentOf(task.instances, task.known, index_names);
    Show("minimum (5.2)", Text(SetOf(original.minimum, task.known)));
    Show("maximum", Text(SetOf(original.maximum, task.known)));
    Show("size", Text(SetOf(original.size, task.known)));
    // Section 5.2.
    Compression compression = Compress(task.instances, task.known);
    task.compression = compression.map;
    task.compressed = compression.compressed.coalesce();
    Show("compression (5.2)", Text(task.compression));
    if (!compression.note.empty()) Show("note", compression.note);
    Show("compressed instance set", Text(task.compressed));
    // Beyond the paper: a unimodular change of the compressed variables
    // into a box, or a smaller box hull.
    if (std::optional<Unimodular> unimodular =
            FindUnimodular(task.compressed, task.known)) {
      task.compression = task.compression.pullback(unimodular->inverse);
      task.compressed = unimodular->transformed;
      Show("unimodular transformation (5.2, beyond the paper)",
           absl::StrCat(Text(unimodular->forward), ": ", unimodular->reason));
      Show("compression", Text(task.compression));
      Show("transformed instance set", Text(task.compressed));
    }
    Extent compressed = ExtentOf(task.compressed, task.known, index_names);
    Show("minimum", Text(SetOf(compressed.minimum, task.known)));
    Show("maximum", Text(SetOf(compressed.maximum, task.known)));
    Show("size", Text(SetOf(compressed.size, task.known)));
    task.instruction = InstructionOf(statement, task.trigger);
    // The box hull may extend the local array it writes; that stands only
    // if the task is decided by it.
    LocalArray& written = *Local(statement.write.tensor);
    const LocalArray before = written;
    bool hull = BoxHull(task, trigger_read, index_names);
    bool enumerated =
        SizeEnumeration(task, compressed, index_names);
    int dims = static_cast<int>(task.compressed.tuple_dim());
    std::string why;
    if (!simd_) {
      why = "--no-simd";
    } else if (task.instruction.empty()) {
      why = "no SIMD instruction computes this statement (one add-multiple "
            "of the element received)";
    } else if (dims == 0 || dims > kMaxSimdDims) {
      why = absl::StrCat("the compressed set has ", dims,
                         " dimensions; a SIMD instruction has 1 to ",
                         kMaxSimdDims);
    } else if (hull) {
      task.method = Method::kBoxHull;
    } else if (compressed.dense && compressed.fixed) {
      task.method = Method::kBaseCase;
      task.minimum = compressed.minimum;
      task.size = compressed.size;
    } else if (compressed.dense && enumerated) {
      task.method = Method::kSizeEnumeration;
      task.minimum = compressed.minimum;
      task.size = compressed.size;
    } else {
      why = "no fixed-size box: not by box hull, base case or size "
            "enumeration";
    }
    if (task.method != Method::kBoxHull) written = before;
    if (task.method == Method::kLoops) {
      Show("decision", absl::StrCat("explicit loops (", why, "):"));
      Say(Loops(task));
    } else {
      Show("decision",
           absl::StrCat("SIMD ", task.instruction, " by ",
                        task.method == Method::kBoxHull    ? "box hull (5.3)"
                        : task.method == Method::kBaseCase ? "base case (5.1)"
                                                           : "size "
                                                             "enumeration "
                                                             "(5.4)"));
    }
    analysis_.tasks.push_back(std::move(task));
    return absl::OkStatus();
  }

  // Section 5.3: the fixed-size box hull of the compressed set, accepted
  // when its extra instances write apart from the proper ones and read
  // within the local arrays. Extends the written local array to hold what
  // they write.
  bool BoxHull(Task& task, const Access* trigger_read,
               const std::vector<std::string>& index_names) {
    isl::fixed_box box = task.compressed.simple_fixed_box_hull();
    if (!box.is_valid()) {
      Show("fixed-size box hull (5.3)", "none");
      return false;
    }
    task.offset = box.offset();
    task.sizes = Values(box.size());
    Show("fixed-size box hull (5.3)",
         absl::StrCat("offset ", Text(*task.offset), ", size ",
                      Text(box.size())));
    isl::set approximated =
        BoxOf(task.compressed.space(), *task.offset, task.sizes)
            .intersect_params(task.known);
    isl::set extra = approximated.subtract(task.compressed).coalesce();
    Show("extra instances", Text(extra.gist_params(task.known)));
    if (extra.is_empty()) return true;
    const Statement& statement = *task.statement;
    isl::map compression = isl::manage(isl_map_from_multi_aff(task.compression.copy()));
    bool ok = true;
    for (const Access& read : statement.reads) {
      if (&read == trigger_read || read.tensor == trigger_read->tensor) continue;
      const LocalArray* local = Local(read.tensor);
      isl::set reads = extra.apply(compression.apply_range(read.map))
                           .apply(local->ToLocal());
      Show(absl::StrCat("local elements of ", read.tensor,
                        " the extra instances read"),
           Text(reads.gist_params(task.known).coalesce()));
      isl::set bounds = Rectangle(reads.space(), local->extended);
      if (!reads.is_subset(bounds)) {
        Show("rejected", "the extra instances read outside the local array");
        ok = false;
      }
    }
    LocalArray* written = Local(statement.write.tensor);
    isl::map write = compression.apply_range(statement.write.map)
                         .apply_range(written->ToLocal());
    isl::set proper =
        WithoutParams(task.compressed.apply(write), index_names).coalesce();
    isl::set wild = WithoutParams(extra.apply(write), index_names).coalesce();
    Show("written by the proper instances", Text(proper));
    Show("written by the extra instances", Text(wild));
    if (!proper.intersect(wild).is_empty()) {
      Show("rejected", "the extra instances write what proper ones write");
      ok = false;
    }
    if (!ok) return false;
    // The local array extended to what the extra instances write.
    isl::set all = proper.unite(wild).unite(
        Rectangle(proper.space(), written->extended));
    isl::fixed_box hull = WithoutParams(all, {"PE_X", "PE_Y"})
                              .simple_fixed_box_hull();
    if (!hull.is_valid() ||
        isl_multi_aff_involves_dims(hull.offset().get(), isl_dim_param, 0,
                                    isl_multi_aff_dim(hull.offset().get(),
                                                      isl_dim_param)) !=
            isl_bool_false) {
      Show("rejected", "the extended local array has no fixed size");
      return false;
    }
    std::vector<int64_t> low;
    isl::multi_aff offset = hull.offset();
    for (isl_size d = 0; d < isl_multi_aff_size(offset.get()); ++d) {
      isl_aff* aff = isl_multi_aff_get_at(offset.get(), d);
      isl_val* value = isl_aff_get_constant_val(aff);
      low.push_back(isl_val_get_num_si(value));
      isl_val_free(value);
      isl_aff_free(aff);
    }
    std::vector<int64_t> size = Values(hull.size());
    task.extra_elements = wild.apply(written->ToLocal().reverse());
    for (size_t d = 0; d < size.size(); ++d) {
      written->shift[d] += low[d];
      written->extended[d] = size[d];
    }
    Show(absl::StrCat("local array of ", written->tensor),
         absl::StrCat("extended to { ", written->tensor, "_local[",
                      absl::StrJoin(written->extended, ", "),
                      "] }, accesses shifted by { ", written->tensor,
                      "_local[", absl::StrJoin(written->shift, ", "), "] }"));
    return true;
  }

  // Section 5.4: one configuration per size, identified by the size minus
  // the offset of the sizes' box hull.
  bool SizeEnumeration(Task& task, const Extent& extent,
                       const std::vector<std::string>& index_names) {
    isl::set sizes = WithoutParams(
        isl::manage(isl_set_from_multi_pw_aff(extent.size.copy()))
            .intersect_params(task.known),
        index_names).coalesce();
    Show("sizes without the index values (5.4)", Text(sizes));
    isl::fixed_box box = sizes.simple_fixed_box_hull();
    if (!box.is_valid()) {
      Show("configurations", "none: the sizes have no fixed-size box hull");
      return false;
    }
    isl::set ids = isl::manage(isl_set_sum(
        sizes.copy(), isl_set_from_multi_aff(box.offset().neg().release())));
    ids = WithoutParams(ids, {"PE_X", "PE_Y"}).coalesce();
    task.configurations = ids;
    task.configuration_offset = box.offset();
    Show("box hull of the sizes", absl::StrCat("offset ", Text(box.offset()),
                                              ", size ", Text(box.size())));
    Show("configuration identifiers", Text(ids));
    isl::val count = isl::manage(isl_set_count_val(ids.get()));
    return !count.is_nan() && count.le(isl::val(ctx_, kMaxConfigurations));
  }

  // The explicit loops of a task, from isl's AST builder, in C.
  std::string Loops(const Task& task) {
    isl::set set = task.compressed;
    isl::union_map schedule(isl::manage(isl_map_identity(
        isl_space_map_from_set(set.space().release()))).intersect_domain(set));
    isl_ast_build* build =
        isl_ast_build_from_context(task.known.copy());
    isl_ast_node* tree =
        isl_ast_build_node_from_schedule_map(build, schedule.release());
    char* code = isl_ast_node_to_C_str(tree);
    std::string text = code != nullptr ? code : "";
    free(code);
    isl_ast_node_free(tree);
    isl_ast_build_free(build);
    std::string indented;
    for (absl::string_view line : absl::StrSplit(text, '\n')) {
      if (!line.empty()) absl::StrAppend(&indented, "    ", line, "\n");
    }
    if (!indented.empty()) indented.pop_back();
    return indented;
  }

  const Kernel& kernel_;
  const placement::Placement& placement_;
  isl::ctx ctx_;
  bool explain_;
  bool simd_;
  Analysis analysis_;
};

}  // namespace

std::string IndexName(int k, int count) {
  return k + 1 == count ? "index" : absl::StrCat("index_", k);
}

isl::map ComputeGrid::Shift(isl::ctx ctx) const {
  return isl::map(ctx, absl::StrCat("{ PE[x, y] -> PE[x - ", x0,
                                            ", y - ", y0, "] }"));
}

isl::map ComputeGrid::PlaceOf(const Statement& statement) const {
  return place.intersect_domain(isl::union_set(statement.instances))
      .extract_map(isl::manage(isl_space_map_from_domain_and_range(
          statement.instances.space().release(),
          isl::set(place.ctx(), "{ PE[x, y] }").space().release())));
}

isl::set ComputeGrid::Pes(isl::ctx ctx) const {
  return isl::set(ctx, absl::StrCat("{ PE[x, y] : 0 <= x < ", nx,
                                    " and 0 <= y < ", ny, " }"));
}

isl::map LocalArray::Covered(const isl::set& elements,
                             const isl::set& pes) const {
  std::vector<std::string> box, js;
  for (size_t d = 0; d < shift.size(); ++d) {
    js.push_back(absl::StrCat("j", d));
    box.push_back(absl::StrCat(shift[d], " <= j", d, " < ",
                               shift[d] + extended[d]));
  }
  isl::map extent(pes.ctx(),
                  absl::StrCat("{ PE[x, y] -> ", tensor, "[",
                               absl::StrJoin(js, ", "), "]",
                               box.empty() ? "" : " : ",
                               absl::StrJoin(box, " and "), " }"));
  return isl::manage(isl_map_sum(isl_map_from_multi_aff(offset.copy()),
                                 extent.release()))
      .intersect_domain(pes)
      .intersect_range(elements);
}

isl::map LocalArray::ToLocal() const {
  // { [PE -> T] -> T_local[i - offset(PE) - shift] }, then PE bound.
  isl::space space = accessed.space();
  isl::multi_aff range = isl::manage(isl_multi_aff_range_map(space.copy()));
  isl::multi_aff domain = isl::manage(isl_multi_aff_domain_map(space.copy()));
  isl::multi_aff local = range.sub(offset.pullback(domain));
  for (size_t d = 0; d < shift.size(); ++d) {
    isl_aff* at = isl_multi_aff_get_at(local.get(), static_cast<int>(d));
    at = isl_aff_add_constant_si(at, static_cast<int>(-shift[d]));
    local = isl::manage(
        isl_multi_aff_set_at(local.release(), static_cast<int>(d), at));
  }
  isl::map map = isl::manage(isl_map_from_multi_aff(local.release()))
                     .set_range_tuple(tensor + "_local");
  isl::space pe = isl::manage(isl_space_domain(space.copy()));
  return map.curry().bind_domain(NamedIds(pe, {"PE_X", "PE_Y"})).unwrap();
}

const LocalArray* Analysis::Local(const std::string& tensor) const {
  for (const LocalArray& local : locals) {
    if (local.tensor == tensor) return &local;
  }
  return nullptr;
}

absl::StatusOr<Analysis> Analyse(const Kernel& kernel,
                                 const placement::Placement& placement,
                                 bool explain, bool simd) {
  std::vector<placement::KernelStatement> statements;
  for (const Statement& statement : kernel.statements) {
    statements.push_back({statement.name, statement.instances});
  }
  std::vector<placement::KernelTensor> tensors;
  for (const Tensor& tensor : kernel.tensors) {
    if (tensor.role == TensorRole::kLocal) continue;
    tensors.push_back(
        {tensor.name, tensor.role == TensorRole::kInput, tensor.elements});
  }
  if (auto status = placement::CheckPlacement(placement, statements, tensors);
      !status.ok()) {
    return status;
  }
  return poly::Ask<Analysis>(placement.place.ctx(), [&]() {
    return Analyser(kernel, placement, explain, simd).Run();
  });
}

}  // namespace tessel::polysimd
