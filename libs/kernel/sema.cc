#include "libs/kernel/sema.h"

#include <memory>
#include <optional>
#include <set>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "libs/kernel/poly_checks.h"
#include "libs/kernel/typing.h"
#include "libs/poly/poly.h"
#include "libs/sexpr/reader.h"

namespace tessel::kernel {

bool IsReservedName(absl::string_view name) {
  // The element types.
  if (ParseElemType(name)) return true;
  static const auto* kReserved = new absl::flat_hash_set<absl::string_view>{
      // The kernel language.
      "kernel", "all", "in", "local", "max", "min", "relu",
      // TIR: atoms that are not names, operators and forms (the IR
      // verifier's reserved names among them), and statement heads.
      "inf", "nan", "neg", "select", "cast", "and", "or", "not", "stride",
      "window", "lam", "app", "build", "ifold", "index", "tuple", "fst", "snd",
      "access", "transpose", "cartProd", "windows", "slice", "squeeze",
      "flatten", "reshape", "pair", "concat", "compute", "list", "shape", "for",
      "if", "then", "else", "alloc", "assign", "reduce", "let", "call",
      "assert"};
  return kReserved->contains(name);
}

namespace {

std::string Where(const Location& loc) {
  return absl::StrCat(loc.line, ":", loc.col);
}

std::string Plural(size_t count, absl::string_view noun) {
  return absl::StrCat(count, " ", noun, count == 1 ? "" : "s");
}

std::string CountIndices(size_t count) {
  return count == 1 ? "1 index" : absl::StrCat(count, " indices");
}

class KernelChecker {
 public:
  KernelChecker(const ast::Kernel& decl,
                const std::map<std::string, int64_t>& sizes, poly::Context& ctx)
      : decl_(decl), sizes_(sizes), ctx_(ctx) {}

  absl::StatusOr<Kernel> Run() {
    kernel_.name = decl_.name.text;
    kernel_.loc = decl_.name.loc;
    if (auto status = CheckNotReserved(decl_.name, "a kernel"); !status.ok()) {
      return status;
    }
    if (decl_.outputs.empty()) {
      return ErrorAt(decl_.name.loc,
                     absl::StrCat("kernel '", kernel_.name,
                                  "' has no results; declare its outputs "
                                  "after '->'"));
    }
    for (const auto& [decls, role] :
         {std::pair{&decl_.inputs, TensorRole::kInput},
          std::pair{&decl_.outputs, TensorRole::kOutput},
          std::pair{&decl_.locals, TensorRole::kLocal}}) {
      for (const ast::Declaration& declaration : *decls) {
        if (auto status = Declare(declaration, role); !status.ok()) {
          return status;
        }
      }
    }
    defined_by_.assign(kernel_.tensors.size(), nullptr);
    for (const ast::Statement& statement : decl_.statements) {
      if (auto status = CheckStatement(statement); !status.ok()) return status;
    }
    for (size_t t = 0; t < kernel_.tensors.size(); ++t) {
      const Tensor& tensor = kernel_.tensors[t];
      if (tensor.role != TensorRole::kInput && defined_by_[t] == nullptr) {
        return ErrorAt(
            tensor.loc,
            absl::StrCat(
                tensor.role == TensorRole::kOutput ? "output '" : "local '",
                tensor.name, "' is never assigned"));
      }
    }
    kernel_.sizes = std::move(used_sizes_);
    return std::move(kernel_);
  }

 private:
  // The value -D gives size `name`, if any; the kernel then uses it.
  std::optional<int64_t> BoundSize(const std::string& name) const {
    auto it = sizes_.find(name);
    if (it == sizes_.end()) return std::nullopt;
    used_sizes_.insert(name);
    return it->second;
  }

  absl::Status CheckNotReserved(const ast::Name& name, absl::string_view what) {
    if (!IsReservedName(name.text)) return absl::OkStatus();
    return ErrorAt(name.loc, absl::StrCat("'", name.text,
                                          "' is a reserved word and cannot "
                                          "name ",
                                          what));
  }

