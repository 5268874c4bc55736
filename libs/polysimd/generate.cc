#include "libs/polysimd/generate.h"

#include <algorithm>
#include <functional>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "isl/aff.h"
#include "isl/map.h"
#include "isl/point.h"
#include "isl/set.h"
#include "isl/val.h"
#include "libs/ir/edit.h"
#include "libs/ir/op.h"
#include "libs/ir/syntax.h"
#include "libs/ir/types.h"
#include "libs/verify/read.h"
#include "libs/polysimd/cs1_library.h"
#include "libs/polysimd/isl_to_tir.h"
#include "libs/poly/model.h"
#include "libs/sexpr/printer.h"
#include "libs/support/source.h"

namespace tessel::polysimd {
namespace {

using ir::Node;
using ir::Op;

Sexpr Sym(std::string name) { return Sexpr::Symbol(std::move(name)); }
Sexpr List(std::vector<Sexpr> items) { return Sexpr::List(std::move(items)); }

// The instruction that zeroes a local array of `elem` (targets/cs1).
const char* ZeroInstruction(ElemType elem) {
  switch (elem) {
    case ElemType::kF32:
      return "@fzeros";
    case ElemType::kF16:
      return "@fzerosh";
    default:
      return nullptr;
  }
}

// Whether the statement whose update is `update` (a reduce) sets its target
// to zero first: parse lowers `+=` to an assignment of 0 to each element,
// then the reduce.
bool ZeroInitialised(const Node& update, const std::string& tensor) {
  const Node* proc = &update;
  while (proc->parent() != nullptr) proc = proc->parent();
  bool found = false;
  ir::Walk(const_cast<Node&>(*proc), [&](Node& node) {
    if (!node.is(Op::kAssign) || &node == &update) return;
    const Node& target = *node.operand(0);
    const Node& at = target.is(Op::kLoad) ? *target.operand(0) : target;
    const Node& value = *node.operand(1);
    if (at.def() != nullptr && at.def()->name() == tensor &&
        value.is(Op::kConst) &&
        (value.is_float_literal() ? value.float_value() == 0
                                  : value.int_value() == 0)) {
      found = true;
    }
  });
  return found;
}

// The affine function `map` (of a set space) as one multi_aff, or null.
std::optional<isl::multi_aff> AffineOf(const isl::map& map) {
  isl::pw_multi_aff function = map.as_pw_multi_aff();
  if (!function.isa_multi_aff()) return std::nullopt;
  return function.as_multi_aff();
}

class Generator {
 public:
  Generator(const Kernel& kernel, const placement::Placement& placement,
            const Analysis& analysis)
      : kernel_(kernel),
        placement_(placement),
        analysis_(analysis),
        ctx_(placement.place.ctx()) {}

  absl::StatusOr<std::string> Run() {
    ChooseNames();
    for (const Task& task : analysis_.tasks) {
      if (auto status = CheckWrites(*task.statement); !status.ok()) {
        return status;
      }
    }
    for (const LocalArray& local : analysis_.locals) {
      const Tensor& tensor = *kernel_.Find(local.tensor);
      if (tensor.role == TensorRole::kOutput && CoversOthers(local, tensor)) {
        // Its PE's part is no box: computed apart, copied into a kept
        // array of zeros whose box holds it, partial sums of which the
        // others' zeros add nothing.
        partial_.insert(tensor.name);
        not_box_.insert(tensor.name);
      }
    }
    std::vector<Sexpr> program = {Sym("pe-program"), Sym(kernel_.proc->name()),
                                  Params(),
                                  List({Sym("grid"),
                                        List({Sym(px_), Sexpr::Int(
                                                            analysis_.grid.nx)}),
                                        List({Sym(py_), Sexpr::Int(
                                                            analysis_.grid.ny)})})};
    // A sparse input's zeros are not sent (the analysis checked that they
    // add nothing): no task runs for them.
    for (const placement::TensorClause& input : placement_.inputs) {
      if (input.stream() && input.sparse) {
        program.push_back(List({Sym("sparse"), Sym(input.tensor)}));
      }
    }
    for (const LocalArray& local : analysis_.locals) {
      if (NeedsKeptArray(local)) {
        // The tasks compute in a local array of their own, whose proper
        // elements a last task copies into the one that holds the output.
        LocalArray kept = KeptArray(local);
        program.push_back(List({Sym("local"), Sym(LocalName(local.tensor)),
                                TypeOf(ElemOf(*kernel_.Find(local.tensor)),
                                       local.extended),
                                Sym("@PE")}));
        auto form = Local(kept, KeptName(local.tensor));
        if (!form.ok()) return form.status();
        program.push_back(*std::move(form));
        if (partial_.contains(local.tensor)) {
          auto zero = ZeroTask(kept, KeptName(local.tensor));
          if (!zero.ok()) return zero.status();
          program.push_back(*std::move(zero));
        }
        continue;
      }
      auto form = Local(local, LocalName(local.tensor));
      if (!form.ok()) return form.status();
      program.push_back(*std::move(form));
    }
    absl::flat_hash_set<std::string> zeroed;
    for (const Task& task : analysis_.tasks) {
      const Statement& statement = *task.statement;
      if (statement.update->is(Op::kReduce) &&
          zeroed.insert(statement.write.tensor).second) {
        auto zero = ZeroTask(statement);
        if (!zero.ok()) return zero.status();
        program.push_back(*std::move(zero));
      }
      auto form = TaskForm(task);
      if (!form.ok()) return form.status();
      program.push_back(*std::move(form));
    }
    for (const LocalArray& local : analysis_.locals) {
      if (!NeedsKeptArray(local)) continue;
      auto copy = CopyOutTask(local);
      if (!copy.ok()) return copy.status();
      program.push_back(*std::move(copy));
    }
    procs_.push_back(List(std::move(program)));
    std::string text;
    for (const EmbeddedFile& file : Cs1LibraryFiles()) {
      absl::StrAppend(&text, file.text, "\n");
    }
    absl::StrAppend(&text, PrintForms(procs_, ir::HeaderOperands));
    // Read back as every tool reads TIR: what polysimd writes verifies.
    auto module = ir::ReadModule(MakeSource("polysimd's output", text));
    if (!module.ok()) {
      return absl::InternalError(absl::StrCat(
          "the CS-1 module polysimd wrote does not verify (a bug):\n",
          module.status().message()));
    }
    return text;
  }

