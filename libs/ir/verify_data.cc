// Data expressions, locations and windows at the loop level, with the bounds
// check of every element access and window.
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/ir/verify_common.h"
#include "libs/ir/verify_proc.h"
#include "libs/sexpr/printer.h"
#include "libs/support/source.h"

namespace tessel {
namespace {

// Where a selector or index may go: index k of a tensor lies in
// [0, extent); an interval (: LO HI) satisfies 0 <= LO < HI <= extent.
struct Range {
  const Sexpr* at;
  bool is_interval;
  int first_value;  // position of its values in the query
};

// A value isl reported, for comparisons: values beyond 64 bits (possible
// with huge literals) saturate.
int64_t ValueOf(const std::string& text) {
  int64_t value = 0;
  if (absl::SimpleAtoi(text, &value)) return value;
  return !text.empty() && text[0] == '-' ? INT64_MIN : INT64_MAX;
}

// The message for the first range that `values` break.
std::string DescribeViolation(const std::vector<Range>& ranges,
                              const std::vector<std::string>& values,
                              absl::string_view name, const Sexpr** at) {
  for (size_t k = 0; k < ranges.size(); ++k) {
    const Range& range = ranges[k];
    *at = range.at;
    const std::string& first = values[range.first_value];
    const std::string& second = values[range.first_value + 1];
    if (!range.is_interval) {
      if (ValueOf(first) < 0) {
        return absl::StrCat("index ", k, " of '", name, "' can be ", first,
                            ", below 0");
      }
      if (ValueOf(first) >= ValueOf(second)) {
        return absl::StrCat("index ", k, " of '", name, "' can reach ", first,
                            ", outside its extent ", second);
      }
      continue;
    }
    const std::string& extent = values[range.first_value + 2];
    if (ValueOf(first) < 0) {
      return absl::StrCat("interval ", k, " of the window on '", name,
                          "' can start at ", first, ", below 0");
    }
    if (ValueOf(second) > ValueOf(extent)) {
      return absl::StrCat("interval ", k, " of the window on '", name,
                          "' can end at ", second, ", beyond its extent ",
                          extent);
    }
    if (ValueOf(first) >= ValueOf(second)) {
      return absl::StrCat("interval ", k, " of the window on '", name,
                          "' can be empty (from ", first, " to ", second, ")");
    }
  }
  return "";
}

// Checks that the indices and intervals `ranges`, whose bounds are
// `values`, stay inside `name` everywhere in `domain`.
absl::Status CheckRanges(PolyDomain& domain, const std::vector<Affine>& values,
                         const std::vector<Range>& ranges,
                         absl::string_view name) {
  std::vector<std::string> allowed;
  for (const Range& range : ranges) {
    int first = range.first_value;
    allowed.push_back(range.is_interval
                          ? absl::StrCat("0 <= x", first, " < x", first + 1,
                                         " <= x", first + 2)
                          : absl::StrCat("0 <= x", first, " < x", first + 1));
  }
  auto violation =
      domain.FindViolation(values, absl::StrJoin(allowed, " and "));
  if (!violation.ok()) return violation.status();
  if (!violation->has_value()) return absl::OkStatus();
  const Sexpr* at = ranges.front().at;
  std::string message =
      DescribeViolation(ranges, (*violation)->values, name, &at);
  return ErrorAt(at->loc(), absl::StrCat(message, AtPoint((*violation)->at)));
}

Affine Difference(const Affine& hi, const Affine& lo) {
  if (lo.text == "0") return hi;
  std::vector<int> params = hi.params;
  MergeParams(params, lo.params);
  return Affine{absl::StrCat("(", hi.text, " - ", lo.text, ")"),
                std::move(params)};
}

// The dimension (: LO HI) keeps, as written in a type.
Sexpr DifferenceSexpr(const Sexpr& interval) {
  const Sexpr& lo = interval[1];
  const Sexpr& hi = interval[2];
  int64_t difference;
  if (lo.is_int() && hi.is_int() &&
      !__builtin_sub_overflow(hi.int_value(), lo.int_value(), &difference)) {
    return Sexpr::Int(difference, interval.loc());
  }
  if (lo.is_int() && lo.int_value() == 0) return hi;
  return Sexpr::List({Sexpr::Symbol("-", interval.loc()), hi, lo},
                     interval.loc());
}

}  // namespace

absl::StatusOr<const LoopName*> ProcVerifier::FindData(
    const Sexpr& name) const {
  const LoopName* bound = Find(name.text());
  if (bound == nullptr) {
    return ErrorAt(name.loc(),
                   absl::StrCat("unbound name '", name.text(), "'"));
  }
  if (!bound->is_data) {
    return ErrorAt(
        name.loc(),
        absl::StrCat("'", name.text(), "' is a control value (",
                     ControlTypeName(bound->control), "), not data"));
  }
  return bound;
}

absl::Status ProcVerifier::CheckAddressable(const Sexpr& at,
                                            const LoopName& data) const {
  if (proc_.is_instr) return absl::OkStatus();
  const Memory* memory = module_.FindMemory(data.view.memory);
  if (memory == nullptr || memory->addressable) return absl::OkStatus();
  return ErrorAt(at.loc(),
                 absl::StrCat("'", at.text(), "' is in ", data.view.memory,
                              ", which is not addressable: only an instr may "
                              "access it directly"));
}

absl::StatusOr<ElemType> ProcVerifier::CheckLocation(const Sexpr& location,
                                                     bool write) {
  const Sexpr& name =
      location.is_list() && location.size() > 0 ? location[0] : location;
  if (!name.is_symbol()) {
    return ErrorAt(location.loc(), absl::StrCat("expected a scalar NAME or "
                                                "an element (NAME I...), "
                                                "found '",
                                                PrintFlat(location), "'"));
  }
  auto data = FindData(name);
  if (!data.ok()) return data.status();
  const View& view = (*data)->view;
  int rank = view.type.rank();
  if (location.is_symbol() && rank > 0) {
    return ErrorAt(location.loc(),
                   absl::StrCat("'", name.text(), "' has rank ", rank,
                                "; an element is (", name.text(), " I...)"));
  }
  if (location.is_list() && rank == 0) {
    return ErrorAt(location.loc(),
                   absl::StrCat("'", name.text(), "' is a scalar; write it as ",
                                name.text(), ", without parentheses"));
  }
  if (location.is_list() && static_cast<int>(location.size()) - 1 != rank) {
    return ErrorAt(
        location.loc(),
        absl::StrCat("'", name.text(), "' has rank ", rank, ", but ",
                     location.size() - 1,
                     location.size() == 2 ? " index is" : " indices are",
                     " given"));
  }
  if (write && !view.writable) {
    return ErrorAt(
        name.loc(),
        view.read_only_source == name.text()
            ? absl::StrCat("'", name.text(),
                           "' is an in parameter and cannot be written")
            : absl::StrCat("'", name.text(), "' views the in parameter '",
                           view.read_only_source, "' and cannot be written"));
  }
  if (auto status = CheckAddressable(name, **data); !status.ok()) {
    return status;
  }
  std::vector<Affine> values;
  std::vector<Range> ranges;
  for (int k = 0; k < rank; ++k) {
    auto index = ControlInt(location[k + 1]);
    if (!index.ok()) return index.status();
    ranges.push_back(
        Range{&location[k + 1], false, static_cast<int>(values.size())});
    values.push_back(*std::move(index));
    values.push_back(view.extents[k]);
  }
  if (rank > 0) {
    if (auto status = CheckRanges(domain_, values, ranges, name.text());
        !status.ok()) {
      return status;
    }
  }
  return view.type.elem;
}

absl::StatusOr<View> ProcVerifier::CheckWindow(const Sexpr& window) {
  if (!window.is_form("window") || window.size() < 2 ||
      !window[1].is_symbol()) {
    return ErrorAt(window.loc(), absl::StrCat("expected a window "
                                              "(window NAME SEL...), found '",
                                              PrintFlat(window), "'"));
  }
  const Sexpr& name = window[1];
  auto data = FindData(name);
  if (!data.ok()) return data.status();
  const View& base = (*data)->view;
  int rank = base.type.rank();
  if (rank == 0) {
    return ErrorAt(name.loc(), absl::StrCat("'", name.text(),
                                            "' is a scalar and has no "
                                            "windows"));
  }
  if (static_cast<int>(window.size()) - 2 != rank) {
    return ErrorAt(window.loc(), absl::StrCat("'", name.text(), "' has rank ",
                                              rank, ", but the window has ",
                                              window.size() - 2, " selectors"));
  }
  View view;
  view.type.elem = base.type.elem;
  view.type.is_window = true;
  view.memory = base.memory;
  view.writable = base.writable;
  view.read_only_source = base.read_only_source;
  view.root = base.root;
  std::vector<Affine> values;
  std::vector<Range> ranges;
  for (int k = 0; k < rank; ++k) {
    const Sexpr& selector = window[k + 2];
    int first = static_cast<int>(values.size());
    if (selector.is_form(":")) {
      if (auto status = ExpectOperands(selector, 2); !status.ok()) {
        return status;
      }
      auto lo = ControlInt(selector[1]);
      if (!lo.ok()) return lo.status();
      auto hi = ControlInt(selector[2]);
      if (!hi.ok()) return hi.status();
      view.type.dims.push_back(DifferenceSexpr(selector));
      view.extents.push_back(Difference(*hi, *lo));
      view.root_dims.push_back(base.root_dims[k]);
      values.push_back(*std::move(lo));
      values.push_back(*std::move(hi));
      ranges.push_back(Range{&selector, true, first});
    } else {
      auto point = ControlInt(selector);
      if (!point.ok()) return point.status();
      values.push_back(*std::move(point));
      ranges.push_back(Range{&selector, false, first});
    }
    values.push_back(base.extents[k]);
  }
  if (view.type.dims.empty()) {
    return ErrorAt(window.loc(),
                   absl::StrCat("a window keeps at least one dimension: give "
                                "an interval (: LO HI), or read one element "
                                "as (",
                                name.text(), " I...)"));
  }
  if (auto status = CheckRanges(domain_, values, ranges, name.text());
      !status.ok()) {
    return status;
  }
  return view;
}

absl::StatusOr<View> ProcVerifier::CheckDataArgument(const Sexpr& arg) {
  if (arg.is_symbol()) {
    auto data = FindData(arg);
    if (!data.ok()) return data.status();
    return (*data)->view;
  }
  if (arg.is_form("window")) return CheckWindow(arg);
  return ErrorAt(arg.loc(), absl::StrCat("a data argument is a name or a "
                                         "(window ...) expression, found '",
                                         PrintFlat(arg), "'"));
}

absl::StatusOr<ScalarType> ProcVerifier::InferData(
    const Sexpr& expr, std::optional<ElemType> expected) {
  if (expr.is_int()) return Conform(expr, ScalarType::IntLiteral(), expected);
  if (expr.is_float()) {
    return Conform(expr, ScalarType::FloatLiteral(), expected);
  }
  if (expr.is_symbol()) {
    auto elem = CheckLocation(expr, /*write=*/false);
    if (!elem.ok()) return elem.status();
    return Conform(expr, ScalarType::Of(*elem), expected);
  }
  absl::string_view head = expr.head();
  if (head.empty()) {
    return ErrorAt(expr.loc(), absl::StrCat("expected a data expression, "
                                            "found '",
                                            PrintFlat(expr), "'"));
  }
  if (IsScalarOperation(head)) {
    return InferScalarOperation(
        expr, expected,
        [this](const Sexpr& operand, std::optional<ElemType> type) {
          return InferData(operand, type);
        },
        [this](const Sexpr& cond) { return CheckSelectCondition(cond); });
  }
  if (head == "read-config") {
    if (auto status = ExpectOperands(expr, 2); !status.ok()) return status;
    auto field = FindConfigField(expr);
    if (!field.ok()) return field.status();
    std::optional<ElemType> elem = ParseElemType((*field)->type->text());
    if (!elem) {
      return ErrorAt(expr.loc(),
                     absl::StrCat("field '", (*field)->name, "' of '",
                                  expr[1].text(), "' is a control value (",
                                  (*field)->type->text(), "), not data"));
    }
    return Conform(expr, ScalarType::Of(*elem), expected);
  }
  if (IsComparison(head)) {
    return ErrorAt(expr.loc(),
                   "a comparison is not a data value; use "
                   "(select COND A B)");
  }
  if (Find(head) != nullptr) {
    auto elem = CheckLocation(expr, /*write=*/false);
    if (!elem.ok()) return elem.status();
    return Conform(expr, ScalarType::Of(*elem), expected);
  }
  if (IsReservedName(head)) {
    return ErrorAt(expr[0].loc(),
                   absl::StrCat("'", head, "' is not a data operation"));
  }
  return ErrorAt(expr[0].loc(), absl::StrCat("unknown operator '", head, "'"));
}

absl::Status ProcVerifier::CheckSelectCondition(const Sexpr& cond) {
  if (cond.is_form("and") || cond.is_form("or") || cond.is_form("not")) {
    size_t count = cond.is_form("not") ? 1 : 2;
    if (auto status = ExpectOperands(cond, count); !status.ok()) return status;
    for (size_t i = 1; i <= count; ++i) {
      if (auto status = CheckSelectCondition(cond[i]); !status.ok()) {
        return status;
      }
    }
    return absl::OkStatus();
  }
  if (IsComparison(cond.head()) && cond.size() == 3 &&
      (IsDataExpression(cond[1]) || IsDataExpression(cond[2]))) {
    return CheckDataComparison(
        cond, [this](const Sexpr& operand, std::optional<ElemType> type) {
          return InferData(operand, type);
        });
  }
  return ControlCondition(cond).status();
}

bool ProcVerifier::IsDataExpression(const Sexpr& expr) const {
  if (expr.is_float()) return true;
  if (expr.is_symbol()) {
    const LoopName* bound = Find(expr.text());
    return bound != nullptr && bound->is_data;
  }
  absl::string_view head = expr.head();
  if (head.empty()) return false;
  if (head == "cast" || head == "select") return true;
  if (head == "read-config") {
    const Config* config =
        expr.size() == 3 ? module_.FindConfig(expr[1].text()) : nullptr;
    const ConfigField* field =
        config != nullptr ? config->FindField(expr[2].text()) : nullptr;
    return field != nullptr && ParseElemType(field->type->text());
  }
  const LoopName* bound = Find(head);
  if (bound != nullptr) return bound->is_data;
  for (size_t i = 1; i < expr.size(); ++i) {
    if (IsDataExpression(expr[i])) return true;
  }
  return false;
}

absl::StatusOr<const ConfigField*> ProcVerifier::FindConfigField(
    const Sexpr& form) {
  const Config* config =
      form[1].is_symbol() ? module_.FindConfig(form[1].text()) : nullptr;
  if (config == nullptr) {
    return ErrorAt(form[1].loc(),
                   absl::StrCat("unknown config '", PrintFlat(form[1]), "'"));
  }
  const ConfigField* field =
      form[2].is_symbol() ? config->FindField(form[2].text()) : nullptr;
  if (field == nullptr) {
    return ErrorAt(form[2].loc(),
                   absl::StrCat("'", config->name, "' has no field '",
                                PrintFlat(form[2]), "'"));
  }
  return field;
}

}  // namespace tessel
