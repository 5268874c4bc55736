#include "libs/emitc/expr_emitter.h"

#include <cstdint>
#include <limits>

#include "absl/strings/str_cat.h"
#include "libs/sexpr/printer.h"

namespace tessel::emitc {
namespace {

absl::Status ExpectOperands(const Sexpr& expr, size_t count,
                            absl::string_view form) {
  if (expr.size() == count + 1) return absl::OkStatus();
  return ErrorAt(expr.loc(), absl::StrCat("expected ", form));
}

bool IsComparison(absl::string_view head) {
  return head == "<" || head == "<=" || head == ">" || head == ">=" ||
         head == "==" || head == "!=";
}

bool IsArithmetic(absl::string_view head) {
  return head == "+" || head == "-" || head == "*" || head == "/";
}

CExpr Reading(Binding* binding, CExpr expr) {
  expr.uses.reads.push_back(binding);
  return expr;
}

// TIR arithmetic on i8 wraps after every operation; C computes in int.
CExpr WrapI8(const CExpr& expr, ElemType type) {
  return type == ElemType::kI8 ? Cast("int8_t", expr) : expr;
}

// An integer literal standing for a value of `type` wraps like arithmetic.
int64_t WrapLiteral(int64_t value, ElemType type) {
  if (type == ElemType::kI8) return static_cast<int8_t>(value);
  if (type == ElemType::kI32) return static_cast<int32_t>(value);
  return value;
}

CExpr Min(const CExpr& a, const CExpr& b) {
  return Conditional(Binary("<", b, a), b, a);
}

CExpr Max(const CExpr& a, const CExpr& b) {
  return Conditional(Binary("<", a, b), b, a);
}

// Where no context types a data expression made of literals (the operand
// of a cast, a comparison of literals), it is f64 when a float literal takes
// part and i32 otherwise, as the interpreter decides.
bool HasFloatLiteral(const Sexpr& expr) {
  if (expr.is_float()) return true;
  for (const Sexpr& item : expr.items()) {
    if (HasFloatLiteral(item)) return true;
  }
  return false;
}

ElemType DefaultLiteralType(const Sexpr& expr) {
  return HasFloatLiteral(expr) ? ElemType::kF64 : ElemType::kI32;
}

// Integers beyond 2^53 do not survive a trip through double: the C
// compiler converts them to the float type itself, rounding once.
bool ExactInDouble(int64_t value) {
  constexpr int64_t kLimit = int64_t{1} << 53;
  return value >= -kLimit && value <= kLimit;
}

bool IsWholeWindowParam(const View& view, const WindowType& type) {
  const Binding& root = *view.root;
  if (!root.window_param || *root.window_param != type) return false;
  if (view.rank() != static_cast<int>(view.offsets.size())) return false;
  for (int k = 0; k < view.rank(); ++k) {
    if (view.kept[k] != k || view.offsets[k].constant != 0) return false;
  }
  return true;
}

}  // namespace

FieldType ConfigFieldType(const ConfigField& field) {
  FieldType type;
  type.control = ParseControlType(field.type->text());
  if (!type.control) type.elem = *ParseElemType(field.type->text());
  return type;
}

absl::string_view ControlCType(ControlType type) {
  return type == ControlType::kBool ? "bool" : "int64_t";
}

absl::StatusOr<Binding*> ExprEmitter::Find(const Sexpr& name) const {
  if (!name.is_symbol()) {
    return ErrorAt(name.loc(), absl::StrCat("expected a name, found '",
                                            PrintFlat(name), "'"));
  }
  Binding* binding = scope_.Lookup(name.text());
  if (binding == nullptr) {
    return ErrorAt(name.loc(),
                   absl::StrCat("unknown name '", name.text(), "'"));
  }
  return binding;
}

absl::StatusOr<Binding*> ExprEmitter::FindData(const Sexpr& name,
                                               BindingKind kind) const {
  auto binding = Find(name);
  if (!binding.ok()) return binding.status();
  if ((*binding)->kind != kind) {
    return ErrorAt(name.loc(), absl::StrCat("'", name.text(), "' is not ",
                                            kind == BindingKind::kScalar
                                                ? "a scalar"
                                                : "a tensor or window"));
  }
  return binding;
}

absl::Status ExprEmitter::CheckAddressable(const Binding& root,
                                           const Sexpr& name) const {
  const Memory* memory = module_.FindMemory(root.memory);
  if (memory == nullptr || memory->addressable) return absl::OkStatus();
  return ErrorAt(name.loc(),
                 absl::StrCat("'", name.text(), "' is in ", root.memory,
                              ", which is not addressable: only "
                              "instructions may access it"));
}

absl::StatusOr<CExpr> ExprEmitter::Control(const Sexpr& expr) const {
  if (expr.is_int()) return IntLiteral(expr.int_value());
  if (expr.is_symbol()) {
    auto binding = Find(expr);
    if (!binding.ok()) return binding.status();
    if ((*binding)->kind != BindingKind::kControl) {
      return ErrorAt(expr.loc(),
                     absl::StrCat("'", expr.text(),
                                  "' is data; control values cannot depend "
                                  "on data"));
    }
    return Reading(*binding, Primary((*binding)->c_name));
  }
  absl::string_view head = expr.head();
  if (head == "+" || head == "-" || head == "*" || head == "and" ||
      head == "or" || head == "min" || head == "max") {
    if (auto status = ExpectOperands(expr, 2, absl::StrCat("(", head, " A B)"));
        !status.ok()) {
      return status;
    }
    auto a = Control(expr[1]);
    if (!a.ok()) return a.status();
    auto b = Control(expr[2]);
    if (!b.ok()) return b.status();
    if (head == "min") return Min(*a, *b);
    if (head == "max") return Max(*a, *b);
    if (head == "and") return Binary("&&", *a, *b);
    if (head == "or") return Binary("||", *a, *b);
    // Literal arithmetic is folded: in C it would be computed in int.
    int64_t folded;
    if (a->constant && b->constant &&
        !(head == "+"
              ? __builtin_add_overflow(*a->constant, *b->constant, &folded)
          : head == "-"
              ? __builtin_sub_overflow(*a->constant, *b->constant, &folded)
              : __builtin_mul_overflow(*a->constant, *b->constant, &folded))) {
      return IntLiteral(folded);
    }
    return Binary(head, *a, *b);
  }
  if (head == "neg" || head == "not") {
    if (auto status = ExpectOperands(expr, 1, absl::StrCat("(", head, " A)"));
        !status.ok()) {
      return status;
    }
    auto a = Control(expr[1]);
    if (!a.ok()) return a.status();
    if (head == "neg" && a->constant &&
        *a->constant != std::numeric_limits<int64_t>::min()) {
      return IntLiteral(-*a->constant);
    }
    return Unary(head == "neg" ? "-" : "!", *a);
  }
  if (head == "/" || head == "%") return FloorOp(expr);
  if (IsComparison(head)) return Compare(expr);
  if (head == "stride") return Stride(expr);
  if (head == "read-config") {
    const ConfigField* field = nullptr;
    auto value = ReadConfig(expr, &field);
    if (!value.ok()) return value.status();
    if (!ConfigFieldType(*field).control) {
      return ErrorAt(expr.loc(), absl::StrCat("field '", field->name,
                                              "' holds data, not a control "
                                              "value"));
    }
    return value;
  }
  if (expr.is_float()) {
    return ErrorAt(expr.loc(), "a float literal is not a control value");
  }
  return ErrorAt(expr.loc(), absl::StrCat("expected a control expression, "
                                          "found '",
                                          PrintFlat(expr), "'"));
}

absl::StatusOr<CExpr> ExprEmitter::Compare(const Sexpr& expr) const {
  if (auto status =
          ExpectOperands(expr, 2, absl::StrCat("(", expr.head(), " A B)"));
      !status.ok()) {
    return status;
  }
  std::optional<ElemType> type;
  if (IsData(expr[1]) || IsData(expr[2])) {
    type = DataTypeOf(expr[1]);
    if (!type) type = DataTypeOf(expr[2]);
    if (!type) type = DefaultLiteralType(expr);
  }
  auto operand = [&](const Sexpr& e) {
    return type ? Data(e, *type) : Control(e);
  };
  auto a = operand(expr[1]);
  if (!a.ok()) return a.status();
  auto b = operand(expr[2]);
  if (!b.ok()) return b.status();
  return Binary(expr.head(), *a, *b);
}

absl::StatusOr<CExpr> ExprEmitter::FloorOp(const Sexpr& expr) const {
  absl::string_view head = expr.head();
  if (auto status = ExpectOperands(expr, 2, absl::StrCat("(", head, " A N)"));
      !status.ok()) {
    return status;
  }
  const Sexpr& divisor = expr[2];
  if (!divisor.is_int() || divisor.int_value() <= 0) {
    return ErrorAt(divisor.loc(),
                   absl::StrCat("the divisor of a control '", head,
                                "' must be a positive integer literal"));
  }
  auto a = Control(expr[1]);
  if (!a.ok()) return a.status();
  CExpr n = IntLiteral(divisor.int_value());
  // C's `/` and `%` truncate; they agree with floor division and modulo
  // when the numerator is non-negative.
  if (NonNegative(expr[1])) return Binary(head, *a, n);
  CExpr call = Call(head == "/" ? "tsl_floordiv" : "tsl_floormod", {*a, n});
  (head == "/" ? call.uses.needs.floordiv : call.uses.needs.floormod) = true;
  return call;
}

absl::StatusOr<CExpr> ExprEmitter::Stride(const Sexpr& expr) const {
  if (auto status = ExpectOperands(expr, 2, "(stride NAME K)"); !status.ok()) {
    return status;
  }
  auto binding = FindData(expr[1], BindingKind::kBuffer);
  if (!binding.ok()) return binding.status();
  const View& view = (*binding)->view;
  const Sexpr& k = expr[2];
  if (!k.is_int() || k.int_value() < 0 || k.int_value() >= view.rank()) {
    return ErrorAt(k.loc(),
                   absl::StrCat("expected a dimension of '", expr[1].text(),
                                "' (0 to ", view.rank() - 1, ")"));
  }
  return view.strides[view.kept[k.int_value()]];
}

absl::StatusOr<CExpr> ExprEmitter::ReadConfig(const Sexpr& expr,
                                              const ConfigField** field) const {
  if (auto status = ExpectOperands(expr, 2, "(read-config @CFG FIELD)");
      !status.ok()) {
    return status;
  }
  const Config* config =
      expr[1].is_symbol() ? module_.FindConfig(expr[1].text()) : nullptr;
  if (config == nullptr) {
    return ErrorAt(expr[1].loc(),
                   absl::StrCat("unknown config '", PrintFlat(expr[1]), "'"));
  }
  *field = expr[2].is_symbol() ? config->FindField(expr[2].text()) : nullptr;
  if (*field == nullptr) {
    return ErrorAt(expr[2].loc(), absl::StrCat(config->name, " has no field '",
                                               PrintFlat(expr[2]), "'"));
  }
  CExpr value = Member(Primary(globals_.configs.at(config->name)),
                       globals_.fields.at(config->name).at((*field)->name));
  value.uses.needs.configs.insert(config->name);
  return value;
}

absl::StatusOr<CExpr> ExprEmitter::Data(const Sexpr& expr,
                                        ElemType type) const {
  if (expr.is_int()) {
    int64_t value = expr.int_value();
    if (!IsFloat(type)) return IntLiteral(WrapLiteral(value, type));
    if (ExactInDouble(value)) {
      return FloatLiteral(static_cast<double>(value), type);
    }
    return Cast(ElemTypeCName(type), IntLiteral(value));
  }
  if (expr.is_float()) {
    if (!IsFloat(type)) {
      return ErrorAt(expr.loc(),
                     absl::StrCat("a float literal cannot stand for an ",
                                  ElemTypeName(type), " value"));
    }
    return FloatLiteral(expr.float_value(), type);
  }
  std::optional<ElemType> actual = DataTypeOf(expr);
  if (actual && *actual != type) {
    return ErrorAt(
        expr.loc(),
        absl::StrCat("'", PrintFlat(expr), "' is ", ElemTypeName(*actual),
                     " where ", ElemTypeName(type), " is expected"));
  }
  if (expr.is_symbol()) {
    auto binding = FindData(expr, BindingKind::kScalar);
    if (!binding.ok()) return binding.status();
    if (auto status = CheckAddressable(**binding, expr); !status.ok()) {
      return status;
    }
    return ScalarValue(expr);
  }
  return DataOperation(expr, type);
}

absl::StatusOr<CExpr> ExprEmitter::DataOperation(const Sexpr& expr,
                                                 ElemType type) const {
  absl::string_view head = expr.head();
  if (IsArithmetic(head) || head == "max" || head == "min") {
    if (auto status = ExpectOperands(expr, 2, absl::StrCat("(", head, " A B)"));
        !status.ok()) {
      return status;
    }
    auto a = Data(expr[1], type);
    if (!a.ok()) return a.status();
    auto b = Data(expr[2], type);
    if (!b.ok()) return b.status();
    if (head == "max") return Max(*a, *b);
    if (head == "min") return Min(*a, *b);
    return WrapI8(Binary(head, *a, *b), type);
  }
  if (head == "neg") {
    if (auto status = ExpectOperands(expr, 1, "(neg A)"); !status.ok()) {
      return status;
    }
    auto a = Data(expr[1], type);
    if (!a.ok()) return a.status();
    return WrapI8(Unary("-", *a), type);
  }
  if (head == "select") {
    if (auto status = ExpectOperands(expr, 3, "(select COND A B)");
        !status.ok()) {
      return status;
    }
    auto condition = Control(expr[1]);
    if (!condition.ok()) return condition.status();
    auto a = Data(expr[2], type);
    if (!a.ok()) return a.status();
    auto b = Data(expr[3], type);
    if (!b.ok()) return b.status();
    return Conditional(*condition, *a, *b);
  }
  if (head == "cast") {
    if (auto status = ExpectOperands(expr, 2, "(cast ELEM A)"); !status.ok()) {
      return status;
    }
    const Sexpr& operand = expr[2];
    // A literal operand is simply a literal of the target type.
    if (operand.is_int()) return Data(operand, type);
    // Integer literals alone are computed as control values (int64_t).
    std::optional<ElemType> from;
    if (IsData(operand)) {
      from = DataTypeOf(operand).value_or(DefaultLiteralType(operand));
    }
    auto value = from ? Data(operand, *from) : Control(operand);
    if (!value.ok()) return value.status();
    if (from == type) return value;
    return Cast(ElemTypeCName(type), *value);
  }
  if (head == "read-config") {
    const ConfigField* field = nullptr;
    auto value = ReadConfig(expr, &field);
    if (!value.ok()) return value.status();
    FieldType field_type = ConfigFieldType(*field);
    if (field_type.control) {
      return ErrorAt(expr.loc(), absl::StrCat("field '", field->name,
                                              "' holds a control value, not "
                                              "data"));
    }
    return value;
  }
  if (IsComparison(head) || head == "and" || head == "or" || head == "not") {
    return ErrorAt(expr.loc(),
                   "a condition is not a data value; use "
                   "(select COND A B)");
  }
  if (expr.is_list() && expr.size() > 0 && expr[0].is_symbol()) {
    return Element(expr, /*write=*/false);
  }
  return ErrorAt(expr.loc(), absl::StrCat("expected a data expression, found '",
                                          PrintFlat(expr), "'"));
}

absl::StatusOr<CExpr> ExprEmitter::Element(const Sexpr& access,
                                           bool write) const {
  auto binding = FindData(access[0], BindingKind::kBuffer);
  if (!binding.ok()) return binding.status();
  const View& view = (*binding)->view;
  Binding& root = *view.root;
  if (static_cast<int>(access.size()) - 1 != view.rank()) {
    return ErrorAt(access.loc(),
                   absl::StrCat("'", access[0].text(), "' has ", view.rank(),
                                " dimensions but ", access.size() - 1,
                                " indices are given"));
  }
  if (auto status = CheckAddressable(root, access[0]); !status.ok()) {
    return status;
  }
  if (write && root.read_only) {
    return ErrorAt(access.loc(), absl::StrCat("'", access[0].text(),
                                              "' is read-only (an 'in' "
                                              "parameter)"));
  }
  std::vector<std::optional<CExpr>> index(view.offsets.size());
  for (int k = 0; k < view.rank(); ++k) {
    auto value = Control(access[k + 1]);
    if (!value.ok()) return value.status();
    index[view.kept[k]] = *std::move(value);
  }
  CExpr linear = IntLiteral(0);
  for (size_t d = 0; d < view.offsets.size(); ++d) {
    CExpr position =
        index[d] ? Add(view.offsets[d], *index[d]) : view.offsets[d];
    linear = Add(linear, Multiply(position, view.strides[d]));
  }
  CExpr element = Subscript(view.base, linear);
  (write ? element.uses.writes : element.uses.reads).push_back(&root);
  return element;
}

absl::StatusOr<ExprEmitter::Target> ExprEmitter::AssignTarget(
    const Sexpr& target) const {
  if (target.is_list() && target.size() > 0 && target[0].is_symbol()) {
    auto element = Element(target, /*write=*/true);
    if (!element.ok()) return element.status();
    return Target{*std::move(element), scope_.Lookup(target[0].text())->elem};
  }
  auto binding = FindData(target, BindingKind::kScalar);
  if (!binding.ok()) return binding.status();
  Binding* scalar = *binding;
  if (auto status = CheckAddressable(*scalar, target); !status.ok()) {
    return status;
  }
  if (scalar->read_only) {
    return ErrorAt(target.loc(), absl::StrCat("'", target.text(),
                                              "' is read-only (an 'in' "
                                              "parameter)"));
  }
  CExpr name = Primary(scalar->c_name);
  CExpr lvalue = scalar->by_pointer ? Unary("*", name) : name;
  lvalue.uses.writes.push_back(scalar);
  return Target{lvalue, scalar->elem};
}

absl::StatusOr<CExpr> ExprEmitter::ScalarValue(const Sexpr& name) const {
  auto binding = FindData(name, BindingKind::kScalar);
  if (!binding.ok()) return binding.status();
  CExpr value = Primary((*binding)->c_name);
  if ((*binding)->by_pointer) value = Unary("*", value);
  return Reading(*binding, value);
}

absl::StatusOr<CExpr> ExprEmitter::ScalarAddress(const Sexpr& name) const {
  auto binding = FindData(name, BindingKind::kScalar);
  if (!binding.ok()) return binding.status();
  CExpr address = Primary((*binding)->c_name);
  if (!(*binding)->by_pointer) address = Unary("&", address);
  return Reading(*binding, address);
}

absl::StatusOr<View> ExprEmitter::WindowOf(const Sexpr& expr) const {
  if (expr.is_symbol()) {
    auto binding = FindData(expr, BindingKind::kBuffer);
    if (!binding.ok()) return binding.status();
    return (*binding)->view;
  }
  if (!expr.is_form("window") || expr.size() < 2) {
    return ErrorAt(expr.loc(),
                   "expected a tensor or window: a name or "
                   "(window NAME SEL...)");
  }
  auto binding = FindData(expr[1], BindingKind::kBuffer);
  if (!binding.ok()) return binding.status();
  View view = (*binding)->view;
  if (static_cast<int>(expr.size()) - 2 != view.rank()) {
    return ErrorAt(expr.loc(),
                   absl::StrCat("'", expr[1].text(), "' has ", view.rank(),
                                " dimensions but ", expr.size() - 2,
                                " selectors are given"));
  }
  std::vector<int> kept;
  for (int k = 0; k < view.rank(); ++k) {
    const Sexpr& selector = expr[k + 2];
    int d = view.kept[k];
    bool interval = selector.is_form(":");
    if (interval && selector.size() != 3) {
      return ErrorAt(selector.loc(), "expected an interval (: LO HI)");
    }
    auto start = Control(interval ? selector[1] : selector);
    if (!start.ok()) return start.status();
    view.offsets[d] = Add(view.offsets[d], *start);
    if (interval) kept.push_back(d);
  }
  view.kept = std::move(kept);
  return view;
}

CExpr ExprEmitter::FirstElement(const View& view) {
  CExpr offset = IntLiteral(0);
  for (size_t d = 0; d < view.offsets.size(); ++d) {
    offset = Add(offset, Multiply(view.offsets[d], view.strides[d]));
  }
  CExpr pointer = offset.constant == 0
                      ? view.base
                      : Unary("&", Subscript(view.base, offset));
  pointer.uses.reads.push_back(view.root);
  return pointer;
}

CExpr ExprEmitter::WindowValue(const View& view, const WindowType& type) {
  if (IsWholeWindowParam(view, type)) {
    return Reading(view.root, Primary(view.root->c_name));
  }
  std::vector<CExpr> strides;
  for (int d : view.kept) strides.push_back(view.strides[d]);
  return WindowLiteral(type, FirstElement(view), strides);
}

bool ExprEmitter::IsData(const Sexpr& expr) const {
  if (expr.is_float()) return true;
  if (expr.is_symbol()) {
    Binding* binding = scope_.Lookup(expr.text());
    return binding != nullptr && binding->kind != BindingKind::kControl;
  }
  absl::string_view head = expr.head();
  if (head == "cast" || head == "select") return true;
  if (IsArithmetic(head) || head == "neg" || head == "max" || head == "min" ||
      head == "%") {
    for (size_t i = 1; i < expr.size(); ++i) {
      if (IsData(expr[i])) return true;
    }
    return false;
  }
  return DataTypeOf(expr).has_value();
}

std::optional<ElemType> ExprEmitter::DataTypeOf(const Sexpr& expr) const {
  if (expr.is_symbol()) {
    Binding* binding = scope_.Lookup(expr.text());
    if (binding != nullptr && binding->kind == BindingKind::kScalar) {
      return binding->elem;
    }
    return std::nullopt;
  }
  if (!expr.is_list() || expr.size() == 0) return std::nullopt;
  absl::string_view head = expr.head();
  if (IsArithmetic(head) || head == "neg" || head == "max" || head == "min" ||
      head == "select") {
    for (size_t i = head == "select" ? 2 : 1; i < expr.size(); ++i) {
      if (auto type = DataTypeOf(expr[i])) return type;
    }
    return std::nullopt;
  }
  if (head == "cast") {
    return expr.size() == 3 && expr[1].is_symbol()
               ? ParseElemType(expr[1].text())
               : std::nullopt;
  }
  if (head == "read-config") {
    const Config* config = expr.size() == 3 && expr[1].is_symbol()
                               ? module_.FindConfig(expr[1].text())
                               : nullptr;
    const ConfigField* field = config != nullptr && expr[2].is_symbol()
                                   ? config->FindField(expr[2].text())
                                   : nullptr;
    if (field == nullptr || ConfigFieldType(*field).control) {
      return std::nullopt;
    }
    return ConfigFieldType(*field).elem;
  }
  if (IsComparison(head) || head == "and" || head == "or" || head == "not" ||
      head == "stride" || head == "/" || head == "%") {
    return std::nullopt;
  }
  if (expr[0].is_symbol()) {
    Binding* binding = scope_.Lookup(expr[0].text());
    if (binding != nullptr && binding->kind == BindingKind::kBuffer) {
      return binding->elem;
    }
  }
  return std::nullopt;
}

bool ExprEmitter::NonNegative(const Sexpr& expr) const {
  if (expr.is_int()) return expr.int_value() >= 0;
  if (expr.is_symbol()) {
    Binding* binding = scope_.Lookup(expr.text());
    return binding != nullptr && binding->kind == BindingKind::kControl &&
           binding->non_negative;
  }
  if (!expr.is_list() || expr.size() != 3) return false;
  absl::string_view head = expr.head();
  bool positive_divisor = expr[2].is_int() && expr[2].int_value() > 0;
  if (head == "+" || head == "*" || head == "min") {
    return NonNegative(expr[1]) && NonNegative(expr[2]);
  }
  if (head == "max") return NonNegative(expr[1]) || NonNegative(expr[2]);
  if (head == "/") return positive_divisor && NonNegative(expr[1]);
  // Floor modulo by a positive number is never negative.
  if (head == "%") return positive_divisor;
  return false;
}

}  // namespace tessel::emitc
