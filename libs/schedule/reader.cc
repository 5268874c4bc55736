#include "libs/schedule/reader.h"

#include <cctype>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace tessel::schedule {
namespace {

bool IsNameStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool IsNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// A recursive-descent reader over the text, which keeps the line and
// column of where it is. A directive ends at the end of its line unless a
// bracket is open, so newlines are spaces only inside brackets.
class Reader {
 public:
  explicit Reader(SourceRef source)
      : source_(std::move(source)), text_(source_->text()) {}

  absl::StatusOr<Schedule> ReadAll() {
    Schedule schedule;
    schedule.source = source_;
    while (true) {
      SkipBlankLines();
      if (AtEnd()) break;
      if (pos_.col > 1) return Error(pos_, "unexpected indentation");
      if (AtKeyword("def")) {
        absl::StatusOr<Definition> definition = ReadDefinition(schedule);
        if (!definition.ok()) return definition.status();
        schedule.definitions.push_back(*std::move(definition));
        continue;
      }
      absl::StatusOr<Call> call = ReadLine();
      if (!call.ok()) return call.status();
      schedule.directives.push_back(*std::move(call));
    }
    if (schedule.directives.empty()) {
      // Not at a line: there is no directive to point at.
      return Error({}, schedule.definitions.empty()
                           ? "the schedule is empty"
                           : "the schedule has no directive outside its "
                             "definitions");
    }
    return schedule;
  }

  absl::StatusOr<Value> ReadLoneValue() {
    SkipSpace(false);
    absl::StatusOr<Value> value = ReadValueAt();
    if (!value.ok()) return value.status();
    SkipSpace(false);
    if (!AtEnd()) return Error(pos_, "unexpected text after the value");
    return value;
  }

 private:
  bool AtEnd() const { return offset_ >= text_.size(); }
  char Peek(size_t ahead = 0) const {
    return offset_ + ahead < text_.size() ? text_[offset_ + ahead] : '\0';
  }
  void Advance() {
    if (text_[offset_] == '\n') {
      ++pos_.line;
      pos_.col = 1;
    } else {
      ++pos_.col;
    }
    ++offset_;
  }
  absl::Status Error(Pos pos, absl::string_view message) const {
    return ErrorAt({source_, pos.line, pos.col}, message);
  }

  // Spaces and comments; newlines too inside brackets.
  void SkipSpace(bool newlines) {
    while (!AtEnd()) {
      char c = Peek();
      if (c == ' ' || c == '\t' || c == '\r' || (newlines && c == '\n')) {
        Advance();
      } else if (c == '#') {
        while (!AtEnd() && Peek() != '\n') Advance();
      } else {
        break;
      }
    }
  }
  // Up to the first character of the next line with text on it.
  void SkipBlankLines() {
    while (true) {
      SkipSpace(false);
      if (AtEnd() || Peek() != '\n') return;
      Advance();
    }
  }
  bool AtKeyword(absl::string_view word) const {
    return text_.substr(offset_, word.size()) == word &&
           !IsNameChar(text_.size() > offset_ + word.size()
                           ? text_[offset_ + word.size()]
                           : '\0');
  }
  absl::Status Expect(char c, absl::string_view what) {
    if (Peek() != c) {
      return Error(pos_, AtEnd() ? absl::StrCat("expected ", what,
                                                ", found the end of the "
                                                "schedule")
                                 : absl::StrCat("expected ", what));
    }
    Advance();
    return absl::OkStatus();
  }
  absl::StatusOr<std::string> ReadName(absl::string_view what) {
    if (!IsNameStart(Peek()))
      return Error(pos_, absl::StrCat("expected ", what));
    size_t start = offset_;
    while (IsNameChar(Peek())) Advance();
    return std::string(text_.substr(start, offset_ - start));
  }
  // The end of a directive's line: nothing but a comment may follow it.
  absl::Status EndLine() {
    SkipSpace(false);
    if (AtEnd()) return absl::OkStatus();
    if (Peek() != '\n') {
      return Error(pos_, "expected the end of the line after the directive");
    }
    Advance();
    return absl::OkStatus();
  }

  absl::StatusOr<Call> ReadLine() {
    absl::StatusOr<Call> call = ReadCall();
    if (!call.ok()) return call.status();
    if (absl::Status status = EndLine(); !status.ok()) return status;
    return call;
  }