 private:
  // Names of the module free of the kernel's tensors' and their local
  // arrays'.
  std::string Fresh(const std::string& base) {
    std::string name = base;
    while (!taken_.insert(name).second) absl::StrAppend(&name, "_");
    return name;
  }

  void ChooseNames() {
    for (const Tensor& tensor : kernel_.tensors) {
      taken_.insert(tensor.name);
      taken_.insert(LocalName(tensor.name));
    }
    px_ = Fresh("px");
    py_ = Fresh("py");
    value_ = Fresh("v");
    iterator_ = "c";
    for (int k = 0; k < kMaxSimdDims + 8; ++k) {
      if (taken_.contains(absl::StrCat(iterator_, k))) {
        absl::StrAppend(&iterator_, "_");
        k = -1;
      }
    }
    for (int k = 0; k < 8; ++k) taken_.insert(absl::StrCat(iterator_, k));
    // The indices of a recv (per dimension of the highest rank) and the
    // index values passed to a task's procedure (`index` is a TIR type:
    // idx, idx_0, ...): bound in one task each, so shared by all.
    size_t rank = 0;
    for (const Tensor& tensor : kernel_.tensors) {
      rank = std::max(rank, tensor.dims.size());
    }
    for (size_t k = 0; k < rank; ++k) {
      recv_.push_back(Fresh(absl::StrCat("i", k)));
    }
    for (const placement::TensorClause& clause : placement_.inputs) {
      if (!clause.stream()) continue;
      const int count =
          static_cast<int>(clause.map.range_factor_range().range_tuple_dim());
      for (int k = 0; k < count; ++k) {
        const std::string id = IndexName(k, count);
        if (!index_params_.contains(id)) {
          index_params_[id] = Fresh("idx" + id.substr(5));
        }
      }
    }
    pe_names_["PE_X"] = Sym(px_);
    pe_names_["PE_Y"] = Sym(py_);
    grid_ = isl::set(ctx_, absl::StrCat("[PE_X, PE_Y] -> { : 0 <= PE_X < ",
                                        analysis_.grid.nx, " and 0 <= PE_Y < ",
                                        analysis_.grid.ny, " }"));

  }

  static std::string LocalName(const std::string& tensor) {
    return tensor + "_local";
  }
  static std::string KeptName(const std::string& tensor) {
    return tensor + "_kept";
  }

  // Whether the extra instances of a box hull write elements of the output
  // `local` holds (into its extension, over other PEs' elements or its
  // own unwritten ones), which must not come back: then the tasks compute
  // in `local` and a last task copies what the PE computes into a kept
  // array.
  bool NeedsKeptArray(const LocalArray& local) const {
    const Tensor& tensor = *kernel_.Find(local.tensor);
    if (tensor.role != TensorRole::kOutput) return false;
    if (not_box_.contains(local.tensor)) return true;
    for (const Task& task : analysis_.tasks) {
      if (task.method == Method::kBoxHull &&
          task.statement->write.tensor == local.tensor &&
          task.extra_elements &&
          !task.extra_elements->intersect(tensor.elements).is_empty()) {
        return true;
      }
    }
    return false;
  }

  // The array that holds what a PE keeps of an output: the box hull of
  // what it touches, not extended.
  static LocalArray KeptArray(const LocalArray& local) {
    LocalArray kept = local;
    kept.extended = local.size;
    kept.shift.assign(local.size.size(), 0);
    return kept;
  }

  static Sexpr TypeOf(ElemType elem, const std::vector<int64_t>& dims) {
    std::vector<Sexpr> type = {Sym(std::string(ElemTypeName(elem)))};
    for (int64_t dim : dims) type.push_back(Sexpr::Int(dim));
    return List(std::move(type));
  }

