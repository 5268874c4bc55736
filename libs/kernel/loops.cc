#include "libs/kernel/loops.h"

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "libs/kernel/build_sexpr.h"
#include "libs/kernel/scalar_lowering.h"

namespace tessel::kernel {

Sexpr TensorTypeSexpr(const Tensor& tensor) {
  Sexpr elem = Sym(ElemTypeName(tensor.elem), tensor.type_loc);
  if (tensor.is_scalar()) return elem;
  std::vector<Sexpr> items = {std::move(elem)};
  for (int64_t dim : tensor.dims)
    items.push_back(Sexpr::Int(dim, tensor.type_loc));
  return Sexpr::List(std::move(items), tensor.type_loc);
}

namespace {

// When the target's indices are the statement's leading variables (each
// once, in any order) and those run over whole dimensions, the target can be
// initialised inside the nest, just before the loops of the remaining
// (reduction) variables, as in matmul's (assign (C i j) 0.0) before
// (for k ...). Returns false when a separate nest must initialise it.
bool InitialisesInsideNest(const Kernel& kernel, const Statement& statement) {
  const Tensor& target = kernel.tensors[statement.target.tensor];
  size_t rank = target.dims.size();
  if (rank > statement.vars.size()) return false;
  std::vector<bool> seen(rank, false);
  for (size_t d = 0; d < rank; ++d) {
    std::optional<int> var = statement.target.indices[d].AsVariable();
    if (!var || static_cast<size_t>(*var) >= rank || seen[*var] ||
        statement.vars[*var].extent != target.dims[d]) {
      return false;
    }
    seen[*var] = true;
  }
  return true;
}

class StatementLowering {
 public:
  StatementLowering(const Kernel& kernel, const Statement& statement)
      : kernel_(kernel), statement_(statement) {
    render_.var = [this](int var, const Location& loc) {
      return Sym(statement_.vars[var].name, loc);
    };
    render_.read = [this](const Access& access, std::vector<Sexpr> indices) {
      Sexpr name = Sym(kernel_.tensors[access.tensor].name, access.loc);
      if (indices.empty()) return name;
      indices.insert(indices.begin(), std::move(name));
      return Sexpr::List(std::move(indices), access.loc);
    };
  }

  void Append(std::vector<Sexpr>& body) {
    const Tensor& target = kernel_.tensors[statement_.target.tensor];
    bool needs_init =
        statement_.op != AssignOp::kAssign || !statement_.covers_target;
    inside_ = needs_init && InitialisesInsideNest(kernel_, statement_);
    if (needs_init && !inside_) body.push_back(InitNest(target));
    for (Sexpr& stmt : Level(0)) body.push_back(std::move(stmt));
  }

 private:
  Sexpr Initial() const {
    return InitialValue(statement_.op,
                        kernel_.tensors[statement_.target.tensor].elem,
                        statement_.op_loc);
  }

  // The statements at loop depth `depth` of the main nest (0: outside it).
  std::vector<Sexpr> Level(size_t depth) const {
    std::vector<Sexpr> stmts;
    Sexpr lhs = RenderAccess(statement_.target, render_);
    const Location& loc = statement_.op_loc;
    if (inside_ && depth == statement_.target.indices.size()) {
      stmts.push_back(Form("assign", {lhs, Initial()}, loc));
    }
    if (depth < statement_.vars.size()) {
      const DomainVar& var = statement_.vars[depth];
      std::vector<Sexpr> loop = {Sym(var.name, var.loc), Sexpr::Int(0, var.loc),
                                 Sexpr::Int(var.extent, var.loc)};
      for (Sexpr& inner : Level(depth + 1)) loop.push_back(std::move(inner));
      stmts.push_back(Form("for", std::move(loop), var.loc));
      return stmts;
    }
    Sexpr value = RenderValue(statement_.value, statement_, render_);
    switch (statement_.op) {
      case AssignOp::kAssign:
        stmts.push_back(Form("assign", {lhs, std::move(value)}, loc));
        break;
      case AssignOp::kAdd:
        stmts.push_back(Form("reduce", {lhs, std::move(value)}, loc));
        break;
      case AssignOp::kMax:
      case AssignOp::kMin:
        stmts.push_back(Form(
            "assign", {lhs, Combine(statement_.op, lhs, std::move(value), loc)},
            loc));
        break;
    }
    return stmts;
  }