  // def NAME(PARAM, ...): and the indented directives under it.
  absl::StatusOr<Definition> ReadDefinition(const Schedule& schedule) {
    Definition definition;
    definition.pos = pos_;
    for (int i = 0; i < 3; ++i) Advance();
    SkipSpace(false);
    Pos name_pos = pos_;
    absl::StatusOr<std::string> name = ReadName("the directive's name");
    if (!name.ok()) return name.status();
    if (schedule.FindDefinition(*name) != nullptr) {
      return Error(name_pos, absl::StrCat("'", *name, "' is defined twice"));
    }
    definition.name = *name;
    SkipSpace(false);
    if (absl::Status s = Expect('(', "'(' after the name"); !s.ok()) return s;
    SkipSpace(true);
    while (Peek() != ')') {
      Pos param_pos = pos_;
      absl::StatusOr<std::string> param = ReadName("a parameter name");
      if (!param.ok()) return param.status();
      for (const std::string& other : definition.params) {
        if (other == *param) {
          return Error(param_pos,
                       absl::StrCat("parameter '", *param, "' is repeated"));
        }
      }
      definition.params.push_back(*param);
      SkipSpace(true);
      if (Peek() == ',') {
        Advance();
        SkipSpace(true);
      } else if (Peek() != ')') {
        return Error(pos_, "expected ',' or ')' after a parameter");
      }
    }
    Advance();
    SkipSpace(false);
    if (absl::Status s = Expect(':', "':' after the parameters"); !s.ok()) {
      return s;
    }
    if (absl::Status s = EndLine(); !s.ok()) return s;
    in_definition_ = &definition;
    while (true) {
      SkipBlankLines();
      if (AtEnd() || pos_.col == 1) break;
      if (AtKeyword("def")) {
        return Error(pos_, "definitions do not nest");
      }
      absl::StatusOr<Call> call = ReadLine();
      if (!call.ok()) return call.status();
      definition.body.push_back(*std::move(call));
    }
    in_definition_ = nullptr;
    if (definition.body.empty()) {
      return Error(definition.pos,
                   absl::StrCat("'", definition.name,
                                "' has no directives (its body is the "
                                "indented lines under it)"));
    }
    return definition;
  }

  // NAME(ARG, ..., KEY=VALUE, ...)
  absl::StatusOr<Call> ReadCall() {
    Call call;
    call.pos = pos_;
    absl::StatusOr<std::string> name = ReadName("a directive");
    if (!name.ok()) return name.status();
    call.name = *name;
    SkipSpace(false);
    Pos open = pos_;
    if (absl::Status s = Expect('(', "'(' after the directive's name");
        !s.ok()) {
      return s;
    }
    SkipSpace(true);
    while (Peek() != ')') {
      if (AtEnd()) return Unclosed('(', open);
      Pos arg_pos = pos_;
      // KEY=VALUE, told apart from a parameter's name by the '='.
      if (IsNameStart(Peek())) {
        size_t end = offset_;
        while (end < text_.size() && IsNameChar(text_[end])) ++end;
        size_t after = end;
        while (after < text_.size() &&
               (text_[after] == ' ' || text_[after] == '\t')) {
          ++after;
        }
        if (after < text_.size() && text_[after] == '=') {
          std::string key(text_.substr(offset_, end - offset_));
          while (offset_ <= after) Advance();
          SkipSpace(true);
          for (const auto& [other, unused] : call.keywords) {
            if (other == key) {
              return Error(arg_pos,
                           absl::StrCat("keyword '", key, "' is given twice"));
            }
          }
          absl::StatusOr<Value> value = ReadValueAt();
          if (!value.ok()) return value.status();
          call.keywords.emplace_back(std::move(key), *std::move(value));
          if (absl::Status s = ListSeparator(')', open); !s.ok()) return s;
          continue;
        }
      }
      if (!call.keywords.empty()) {
        return Error(arg_pos,
                     "a positional argument follows a keyword "
                     "argument");
      }
      absl::StatusOr<Value> value = ReadValueAt();
      if (!value.ok()) return value.status();
      call.args.push_back(*std::move(value));
      if (absl::Status s = ListSeparator(')', open); !s.ok()) return s;
    }
    Advance();
    return call;
  }

  // After an item of a bracketed list: ',' or the closing bracket.
  absl::Status ListSeparator(char close, Pos open) {
    SkipSpace(true);
    if (Peek() == ',') {
      Advance();
      SkipSpace(true);
      return absl::OkStatus();
    }
    if (Peek() == close) return absl::OkStatus();
    if (AtEnd()) return Unclosed(close == ')' ? '(' : '[', open);
    return Error(pos_,
                 absl::StrCat("expected ',' or '", std::string(1, close), "'"));
  }
  absl::Status Unclosed(char bracket, Pos open) const {
    return Error(pos_, absl::StrCat("unexpected end of the schedule: the '",
                                    std::string(1, bracket), "' at ", open.line,
                                    ":", open.col, " is not closed"));
  }