  static ElemType ElemOf(const Tensor& tensor) {
    return tensor.decl->declared_type().elem();
  }

  Sexpr Params() const {
    std::vector<Sexpr> params;
    for (const Tensor& tensor : kernel_.tensors) {
      if (tensor.role == TensorRole::kLocal) continue;
      params.push_back(
          List({Sym(tensor.role == TensorRole::kInput ? "in" : "out"),
                Sym(tensor.name), TypeOf(ElemOf(tensor), tensor.dims)}));
    }
    return List(std::move(params));
  }

  // Which PEs compute each element `statement` writes: one, or several
  // adding partial sums (a reduction only); a kept element must be kept by
  // a PE that computes it.
  absl::Status CheckWrites(const Statement& statement) {
    const Tensor& tensor = *kernel_.Find(statement.write.tensor);
    if (tensor.role != TensorRole::kOutput) return absl::OkStatus();
    const placement::TensorClause& clause =
        *placement_.Output(statement.write.tensor);
    isl::map writers = statement.write.map
                           .intersect_domain(statement.instances)
                           .reverse()
                           .apply_range(analysis_.grid.PlaceOf(statement));
    auto [it, fresh] = writers_.try_emplace(tensor.name, writers);
    if (!fresh) it->second = it->second.unite(writers);
    isl::set split = writers.lexmin().subtract(writers.lexmax()).domain();
    if (!split.is_empty()) {
      // A reduction split over PEs (section 4.2): each PE computes partial
      // sums of the elements it touches, which come back added.
      if (!statement.update->is(Op::kReduce)) {
        isl::set element = split.lexmin();
        return ErrorAt(
            placement_.place_loc,
            absl::StrCat("the instances that assign ",
                         placement::FirstPoint(element),
                         " run on several PEs; only a reduction (+=) may be "
                         "split over PEs"));
      }
      partial_.insert(tensor.name);
    }
    // Where an element leaves, or on which PE it is kept: data moved there
    // by the fabric, which this level models by giving the element back
    // (added up, if partial) to the program's output. A kept element must
    // be kept by a PE that computes it.
    if (clause.stream()) return absl::OkStatus();
    isl::map kept = clause.map.apply_range(analysis_.grid.Shift(ctx_))
                        .intersect_domain(writers.domain());
    isl::map elsewhere = kept.subtract(writers);
    if (!elsewhere.is_empty()) {
      isl::set element = elsewhere.domain().lexmin();
      return ErrorAt(
          clause.map_loc,
          absl::StrCat(placement::FirstPoint(element), " is kept on ",
                       placement::FirstPoint(
                           kept.intersect_domain(element).range()),
                       " of the computation rectangle, which computes none "
                       "of it"));
    }
    return absl::OkStatus();
  }

  // (local T_local (E D...) @PE (holds T OFFSET...)): OFFSET the box
  // hull's offset plus the shift of its extension, of the PE coordinates.
  absl::StatusOr<Sexpr> Local(const LocalArray& local,
                              const std::string& name) {
    const Tensor& tensor = *kernel_.Find(local.tensor);
    std::vector<Sexpr> form = {Sym("local"), Sym(name),
                               TypeOf(ElemOf(tensor), local.extended),
                               Sym("@PE")};
    if (tensor.role == TensorRole::kLocal) return List(std::move(form));
    isl::map offset = isl::manage(isl_map_from_multi_aff(local.offset.copy()));
    isl::set at = offset.bind_domain(
        NamedIds(offset.domain().space(), {"PE_X", "PE_Y"}));
    std::vector<Sexpr> holds = {Sym("holds"), Sym(tensor.name)};
    for (size_t d = 0; d < local.shift.size(); ++d) {
      isl::pw_aff value =
          isl::manage(isl_set_dim_max(at.copy(), static_cast<int>(d)))
              .add_constant(isl::val(ctx_, local.shift[d]));
      auto expr = ParamExpr(value, grid_, pe_names_);
      if (!expr.ok()) return expr.status();
      holds.push_back(*std::move(expr));
    }
    form.push_back(List(std::move(holds)));
    if (partial_.contains(tensor.name)) {
      form.push_back(List({Sym("partial"), Sym("add")}));
    }
    return List(std::move(form));
  }

  // Whether the box of the kept array of `local` (an output's) covers
  // elements of the output its PE does not compute: a local array holding
  // part of an output gives back every element of its box inside the
  // output (formats/tir/README.md, `holds`), so that the PE's part is then
  // computed apart and its elements copied into a kept array of partial
  // sums, the others zeros.
  bool CoversOthers(const LocalArray& local, const Tensor& tensor) const {
    isl::map held =
        KeptArray(local).Covered(tensor.elements, analysis_.grid.Pes(ctx_));
    return !held.subtract(writers_.at(tensor.name).reverse()).is_empty();
  }

