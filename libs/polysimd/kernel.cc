#include "libs/polysimd/kernel.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "isl/set.h"
#include "libs/ir/edit.h"
#include "libs/ir/forms.h"
#include "libs/support/source.h"

namespace tessel::polysimd {
namespace {

using ir::Node;
using ir::Op;

absl::StatusOr<Tensor> TensorOf(isl::ctx ctx, const Node& decl,
                                TensorRole role) {
  Tensor tensor;
  tensor.name = decl.name();
  tensor.role = role;
  tensor.decl = &decl;
  std::optional<std::vector<int64_t>> dims = decl.declared_type().ConstantDims();
  if (!dims) {
    return ErrorAt(decl.loc(), absl::StrCat("'", decl.name(),
                                            "' has no literal dimensions"));
  }
  tensor.dims = *dims;
  std::vector<std::string> vars, bounds;
  for (size_t d = 0; d < dims->size(); ++d) {
    vars.push_back(absl::StrCat("i", d));
    bounds.push_back(absl::StrCat("0 <= i", d, " < ", (*dims)[d]));
  }
  tensor.elements = isl::set(
      ctx, absl::StrCat("{ ", tensor.name, "[", absl::StrJoin(vars, ", "),
                        "]", bounds.empty() ? "" : " : ",
                        absl::StrJoin(bounds, " and "), " }"));
  return tensor;
}

// The name of the tensor `access` (an element read or an assigned place)
// reaches.
std::string TensorName(const Node& access) {
  const Node& at = access.is(Op::kLoad) ? *access.operand(0) : access;
  return at.def() != nullptr ? at.def()->name() : at.name();
}

class Reader {
 public:
  Reader(isl::ctx ctx, const Node& entry) : ctx_(ctx), entry_(entry) {}

  absl::StatusOr<Kernel> Run() {
    kernel_.proc = &entry_;
    for (const Node* param : ir::ParamsOf(entry_)) {
      if (!ir::IsDataParam(*param)) {
        return ErrorAt(param->loc(),
                       absl::StrCat("polysimd reads kernels whose parameters "
                                    "are tensors; '",
                                    param->name(), "' is not"));
      }
      if (param->param_kind() == ir::ParamKind::kInOut) {
        return ErrorAt(param->loc(),
                       absl::StrCat("'", param->name(),
                                    "' is inout; a kernel's tensors are "
                                    "inputs or outputs"));
      }
      auto tensor =
          TensorOf(ctx_, *param,
                   ir::IsWrittenParam(*param) ? TensorRole::kOutput
                                              : TensorRole::kInput);
      if (!tensor.ok()) return tensor.status();
      kernel_.tensors.push_back(*std::move(tensor));
    }
    auto* model = Model(entry_);
    // A statement's nests (an initialisation, then its update) are the
    // top-level statements up to the next one with another target.
    std::vector<const Node*> group;
    for (const Node* stmt : ir::BodyOf(entry_)) {
      if (stmt->is(Op::kAlloc)) {
        auto tensor = TensorOf(ctx_, *stmt, TensorRole::kLocal);
        if (!tensor.ok()) return tensor.status();
        kernel_.tensors.push_back(*std::move(tensor));
        continue;
      }
      if (stmt->is(Op::kCall)) {
        if (auto status = Labelled(*stmt); !status.ok()) return status;
        continue;
      }
      const Node* update = LastUpdate(*stmt);
      if (update == nullptr) {
        return ErrorAt(stmt->loc(), "polysimd reads kernels lowered by parse: "
                                    "loop nests of assignments");
      }
      if (auto status = Add(TensorName(*update->operand(0)), *update, *model);
          !status.ok()) {
        return status;
      }
    }
    return std::move(kernel_);
  }

 private:
  poly::ProcModel* Model(const Node& proc) {
    kernel_.models.push_back(std::make_unique<poly::ProcModel>(ctx_, proc));
    return kernel_.models.back().get();
  }