  absl::StatusOr<Value> ReadValueAt() {
    Value value;
    value.pos = pos_;
    char c = Peek();
    if (AtEnd())
      return Error(pos_,
                   "expected a value, found the end of the "
                   "schedule");
    if (c == '"' || c == '\'') return ReadString();
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '-' && std::isdigit(static_cast<unsigned char>(Peek(1))))) {
      size_t start = offset_;
      Advance();
      while (IsNameChar(Peek()) || Peek() == '.') Advance();
      absl::string_view digits = text_.substr(start, offset_ - start);
      value.kind = Value::Kind::kInt;
      if (!absl::SimpleAtoi(digits, &value.int_value)) {
        return Error(
            value.pos,
            absl::StrCat("'", digits,
                         "' is not an integer (a schedule's numbers are "
                         "64-bit integers)"));
      }
      return value;
    }
    if (c == '[') {
      if (list_depth_ == kMaxListDepth) {
        return Error(pos_, absl::StrCat("lists nested more than ",
                                        kMaxListDepth, " deep"));
      }
      ++list_depth_;
      value.kind = Value::Kind::kList;
      Advance();
      SkipSpace(true);
      while (Peek() != ']') {
        if (AtEnd()) return Unclosed('[', value.pos);
        absl::StatusOr<Value> item = ReadValueAt();
        if (!item.ok()) return item.status();
        value.items.push_back(*std::move(item));
        if (absl::Status s = ListSeparator(']', value.pos); !s.ok()) return s;
      }
      Advance();
      --list_depth_;
      return value;
    }
    if (c == '@') {
      Advance();
      absl::StatusOr<std::string> name = ReadName("a name after '@'");
      if (!name.ok()) return name.status();
      value.kind = Value::Kind::kForm;
      value.text = *name;
      return value;
    }
    if (!IsNameStart(c)) return Error(pos_, "expected a value");
    absl::StatusOr<std::string> name = ReadName("a value");
    if (!name.ok()) return name.status();
    if (*name == "True" || *name == "False") {
      value.kind = Value::Kind::kBool;
      value.bool_value = *name == "True";
      return value;
    }
    if (*name == "after" || *name == "before") {
      SkipSpace(false);
      if (Peek() == '(') {
        Pos open = pos_;
        Advance();
        SkipSpace(true);
        value.kind = Value::Kind::kGap;
        value.after = *name == "after";
        absl::StatusOr<Value> pattern = ReadValueAt();
        if (!pattern.ok()) return pattern.status();
        value.items.push_back(*std::move(pattern));
        SkipSpace(true);
        if (AtEnd()) return Unclosed('(', open);
        if (absl::Status s =
                Expect(')', absl::StrCat("')' closing ", *name, "(...)"));
            !s.ok()) {
          return s;
        }
        return value;
      }
    }
    if (in_definition_ == nullptr) {
      return Error(
          value.pos,
          absl::StrCat("unknown name '", *name,
                       "' (a pattern or a name is a string: \"", *name, "\")"));
    }
    bool is_param = false;
    for (const std::string& param : in_definition_->params) {
      is_param = is_param || param == *name;
    }
    if (!is_param) {
      return Error(value.pos,
                   absl::StrCat("'", *name, "' is not a parameter of '",
                                in_definition_->name, "'"));
    }
    value.kind = Value::Kind::kParam;
    value.text = *name;
    return value;
  }

  // '...' or "...", on one line; a backslash escapes the next character.
  absl::StatusOr<Value> ReadString() {
    Value value;
    value.kind = Value::Kind::kString;
    value.pos = pos_;
    char quote = Peek();
    Advance();
    while (true) {
      if (AtEnd() || Peek() == '\n') {
        return Error(value.pos, "unterminated string");
      }
      char c = Peek();
      Advance();
      if (c == quote) return value;
      if (c == '\\') {
        if (AtEnd() || Peek() == '\n') {
          return Error(value.pos, "unterminated string");
        }
        c = Peek();
        Advance();
      }
      value.text += c;
    }
  }

  SourceRef source_;
  absl::string_view text_;
  size_t offset_ = 0;
  Pos pos_{1, 1};
  // Lists inside lists, bounded so that reading never recurses deeper
  // than the stack allows (a gap's pattern is one level more).
  static constexpr int kMaxListDepth = 64;
  int list_depth_ = 0;
  // The definition whose body is being read: its parameters are names.
  const Definition* in_definition_ = nullptr;
};

}  // namespace

absl::StatusOr<Schedule> ReadSchedule(const SourceRef& source) {
  return Reader(source).ReadAll();
}

absl::StatusOr<Schedule> ReadSchedule(absl::string_view text,
                                      absl::string_view filename) {
  return ReadSchedule(MakeSource(std::string(filename), std::string(text)));
}

absl::StatusOr<Value> ReadValue(absl::string_view text) {
  return Reader(MakeSource("<default>", std::string(text))).ReadLoneValue();
}

}  // namespace tessel::schedule