  absl::StatusOr<Sexpr> ZeroTask(const Statement& statement) {
    const LocalArray& local = *analysis_.Local(statement.write.tensor);
    if (!ZeroInitialised(*statement.update, local.tensor)) {
      return ErrorAt(statement.update->loc(),
                     absl::StrCat("polysimd accumulates into tensors set to "
                                  "zero first; '",
                                  local.tensor, "' is not"));
    }
    return ZeroTask(local, LocalName(local.tensor));
  }

  // A task zeroing the local array `name` of `local`'s shape.
  absl::StatusOr<Sexpr> ZeroTask(const LocalArray& local,
                                 const std::string& name) {
    const ElemType elem = ElemOf(*kernel_.Find(local.tensor));
    const char* zero = ZeroInstruction(elem);
    if (zero == nullptr) {
      return ErrorAt(kernel_.Find(local.tensor)->decl->loc(),
                     absl::StrCat("polysimd zeroes f32 and f16 local arrays "
                                  "(the target's instructions), and '",
                                  local.tensor, "' is ",
                                  ElemTypeName(elem)));
    }
    int64_t count = 1;
    for (int64_t dim : local.extended) count *= dim;
    return List({Sym("task"),
                 List({Sym("call"), Sym(zero), Sexpr::Int(count),
                       Sexpr::Int(1), Sexpr::Int(1), Sexpr::Int(1),
                       List({Sym("dsd"), Sym(name), Sexpr::Int(0),
                             List({Sexpr::Int(count), Sexpr::Int(1)})})})});
  }

  // The element of the local array `name` that `function` (of
  // `coordinates`, bound to `ids`) reaches: (NAME I...).
  absl::StatusOr<Sexpr> ElementAt(const std::string& name,
                                  const isl::multi_aff& function,
                                  const isl::space& space,
                                  const std::vector<std::string>& ids,
                                  const IslNames& names) {
    std::vector<Sexpr> load = {Sym(name)};
    for (int d = 0; d < static_cast<int>(function.size()); ++d) {
      isl::pw_aff index =
          isl::pw_aff(function.at(d)).bind_domain(NamedIds(space, ids));
      auto expr =
          ParamExpr(index, isl::set::universe(index.domain().space()), names);
      if (!expr.ok()) return expr.status();
      load.push_back(*std::move(expr));
    }
    return List(std::move(load));
  }

  // The last task for an output computed apart from the array that holds
  // it: a procedure of isl's loops over the elements the PE computes,
  // copying each.
  absl::StatusOr<Sexpr> CopyOutTask(const LocalArray& local) {
    const Tensor& tensor = *kernel_.Find(local.tensor);
    const LocalArray kept = KeptArray(local);
    const std::string name =
        absl::StrCat(kernel_.proc->name(), ".", tensor.name, ".out");
    const Sexpr elem = Sym(std::string(ElemTypeName(ElemOf(tensor))));
    std::vector<Sexpr> proc = {
        Sym("proc"), Sym(name),
        List({List({Sym("index"), Sym(px_)}), List({Sym("index"), Sym(py_)}),
              List({Sym("in"), Sym(LocalName(tensor.name)),
                    TypeOf(ElemOf(tensor), local.extended), Sym("@PE")}),
              List({Sym("inout"), Sym(KeptName(tensor.name)),
                    TypeOf(ElemOf(tensor), kept.extended), Sym("@PE")})})};
    IslNames names = pe_names_;
    auto assertion =
        ParamCondition(grid_, isl::set::universe(grid_.space()), names);
    if (!assertion.ok()) return assertion.status();
    proc.push_back(List({Sym("assert"), *std::move(assertion)}));
    // The elements the PE computes, of PE_X and PE_Y.
    isl::map computed = writers_.at(tensor.name).reverse();
    isl::set elements = computed.bind_domain(
        NamedIds(computed.domain().space(), {"PE_X", "PE_Y"}));
    std::optional<isl::multi_aff> from = AffineOf(local.ToLocal());
    std::optional<isl::multi_aff> to = AffineOf(kept.ToLocal());
    if (!from || !to) {
      return absl::InternalError("a local array's map is not affine");
    }
    isl::union_map schedule(
        isl::manage(isl_map_identity(
                        isl_space_map_from_set(elements.space().release())))
            .intersect_domain(elements));
    isl::ast_node tree = BuildFrom(grid_).node_from_schedule_map(schedule);
    auto body = AstStatements(
        tree, iterator_, names,
        [&](const std::vector<Sexpr>& coordinates)
            -> absl::StatusOr<std::vector<Sexpr>> {
          IslNames at = names;
          std::vector<std::string> ids;
          for (size_t k = 0; k < coordinates.size(); ++k) {
            ids.push_back(absl::StrCat("coordinate_", k));
            at[ids.back()] = coordinates[k];
          }
          auto target = ElementAt(KeptName(tensor.name), *to,
                                  elements.space(), ids, at);
          if (!target.ok()) return target.status();
          auto source = ElementAt(LocalName(tensor.name), *from,
                                  elements.space(), ids, at);
          if (!source.ok()) return source.status();
          return std::vector<Sexpr>{
              List({Sym("assign"), *std::move(target), *std::move(source)})};
        });
    if (!body.ok()) return body.status();
    for (Sexpr& stmt : *body) proc.push_back(std::move(stmt));
    procs_.push_back(List(std::move(proc)));
    return List({Sym("task"),
                 List({Sym("call"), Sym(name), Sym(px_), Sym(py_),
                       Sym(LocalName(tensor.name)),
                       Sym(KeptName(tensor.name))})});
  }

