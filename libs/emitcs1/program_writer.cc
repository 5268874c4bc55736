#include "libs/emitcs1/program_writer.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "libs/emitc/c_names.h"
#include "libs/emitc/c_template.h"
#include "libs/emitc/emit_c.h"
#include "libs/emitc/expr_emitter.h"
#include "libs/emitc/proc_emitter.h"
#include "libs/emitc/scope.h"
#include "libs/ir/forms.h"
#include "libs/support/source.h"

namespace tessel::emitcs1 {
namespace {

// What cs1_api.h declares, which the output's names must not take.
const absl::flat_hash_set<std::string>& ApiIdentifiers() {
  static const auto* names = new absl::flat_hash_set<std::string>{
      "cs1_param",      "cs1_program",    "cs1_param_kind", "cs1_elem_type",
      "CS1_IN",         "CS1_OUT",        "CS1_INOUT",      "CS1_F32",
      "CS1_F16",        "cs1_pe_x",       "cs1_pe_y",       "cs1_configure",
      "CS1_MAX_CONFIGS", "cs1_dsd_f32",   "cs1_dsd_f16",    "cs1_dsd32",
      "cs1_dsd16",      "cs1_local",      "cs1_partial",    "cs1_task",
      "cs1_start_task", "cs1_recv_task",  "cs1_recv_index", "cs1_recv_f32",
      "cs1_recv_f16",   "cs1_recv_partial_f32", "cs1_recv_partial_f16",
      "cs1_send_partial_f32", "cs1_send_partial_f16", "CS1_DENSE",
      "CS1_SPARSE",     "cs1_arrival",
      "main",           "argc",           "argv"};
  return *names;
}

std::string ElemConstant(ElemType elem) {
  return elem == ElemType::kF16 ? "CS1_F16" : "CS1_F32";
}

// `(const int64_t[]){a, b}`.
std::string ArrayLiteral(const std::vector<std::string>& values) {
  return absl::StrCat("(const int64_t[]){", absl::StrJoin(values, ", "), "}");
}

}  // namespace

ProgramWriter::ProgramWriter(const ir::Module& module,
                             const ir::Node& program,
                             const Configurations& configs)
    : module_(module),
      program_(program),
      configs_(configs),
      params_(ir::ParamsOf(program)),
      globals_(emitc::AssignGlobalNames(module, ApiIdentifiers())) {
  for (const ir::Node* operand : program.operands()) {
    if (operand->is(ir::Op::kGrid)) {
      x_ = operand->operand(0);
      y_ = operand->operand(1);
    }
    if (operand->is(ir::Op::kLocal)) locals_.push_back(operand);
    if (operand->is(ir::Op::kTask)) tasks_.push_back(operand);
    if (operand->is(ir::Op::kSparse)) {
      sparse_.insert(operand->operand(0)->def());
    }
  }
  auto take = [this](absl::string_view name) { return Take(name); };
  for (const ir::Node* local : locals_) names_[local] = take(local->name());
  for (size_t k = 0; k < tasks_.size(); ++k) {
    task_names_.push_back(take(absl::StrCat(program.name(), "_task_", k)));
  }
  for (const ir::Node* local : locals_) {
    if (local->num_operands() < 2) continue;  // no (partial add)
    collect_names_.emplace_back(
        local, take(absl::StrCat(program.name(), "_collect_", local->name())));
  }
  auto local_name = [this](const ir::Node& coordinate) {
    return emitc::UniqueIdentifier(coordinate.name(), [this](absl::string_view n) {
      return globals_.taken.contains(n);
    });
  };
  x_name_ = local_name(*x_);
  y_name_ = local_name(*y_);
  params_name_ = take(absl::StrCat(program.name(), "_params"));
  setups_name_ = take(absl::StrCat(program.name(), "_setups"));
  class_of_name_ = take(absl::StrCat(program.name(), "_class_of"));
  extensions_.descriptor = [this](const ir::Node& dsd, const emitc::CExpr& data,
                                  const emitc::CExpr& base) {
    return Descriptor(dsd, data, base);
  };
}

std::string ProgramWriter::Take(absl::string_view name) {
  std::string c_name = emitc::UniqueIdentifier(
      name, [this](absl::string_view n) { return globals_.taken.contains(n); });
  globals_.taken.insert(c_name);
  return c_name;
}

absl::Status ProgramWriter::Translate() {
  auto classes = ClassifyPes(program_, tasks_, x_->int_value(), y_->int_value());
  if (!classes.ok()) return classes.status();
  classes_ = *std::move(classes);
  for (size_t k = 0; k < classes_.runs.size(); ++k) {
    setup_names_.push_back(Take(
        classes_.runs.size() == 1
            ? absl::StrCat(program_.name(), "_setup")
            : absl::StrCat(program_.name(), "_setup_", k)));
  }
  if (auto status = Locals(); !status.ok()) return status;
  if (auto status = Procedures(); !status.ok()) return status;
  for (size_t k = 0; k < tasks_.size(); ++k) {
    if (auto status = Task(*tasks_[k], static_cast<int>(k)); !status.ok()) {
      return status;
    }
  }
  for (const auto& [local, name] : collect_names_) {
    if (auto status = Collect(*local, name); !status.ok()) return status;
  }
  if (auto status = Setup(); !status.ok()) return status;
  Description();
  return absl::OkStatus();
}

absl::StatusOr<emitc::CExpr> ProgramWriter::Descriptor(
    const ir::Node& dsd, const emitc::CExpr& data,
    const emitc::CExpr& base) const {
  ElemType elem = dsd.type().elem();
  if (elem != ElemType::kF32 && elem != ElemType::kF16) {
    return ErrorAt(dsd.loc(),
                   absl::StrCat("cs1_api.h has descriptors of f32 and f16, "
                                "and this dsd describes ",
                                ElemTypeName(elem), " elements"));
  }
  return emitc::Call(elem == ElemType::kF32 ? "cs1_dsd32" : "cs1_dsd16",
                     {emitc::IntLiteral(configs_.IdOf(dsd)), data, base});
}

absl::Status ProgramWriter::Locals() {
  text_ += "/* PE memory: the local arrays. */\n";
  for (const ir::Node* local : locals_) {
    const ir::Type& type = local->declared_type();
    int64_t size = 1;
    if (type.is_shaped()) {
      for (const ir::Dim& dim : type.dims()) size *= dim.value;
    }
    const ir::Node& memory = ir::MemoryOf(module_, *local);
    const ir::Node* alloc = ir::FindClause(memory, "alloc");
    if (alloc == nullptr) {
      return ErrorAt(local->loc(), absl::StrCat("the memory ", memory.name(),
                                                " of '", local->name(),
                                                "' has no alloc template"));
    }
    std::string name = names_.at(local);
    auto text = emitc::ExpandTemplate(
        alloc->text(), alloc->item_loc(1),
        absl::StrCat("the alloc template of ", memory.name()),
        [&](absl::string_view placeholder)
            -> absl::StatusOr<std::optional<emitc::CExpr>> {
          if (placeholder == "type") {
            return emitc::Primary(std::string(ElemTypeCName(type.elem())));
          }
          if (placeholder == "name") return emitc::Primary(name);
          if (placeholder == "size") return emitc::IntLiteral(size);
          return std::nullopt;
        });
    if (!text.ok()) return text.status();
    absl::StrAppend(&text_, *text, "\n");
  }
  return absl::OkStatus();
}

absl::Status ProgramWriter::Procedures() {
  for (const ir::Node* proc : emitc::ProceduresCalleesFirst(module_)) {
    auto text =
        emitc::EmitProcedure(module_, globals_, *proc, needs_, extensions_);
    if (!text.ok()) return text.status();
    absl::StrAppend(&text_, "\n", *text);
  }
  return absl::OkStatus();
}

std::vector<emitc::OuterBinder> ProgramWriter::LocalBinders() const {
  std::vector<emitc::OuterBinder> binders;
  for (const ir::Node* local : locals_) {
    const ir::Type& type = local->declared_type();
    emitc::Binding binding;
    binding.c_name = names_.at(local);
    binding.elem = type.elem();
    if (!type.is_shaped()) {
      // A scalar local is an array of one element: its name is its address.
      binding.kind = emitc::BindingKind::kScalar;
      binding.by_pointer = true;
    } else {
      binding.kind = emitc::BindingKind::kBuffer;
      binding.is_tensor = true;
      std::vector<emitc::CExpr> dims;
      for (const ir::Dim& dim : type.dims()) {
        dims.push_back(emitc::IntLiteral(dim.value));
      }
      binding.view = emitc::WholeView(emitc::Primary(binding.c_name),
                                      emitc::RowMajorStrides(dims), dims,
                                      nullptr);
    }
    binders.push_back({local, std::move(binding)});
  }
  return binders;
}

absl::StatusOr<std::string> ProgramWriter::CoordinateExpr(const ir::Node& expr,
                                                          bool& x_used,
                                                          bool& y_used) {
  emitc::Scope scope(globals_.taken);
  scope.Push();
  emitc::Binding coordinate;
  coordinate.kind = emitc::BindingKind::kControl;
  coordinate.non_negative = true;
  coordinate.c_name = x_name_;
  emitc::Binding* x = scope.BindAlias(*x_, coordinate);
  coordinate.c_name = y_name_;
  emitc::Binding* y = scope.BindAlias(*y_, coordinate);
  emitc::ExprEmitter emitter(globals_, scope);
  auto value = emitter.Control(expr);
  if (!value.ok()) return value.status();
  emitc::Scope::Commit(value->uses, needs_);
  x_used |= x->used;
  y_used |= y->used;
  return value->text;
}

std::string ProgramWriter::CoordinateDeclarations(bool x_used,
                                                  bool y_used) const {
  std::string text;
  if (x_used) {
    absl::StrAppend(&text, "  const int64_t ", x_name_, " = cs1_pe_x();\n");
  }
  if (y_used) {
    absl::StrAppend(&text, "  const int64_t ", y_name_, " = cs1_pe_y();\n");
  }
  return text;
}

absl::Status ProgramWriter::Setup() {
  std::string body =
      "  /* The SIMD engine, once per descriptor shape (EXTENT STRIDE)... */\n";
  for (size_t id = 0; id < configs_.shapes().size(); ++id) {
    std::vector<std::string> extents, strides, pairs;
    for (const auto& [extent, stride] : configs_.shapes()[id]) {
      extents.push_back(absl::StrCat(extent));
      strides.push_back(absl::StrCat(stride));
      pairs.push_back(absl::StrCat("(", extent, " ", stride, ")"));
    }
    absl::StrAppend(&body, "  cs1_configure(", id, ", ", extents.size(), ", ",
                    ArrayLiteral(extents), ", ", ArrayLiteral(strides),
                    ");  /* ", absl::StrJoin(pairs, " "), " */\n");
  }
  bool x_used = false, y_used = false;
  body += "  /* ... the local arrays, with the parts they hold ... */\n";
  for (const ir::Node* local : locals_) {
    const ir::Type& type = local->declared_type();
    int64_t size = 1;
    std::vector<std::string> dims;
    if (type.is_shaped()) {
      for (const ir::Dim& dim : type.dims()) {
        size *= dim.value;
        dims.push_back(absl::StrCat(dim.value));
      }
    }
    std::string holds = "-1, NULL, NULL";
    if (local->num_operands() > 0) {
      const ir::Node& clause = *local->operand(0);
      size_t param = 0;
      while (params_[param] != clause.operand(0)->def()) ++param;
      std::vector<std::string> offsets;
      for (size_t d = 1; d < clause.num_operands(); ++d) {
        auto offset = CoordinateExpr(*clause.operand(d), x_used, y_used);
        if (!offset.ok()) return offset.status();
        offsets.push_back(*std::move(offset));
      }
      holds = absl::StrCat(param, " /* ", params_[param]->name(), " */, ",
                           ArrayLiteral(dims), ", ", ArrayLiteral(offsets));
    }
    absl::StrAppend(&body, "  cs1_local(", names_.at(local), ", ",
                    ElemConstant(type.elem()), ", ", size, ", ", holds,
                    ");\n");
    // (partial add): several PEs' partial results of one output element.
    if (local->num_operands() > 1) {
      absl::StrAppend(&body, "  cs1_partial(", names_.at(local), ");\n");
    }
  }
  const std::string common = body;
  for (size_t c = 0; c < classes_.runs.size(); ++c) {
    Setup(c, common, x_used, y_used);
  }
  return absl::OkStatus();
}

void ProgramWriter::Setup(size_t c, const std::string& common, bool x_used,
                          bool y_used) {
  std::string body = common;
  body += "  /* ... and the tasks, in order. */\n";
  for (size_t k = 0; k < tasks_.size(); ++k) {
    if (!classes_.runs[c][k]) continue;
    const ir::Node& first = *tasks_[k]->operand(0);
    if (!first.is(ir::Op::kRecv)) {
      absl::StrAppend(&body, "  cs1_start_task(", task_names_[k], ");\n");
      continue;
    }
    size_t param = 0;
    while (params_[param] != first.operand(0)->def()) ++param;
    absl::StrAppend(&body, "  cs1_recv_task(", param, " /* ",
                    params_[param]->name(), " */, ", task_names_[k], ");\n");
  }
  if (!collect_names_.empty()) {
    body += "  /* ... then the partial sums go along their chains. */\n";
  }
  for (const auto& [local, name] : collect_names_) {
    absl::StrAppend(&body, "  cs1_start_task(", name, ");\n");
  }
  std::string pes;
  if (classes_.runs.size() > 1) {
    std::vector<std::string> members;
    for (size_t pe = 0; pe < classes_.class_of.size(); ++pe) {
      if (classes_.class_of[pe] != static_cast<int>(c)) continue;
      const int64_t nx = x_->int_value();
      members.push_back(absl::StrCat("(", pe % nx, ", ", pe / nx, ")"));
    }
    pes = absl::StrCat("\n/* PE class ", c, ": PEs ",
                       absl::StrJoin(members, ", "), ". */");
  }
  absl::StrAppend(&text_, pes, "\nstatic void ", setup_names_[c],
                  "(void) {\n", CoordinateDeclarations(x_used, y_used), body,
                  "}\n");
}

void ProgramWriter::Description() {
  std::vector<std::string> params;
  for (const ir::Node* param : params_) {
    const ir::Type& type = param->declared_type();
    std::vector<std::string> dims;
    for (const ir::Dim& dim : type.dims()) dims.push_back(absl::StrCat(dim.value));
    const char* kind = param->param_kind() == ir::ParamKind::kIn    ? "CS1_IN"
                       : param->param_kind() == ir::ParamKind::kOut ? "CS1_OUT"
                                                                   : "CS1_INOUT";
    params.push_back(absl::StrCat(
        "  {", emitc::CStringLiteral(param->name()), ", ", kind, ", ",
        ElemConstant(type.elem()), ", ", dims.size(), ", ",
        dims.empty() ? "NULL" : ArrayLiteral(dims), ", ",
        sparse_.contains(param) ? "CS1_SPARSE" : "CS1_DENSE", "}"));
  }
  int64_t grid_x = x_->int_value();
  int64_t grid_y = y_->int_value();
  // One class: every PE runs the same setup (no table).
  std::string class_of = "NULL";
  std::string table;
  if (classes_.runs.size() > 1) {
    class_of = class_of_name_;
    table = absl::StrCat("static const int ", class_of_name_, "[] = {",
                         absl::StrJoin(classes_.class_of, ", "), "};\n");
  }
  absl::StrAppend(
      &text_, "\n/* The program: its parameters, grid and PE classes. */\n",
      "static const struct cs1_param ", params_name_, "[] = {\n",
      absl::StrJoin(params, ",\n"), "\n};\n",
      "static const cs1_task ", setups_name_, "[] = {",
      absl::StrJoin(setup_names_, ", "), "};\n", table,
      "const struct cs1_program cs1_program = {",
      emitc::CStringLiteral(absl::StripPrefix(program_.name(), "@")), ", ",
      grid_x, ", ", grid_y, ", ", params_.size(), ", ", params_name_, ", ",
      setup_names_.size(), ", ", setups_name_, ", ", class_of, "};\n");
}

}  // namespace tessel::emitcs1