  // The last assign or reduce under `root` in textual order: the update of
  // the statement it lowers (its initialisation comes first).
  static const Node* LastUpdate(const Node& root) {
    const Node* last = nullptr;
    ir::Walk(const_cast<Node&>(root), [&](Node& node) {
      if (node.is(Op::kAssign) || node.is(Op::kReduce)) last = &node;
    });
    return last;
  }

  absl::Status Labelled(const Node& call) {
    const Node* callee = call.def();
    std::string prefix = absl::StrCat(entry_.name(), ".");
    if (callee == nullptr || !callee->is(Op::kProc) ||
        !absl::StartsWith(callee->name(), prefix)) {
      return ErrorAt(call.loc(),
                     absl::StrCat("polysimd reads kernels lowered by parse: "
                                  "a call is a labelled statement's "
                                  "procedure ",
                                  prefix, "LABEL"));
    }
    const Node* update = nullptr;
    for (const Node* stmt : ir::BodyOf(*callee)) {
      if (const Node* last = LastUpdate(*stmt)) update = last;
    }
    if (update == nullptr) {
      return ErrorAt(callee->loc(), "the statement's procedure updates nothing");
    }
    // The callee's parameters are named as the kernel's tensors it is
    // passed (parse lowers it so).
    for (size_t k = 0; k < call.num_operands(); ++k) {
      const Node* param = ir::ParamsOf(*callee)[k];
      if (param->name() != call.operand(k)->name()) {
        return ErrorAt(call.loc(),
                       absl::StrCat("'", callee->name(), "' names '",
                                    call.operand(k)->name(), "' '",
                                    param->name(), "'"));
      }
    }
    return Add(callee->name().substr(prefix.size()), *update, *Model(*callee));
  }

  absl::Status Add(std::string name, const Node& update,
                   const poly::ProcModel& model) {
    for (const Statement& other : kernel_.statements) {
      if (other.name == name) {
        return ErrorAt(update.loc(),
                       absl::StrCat("two statements are named '", name, "'"));
      }
    }
    Statement statement;
    statement.name = name;
    statement.update = &update;
    statement.model = &model;
    auto domain = model.Domain(update);
    if (!domain.ok()) return domain.status();
    // Kernels have positive extents (formats/kernel/README.md); placing a
    // statement that never runs means nothing, and the placement checks
    // take instances to place.
    if (domain->is_empty()) {
      return ErrorAt(update.loc(),
                     absl::StrCat("statement '", name,
                                  "' has no instance: a loop around it "
                                  "runs no iteration"));
    }
    statement.instances = isl::manage(
        isl_set_set_tuple_name(domain->copy(), name.c_str()));
    auto access = [&](const Node& node) -> absl::StatusOr<Access> {
      auto map = model.Access(node);
      if (!map.ok()) return map.status();
      // The affine function on the whole space of the statement, not only
      // its instances: extra instances (section 5.3) lie outside them.
      isl::map function = map->gist_domain(*domain);
      return Access{TensorName(node), function.set_domain_tuple(name), &node};
    };
    auto write = access(*update.operand(0));
    if (!write.ok()) return write.status();
    statement.write = *std::move(write);
    absl::Status status;
    ir::Walk(const_cast<Node&>(*update.operand(1)), [&](Node& node) {
      if (!status.ok() || !node.is(Op::kLoad)) return;
      auto read = access(node);
      if (!read.ok()) {
        status = read.status();
        return;
      }
      statement.reads.push_back(*std::move(read));
    });
    if (!status.ok()) return status;
    kernel_.statements.push_back(std::move(statement));
    return absl::OkStatus();
  }

  isl::ctx ctx_;
  const Node& entry_;
  Kernel kernel_;
};

}  // namespace

const Tensor* Kernel::Find(const std::string& name) const {
  for (const Tensor& tensor : tensors) {
    if (tensor.name == name) return &tensor;
  }
  return nullptr;
}

absl::StatusOr<Kernel> ReadKernel(isl::ctx ctx, const ir::Node& entry) {
  return Reader(ctx, entry).Run();
}

}  // namespace tessel::polysimd