  // What a task's isl objects name: the PE coordinates and, for a task on
  // the arrival of an element, its index values as expressions of the
  // recv's indices `recv`.
  absl::StatusOr<IslNames> TaskNames(const Task& task,
                                     const std::vector<std::string>& recv) {
    IslNames names = pe_names_;
    if (task.trigger == nullptr) return names;
    const Tensor& tensor = *kernel_.Find(task.trigger->tensor);
    isl::map order = task.trigger->map.range_factor_range().intersect_domain(
        tensor.elements);
    // On a PE, the instances of the index values of an element received
    // must be those that read it: the index values tell apart the elements
    // each PE reads.
    isl::map told = isl::manage(isl_map_range_product(
        isl_map_domain_map(Readers(task).reverse().release()),
        isl_map_apply_range(isl_map_range_map(Readers(task).reverse().release()),
                            order.copy())));
    if (!told.is_injective()) {
      return ErrorAt(
          task.trigger->map_loc,
          absl::StrCat("the index values of '", tensor.name,
                       "' do not tell apart the elements a PE reads, so a "
                       "task cannot know from them which element arrived"));
    }
    std::vector<std::string> element_ids;
    IslNames element_names;
    for (size_t k = 0; k < recv.size(); ++k) {
      element_ids.push_back(absl::StrCat("element_", k));
      element_names[element_ids.back()] = Sym(recv[k]);
    }
    isl::pw_multi_aff values = order.as_pw_multi_aff();
    const int count = static_cast<int>(order.range_tuple_dim());
    for (int k = 0; k < count; ++k) {
      isl::pw_aff value = values.at(k).bind_domain(
          NamedIds(order.domain().space(), element_ids));
      auto expr = ParamExpr(value, isl::set::universe(value.domain().space()),
                            element_names);
      if (!expr.ok()) return expr.status();
      names[IndexName(k, count)] = *std::move(expr);
    }
    return names;
  }

  // The function from the task's compressed space to the local array of
  // `access`.
  absl::StatusOr<isl::multi_aff> LocalAccess(const Task& task,
                                             const Access& access) {
    isl::map function =
        isl::manage(isl_map_from_multi_aff(task.compression.copy()))
            .apply_range(access.map)
            .apply_range(analysis_.Local(access.tensor)->ToLocal());
    std::optional<isl::multi_aff> affine = AffineOf(function);
    if (!affine) {
      return ErrorAt(access.node->loc(),
                     "polysimd's tasks access local arrays affinely; this "
                     "access is not (a bug)");
    }
    return *affine;
  }

  absl::StatusOr<Sexpr> TaskForm(const Task& task) {
    std::vector<std::string> recv;
    std::vector<Sexpr> form = {Sym("task")};
    if (task.trigger != nullptr) {
      const Tensor& tensor = *kernel_.Find(task.trigger->tensor);
      recv.assign(recv_.begin(), recv_.begin() + tensor.dims.size());
    }
    auto names = TaskNames(task, recv);
    if (!names.ok()) return names.status();
    if (task.trigger != nullptr) {
      std::vector<Sexpr> indices;
      for (const std::string& name : recv) indices.push_back(Sym(name));
      std::vector<Sexpr> clause = {Sym("recv"), Sym(task.trigger->tensor),
                                   List(std::move(indices)), Sym(value_)};
      // The fabric brings each element to the PEs whose instances read it.
      std::vector<std::string> element_ids;
      IslNames element_names = pe_names_;
      for (size_t k = 0; k < recv.size(); ++k) {
        element_ids.push_back(absl::StrCat("element_", k));
        element_names[element_ids.back()] = Sym(recv[k]);
      }
      std::vector<std::string> ids = element_ids;
      ids.push_back("PE_X");
      ids.push_back("PE_Y");
      isl::set pairs =
          isl::manage(isl_set_flatten(Readers(task).wrap().release()));
      isl::set reached = pairs.bind(NamedIds(pairs.space(), ids));
      isl::set context = ElementsAsParams(task, element_ids).intersect(grid_);
      if (isl_set_plain_is_universe(reached.gist(context).get()) !=
          isl_bool_true) {
        auto expr = ParamCondition(reached, context, element_names);
        if (!expr.ok()) return expr.status();
        clause.push_back(*std::move(expr));
      }
      form.push_back(List(std::move(clause)));
    }
    auto call = TaskCall(task, *names);
    if (!call.ok()) return call.status();
    form.push_back(*std::move(call));
    return List(std::move(form));
  }

