#include "libs/kernel/terms.h"

#include <optional>

#include "absl/strings/str_cat.h"
#include "libs/kernel/build_sexpr.h"
#include "libs/kernel/loops.h"
#include "libs/kernel/scalar_lowering.h"

namespace tessel::kernel {
namespace {

// The binders (`lam`s) enclosing the term being built, outermost first. A
// binder at position p is %(size - 1 - p) at the current depth.
class Env {
 public:
  size_t Push(int tensor = -1) {
    tensors_.push_back(tensor);
    return tensors_.size() - 1;
  }
  void Pop(size_t count) { tensors_.resize(tensors_.size() - count); }

  Sexpr Ref(size_t position, const Location& loc) const {
    return Sym(absl::StrCat("%", tensors_.size() - 1 - position), loc);
  }

  // The let binding `tensor`, if any.
  std::optional<size_t> FindTensor(int tensor) const {
    for (size_t p = tensors_.size(); p-- > 0;) {
      if (tensors_[p] == tensor) return p;
    }
    return std::nullopt;
  }

 private:
  std::vector<int> tensors_;  // the let-bound tensor, or -1
};

Sexpr Lam(Sexpr body, const Location& loc) {
  return Form("lam", {std::move(body)}, loc);
}

// The value of one statement's target, built in `env`.
class StatementTerm {
 public:
  StatementTerm(const Kernel& kernel, const Statement& statement, Env& env)
      : kernel_(kernel),
        statement_(statement),
        target_(kernel.tensors[statement.target.tensor]),
        env_(env),
        var_position_(statement.vars.size()) {
    render_.var = [this](int var, const Location& loc) {
      return env_.Ref(*var_position_[var], loc);
    };
    render_.read = [this](const Access& access, std::vector<Sexpr> indices) {
      const Tensor& tensor = kernel_.tensors[access.tensor];
      Sexpr term = tensor.role == TensorRole::kInput
                       ? Sym(tensor.name, access.loc)
                       : env_.Ref(*env_.FindTensor(access.tensor), access.loc);
      for (Sexpr& index : indices) {
        term = Form("index", {std::move(term), std::move(index)}, access.loc);
      }
      return term;
    };
  }

  Sexpr Build() {
    const Location& loc = statement_.loc;
    // A dimension whose index is a variable running over all of it (and not
    // already bound) binds that variable to the build index; the others are
    // matched against the build index by a guard.
    std::vector<bool> bound(statement_.vars.size(), false);
    for (size_t d = 0; d < target_.dims.size(); ++d) {
      dim_position_.push_back(env_.Push());
      std::optional<int> var = statement_.target.indices[d].AsVariable();
      if (var && !bound[*var] &&
          statement_.vars[*var].extent == target_.dims[d]) {
        bound[*var] = true;
        var_position_[*var] = dim_position_.back();
      } else {
        guarded_dims_.push_back(d);
      }
    }
    for (size_t v = 0; v < statement_.vars.size(); ++v) {
      if (!bound[v]) fold_vars_.push_back(static_cast<int>(v));
    }
    Sexpr term =
        Folds(0, InitialValue(statement_.op, target_.elem, statement_.op_loc));
    env_.Pop(target_.dims.size());
    for (size_t d = target_.dims.size(); d-- > 0;) {
      term = Form("build",
                  {Sexpr::Int(target_.dims[d], loc), Lam(std::move(term), loc)},
                  loc);
    }
    return term;
  }

 private:
  // The folds over fold_vars_[k...]; `acc` is the accumulated value so far.
  Sexpr Folds(size_t k, Sexpr acc) {
    if (k == fold_vars_.size()) return Step(std::move(acc));
    const DomainVar& var = statement_.vars[fold_vars_[k]];
    // ifold's function takes the index (%1) and then the accumulator (%0).
    var_position_[fold_vars_[k]] = env_.Push();
    size_t acc_position = env_.Push();
    Sexpr inner = Folds(k + 1, env_.Ref(acc_position, var.loc));
    env_.Pop(2);
    return Form("ifold",
                {Sexpr::Int(var.extent, var.loc), std::move(acc),
                 Lam(Lam(std::move(inner), var.loc), var.loc)},
                var.loc);
  }

