// Allocations: @DRAM scalars as plain locals, vectors as C vector locals,
// small @DRAM tensors of constant size as local arrays, other @DRAM tensors
// through the runtime's checked tsl_allocate (several of constant size at
// a proc's top level in one block), other memories through their
// templates; each released at the end of its block, and dropped when never
// used.
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/emitc/c_names.h"
#include "libs/emitc/c_template.h"
#include "libs/emitc/params.h"
#include "libs/emitc/proc_writer.h"
#include "libs/emitc/vector_types.h"
#include "libs/ir/forms.h"

namespace tessel::emitc {
namespace {

bool IsRefTo(const ir::Node& node, const ir::Node& binder) {
  return node.is(ir::Op::kRef) && node.def() == &binder;
}

bool Mentions(const ir::Node& node, const ir::Node& binder) {
  return ir::AnyNode(
      node, [&binder](const ir::Node& n) { return IsRefTo(n, binder); });
}

// Does `stmt`, which mentions `binder`, write the scalar without reading
// it: an assign, or a call passing it only to `out` parameters?
bool WritesFirst(const ir::Node& stmt, const ir::Node& binder) {
  if (stmt.is(ir::Op::kAssign)) {
    return IsRefTo(*stmt.operand(0), binder) &&
           !Mentions(*stmt.operand(1), binder);
  }
  if (!stmt.is(ir::Op::kCall)) return false;
  std::vector<ir::Node*> params = ir::ParamsOf(*stmt.def());
  for (size_t i = 0; i < params.size() && i < stmt.num_operands(); ++i) {
    const ir::Node& arg = *stmt.operand(i);
    bool out =
        IsRefTo(arg, binder) && params[i]->param_kind() == ir::ParamKind::kOut;
    if (!out && Mentions(arg, binder)) return false;
  }
  return true;
}

// True when the first of `rest` that mentions `binder` writes it first:
// every read of the new scalar then follows a write on every path, plainly
// enough for GCC's -Wmaybe-uninitialized to see it too.
bool AssignedBeforeUse(absl::Span<ir::Node* const> rest,
                       const ir::Node& binder) {
  for (const ir::Node* stmt : rest) {
    if (Mentions(*stmt, binder)) return WritesFirst(*stmt, binder);
  }
  return true;
}

CExpr ElementCount(const std::vector<CExpr>& dims) {
  CExpr count = IntLiteral(1);
  for (const CExpr& dim : dims) count = Multiply(count, dim);
  return count;
}

// The largest @DRAM tensor of constant size that is a local array rather
// than the heap's: a kernel's packed panel or staged tile is allocated in
// every call (a 64 x 64 f32 panel's malloc and free cost 4-8 % of a 64^3
// matmul), and 64 KiB leaves most of the smallest thread stack (2 MiB) to
// the caller.
constexpr int64_t kMaxStackBytes = 64 << 10;

// Whether the @DRAM tensor `local` of `count` elements is a local array.
bool OnStack(const Binding& local, const CExpr& count) {
  return count.constant.has_value() && *count.constant > 0 &&
         *count.constant <= kMaxStackBytes / ElemTypeBytes(local.elem);
}

// The declaration of a @DRAM tensor `local`, named `name` in TIR, of
// `count` elements. @DRAM has no template: a small one of constant size is
// a local array (OnStack), any other comes from the runtime's
// tsl_allocate, which stops the program with a message when the size
// overflows or malloc fails, where malloc's null pointer would crash the
// kernel. Both are aligned to a cache line, 64 bytes, so that no vector
// of a row spans two lines. Adds what the text uses to `uses`.
std::string DramAllocation(const std::string& name, const Binding& local,
                           const std::vector<CExpr>& dims, const CExpr& count,
                           Uses& uses) {
  absl::string_view type = ElemTypeCName(local.elem);
  if (OnStack(local, count)) {
    return absl::StrCat(type, " ", local.c_name, "[", *count.constant,
                        "] __attribute__((aligned(64)));");
  }
  std::vector<std::string> shape;
  for (const CExpr& dim : dims) {
    shape.push_back(dim.text);
    uses.Merge(dim.uses);
  }
  uses.needs.allocate = true;
  return absl::StrCat(type, " *", local.c_name, " = tsl_allocate(",
                      CStringLiteral(name), ", sizeof(", type, "), ",
                      dims.size(), ", (const int64_t[]){",
                      absl::StrJoin(shape, ", "), "});");
}

}  // namespace

void ProcWriter::NeedIncludes(const ir::Node& form, Needs& needs) {
  for (const ir::Node* clause : form.operands()) {
    if (clause->is(ir::Op::kClause) && clause->name() == "include") {
      needs.includes.insert(clause->text());
    }
  }
}

absl::StatusOr<std::string> ProcWriter::ExpandMemoryTemplate(
    absl::string_view clause, const Allocation& allocation, Uses& uses) {
  const ir::Node* form = ir::FindClause(*allocation.memory, clause);
  if (form == nullptr) return std::string();  // (free "") may be left out
  const ir::Node* registers = ir::FindClause(*allocation.memory, "register");
  return ExpandTemplate(
      form->text(), form->item_loc(1),
      absl::StrCat("the ", clause, " template of ", allocation.memory->name()),
      [&](absl::string_view name) -> absl::StatusOr<std::optional<CExpr>> {
        // A memory of registers declares a C array of registers.
        if (name == "type") {
          return Primary(registers != nullptr ? registers->text()
                                              : std::string(ElemTypeCName(
                                                    allocation.binding->elem)));
        }
        if (name == "shape") {
          size_t rank = allocation.dims.size() - (registers != nullptr);
          std::string shape;
          for (size_t d = 0; d < rank; ++d) {
            absl::StrAppend(&shape, "[", allocation.dims[d].text, "]");
            uses.Merge(allocation.dims[d].uses);
          }
          return Primary(shape);
        }
        if (name == "name") return Primary(allocation.binding->c_name);
        if (name == "size") {
          uses.Merge(allocation.size.uses);
          return allocation.size;
        }
        return std::nullopt;
      });
}

absl::Status ProcWriter::Alloc(const ir::Node& stmt,
                               absl::Span<ir::Node* const> rest, int depth,
                               std::vector<Allocation>& allocations) {
  const ir::Type& type = stmt.declared_type();
  if (type.is_vector()) return AllocVector(stmt, rest, depth, allocations);
  const ir::Node& memory = ir::MemoryOf(module_, stmt);
  bool dram = &memory == module_.dram();
  auto dims = Dimensions(type, expr_);
  if (!dims.ok()) return dims.status();
  Binding binding;
  binding.elem = type.elem();
  if (type.is_elem() && dram) {
    // A DRAM scalar is a plain local. Its initial value is undefined; a
    // zero stands in for it where GCC could not prove it written first.
    binding.kind = BindingKind::kScalar;
    Binding* local = scope_.Bind(stmt, binding);
    AddLine(depth,
            absl::StrCat(ElemTypeCName(type.elem()), " ", local->c_name,
                         AssignedBeforeUse(rest, stmt) ? "" : " = 0", ";"),
            {}, local);
    allocations.push_back(Allocation{local, nullptr, IntLiteral(1), {}, {}});
    return absl::OkStatus();
  }
  binding.kind = type.is_elem() ? BindingKind::kScalar : BindingKind::kBuffer;
  binding.by_pointer = true;
  binding.is_tensor = !type.is_elem();
  binding.in_registers = ir::FindClause(memory, "register") != nullptr;
  Binding* local = scope_.Bind(stmt, binding);
  if (!type.is_elem()) {
    local->view =
        WholeView(Primary(local->c_name), RowMajorStrides(*dims), *dims, local);
  }
  Allocation allocation{local, &memory, ElementCount(*dims), *dims, {}};
  if (dram) {
    allocation.on_stack = OnStack(*local, allocation.size);
    allocation.line = lines_.size();
    AddLine(depth,
            DramAllocation(stmt.name(), *local, *dims, allocation.size,
                           allocation.uses),
            {}, local);
    allocations.push_back(std::move(allocation));
    return absl::OkStatus();
  }
  NeedIncludes(memory, allocation.uses.needs);
  auto text = ExpandMemoryTemplate("alloc", allocation, allocation.uses);
  if (!text.ok()) return text.status();
  AddLine(depth, *text, {}, local);
  allocations.push_back(std::move(allocation));
  return absl::OkStatus();
}

absl::Status ProcWriter::AllocVector(const ir::Node& stmt,
                                     absl::Span<ir::Node* const> rest,
                                     int depth,
                                     std::vector<Allocation>& allocations) {
  // A vector is a value: a C vector local, whatever memory holds it (the
  // verifier keeps vectors in addressable ones, where C's locals behave
  // alike). Its lanes are undefined until written; zeros stand in for them
  // where GCC could not prove them written first.
  auto shape = ShapeOf(stmt.declared_type(), stmt);
  if (!shape.ok()) return shape.status();
  Binding binding;
  binding.kind = BindingKind::kVector;
  binding.elem = shape->elem;
  Binding* local = scope_.Bind(stmt, binding);
  Allocation allocation{local, nullptr, IntLiteral(1), {}, {}};
  const VectorCType type = DataType(*shape);
  allocation.uses.needs.vector_types.insert(type);
  AddLine(depth,
          absl::StrCat(VectorTypeName(type), " ", local->c_name,
                       AssignedBeforeUse(rest, stmt) ? "" : " = {0}", ";"),
          {}, local);
  allocations.push_back(std::move(allocation));
  return absl::OkStatus();
}

absl::Status ProcWriter::Release(const Allocation& allocation, int depth) {
  Binding& binding = *allocation.binding;
  if (!binding.used) return absl::OkStatus();
  // The declaration is kept: what its size refers to is used after all.
  Uses uses = allocation.uses;
  std::string free_text;
  if (allocation.memory == module_.dram() && !allocation.on_stack &&
      !allocation.pooled) {
    free_text = absl::StrCat("tsl_free(", binding.c_name, ");");
  } else if (allocation.memory != nullptr) {
    auto text = ExpandMemoryTemplate("free", allocation, uses);
    if (!text.ok()) return text.status();
    free_text = *std::move(text);
  }
  // -Wunused-but-set-variable flags a local that is only stored to.
  if (!binding.read) {
    AddLine(depth, absl::StrCat("(void)", binding.c_name, ";"), {});
  }
  Scope::Commit(uses, needs_);
  if (!free_text.empty()) AddLine(depth, free_text, {});
  return absl::OkStatus();
}

// A proc's heap temporaries come from one block: each allocated and freed
// on its own, two or more large ones freed together at the end of a call
// make glibc's free return them to the system (its trim threshold is
// twice the largest block freed before), and every call then faults them
// back in page by page (an AVX2 NT matmul of 1000^3 with a 4 MB transposed
// copy of B and a 4 MB packed A: 19,000 page faults a run, 0.80x
// OpenBLAS; 7,500 and 0.97x without trimming). One block is kept by the
// heap from the second call on.
bool ProcWriter::PoolTemporaries(std::vector<Allocation>& allocations,
                                 int depth) {
  std::vector<Allocation*> pooled;
  for (Allocation& allocation : allocations) {
    if (allocation.memory == module_.dram() && !allocation.on_stack &&
        allocation.size.constant.has_value() && allocation.binding->used) {
      pooled.push_back(&allocation);
    }
  }
  if (pooled.size() < 2) return false;
  int64_t offset = 0;
  std::vector<std::string> names;
  for (Allocation* allocation : pooled) {
    const Binding& binding = *allocation->binding;
    absl::string_view type = ElemTypeCName(binding.elem);
    lines_[allocation->line].text =
        absl::StrCat(type, " *", binding.c_name, " = (", type,
                     " *)(tsl_temporaries + ", offset, ");");
    allocation->pooled = true;
    // Each starts on a cache line, as tsl_allocate's do.
    const int64_t bytes =
        *allocation->size.constant * ElemTypeBytes(binding.elem);
    offset += (bytes + 63) / 64 * 64;
    names.push_back(binding.c_name);
  }
  lines_.insert(
      lines_.begin() + static_cast<std::ptrdiff_t>(pooled.front()->line),
      Line{depth, absl::StrCat("unsigned char *tsl_temporaries = tsl_allocate(",
                               CStringLiteral(absl::StrJoin(names, ", ")),
                               ", 1, 1, (const int64_t[]){", offset, "});")});
  return true;
}

}  // namespace tessel::emitc
