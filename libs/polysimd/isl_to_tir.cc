#include "libs/polysimd/isl_to_tir.h"

#include <cstdlib>
#include <utility>

#include "absl/strings/str_cat.h"
#include "isl/ast.h"
#include "isl/ast_build.h"
#include "isl/id.h"
#include "isl/options.h"
#include "isl/val.h"

namespace tessel::polysimd {
namespace {

Sexpr Form(const char* head, std::vector<Sexpr> operands) {
  std::vector<Sexpr> items = {Sexpr::Symbol(head)};
  for (Sexpr& operand : operands) items.push_back(std::move(operand));
  return Sexpr::List(std::move(items));
}

absl::Status Unsupported(const isl::ast_expr& expr) {
  char* text = isl_ast_expr_to_C_str(expr.get());
  absl::Status status = absl::UnimplementedError(absl::StrCat(
      "isl wrote '", text != nullptr ? text : "?",
      "', which TIR's control expressions cannot say"));
  free(text);
  return status;
}

// The TIR operator of a binary isl operation, or null.
const char* BinaryOperator(isl_ast_expr_op_type type) {
  switch (type) {
    case isl_ast_expr_op_add:
      return "+";
    case isl_ast_expr_op_sub:
      return "-";
    case isl_ast_expr_op_mul:
      return "*";
    // Exact division, floor division, and the quotient of a non-negative
    // dividend are all TIR's floor division by a positive literal (isl's
    // divisors are).
    case isl_ast_expr_op_div:
    case isl_ast_expr_op_fdiv_q:
    case isl_ast_expr_op_pdiv_q:
      return "/";
    // The remainder of a non-negative dividend, and a remainder only
    // compared with 0, are TIR's floor modulo.
    case isl_ast_expr_op_pdiv_r:
    case isl_ast_expr_op_zdiv_r:
      return "%";
    case isl_ast_expr_op_and:
    case isl_ast_expr_op_and_then:
      return "and";
    case isl_ast_expr_op_or:
    case isl_ast_expr_op_or_else:
      return "or";
    case isl_ast_expr_op_eq:
      return "==";
    case isl_ast_expr_op_le:
      return "<=";
    case isl_ast_expr_op_lt:
      return "<";
    case isl_ast_expr_op_ge:
      return ">=";
    case isl_ast_expr_op_gt:
      return ">";
    case isl_ast_expr_op_min:
      return "min";
    case isl_ast_expr_op_max:
      return "max";
    default:
      return nullptr;
  }
}

std::string IdName(isl_id* id) {
  std::string name = isl_id_get_name(id);
  isl_id_free(id);
  return name;
}

}  // namespace

isl::multi_id NamedIds(const isl::space& tuple,
                       const std::vector<std::string>& names) {
  isl::id_list list(tuple.ctx(), static_cast<int>(names.size()));
  for (const std::string& name : names) list = list.add(name);
  return isl::multi_id(tuple, list);
}

absl::StatusOr<Sexpr> ControlExpr(const isl::ast_expr& expr,
                                  const IslNames& names) {
  switch (isl_ast_expr_get_type(expr.get())) {
    case isl_ast_expr_int: {
      isl_val* value = isl_ast_expr_get_val(expr.get());
      const int64_t number = isl_val_get_num_si(value);
      isl_val_free(value);
      return Sexpr::Int(number);
    }
    case isl_ast_expr_id: {
      const std::string name = IdName(isl_ast_expr_get_id(expr.get()));
      auto it = names.find(name);
      if (it == names.end()) {
        return absl::InternalError(
            absl::StrCat("isl's '", name, "' stands for nothing in TIR"));
      }
      return it->second;
    }
    case isl_ast_expr_op:
      break;
    default:
      return Unsupported(expr);
  }
  const isl_ast_expr_op_type type = isl_ast_expr_op_get_type(expr.get());
  const isl_size count = isl_ast_expr_op_get_n_arg(expr.get());
  std::vector<Sexpr> operands;
  for (isl_size k = 0; k < count; ++k) {
    auto operand = ControlExpr(
        isl::manage(isl_ast_expr_op_get_arg(expr.get(), k)), names);
    if (!operand.ok()) return operand.status();
    operands.push_back(*std::move(operand));
  }
  if (type == isl_ast_expr_op_minus && count == 1) {
    return Form("neg", std::move(operands));
  }
  const char* op = BinaryOperator(type);
  if (op == nullptr || count < 2) return Unsupported(expr);
  // min and max of several operands, left to right.
  Sexpr result = std::move(operands[0]);
  for (isl_size k = 1; k < count; ++k) {
    result = Form(op, {std::move(result), std::move(operands[k])});
  }
  return result;
}

isl::ast_build BuildFrom(const isl::set& context) {
  isl_options_set_ast_build_detect_min_max(context.ctx().get(), 1);
  return isl::ast_build::from_context(context);
}

absl::StatusOr<Sexpr> ParamExpr(const isl::pw_aff& value,
                                const isl::set& context,
                                const IslNames& names) {
  return ControlExpr(BuildFrom(context).expr_from(value), names);
}

absl::StatusOr<Sexpr> ParamCondition(const isl::set& set,
                                     const isl::set& context,
                                     const IslNames& names) {
  return ControlExpr(BuildFrom(context).expr_from(set), names);
}

namespace {

class AstWriter {
 public:
  AstWriter(const std::string& iterator, IslNames& names,
            const UserStatement& user)
      : iterator_(iterator), names_(names), user_(user) {}