  // The call a task makes, as its SIMD decision says: one instruction (box
  // hull), a procedure choosing among configurations (base case, size
  // enumeration), or a procedure of explicit loops, which is also what a
  // configuration isl cannot write in TIR falls back to.
  absl::StatusOr<Sexpr> TaskCall(const Task& task, const IslNames& names) {
    switch (task.method) {
      case Method::kBoxHull:
        return SimdCall(task, isl::multi_pw_aff(*task.offset), task.sizes,
                        task.known, names);
      case Method::kBaseCase:
      case Method::kSizeEnumeration: {
        const size_t procs = procs_.size();
        auto call = ProcCall(task, names,
                             [&](const isl::set& context, IslNames& inside) {
                               return Configurations(task, context, inside);
                             });
        if (call.ok() || !absl::IsUnimplemented(call.status())) return call;
        procs_.resize(procs);
        break;
      }
      case Method::kLoops:
        break;
    }
    return ProcCall(task, names,
                    [&](const isl::set& context, IslNames& inside) {
                      return Loops(task, context, inside);
                    });
  }

  // x[...] -> PE[x, y]: the PEs whose instances of the task's statement
  // read each element of the task's streamed input.
  isl::map Readers(const Task& task) const {
    const Statement& statement = *task.statement;
    isl::map readers;
    for (const Access& read : statement.reads) {
      if (read.tensor != task.trigger->tensor) continue;
      isl::map pes = read.map.intersect_domain(statement.instances)
                         .reverse()
                         .apply_range(analysis_.grid.PlaceOf(statement));
      readers = readers.is_null() ? pes : readers.unite(pes);
    }
    return readers;
  }

  // The elements of the task's streamed input, as parameters `ids`.
  isl::set ElementsAsParams(const Task& task,
                            const std::vector<std::string>& ids) const {
    const isl::set& elements = kernel_.Find(task.trigger->tensor)->elements;
    return elements.bind(NamedIds(elements.space(), ids));
  }

  // A call of the task's SIMD instruction of sizes `sizes` whose operands
  // are the local arrays the statement accesses, each through a
  // descriptor: from the instance `at` (of the parameters), at the strides
  // the access moves by per compressed dimension.
  absl::StatusOr<Sexpr> SimdCall(const Task& task,
                                 const isl::multi_pw_aff& at,
                                 const std::vector<int64_t>& sizes,
                                 const isl::set& context,
                                 const IslNames& names) {
    const Statement& statement = *task.statement;
    std::vector<Sexpr> call = {Sym("call"), Sym(task.instruction)};
    for (int k = 0; k < kMaxSimdDims; ++k) {
      call.push_back(
          Sexpr::Int(k < static_cast<int>(sizes.size()) ? sizes[k] : 1));
    }
    std::vector<const Access*> operands = {&statement.write};
    for (const Access& read : statement.reads) {
      if (read.tensor != task.trigger->tensor) operands.push_back(&read);
    }
    for (const Access* access : operands) {
      auto operand = Descriptor(task, *access, at, sizes, context, names);
      if (!operand.ok()) return operand.status();
      call.push_back(*std::move(operand));
    }
    call.push_back(Sym(value_));
    return List(std::move(call));
  }

  absl::StatusOr<Sexpr> Descriptor(const Task& task, const Access& access,
                                   const isl::multi_pw_aff& at,
                                   const std::vector<int64_t>& sizes,
                                   const isl::set& context,
                                   const IslNames& names) {
    auto local = LocalAccess(task, access);
    if (!local.ok()) return local.status();
    const std::vector<int64_t>& dims = analysis_.Local(access.tensor)->extended;
    // The flat row-major position in the local array.
    isl::aff flat = local->at(static_cast<int>(dims.size()) - 1);
    int64_t row = 1;
    for (size_t d = dims.size() - 1; d-- > 0;) {
      row *= dims[d + 1];
      flat = flat.add(local->at(static_cast<int>(d)).scale(isl::val(ctx_, row)));
    }
    std::vector<Sexpr> dsd = {Sym("dsd"), Sym(LocalName(access.tensor))};
    isl::multi_pw_aff point = isl::manage(isl_multi_pw_aff_align_params(
        at.copy(), isl_aff_get_space(flat.get())));
    isl::pw_aff base = isl::manage(isl_pw_aff_align_params(
        isl_pw_aff_from_aff(flat.copy()), point.space().release()));
    auto expr = ParamExpr(base.pullback(point), context, names);
    if (!expr.ok()) return expr.status();
    dsd.push_back(*std::move(expr));
    isl::aff rest = flat;
    for (size_t k = 0; k < sizes.size(); ++k) {
      isl_val* stride = isl_aff_get_coefficient_val(
          flat.get(), isl_dim_in, static_cast<int>(k));
      const int64_t value = isl_val_get_num_si(stride);
      isl_val_free(stride);
      dsd.push_back(List({Sexpr::Int(sizes[k]), Sexpr::Int(value)}));
      rest = isl::manage(isl_aff_set_coefficient_si(
          rest.release(), isl_dim_in, static_cast<int>(k), 0));
    }
    if (isl_aff_involves_dims(rest.get(), isl_dim_in, 0,
                              static_cast<unsigned>(sizes.size())) !=
        isl_bool_false) {
      return ErrorAt(access.node->loc(),
                     "this access moves through its local array by no "
                     "fixed stride (a bug: a SIMD decision was taken)");
    }
    return List(std::move(dsd));
  }