  // for every element of the target: (assign (T i0 i1 ...) INITIAL). The
  // loop variables are fresh: they must not hide a tensor of the kernel.
  Sexpr InitNest(const Tensor& target) const {
    const Location& loc = statement_.loc;
    absl::flat_hash_set<std::string> taken;
    for (const Tensor& tensor : kernel_.tensors) taken.insert(tensor.name);
    std::vector<std::string> names;
    for (size_t d = 0; d < target.dims.size(); ++d) {
      std::string name = absl::StrCat("i", d);
      while (taken.contains(name)) name += "_";
      taken.insert(name);
      names.push_back(name);
    }
    std::vector<Sexpr> element = {Sym(target.name, statement_.target.loc)};
    for (const std::string& name : names) element.push_back(Sym(name, loc));
    Sexpr nest =
        Form("assign",
             {target.is_scalar() ? Sym(target.name, loc)
                                 : Sexpr::List(std::move(element), loc),
              Initial()},
             loc);
    for (size_t d = target.dims.size(); d-- > 0;) {
      nest = Form("for",
                  {Sym(names[d], loc), Sexpr::Int(0, loc),
                   Sexpr::Int(target.dims[d], loc), std::move(nest)},
                  loc);
    }
    return nest;
  }

  const Kernel& kernel_;
  const Statement& statement_;
  LeafRenderer render_;
  bool inside_ = false;
};

// (in NAME TYPE) or (out NAME TYPE).
Sexpr ParamSexpr(const Tensor& tensor, bool written) {
  return Form(written ? "out" : "in",
              {Sym(tensor.name, tensor.loc), TensorTypeSexpr(tensor)},
              tensor.loc);
}

// A labelled statement's nest as the procedure @KERNEL.LABEL over the
// tensors it reads and writes (in the kernel's order of tensors), and the
// call that runs it in the kernel's body.
void LowerLabelled(const Kernel& kernel, const Statement& statement,
                   std::vector<Sexpr>& procs, std::vector<Sexpr>& body) {
  std::vector<bool> used(kernel.tensors.size(), false);
  used[statement.target.tensor] = true;
  for (const Access& read : statement.reads) used[read.tensor] = true;
  std::vector<Sexpr> params;
  const Location& loc = statement.label_loc;
  Sexpr name = Sym(absl::StrCat("@", kernel.name, ".", statement.label), loc);
  std::vector<Sexpr> call = {name};
  for (size_t t = 0; t < kernel.tensors.size(); ++t) {
    if (!used[t]) continue;
    const Tensor& tensor = kernel.tensors[t];
    params.push_back(
        ParamSexpr(tensor, static_cast<int>(t) == statement.target.tensor));
    call.push_back(Sym(tensor.name, loc));
  }
  std::vector<Sexpr> items = {name, Sexpr::List(std::move(params), loc)};
  StatementLowering(kernel, statement).Append(items);
  procs.push_back(Form("proc", std::move(items), loc));
  body.push_back(Form("call", std::move(call), loc));
}

}  // namespace

std::vector<Sexpr> LowerToLoops(const Kernel& kernel) {
  std::vector<Sexpr> params;
  std::vector<Sexpr> body;
  std::vector<Sexpr> forms;
  for (const Tensor& tensor : kernel.tensors) {
    if (tensor.role == TensorRole::kLocal) {
      body.push_back(
          Form("alloc", {Sym(tensor.name, tensor.loc), TensorTypeSexpr(tensor)},
               tensor.loc));
      continue;
    }
    params.push_back(ParamSexpr(tensor, tensor.role == TensorRole::kOutput));
  }
  for (const Statement& statement : kernel.statements) {
    if (statement.label.empty()) {
      StatementLowering(kernel, statement).Append(body);
    } else {
      LowerLabelled(kernel, statement, forms, body);
    }
  }
  std::vector<Sexpr> items = {Sym(absl::StrCat("@", kernel.name), kernel.loc),
                              Sexpr::List(std::move(params), kernel.loc)};
  for (Sexpr& stmt : body) items.push_back(std::move(stmt));
  forms.push_back(Form("proc", std::move(items), kernel.loc));
  return forms;
}

}  // namespace tessel::kernel