  absl::StatusOr<int64_t> EvaluateSize(const ast::Size& size,
                                       absl::string_view what) {
    int64_t value = size.value;
    if (!size.name.empty()) {
      std::optional<int64_t> bound = BoundSize(size.name);
      if (!bound) {
        return ErrorAt(size.loc, absl::StrCat("size '", size.name,
                                              "' is not bound; pass -D ",
                                              size.name, "=VALUE"));
      }
      value = *bound;
    }
    if (value > 0) return value;
    return ErrorAt(size.loc,
                   size.name.empty()
                       ? absl::StrCat(what, " must be positive, not ", value)
                       : absl::StrCat(what, " must be positive, but size '",
                                      size.name, "' is ", value));
  }

  absl::Status Declare(const ast::Declaration& declaration, TensorRole role) {
    const ast::Name& name = declaration.name;
    if (auto status = CheckNotReserved(name, "a tensor"); !status.ok()) {
      return status;
    }
    if (auto it = tensor_ids_.find(name.text); it != tensor_ids_.end()) {
      return ErrorAt(name.loc,
                     absl::StrCat("'", name.text, "' is already declared at ",
                                  Where(kernel_.tensors[it->second].loc)));
    }
    Tensor tensor;
    tensor.name = name.text;
    tensor.role = role;
    tensor.elem = declaration.type.elem;
    tensor.loc = name.loc;
    tensor.type_loc = declaration.type.loc;
    for (const ast::Size& dim : declaration.type.dims) {
      auto value = EvaluateSize(dim, "a dimension");
      if (!value.ok()) return value.status();
      tensor.dims.push_back(*value);
    }
    tensor_ids_[name.text] = static_cast<int>(kernel_.tensors.size());
    kernel_.tensors.push_back(std::move(tensor));
    return absl::OkStatus();
  }

  const Tensor* FindTensor(absl::string_view name, int* id) const {
    auto it = tensor_ids_.find(name);
    if (it == tensor_ids_.end()) return nullptr;
    *id = it->second;
    return &kernel_.tensors[it->second];
  }

  static int FindVar(const Statement& statement, absl::string_view name) {
    for (size_t v = 0; v < statement.vars.size(); ++v) {
      if (statement.vars[v].name == name) return static_cast<int>(v);
    }
    return -1;
  }

  static absl::Status CheckRank(const Tensor& tensor, bool indexed,
                                size_t count, const Location& loc) {
    if (tensor.is_scalar() && indexed) {
      return ErrorAt(loc, absl::StrCat("'", tensor.name,
                                       "' is a scalar and takes no indices"));
    }
    if (!tensor.is_scalar() && !indexed) {
      return ErrorAt(
          loc, absl::StrCat("'", tensor.name, "' has rank ", tensor.rank(),
                            "; write ", tensor.name, "[...] with ",
                            CountIndices(tensor.rank())));
    }
    if (static_cast<int>(count) != tensor.rank()) {
      return ErrorAt(
          loc, absl::StrCat("'", tensor.name, "' has rank ", tensor.rank(),
                            " but ", CountIndices(count), " given"));
    }
    return absl::OkStatus();
  }

  // A name inside an index: a domain variable or a size.
  absl::StatusOr<AffineExpr> ResolveIndexName(const Statement& statement,
                                              const ast::Expr& node) const {
    int num_vars = static_cast<int>(statement.vars.size());
    int var = FindVar(statement, node.name);
    if (var >= 0) return AffineExpr::Variable(num_vars, var, node.loc);
    int id;
    if (const Tensor* tensor = FindTensor(node.name, &id)) {
      return ErrorAt(
          node.loc,
          absl::StrCat("an index cannot use ",
                       tensor->is_scalar() ? "the scalar '" : "the tensor '",
                       node.name,
                       "': indices are affine in the domain "
                       "variables"));
    }
    if (std::optional<int64_t> size = BoundSize(node.name)) {
      return AffineExpr::Constant(num_vars, *size, node.loc);
    }
    return ErrorAt(node.loc, absl::StrCat("unknown name '", node.name,
                                          "' in an index; expected a domain "
                                          "variable or a size"));
  }

  absl::StatusOr<std::vector<AffineExpr>> Indices(
      const Statement& statement, const std::vector<ast::Expr>& exprs) const {
    std::vector<AffineExpr> indices;
    IndexNameResolver resolve = [&](const ast::Expr& node) {
      return ResolveIndexName(statement, node);
    };
    for (const ast::Expr& expr : exprs) {
      auto index =
          ToAffine(expr, static_cast<int>(statement.vars.size()), resolve);
      if (!index.ok()) return index.status();
      indices.push_back(*std::move(index));
    }
    return indices;
  }