  // The configurations of a task decided by the base case (5.1) or size
  // enumeration (5.4): one SIMD call per size its instance sets take, from
  // their least point, chosen by the size. Unimplemented when isl writes
  // the size or the offset as something TIR cannot say.
  absl::StatusOr<std::vector<Sexpr>> Configurations(const Task& task,
                                                    const isl::set& context,
                                                    const IslNames& names) {
    isl::set taken = isl::manage(isl_set_project_out_all_params(
        isl_set_intersect_params(isl_set_from_multi_pw_aff(task.size->copy()),
                                 task.known.copy())));
    const int dims = static_cast<int>(taken.tuple_dim());
    std::vector<std::vector<int64_t>> sizes;
    if (isl_set_is_bounded(taken.get()) != isl_bool_true) {
      return absl::UnimplementedError("the sizes are unbounded");
    }
    struct Points {
      int dims;
      std::vector<std::vector<int64_t>>& sizes;
    } points{dims, sizes};
    isl_stat ok = isl_set_foreach_point(
        taken.get(),
        [](isl_point* point, void* user) -> isl_stat {
          auto& [dims, out] = *static_cast<Points*>(user);
          if (out.size() == kMaxConfigurations) {
            isl_point_free(point);
            return isl_stat_error;
          }
          std::vector<int64_t> size;
          for (int d = 0; d < dims; ++d) {
            isl_val* value = isl_point_get_coordinate_val(point, isl_dim_set, d);
            size.push_back(isl_val_get_num_si(value));
            isl_val_free(value);
          }
          isl_point_free(point);
          out.push_back(std::move(size));
          return isl_stat_ok;
        },
        &points);
    if (ok != isl_stat_ok) {
      return absl::UnimplementedError("too many configurations");
    }
    std::vector<Sexpr> stmts;
    for (const std::vector<int64_t>& size : sizes) {
      std::vector<Sexpr> conjuncts;
      for (size_t d = 0; d < size.size(); ++d) {
        if (size[d] <= 0) return absl::UnimplementedError("an empty size");
        auto extent = ParamExpr(task.size->at(static_cast<int>(d)), context,
                                names);
        if (!extent.ok()) return extent.status();
        conjuncts.push_back(
            List({Sym("=="), *std::move(extent), Sexpr::Int(size[d])}));
      }
      Sexpr cond = std::move(conjuncts[0]);
      for (size_t d = 1; d < conjuncts.size(); ++d) {
        cond = List({Sym("and"), std::move(cond), std::move(conjuncts[d])});
      }
      auto call = SimdCall(task, *task.minimum, size, context, names);
      if (!call.ok()) return call.status();
      stmts.push_back(List({Sym("if"), std::move(cond),
                            List({Sym("then"), *std::move(call)})}));
    }
    return stmts;
  }

  // The body of a task's procedure: its statements, given where they run
  // (`context`, of the parameters) and what isl's names are there.
  using ProcBody = std::function<absl::StatusOr<std::vector<Sexpr>>(
      const isl::set& context, IslNames& names)>;

  // A procedure `@KERNEL.STATEMENT.task` for `task`, and its call: its
  // parameters the PE's coordinates, the index values and the element
  // received (for a task on an arrival) and the local arrays the statement
  // accesses; it asserts where it runs.
  absl::StatusOr<Sexpr> ProcCall(const Task& task, const IslNames& names,
                                 const ProcBody& body) {
    const Statement& statement = *task.statement;
    const std::string name =
        absl::StrCat(kernel_.proc->name(), ".", statement.name, ".task");
    std::vector<Sexpr> params = {List({Sym("index"), Sym(px_)}),
                                 List({Sym("index"), Sym(py_)})};
    std::vector<Sexpr> call = {Sym("call"), Sym(name), Sym(px_), Sym(py_)};
    IslNames inside = pe_names_;
    isl::set context = grid_;
    if (task.trigger != nullptr) {
      const int count = static_cast<int>(
          task.trigger->map.range_factor_range().range_tuple_dim());
      for (int k = 0; k < count; ++k) {
        const std::string id = IndexName(k, count);
        const std::string& param = index_params_.at(id);
        params.push_back(List({Sym("index"), Sym(param)}));
        call.push_back(names.at(id));
        inside[id] = Sym(param);
      }
      params.push_back(
          List({Sym("in"), Sym(value_),
                Sym(std::string(ElemTypeName(
                    ElemOf(*kernel_.Find(task.trigger->tensor)))))}));
      call.push_back(Sym(value_));
      context = task.known;
    }
    std::vector<const Access*> accesses = {&statement.write};
    absl::flat_hash_set<std::string> passed;
    for (const Access& read : statement.reads) accesses.push_back(&read);
    for (const Access* access : accesses) {
      if (task.trigger != nullptr && access->tensor == task.trigger->tensor) {
        continue;
      }
      if (!passed.insert(access->tensor).second) continue;
      const LocalArray& local = *analysis_.Local(access->tensor);
      params.push_back(List(
          {Sym(access == &statement.write ? "inout" : "in"),
           Sym(LocalName(access->tensor)),
           TypeOf(ElemOf(*kernel_.Find(access->tensor)), local.extended),
           Sym("@PE")}));
      call.push_back(Sym(LocalName(access->tensor)));
    }
    std::vector<Sexpr> proc = {Sym("proc"), Sym(name), List(std::move(params))};
    if (isl_set_plain_is_universe(context.get()) != isl_bool_true) {
      auto assertion = ParamCondition(context, isl::set::universe(
                                                   context.space()),
                                      inside);
      if (!assertion.ok()) return assertion.status();
      proc.push_back(List({Sym("assert"), *std::move(assertion)}));
    }
    auto stmts = body(context, inside);
    if (!stmts.ok()) return stmts.status();
    for (Sexpr& stmt : *stmts) proc.push_back(std::move(stmt));
    procs_.push_back(List(std::move(proc)));
    return List(std::move(call));
  }

