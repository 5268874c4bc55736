#include <algorithm>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "libs/ir/reader.h"
#include "libs/sexpr/printer.h"

namespace tessel::ir::syntax_internal {
namespace {

// `%K` with K a non-negative integer.
std::optional<int64_t> DeBruijnIndex(const Sexpr& s) {
  int64_t k = 0;
  if (!s.is_symbol() || s.text().size() < 2 || s.text()[0] != '%' ||
      !absl::SimpleAtoi(s.text().substr(1), &k) || k < 0) {
    return std::nullopt;
  }
  return k;
}

// `?NAME`: a pattern variable of a rewrite rule.
bool IsPatternVariable(const Sexpr& s) {
  return s.is_symbol() && s.text().size() >= 2 && s.text()[0] == '?';
}

// Ops whose operands are values: what may stand where a value is expected.
bool IsValueOp(Op op) {
  switch (Info(op).op_class) {
    case OpClass::kExpr:
    case OpClass::kTerm:
    case OpClass::kAccess:
    case OpClass::kLeaf:
      return true;
    default:
      return false;
  }
}

// Is `item` the function of `op` (build, ifold, app) in the shape the
// tensor level needs: ifold's binds the index and then the accumulator?
bool IsFunctionOf(Op op, const Sexpr& item) {
  bool lam = item.is_form("lam") && item.size() == 2;
  if (lam && op == Op::kIfold) {
    lam = item[1].is_form("lam") && item[1].size() == 2;
  }
  return lam;
}

std::string FunctionShapeError(Op op) {
  switch (op) {
    case Op::kBuild:
      return "the function of build must be (lam BODY), with the index %0";
    case Op::kIfold:
      return "the function of ifold must be (lam (lam BODY)), with the "
             "index %1 and the accumulator %0";
    default:
      return absl::StrCat("the function of ", Spelling(op),
                          " must be (lam BODY)");
  }
}

// The message for `item` where operand `position` of `op` must be an
// integer literal, naming what the literal is.
std::string IntegerOperandError(Op op, size_t position, const Sexpr& item) {
  std::string found = absl::StrCat("found '", PrintFlat(item), "'");
  absl::string_view what;
  switch (op) {
    case Op::kBuild:
    case Op::kIfold:
      return absl::StrCat("the length of ", Spelling(op),
                          " must be an integer literal > 0, ", found);
    case Op::kList:
      return absl::StrCat("expected an integer literal >= 0, ", found);
    case Op::kShape:
      return absl::StrCat("expected an integer literal >= 1, ", found);
    case Op::kAccess:
      what = "number of access dimensions";
      break;
    case Op::kSlice:
      what = position == 1   ? "dimension"
             : position == 2 ? "lower bound"
                             : "upper bound";
      break;
    case Op::kSqueeze:
    case Op::kConcat:
      what = "dimension";
      break;
    case Op::kExtract:
    case Op::kInsert:
      // Positions select lanes statically, as MLIR's static positions do.
      return absl::StrCat("a position of ", Spelling(op),
                          " must be an integer literal, ", found);
    default:
      return absl::StrCat("expected an integer literal, ", found);
  }
  return absl::StrCat("expected an integer literal for the ", what, ", ",
                      found);
}

absl::Status ExpectedOperands(const Sexpr& form, const OpInfo& info) {
  // Statements with optional or named parts say what they look like.
  switch (info.op) {
    case Op::kFor:
      return ErrorAt(form.loc(), "expected (for V LO HI STMT...)");
    case Op::kIf:
      return ErrorAt(form.loc(),
                     "expected (if COND (then STMT...) [(else STMT...)])");
    case Op::kCall:
      return ErrorAt(form.loc(), "expected (call @PROC ARG...)");
    default:
      break;
  }
  size_t count = info.min_operands();
  std::string expected =
      absl::StrCat(count, count == 1 ? " operand" : " operands");
  if (info.max_operands() != count) {
    expected = absl::StrCat("at least ", expected);
  }
  return ErrorAt(form.loc(),
                 absl::StrCat("'", form.head(), "' takes ", expected,
                              ", found ", form.size() - 1));
}

}  // namespace

absl::StatusOr<Node*> Reader::ReadValue(const Sexpr& expr) {
  switch (expr.kind()) {
    case SexprKind::kInt: {
      Node* node = Create(Op::kConst, expr);
      node->set_int(expr.int_value());
      return node;
    }
    case SexprKind::kFloat: {
      Node* node = Create(Op::kConst, expr);
      node->set_float(expr.float_value());
      return node;
    }
    case SexprKind::kSymbol:
      return ReadName(expr);
    case SexprKind::kString:
      return ErrorAt(expr.loc(),
                     absl::StrCat("expected a ", value_word(), ", found '",
                                  PrintFlat(expr), "'"));
    case SexprKind::kList:
      break;
  }
  absl::string_view head = expr.head();
  if (head.empty()) {
    return ErrorAt(expr.loc(), absl::StrCat("expected a ", value_word(),
                                            ", found '", PrintFlat(expr), "'"));
  }
  if (std::optional<Op> op = FindOp(head)) {
    if (!IsValueOp(*op) && form_ == Op::kFunc) {
      return ErrorAt(expr[0].loc(),
                     absl::StrCat("unknown operator '", head, "'"));
    }
    if (!IsValueOp(*op)) {
      return ErrorAt(expr.loc(),
                     absl::StrCat("'", head, "' is not a value here"));
    }
    if (*op == Op::kDescriptor) return ReadDescriptor(expr);
    if (*op == Op::kLam && expr.size() != 2) {
      // Functions are read as operands (ReadOperand); this lam is a value.
      return ErrorAt(expr.loc(),
                     "a lam must be the function of build, ifold or app, "
                     "where the type of its argument is known");
    }
    return ReadGeneric(expr, *op);
  }
  if (IsLocalName(expr[0]) && Lookup(head) != nullptr) return ReadLoad(expr);
  if (form_ == Op::kFunc && absl::StrContains(head, '.')) {
    return ReadLibCall(expr);
  }
  return ErrorAt(expr[0].loc(), absl::StrCat("unknown operator '", head, "'"));
}

absl::StatusOr<Node*> Reader::ReadName(const Sexpr& name) {
  if (pattern_ && IsPatternVariable(name)) {
    Node* meta = Create(Op::kMeta, name);
    meta->set_name(name.text());
    return meta;
  }
  if (std::optional<int64_t> k = DeBruijnIndex(name)) {
    if (!pattern_ && *k >= static_cast<int64_t>(lams_.size())) {
      return ErrorAt(
          name.loc(),
          absl::StrCat("'", name.text(), "' is not bound: ",
                       lams_.size() == 1
                           ? "one lam encloses"
                           : absl::StrCat(lams_.size(), " lams enclose"),
                       " it"));
    }
    Node* var = Create(Op::kVar, name);
    var->set_int(*k);
    return var;
  }
  Node* binder = IsLocalName(name) ? Lookup(name.text()) : nullptr;
  if (binder == nullptr) {
    return ErrorAt(name.loc(),
                   absl::StrCat("unbound name '", name.text(), "'"));
  }
  if (definition_ && binder->is(Op::kParam)) {
    return ErrorAt(name.loc(),
                   absl::StrCat("'", name.text(),
                                "' is a size: it may stand where an integer "
                                "literal may, not for a value"));
  }
  Node* ref = Create(Op::kRef, name);
  ref->set_name(name.text());
  ref->set_def(binder);
  return ref;
}

absl::StatusOr<Node*> Reader::ReadLoad(const Sexpr& form) {
  Node* load = Create(Op::kLoad, form);
  for (const Sexpr& item : form.items()) {
    auto operand = ReadValue(item);
    if (!operand.ok()) return operand.status();
    module_.Append(load, *operand);
  }
  return load;
}

absl::StatusOr<Node*> Reader::ReadStmt(const Sexpr& stmt) {
  if (stmt.head() == kParallelForSpelling) {
    auto loop = ReadGeneric(stmt, Op::kFor);
    if (loop.ok()) (*loop)->set_parallel(true);
    return loop;
  }
  std::optional<Op> op = FindOp(stmt.head());
  if (!op || Info(*op).op_class != OpClass::kStmt) {
    if (!stmt.head().empty()) {
      return ErrorAt(stmt[0].loc(),
                     absl::StrCat("unknown statement '", stmt.head(), "'"));
    }
    return ErrorAt(stmt.loc(), absl::StrCat("expected a statement, found '",
                                            PrintFlat(stmt), "'"));
  }
  if (*op == Op::kAlloc) return ReadAlloc(stmt);
  // Assertions of the preamble have been checked by ReadProcedure.
  if (*op == Op::kAssert && stmt.size() != 2) {
    return ErrorAt(stmt.loc(),
                   "assert is a precondition: it must come before the other "
                   "statements of a proc or instr");
  }
  return ReadGeneric(stmt, *op);
}

absl::StatusOr<Node*> Reader::ReadAlloc(const Sexpr& stmt) {
  if (stmt.size() < 3 || stmt.size() > 4) {
    return ErrorAt(stmt.loc(), "expected (alloc NAME TYPE [@MEM])");
  }
  if (!IsLocalName(stmt[1])) {
    return ErrorAt(stmt[1].loc(), absl::StrCat("expected a name for the "
                                               "allocation, found '",
                                               PrintFlat(stmt[1]), "'"));
  }
  Node* alloc = Create(Op::kAlloc, stmt);
  alloc->set_name(stmt[1].text());
  alloc->set_name_loc(stmt[1].loc());
  auto type = ReadType(stmt[2]);
  if (!type.ok()) return type.status();
  alloc->set_declared_type(*std::move(type));
  if (stmt.size() == 4) {
    if (auto status = ReadMemoryOperand(stmt[3], alloc); !status.ok()) {
      return status;
    }
  }
  return alloc;
}

absl::Status Reader::ReadStmts(const Sexpr& form, size_t first, Node* parent) {
  size_t depth = scope_.size();
  for (size_t i = first; i < form.size(); ++i) {
    auto stmt = ReadStmt(form[i]);
    if (!stmt.ok()) return stmt.status();
    module_.Append(parent, *stmt);
    if ((*stmt)->is(Op::kAlloc) || (*stmt)->is(Op::kLet)) {
      Bind((*stmt)->name(), *stmt);
    }
  }
  scope_.resize(depth);
  return absl::OkStatus();
}

absl::Status Reader::CheckNamedOperands(const Sexpr& form, Op op) const {
  switch (op) {
    case Op::kAssign:
    case Op::kReduce: {
      // NAME or (NAME I...); operators there are left to the verifier.
      const Sexpr& location = form[1];
      if (location.is_string() ||
          (location.is_list() && location.head().empty())) {
        return ErrorAt(location.loc(), absl::StrCat("expected a scalar NAME or "
                                                    "an element (NAME I...), "
                                                    "found '",
                                                    PrintFlat(location), "'"));
      }
      std::optional<Op> head = FindOp(location.head());
      if (location.is_list() && !(head && IsValueOp(*head)) &&
          !(IsLocalName(location[0]) && Lookup(location.head()) != nullptr)) {
        return ErrorAt(location[0].loc(),
                       absl::StrCat("unbound name '", location.head(), "'"));
      }
      return absl::OkStatus();
    }
    case Op::kLet: {
      const Sexpr& window = form[2];
      if (!window.is_form("window") || window.size() < 2 ||
          !window[1].is_symbol()) {
        return ErrorAt(window.loc(), absl::StrCat("expected a window "
                                                  "(window NAME SEL...), "
                                                  "found '",
                                                  PrintFlat(window), "'"));
      }
      return absl::OkStatus();
    }
    case Op::kStride: {
      const Sexpr& name = form[1];
      if (!IsLocalName(name) || Lookup(name.text()) == nullptr) {
        return ErrorAt(name.loc(), absl::StrCat("'stride' needs the name of a "
                                                "tensor or window, found '",
                                                PrintFlat(name), "'"));
      }
      return absl::OkStatus();
    }
    default:
      return absl::OkStatus();
  }
}

absl::StatusOr<Node*> Reader::ReadGeneric(const Sexpr& form, Op op) {
  const OpInfo& info = Info(op);
  size_t given = form.size() - 1;
  std::optional<size_t> most = info.max_operands();
  if (given < info.min_operands() || (most && given > *most)) {
    return ExpectedOperands(form, info);
  }
  if (auto status = CheckNamedOperands(form, op); !status.ok()) return status;
  Node* node = Create(op, form);
  size_t depth = scope_.size();
  bool binds = std::find(info.operands.begin(), info.operands.end(),
                         OperandKind::kName) != info.operands.end();
  if (op == Op::kLam) lams_.push_back(node);
  size_t item = 1;
  absl::Status status;
  for (OperandKind kind : info.operands) {
    bool rest = kind == OperandKind::kValues ||
                kind == OperandKind::kValuesPlus ||
                kind == OperandKind::kStmts || kind == OperandKind::kInts;
    if (kind == OperandKind::kStmts) {
      // A form's own binder (for's variable) is visible in its body;
      // a statement's binder (let's) in the statements after it.
      if (binds) Bind(node->name(), node);
      status = ReadStmts(form, item, node);
      item = form.size();
    } else if (rest) {
      for (; item < form.size() && status.ok(); ++item) {
        status = ReadOperand(form[item], kind, node);
      }
    } else if (item < form.size()) {
      status = ReadOperand(form[item++], kind, node);
    }
    if (!status.ok()) break;
  }
  if (op == Op::kLam) lams_.pop_back();
  scope_.resize(depth);
  if (!status.ok()) return status;
  return node;
}

absl::Status Reader::ReadOperand(const Sexpr& item, OperandKind kind,
                                 Node* node) {
  switch (kind) {
    case OperandKind::kValue:
    case OperandKind::kValues:
    case OperandKind::kValuesPlus:
    case OperandKind::kLam: {
      if (kind == OperandKind::kLam && !IsFunctionOf(node->op(), item)) {
        return ErrorAt(item.loc(), FunctionShapeError(node->op()));
      }
      auto value = ReadValue(item);
      if (!value.ok()) return value.status();
      module_.Append(node, *value);
      return absl::OkStatus();
    }
    case OperandKind::kInt:
    case OperandKind::kInts: {
      auto value = ReadInteger(item, kind == OperandKind::kInts);
      if (!value.ok()) return value.status();
      if (*value == nullptr) {
        return ErrorAt(item.loc(), IntegerOperandError(
                                       node->op(), node->num_operands(), item));
      }
      module_.Append(node, *value);
      return absl::OkStatus();
    }
    case OperandKind::kName:
      if (!IsLocalName(item)) {
        return ErrorAt(
            item.loc(),
            absl::StrCat("expected a name for the ",
                         node->is(Op::kFor) ? "loop variable" : "window",
                         ", found '", PrintFlat(item), "'"));
      }
      node->set_name(item.text());
      node->set_name_loc(item.loc());
      return absl::OkStatus();
    case OperandKind::kGlobal:
      if (node->is(Op::kCall) && !IsGlobalName(item)) {
        return ErrorAt(node->loc(), "expected (call @PROC ARG...)");
      }
      if (!IsGlobalName(item)) {
        return ErrorAt(item.loc(),
                       absl::StrCat("unknown config '", PrintFlat(item), "'"));
      }
      globals_.push_back({node, item.text(), item.loc()});
      node->set_name_loc(item.loc());
      return absl::OkStatus();
    case OperandKind::kKey:
      if (!item.is_symbol()) {
        if (node->is(Op::kCompute)) {
          return ErrorAt(item.loc(), "expected an access pattern operator");
        }
        if (node->is(Op::kReadConfig) || node->is(Op::kWriteConfig)) {
          // The config, read just before, has no such field.
          return ErrorAt(
              item.loc(),
              absl::StrCat("'", globals_.back().name,
                           "' has no field '", PrintFlat(item), "'"));
        }
        return ErrorAt(item.loc(), absl::StrCat("expected a name, found '",
                                                PrintFlat(item), "'"));
      }
      node->set_name(item.text());
      // Compute's and reduction's operators are reported where they are
      // written; the other keys follow a `@NAME` that keeps its own location.
      if (node->is(Op::kCompute) || node->is(Op::kReduction)) {
        node->set_name_loc(item.loc());
      }
      return absl::OkStatus();
    case OperandKind::kElem: {
      std::optional<ElemType> elem =
          item.is_symbol() ? ParseElemType(item.text()) : std::nullopt;
      if (!elem) {
        return ErrorAt(item.loc(), absl::StrCat("expected an element type "
                                                "to cast to, found '",
                                                PrintFlat(item), "'"));
      }
      node->set_declared_type(Type::Elem(*elem));
      return absl::OkStatus();
    }
    case OperandKind::kType: {
      auto type = ReadType(item);
      if (!type.ok()) return type.status();
      node->set_declared_type(*std::move(type));
      return absl::OkStatus();
    }
    case OperandKind::kThen:
    case OperandKind::kElseOpt: {
      Op block = kind == OperandKind::kThen ? Op::kThen : Op::kElse;
      if (!item.is_form(Spelling(block))) {
        return ErrorAt(item.loc(), absl::StrCat("expected (", Spelling(block),
                                                " STMT...)"));
      }
      auto value = ReadGeneric(item, block);
      if (!value.ok()) return value.status();
      module_.Append(node, *value);
      return absl::OkStatus();
    }
    case OperandKind::kStmts:
      break;
  }
  return absl::InternalError("statements are read by ReadStmts");
}

}  // namespace tessel::ir::syntax_internal