  // A kName or kElement read as a value.
  absl::StatusOr<ResolvedRead> ResolveRead(Statement& statement,
                                           const ast::Expr& node) const {
    bool indexed = node.kind == ast::ExprKind::kElement;
    if (FindVar(statement, node.name) >= 0) {
      return ErrorAt(node.loc,
                     absl::StrCat("'", node.name, "' is a domain variable",
                                  indexed ? ", not a tensor"
                                          : "; domain variables can only be "
                                            "used in indices"));
    }
    int id;
    const Tensor* tensor = FindTensor(node.name, &id);
    if (tensor == nullptr) {
      if (!indexed && sizes_.contains(node.name)) {
        return ErrorAt(node.loc,
                       absl::StrCat("size '", node.name,
                                    "' can only be used in shapes, extents "
                                    "and indices"));
      }
      return ErrorAt(node.loc, absl::StrCat(indexed ? "unknown tensor '"
                                                    : "unknown name '",
                                            node.name, "'"));
    }
    if (auto status =
            CheckRank(*tensor, indexed, node.operands.size(), node.loc);
        !status.ok()) {
      return status;
    }
    if (id == statement.target.tensor) {
      return ErrorAt(node.loc,
                     absl::StrCat("'", node.name,
                                  "' is read by the statement that defines "
                                  "it; a statement defines its target from "
                                  "scratch (use a local for an earlier "
                                  "value)"));
    }
    if (tensor->role != TensorRole::kInput && defined_by_[id] == nullptr) {
      return ErrorAt(node.loc,
                     absl::StrCat("'", node.name,
                                  "' is read before the statement that "
                                  "defines it"));
    }
    auto indices = Indices(statement, node.operands);
    if (!indices.ok()) return indices.status();
    statement.reads.push_back(Access{id, *std::move(indices), node.loc});
    return ResolvedRead{static_cast<int>(statement.reads.size()) - 1,
                        tensor->elem};
  }

  absl::Status CheckDomain(const ast::Statement& decl, Statement& statement) {
    // Both lowerings nest a statement's variables inside the form and
    // around an assignment to a location (`(proc ... (for v0 ... (assign
    // (y v0 ...) ...)))`; a func has a build or ifold and a lam per
    // variable): a statement over too many variables cannot be lowered,
    // which is said before any analysis, whose cost grows with their
    // number.
    if (int depth = static_cast<int>(decl.vars.size()) + 3;
        depth > kMaxSexprDepth) {
      return ErrorAt(
          decl.loc,
          absl::StrCat("a statement over ", decl.vars.size(),
                       " domain variables lowers to TIR nested at least ",
                       depth, " deep, more than the ", kMaxSexprDepth,
                       " TIR allows; split it into smaller kernels"));
    }
    for (const ast::Name& var : decl.vars) {
      if (auto status = CheckNotReserved(var, "a domain variable");
          !status.ok()) {
        return status;
      }
      int id;
      if (FindTensor(var.text, &id) != nullptr) {
        return ErrorAt(var.loc,
                       absl::StrCat("domain variable '", var.text,
                                    "' has the name of a tensor; rename "
                                    "one of them"));
      }
      if (int earlier = FindVar(statement, var.text); earlier >= 0) {
        return ErrorAt(var.loc,
                       absl::StrCat("domain variable '", var.text,
                                    "' is repeated (first at ",
                                    Where(statement.vars[earlier].loc), ")"));
      }
      statement.vars.push_back(DomainVar{var.text, 1, var.loc});
    }
    if (decl.extents.size() != decl.vars.size()) {
      return ErrorAt(
          decl.extents_loc,
          absl::StrCat(Plural(decl.vars.size(), "domain variable"), " but ",
                       Plural(decl.extents.size(), "extent"),
                       "; give one extent per variable"));
    }
    for (size_t v = 0; v < decl.extents.size(); ++v) {
      auto extent = EvaluateSize(decl.extents[v], "an extent");
      if (!extent.ok()) return extent.status();
      statement.vars[v].extent = *extent;
    }
    return absl::OkStatus();
  }