  // isl's loops over the task's compressed instances.
  absl::StatusOr<std::vector<Sexpr>> Loops(const Task& task,
                                           const isl::set& context,
                                           IslNames& names) {
    isl::union_map schedule(
        isl::manage(isl_map_identity(
                        isl_space_map_from_set(task.compressed.space().release())))
            .intersect_domain(task.compressed));
    isl::ast_node tree = BuildFrom(context).node_from_schedule_map(schedule);
    return AstStatements(tree, iterator_, names,
                         [&](const std::vector<Sexpr>& coordinates) {
                           return Update(task, coordinates, names);
                         });
  }

  // The statement's update at the instance `coordinates` of the compressed
  // space, on local arrays and the element received.
  absl::StatusOr<std::vector<Sexpr>> Update(
      const Task& task, const std::vector<Sexpr>& coordinates,
      const IslNames& names) {
    const Statement& statement = *task.statement;
    IslNames at = names;
    std::vector<std::string> ids;
    for (size_t k = 0; k < coordinates.size(); ++k) {
      ids.push_back(absl::StrCat("coordinate_", k));
      at[ids.back()] = coordinates[k];
    }
    auto element = [&](const Access& access) -> absl::StatusOr<Sexpr> {
      if (task.trigger != nullptr && access.tensor == task.trigger->tensor) {
        return Sym(value_);
      }
      auto local = LocalAccess(task, access);
      if (!local.ok()) return local.status();
      return ElementAt(LocalName(access.tensor), *local,
                       task.compressed.space(), ids, at);
    };
    Sexpr update = ir::WriteNode(*statement.update);
    auto target = element(statement.write);
    if (!target.ok()) return target.status();
    update.mutable_items()[1] = *std::move(target);
    size_t next = 0;
    absl::Status status;
    std::function<void(Sexpr&)> replace = [&](Sexpr& expr) {
      if (!status.ok() || !expr.is_list()) return;
      if (next < statement.reads.size() &&
          expr.head() == statement.reads[next].tensor) {
        auto load = element(statement.reads[next++]);
        if (!load.ok()) {
          status = load.status();
          return;
        }
        expr = *std::move(load);
        return;
      }
      for (Sexpr& item : expr.mutable_items()) replace(item);
    };
    replace(update.mutable_items()[2]);
    if (!status.ok()) return status;
    return std::vector<Sexpr>{std::move(update)};
  }

  const Kernel& kernel_;
  const placement::Placement& placement_;
  const Analysis& analysis_;
  isl::ctx ctx_;
  absl::flat_hash_set<std::string> taken_;
  std::string px_, py_, value_, iterator_;
  std::vector<std::string> recv_;
  absl::flat_hash_map<std::string, std::string> index_params_;
  IslNames pe_names_;
  isl::set grid_;  // the rectangle, of the parameters PE_X and PE_Y
  // Per output, the PEs whose instances write each element, and the
  // outputs whose elements several PEs compute partial sums of.
  absl::flat_hash_map<std::string, isl::map> writers_;
  absl::flat_hash_set<std::string> partial_;
  // The outputs whose part on a PE is no box.
  absl::flat_hash_set<std::string> not_box_;
  std::vector<Sexpr> procs_;
};

}  // namespace

absl::StatusOr<std::string> Generate(const Kernel& kernel,
                                     const placement::Placement& placement,
                                     const Analysis& analysis) {
  return poly::Ask<std::string>(placement.place.ctx(), [&]() {
    return Generator(kernel, placement, analysis).Run();
  });
}

}  // namespace tessel::polysimd