  absl::Status Write(const isl::ast_node& node, std::vector<Sexpr>& out) {
    switch (isl_ast_node_get_type(node.get())) {
      case isl_ast_node_block: {
        isl_ast_node_list* children =
            isl_ast_node_block_get_children(node.get());
        absl::Status status;
        for (isl_size k = 0;
             status.ok() && k < isl_ast_node_list_n_ast_node(children); ++k) {
          status = Write(isl::manage(isl_ast_node_list_get_at(children, k)),
                         out);
        }
        isl_ast_node_list_free(children);
        return status;
      }
      case isl_ast_node_mark:
        return Write(isl::manage(isl_ast_node_mark_get_node(node.get())), out);
      case isl_ast_node_for:
        return For(node, out);
      case isl_ast_node_if:
        return If(node, out);
      case isl_ast_node_user:
        return User(node, out);
      default:
        return absl::InternalError("isl wrote an AST node TIR cannot say");
    }
  }

 private:
  absl::Status For(const isl::ast_node& node, std::vector<Sexpr>& out) {
    isl::ast_expr inc = isl::manage(isl_ast_node_for_get_inc(node.get()));
    isl_val* value = isl_ast_expr_get_val(inc.get());
    const bool positive = value != nullptr &&
                          isl_val_is_int(value) == isl_bool_true &&
                          isl_val_is_pos(value) == isl_bool_true;
    const int64_t step = positive ? isl_val_get_num_si(value) : 0;
    isl_val_free(value);
    if (!positive) return Unsupported(inc);
    const std::string id =
        IdName(isl_ast_expr_get_id(isl::manage(
            isl_ast_node_for_get_iterator(node.get())).get()));
    Sexpr variable = Sexpr::Symbol(absl::StrCat(iterator_, depth_));
    auto low = ControlExpr(isl::manage(isl_ast_node_for_get_init(node.get())),
                           names_);
    if (!low.ok()) return low.status();
    // The condition is ITERATOR <= UPPER or ITERATOR < UPPER.
    isl::ast_expr cond = isl::manage(isl_ast_node_for_get_cond(node.get()));
    const isl_ast_expr_op_type type =
        isl_ast_expr_get_type(cond.get()) == isl_ast_expr_op
            ? isl_ast_expr_op_get_type(cond.get())
            : isl_ast_expr_op_error;
    if (type != isl_ast_expr_op_le && type != isl_ast_expr_op_lt) {
      return Unsupported(cond);
    }
    isl::ast_expr first = isl::manage(isl_ast_expr_op_get_arg(cond.get(), 0));
    if (isl_ast_expr_get_type(first.get()) != isl_ast_expr_id ||
        IdName(isl_ast_expr_get_id(first.get())) != id) {
      return Unsupported(cond);
    }
    auto upper = ControlExpr(
        isl::manage(isl_ast_expr_op_get_arg(cond.get(), 1)), names_);
    if (!upper.ok()) return upper.status();
    Sexpr high = type == isl_ast_expr_op_lt
                     ? *std::move(upper)
                     : Form("+", {*std::move(upper), Sexpr::Int(1)});
    if (step == 1) {
      names_[id] = variable;
    } else {
      // TIR's loops step by 1: the variable counts the steps, from 0 to
      // ceil((HIGH - LOW) / STEP), and isl's iterator is LOW + STEP * it.
      names_[id] = Form("+", {*low, Form("*", {Sexpr::Int(step), variable})});
      high = Form("/", {Form("+", {Form("-", {std::move(high), *low}),
                                   Sexpr::Int(step - 1)}),
                        Sexpr::Int(step)});
      low = Sexpr::Int(0);
    }
    ++depth_;
    std::vector<Sexpr> body;
    absl::Status status =
        Write(isl::manage(isl_ast_node_for_get_body(node.get())), body);
    --depth_;
    names_.erase(id);
    if (!status.ok()) return status;
    std::vector<Sexpr> loop = {Sexpr::Symbol("for"), std::move(variable),
                               *std::move(low), std::move(high)};
    for (Sexpr& stmt : body) loop.push_back(std::move(stmt));
    out.push_back(Sexpr::List(std::move(loop)));
    return absl::OkStatus();
  }

