#include "libs/schedule/pattern.h"

#include <cctype>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace tessel::schedule {
namespace {

StmtPattern Hole() { return StmtPattern(); }

// One statement pattern, up to ';' or the end.
absl::StatusOr<StmtPattern> ReadStmt(PyParser& parser) {
  StmtPattern stmt;
  if (parser.AtName("for") || parser.AtName("if")) {
    bool is_for = parser.Next().text == "for";
    if (is_for) {
      stmt.kind = StmtPattern::Kind::kFor;
      if (parser.Peek().kind != PyToken::Kind::kName ||
          IsPyKeyword(parser.Peek().text)) {
        return parser.Error("expected the loop's variable after 'for'");
      }
      stmt.name = parser.Next().text;
      if (!parser.AtName("in")) return parser.Error("expected 'in'");
      parser.Next();
    } else {
      stmt.kind = StmtPattern::Kind::kIf;
    }
    absl::StatusOr<PyExpr> expr = parser.ParseExpr();
    if (!expr.ok()) return expr.status();
    stmt.expr = *std::move(expr);
    if (parser.AtPunct(":")) {
      parser.Next();
      absl::StatusOr<StmtPattern> body = ReadStmt(parser);
      if (!body.ok()) return body.status();
      stmt.body.push_back(*std::move(body));
    } else {
      stmt.body.push_back(Hole());
    }
    return stmt;
  }
  size_t start = parser.Peek().offset;
  absl::StatusOr<PyExpr> lhs = parser.ParseExpr();
  if (!lhs.ok()) return lhs.status();
  if (lhs->kind == PyExpr::Kind::kHole && !parser.AtPunct("=") &&
      !parser.AtPunct("+=")) {
    return Hole();
  }
  if (parser.AtPunct(":") && lhs->kind == PyExpr::Kind::kName) {
    // The type is not compared: skip it.
    parser.Next();
    if (parser.AtEnd() || parser.AtPunct(";")) {
      return parser.Error("expected a type (or '_') after ':'");
    }
    while (!parser.AtEnd() && !parser.AtPunct(";")) parser.Next();
    stmt.kind = StmtPattern::Kind::kAlloc;
    stmt.name = lhs->name;
    return stmt;
  }
  if (parser.AtPunct("=") || parser.AtPunct("+=")) {
    bool reduce = parser.Next().text == "+=";
    stmt.kind =
        reduce ? StmtPattern::Kind::kReduce : StmtPattern::Kind::kAssign;
    switch (lhs->kind) {
      case PyExpr::Kind::kName:
      case PyExpr::Kind::kHole:
        stmt.name = lhs->name;
        break;
      case PyExpr::Kind::kIndex:
        stmt.name = lhs->name;
        stmt.has_indices = true;
        stmt.indices = std::move(lhs->operands);
        break;
      case PyExpr::Kind::kField:
        if (reduce) return parser.Error("a configuration field is not reduced");
        stmt.kind = StmtPattern::Kind::kWriteConfig;
        stmt.name = lhs->name;
        stmt.field = lhs->field;
        break;
      default:
        return absl::InvalidArgumentError(absl::StrCat(
            "what is written must be a name or an element, at column ",
            start + 1));
    }
    absl::StatusOr<PyExpr> rhs = parser.ParseExpr();
    if (!rhs.ok()) return rhs.status();
    stmt.expr = *std::move(rhs);
    return stmt;
  }
  if (lhs->kind == PyExpr::Kind::kCall) {
    stmt.kind = StmtPattern::Kind::kCall;
    stmt.name = lhs->name;
    return stmt;
  }
  return parser.Error("expected a statement pattern");
}

// Splits off a trailing `#N`.
absl::StatusOr<std::string> SplitMatchNo(absl::string_view text,
                                         std::optional<int>& match_no) {
  size_t hash = text.rfind('#');
  if (hash == absl::string_view::npos) return std::string(text);
  absl::string_view number = absl::StripAsciiWhitespace(text.substr(hash + 1));
  int n = 0;
  if (number.empty() || !absl::SimpleAtoi(number, &n) || n < 0 ||
      !std::isdigit(static_cast<unsigned char>(number.front()))) {
    return absl::InvalidArgumentError(
        absl::StrCat("'#' must be followed by a match number (#0, #1, ...), "
                     "at column ",
                     hash + 1));
  }
  match_no = n;
  return std::string(text.substr(0, hash));
}

}  // namespace

absl::StatusOr<Pattern> ReadPattern(absl::string_view text) {
  Pattern pattern;
  absl::StatusOr<std::string> body = SplitMatchNo(text, pattern.match_no);
  if (!body.ok()) return body.status();
  pattern.text = std::string(absl::StripAsciiWhitespace(*body));
  absl::StatusOr<PyParser> parser = PyParser::Create(*body);
  if (!parser.ok()) return parser.status();
  if (parser->AtEnd())
    return absl::InvalidArgumentError("the pattern is empty");
  // An expression pattern, unless it reads as a statement.
  bool statement = parser->AtName("for") || parser->AtName("if");
  for (size_t i = 0; !statement; ++i) {
    const PyToken& token = parser->Peek(i);
    if (token.kind == PyToken::Kind::kEnd) break;
    statement = token.kind == PyToken::Kind::kPunct &&
                (token.text == "=" || token.text == "+=" || token.text == ";" ||
                 (token.text == ":" && i == 1));
  }
  if (!statement) {
    absl::StatusOr<PyExpr> expr = parser->ParseExpr();
    if (!expr.ok()) return expr.status();
    if (!parser->AtEnd()) return parser->Error("unexpected text");
    if (expr->kind == PyExpr::Kind::kHole) {
      return absl::InvalidArgumentError(
          "a pattern of just '_' would match anything");
    }
    if (expr->kind == PyExpr::Kind::kCall) {
      StmtPattern call;
      call.kind = StmtPattern::Kind::kCall;
      call.name = expr->name;
      pattern.stmts.push_back(std::move(call));
    } else {
      pattern.expr = *std::move(expr);
    }
    return pattern;
  }
  bool any_statement = false;
  while (true) {
    absl::StatusOr<StmtPattern> stmt = ReadStmt(*parser);
    if (!stmt.ok()) return stmt.status();
    any_statement = any_statement || stmt->kind != StmtPattern::Kind::kHole;
    pattern.stmts.push_back(*std::move(stmt));
    if (parser->AtEnd()) break;
    if (absl::Status s = parser->Expect(";"); !s.ok()) return s;
  }
  if (!any_statement) {
    return absl::InvalidArgumentError(
        "a pattern of just '_' would match anything");
  }
  return pattern;
}

}  // namespace tessel::schedule
