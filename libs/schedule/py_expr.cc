#include "libs/schedule/py_expr.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace tessel::schedule {
namespace {

// The punctuation, longest first so that "<=" is not read as "<".
constexpr int kMaxDepth = 100;

constexpr absl::string_view kPuncts[] = {
    "+=", "==", "!=", "<=", ">=", "+", "-", "*", "/", "%", "<",
    ">",  "(",  ")",  "[",  "]",  ",", ":", ";", "=", ".", "@"};

PyExpr Binary(ir::Op op, PyExpr a, PyExpr b) {
  PyExpr e;
  e.kind = PyExpr::Kind::kBinary;
  e.offset = a.offset;
  e.op = op;
  e.operands.push_back(std::move(a));
  e.operands.push_back(std::move(b));
  return e;
}

}  // namespace

bool IsPyKeyword(absl::string_view name) {
  return name == "for" || name == "in" || name == "if" || name == "and" ||
         name == "or" || name == "not";
}

absl::StatusOr<PyParser> PyParser::Create(absl::string_view text) {
  PyParser parser;
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (c == ' ' || c == '\t' || c == '\n') {
      ++i;
      continue;
    }
    PyToken token;
    token.offset = i;
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t start = i;
      while (i < text.size() &&
             (std::isalnum(static_cast<unsigned char>(text[i])) ||
              text[i] == '_')) {
        ++i;
      }
      token.kind = PyToken::Kind::kName;
      token.text = std::string(text.substr(start, i - start));
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t start = i;
      token.kind = PyToken::Kind::kInt;
      while (i < text.size() &&
             (std::isalnum(static_cast<unsigned char>(text[i])) ||
              text[i] == '.')) {
        if (text[i] == '.' || text[i] == 'e')
          token.kind = PyToken::Kind::kFloat;
        ++i;
      }
      token.text = std::string(text.substr(start, i - start));
    } else {
      for (absl::string_view punct : kPuncts) {
        if (text.substr(i, punct.size()) == punct) {
          token.kind = PyToken::Kind::kPunct;
          token.text = std::string(punct);
          break;
        }
      }
      if (token.kind != PyToken::Kind::kPunct) {
        return absl::InvalidArgumentError(absl::StrCat("unexpected character '",
                                                       std::string(1, c),
                                                       "' at column ", i + 1));
      }
      i += token.text.size();
    }
    parser.tokens_.push_back(std::move(token));
  }
  PyToken end;
  end.offset = text.size();
  parser.tokens_.push_back(end);
  return parser;
}

const PyToken& PyParser::Peek(size_t ahead) const {
  return tokens_[std::min(next_ + ahead, tokens_.size() - 1)];
}

PyToken PyParser::Next() {
  PyToken token = Peek();
  if (next_ + 1 < tokens_.size()) ++next_;
  return token;
}

bool PyParser::AtPunct(absl::string_view punct) const {
  return Peek().kind == PyToken::Kind::kPunct && Peek().text == punct;
}

bool PyParser::AtName(absl::string_view name) const {
  return Peek().kind == PyToken::Kind::kName && Peek().text == name;
}

absl::Status PyParser::Error(absl::string_view message) const {
  return absl::InvalidArgumentError(
      absl::StrCat(message, " at column ", Peek().offset + 1));
}

absl::Status PyParser::Expect(absl::string_view punct) {
  if (!AtPunct(punct)) return Error(absl::StrCat("expected '", punct, "'"));
  Next();
  return absl::OkStatus();
}

absl::Status PyParser::Enter() {
  if (++depth_ > kMaxDepth) {
    return Error(absl::StrCat("nested more than ", kMaxDepth, " deep"));
  }
  return absl::OkStatus();
}

absl::StatusOr<PyExpr> PyParser::ParseExpr() {
  if (absl::Status status = Enter(); !status.ok()) return status;
  absl::StatusOr<PyExpr> expr = ParseOr();
  Leave();
  return expr;
}

absl::StatusOr<PyExpr> PyParser::ParseOr() {
  absl::StatusOr<PyExpr> a = ParseAnd();
  while (a.ok() && AtName("or")) {
    Next();
    absl::StatusOr<PyExpr> b = ParseAnd();
    if (!b.ok()) return b;
    a = Binary(ir::Op::kOr, *std::move(a), *std::move(b));
  }
  return a;
}

absl::StatusOr<PyExpr> PyParser::ParseAnd() {
  absl::StatusOr<PyExpr> a = ParseNot();
  while (a.ok() && AtName("and")) {
    Next();
    absl::StatusOr<PyExpr> b = ParseNot();
    if (!b.ok()) return b;
    a = Binary(ir::Op::kAnd, *std::move(a), *std::move(b));
  }
  return a;
}

absl::StatusOr<PyExpr> PyParser::ParseNot() {
  if (!AtName("not")) return ParseComparison();
  PyExpr e;
  e.kind = PyExpr::Kind::kUnary;
  e.offset = Next().offset;
  e.op = ir::Op::kNot;
  if (absl::Status status = Enter(); !status.ok()) return status;
  absl::StatusOr<PyExpr> a = ParseNot();
  Leave();
  if (!a.ok()) return a;
  e.operands.push_back(*std::move(a));
  return e;
}

absl::StatusOr<PyExpr> PyParser::ParseComparison() {
  static constexpr std::pair<absl::string_view, ir::Op> kOps[] = {
      {"<", ir::Op::kLt},  {"<=", ir::Op::kLe}, {">", ir::Op::kGt},
      {">=", ir::Op::kGe}, {"==", ir::Op::kEq}, {"!=", ir::Op::kNe}};
  absl::StatusOr<PyExpr> a = ParseSum();
  if (!a.ok()) return a;
  for (const auto& [punct, op] : kOps) {
    if (AtPunct(punct)) {
      Next();
      absl::StatusOr<PyExpr> b = ParseSum();
      if (!b.ok()) return b;
      return Binary(op, *std::move(a), *std::move(b));
    }
  }
  return a;
}