  absl::Status If(const isl::ast_node& node, std::vector<Sexpr>& out) {
    auto cond = ControlExpr(isl::manage(isl_ast_node_if_get_cond(node.get())),
                            names_);
    if (!cond.ok()) return cond.status();
    std::vector<Sexpr> then = {Sexpr::Symbol("then")};
    if (auto status = Write(
            isl::manage(isl_ast_node_if_get_then_node(node.get())), then);
        !status.ok()) {
      return status;
    }
    std::vector<Sexpr> form = {Sexpr::Symbol("if"), *std::move(cond),
                               Sexpr::List(std::move(then))};
    if (isl_ast_node_if_has_else_node(node.get()) == isl_bool_true) {
      std::vector<Sexpr> otherwise = {Sexpr::Symbol("else")};
      if (auto status = Write(
              isl::manage(isl_ast_node_if_get_else_node(node.get())),
              otherwise);
          !status.ok()) {
        return status;
      }
      form.push_back(Sexpr::List(std::move(otherwise)));
    }
    out.push_back(Sexpr::List(std::move(form)));
    return absl::OkStatus();
  }

  absl::Status User(const isl::ast_node& node, std::vector<Sexpr>& out) {
    isl::ast_expr call = isl::manage(isl_ast_node_user_get_expr(node.get()));
    std::vector<Sexpr> coordinates;
    // Argument 0 is the statement's name.
    for (isl_size k = 1; k < isl_ast_expr_op_get_n_arg(call.get()); ++k) {
      auto coordinate = ControlExpr(
          isl::manage(isl_ast_expr_op_get_arg(call.get(), k)), names_);
      if (!coordinate.ok()) return coordinate.status();
      coordinates.push_back(*std::move(coordinate));
    }
    auto stmts = user_(coordinates);
    if (!stmts.ok()) return stmts.status();
    for (Sexpr& stmt : *stmts) out.push_back(std::move(stmt));
    return absl::OkStatus();
  }

  const std::string& iterator_;
  IslNames& names_;
  const UserStatement& user_;
  int depth_ = 0;
};

}  // namespace

absl::StatusOr<std::vector<Sexpr>> AstStatements(const isl::ast_node& tree,
                                                 const std::string& iterator,
                                                 IslNames& names,
                                                 const UserStatement& user) {
  std::vector<Sexpr> out;
  if (auto status = AstWriter(iterator, names, user).Write(tree, out);
      !status.ok()) {
    return status;
  }
  return out;
}

}  // namespace tessel::polysimd