  Sexpr Step(Sexpr acc) {
    const Location& loc = statement_.op_loc;
    Sexpr value =
        Combine(statement_.op, acc,
                RenderValue(statement_.value, statement_, render_), loc);
    if (guarded_dims_.empty()) return value;
    std::optional<Sexpr> condition;
    for (size_t d : guarded_dims_) {
      const AffineExpr& index = statement_.target.indices[d];
      Sexpr test = Form(
          "==",
          {RenderIndex(index, render_), env_.Ref(dim_position_[d], index.loc)},
          index.loc);
      condition =
          condition ? Form("and", {*std::move(condition), std::move(test)}, loc)
                    : std::move(test);
    }
    return Form("select",
                {*std::move(condition), std::move(value), std::move(acc)}, loc);
  }

  const Kernel& kernel_;
  const Statement& statement_;
  const Tensor& target_;
  Env& env_;
  LeafRenderer render_;
  std::vector<std::optional<size_t>> var_position_;
  std::vector<size_t> dim_position_;
  std::vector<size_t> guarded_dims_;
  std::vector<int> fold_vars_;
};

Sexpr NamedTypes(const Kernel& kernel, TensorRole role) {
  std::vector<Sexpr> items;
  for (const Tensor& tensor : kernel.tensors) {
    if (tensor.role != role) continue;
    items.push_back(Sexpr::List(
        {Sym(tensor.name, tensor.loc), TensorTypeSexpr(tensor)}, tensor.loc));
  }
  return Sexpr::List(std::move(items), kernel.loc);
}

}  // namespace

Sexpr LowerToTerms(const Kernel& kernel) {
  const std::vector<Statement>& statements = kernel.statements;
  // A statement's value is let-bound when a later statement reads it.
  std::vector<bool> read_later(kernel.tensors.size(), false);
  std::vector<const Statement*> defined_by(kernel.tensors.size(), nullptr);
  for (const Statement& statement : statements) {
    for (const Access& read : statement.reads) read_later[read.tensor] = true;
    defined_by[statement.target.tensor] = &statement;
  }
  Env env;
  std::vector<const Statement*> lets;
  std::vector<Sexpr> values;
  for (const Statement& statement : statements) {
    int tensor = statement.target.tensor;
    if (!read_later[tensor]) continue;
    values.push_back(StatementTerm(kernel, statement, env).Build());
    lets.push_back(&statement);
    env.Push(tensor);
  }
  std::vector<Sexpr> results;
  for (size_t t = 0; t < kernel.tensors.size(); ++t) {
    if (kernel.tensors[t].role != TensorRole::kOutput) continue;
    const Statement& statement = *defined_by[t];
    results.push_back(
        read_later[t]
            ? env.Ref(*env.FindTensor(static_cast<int>(t)), statement.loc)
            : StatementTerm(kernel, statement, env).Build());
  }
  Sexpr term = std::move(results.back());
  for (size_t r = results.size() - 1; r-- > 0;) {
    term = Form("tuple", {std::move(results[r]), std::move(term)}, kernel.loc);
  }
  for (size_t l = lets.size(); l-- > 0;) {
    const Location& loc = lets[l]->loc;
    term = Form("app", {Lam(std::move(term), loc), std::move(values[l])}, loc);
  }
  return Form("func",
              {Sym(absl::StrCat("@", kernel.name), kernel.loc),
               NamedTypes(kernel, TensorRole::kInput),
               NamedTypes(kernel, TensorRole::kOutput), std::move(term)},
              kernel.loc);
}

}  // namespace tessel::kernel