absl::StatusOr<PyExpr> PyParser::ParseSum() {
  absl::StatusOr<PyExpr> a = ParseProduct();
  while (a.ok() && (AtPunct("+") || AtPunct("-"))) {
    ir::Op op = AtPunct("+") ? ir::Op::kAdd : ir::Op::kSub;
    Next();
    absl::StatusOr<PyExpr> b = ParseProduct();
    if (!b.ok()) return b;
    a = Binary(op, *std::move(a), *std::move(b));
  }
  return a;
}

absl::StatusOr<PyExpr> PyParser::ParseProduct() {
  absl::StatusOr<PyExpr> a = ParseUnary();
  while (a.ok() && (AtPunct("*") || AtPunct("/") || AtPunct("%"))) {
    ir::Op op = AtPunct("*")   ? ir::Op::kMul
                : AtPunct("/") ? ir::Op::kDiv
                               : ir::Op::kFloorMod;
    Next();
    absl::StatusOr<PyExpr> b = ParseUnary();
    if (!b.ok()) return b;
    a = Binary(op, *std::move(a), *std::move(b));
  }
  return a;
}

absl::StatusOr<PyExpr> PyParser::ParseUnary() {
  if (!AtPunct("-")) return ParsePostfix();
  size_t offset = Next().offset;
  if (absl::Status status = Enter(); !status.ok()) return status;
  absl::StatusOr<PyExpr> a = ParseUnary();
  Leave();
  if (!a.ok()) return a;
  // -3 is the literal -3, as Exo's patterns read it.
  if (a->kind == PyExpr::Kind::kInt || a->kind == PyExpr::Kind::kFloat) {
    a->int_value = -a->int_value;
    a->float_value = -a->float_value;
    a->offset = offset;
    return a;
  }
  PyExpr e;
  e.kind = PyExpr::Kind::kUnary;
  e.offset = offset;
  e.op = ir::Op::kNeg;
  e.operands.push_back(*std::move(a));
  return e;
}

absl::StatusOr<PyExpr> PyParser::ParsePostfix() {
  absl::StatusOr<PyExpr> a = ParseAtom();
  if (!a.ok() || a->kind != PyExpr::Kind::kName) return a;
  if (AtPunct("[") || AtPunct("(")) {
    bool index = Next().text == "[";
    a->kind = index ? PyExpr::Kind::kIndex : PyExpr::Kind::kCall;
    if (absl::Status s = ParseList(index ? "]" : ")", index, a->operands);
        !s.ok()) {
      return s;
    }
  } else if (AtPunct(".")) {
    Next();
    if (Peek().kind != PyToken::Kind::kName) {
      return Error("expected a field name after '.'");
    }
    a->kind = PyExpr::Kind::kField;
    a->field = Next().text;
  }
  return a;
}

absl::Status PyParser::ParseList(absl::string_view close, bool slices,
                                 std::vector<PyExpr>& out) {
  while (!AtPunct(close)) {
    absl::StatusOr<PyExpr> item = ParseExpr();
    if (!item.ok()) return item.status();
    if (slices && AtPunct(":")) {
      Next();
      absl::StatusOr<PyExpr> hi = ParseExpr();
      if (!hi.ok()) return hi.status();
      PyExpr slice;
      slice.kind = PyExpr::Kind::kSlice;
      slice.offset = item->offset;
      slice.operands.push_back(*std::move(item));
      slice.operands.push_back(*std::move(hi));
      item = std::move(slice);
    }
    out.push_back(*std::move(item));
    if (AtPunct(",")) {
      Next();
    } else if (!AtPunct(close)) {
      return Error(absl::StrCat("expected ',' or '", close, "'"));
    }
  }
  Next();
  return absl::OkStatus();
}

absl::StatusOr<PyExpr> PyParser::ParseAtom() {
  const PyToken& token = Peek();
  PyExpr e;
  e.offset = token.offset;
  switch (token.kind) {
    case PyToken::Kind::kName:
      if (IsPyKeyword(token.text)) {
        return Error(absl::StrCat("unexpected '", token.text, "'"));
      }
      e.kind = token.text == "_" ? PyExpr::Kind::kHole : PyExpr::Kind::kName;
      e.name = token.text;
      Next();
      return e;
    case PyToken::Kind::kInt:
      e.kind = PyExpr::Kind::kInt;
      if (!absl::SimpleAtoi(token.text, &e.int_value)) {
        return Error(absl::StrCat("'", token.text, "' is not an integer"));
      }
      Next();
      return e;
    case PyToken::Kind::kFloat:
      e.kind = PyExpr::Kind::kFloat;
      if (!absl::SimpleAtod(token.text, &e.float_value)) {
        return Error(absl::StrCat("'", token.text, "' is not a number"));
      }
      Next();
      return e;
    case PyToken::Kind::kPunct:
      if (token.text == "(") {
        Next();
        absl::StatusOr<PyExpr> inner = ParseExpr();
        if (!inner.ok()) return inner;
        if (absl::Status s = Expect(")"); !s.ok()) return s;
        return inner;
      }
      return Error(absl::StrCat("unexpected '", token.text, "'"));
    case PyToken::Kind::kEnd:
      return Error("expected an expression");
  }
  return Error("expected an expression");
}

}  // namespace tessel::schedule