  absl::Status CheckTarget(const ast::Statement& decl, Statement& statement) {
    const ast::Name& name = decl.target;
    if (FindVar(statement, name.text) >= 0) {
      return ErrorAt(name.loc, absl::StrCat("'", name.text,
                                            "' is a domain variable, not a "
                                            "tensor"));
    }
    int id;
    const Tensor* tensor = FindTensor(name.text, &id);
    if (tensor == nullptr) {
      return ErrorAt(name.loc,
                     absl::StrCat("unknown tensor '", name.text, "'"));
    }
    if (tensor->role == TensorRole::kInput) {
      return ErrorAt(name.loc, absl::StrCat("'", name.text,
                                            "' is an input and cannot be "
                                            "assigned"));
    }
    if (const ast::Statement* earlier = defined_by_[id]) {
      return ErrorAt(name.loc,
                     absl::StrCat("'", name.text,
                                  "' is already assigned by the statement at ",
                                  Where(earlier->loc),
                                  "; each tensor is defined by one "
                                  "statement"));
    }
    if (auto status = CheckRank(*tensor, decl.target_indexed,
                                decl.target_indices.size(), name.loc);
        !status.ok()) {
      return status;
    }
    auto indices = Indices(statement, decl.target_indices);
    if (!indices.ok()) return indices.status();
    statement.target = Access{id, *std::move(indices), name.loc};
    return absl::OkStatus();
  }

  absl::Status CheckPolyhedral(Statement& statement) {
    if (auto status = CheckInBounds(ctx_, kernel_, statement, statement.target);
        !status.ok()) {
      return status;
    }
    for (const Access& read : statement.reads) {
      if (auto status = CheckInBounds(ctx_, kernel_, statement, read);
          !status.ok()) {
        return status;
      }
    }
    if (statement.op != AssignOp::kAssign) return absl::OkStatus();
    if (auto status = CheckWritesOnce(ctx_, kernel_, statement); !status.ok()) {
      return status;
    }
    auto covers = CoversTarget(ctx_, kernel_, statement);
    if (!covers.ok()) return covers.status();
    statement.covers_target = *covers;
    return absl::OkStatus();
  }

  absl::Status CheckStatement(const ast::Statement& decl) {
    Statement statement;
    statement.loc = decl.loc;
    statement.op = decl.op;
    statement.op_loc = decl.op_loc;
    if (auto status = CheckDomain(decl, statement); !status.ok()) {
      return status;
    }
    if (auto status = CheckTarget(decl, statement); !status.ok()) {
      return status;
    }
    const Tensor& target = kernel_.tensors[statement.target.tensor];
    ReadResolver resolve = [&](const ast::Expr& node) {
      return ResolveRead(statement, node);
    };
    auto value = TypeValue(decl.value, target.elem, resolve);
    if (!value.ok()) return value.status();
    statement.value = *std::move(value);
    if (auto status = CheckPolyhedral(statement); !status.ok()) {
      return status;
    }
    defined_by_[statement.target.tensor] = &decl;
    kernel_.statements.push_back(std::move(statement));
    return absl::OkStatus();
  }

  const ast::Kernel& decl_;
  const std::map<std::string, int64_t>& sizes_;
  // What BoundSize found, for Kernel::sizes (names are resolved in const
  // methods).
  mutable std::set<std::string> used_sizes_;
  poly::Context& ctx_;
  Kernel kernel_;
  absl::flat_hash_map<std::string, int> tensor_ids_;
  // The statement that defines each tensor, once checked.
  std::vector<const ast::Statement*> defined_by_;
};

}  // namespace

ProgramChecker::ProgramChecker(const std::map<std::string, int64_t>& sizes)
    : sizes_(sizes), ctx_(std::make_unique<poly::Context>()) {}
ProgramChecker::~ProgramChecker() = default;

absl::StatusOr<Kernel> ProgramChecker::Check(const ast::Kernel& decl) {
  auto [it, inserted] = names_.emplace(decl.name.text, decl.name.loc);
  if (!inserted) {
    return ErrorAt(decl.name.loc, absl::StrCat("kernel '", decl.name.text,
                                               "' is already defined at ",
                                               Where(it->second)));
  }
  return KernelChecker(decl, sizes_, *ctx_).Run();
}

absl::StatusOr<std::vector<Kernel>> CheckProgram(
    const ast::Program& program, const std::map<std::string, int64_t>& sizes) {
  ProgramChecker checker(sizes);
  std::vector<Kernel> kernels;
  for (const ast::Kernel& decl : program.kernels) {
    auto kernel = checker.Check(decl);
    if (!kernel.ok()) return kernel.status();
    kernels.push_back(*std::move(kernel));
  }
  return kernels;
}

}  // namespace tessel::kernel
