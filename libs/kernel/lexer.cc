#include "libs/kernel/lexer.h"

#include <cctype>
#include <charconv>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace tessel::kernel {

std::string DescribeTokenKind(TokenKind kind) {
  switch (kind) {
    case TokenKind::kIdentifier:
      return "a name";
    case TokenKind::kInt:
      return "an integer";
    case TokenKind::kFloat:
      return "a number";
    case TokenKind::kKernel:
      return "'kernel'";
    case TokenKind::kAll:
      return "'all'";
    case TokenKind::kIn:
      return "'in'";
    case TokenKind::kLocal:
      return "'local'";
    case TokenKind::kLParen:
      return "'('";
    case TokenKind::kRParen:
      return "')'";
    case TokenKind::kLBracket:
      return "'['";
    case TokenKind::kRBracket:
      return "']'";
    case TokenKind::kLBrace:
      return "'{'";
    case TokenKind::kRBrace:
      return "'}'";
    case TokenKind::kComma:
      return "','";
    case TokenKind::kColon:
      return "':'";
    case TokenKind::kSemicolon:
      return "';'";
    case TokenKind::kArrow:
      return "'->'";
    case TokenKind::kPlus:
      return "'+'";
    case TokenKind::kMinus:
      return "'-'";
    case TokenKind::kStar:
      return "'*'";
    case TokenKind::kSlash:
      return "'/'";
    case TokenKind::kAssign:
      return "'='";
    case TokenKind::kAddAssign:
      return "'+='";
    case TokenKind::kMaxAssign:
      return "'max='";
    case TokenKind::kMinAssign:
      return "'min='";
    case TokenKind::kEnd:
      return "the end of the input";
  }
  return "?";
}

namespace {

bool IsIdentifierStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}

bool IsIdentifierChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

constexpr std::pair<absl::string_view, TokenKind> kPunctuation[] = {
    {"->", TokenKind::kArrow},    {"+=", TokenKind::kAddAssign},
    {"(", TokenKind::kLParen},    {")", TokenKind::kRParen},
    {"[", TokenKind::kLBracket},  {"]", TokenKind::kRBracket},
    {"{", TokenKind::kLBrace},    {"}", TokenKind::kRBrace},
    {",", TokenKind::kComma},     {":", TokenKind::kColon},
    {";", TokenKind::kSemicolon}, {"+", TokenKind::kPlus},
    {"-", TokenKind::kMinus},     {"*", TokenKind::kStar},
    {"/", TokenKind::kSlash},     {"=", TokenKind::kAssign},
};

}  // namespace

class Lexer::Impl {
 public:
  explicit Impl(SourceRef source)
      : source_(std::move(source)),
        text_(source_->text()),
        last_end_{source_, 1, 1} {}

  absl::StatusOr<Token> Next() {
    SkipSpaceAndComments();
    if (pos_ >= text_.size()) {
      Token end;
      end.kind = TokenKind::kEnd;
      end.loc = last_end_;
      end.end = last_end_;
      return end;
    }
    auto token = NextToken();
    if (token.ok()) last_end_ = token->end;
    return token;
  }

 private:
  Location Here() const { return Location{source_, line_, col_}; }

  void Advance(size_t count = 1) {
    for (size_t i = 0; i < count && pos_ < text_.size(); ++i) {
      if (text_[pos_] == '\n') {
        ++line_;
        col_ = 1;
      } else {
        ++col_;
      }
      ++pos_;
    }
  }

  char Peek(size_t ahead = 0) const {
    return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
  }

  void SkipSpaceAndComments() {
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (c == '#') {
        while (pos_ < text_.size() && text_[pos_] != '\n') Advance();
      } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
                 c == '\v') {
        Advance();
      } else {
        break;
      }
    }
  }

  Token Make(TokenKind kind, Location loc, size_t begin) {
    Token token;
    token.kind = kind;
    token.loc = std::move(loc);
    token.text = text_.substr(begin, pos_ - begin);
    token.end = Here();
    return token;
  }

  absl::StatusOr<Token> NextToken() {
    Location loc = Here();
    size_t begin = pos_;
    char c = Peek();
    if (IsIdentifierStart(c)) return Word(loc, begin);
    if (IsDigit(c) || (c == '.' && IsDigit(Peek(1)))) {
      return Number(loc, begin);
    }
    // Two-character operators first, then single characters.
    for (const auto& [text, kind] : kPunctuation) {
      if (absl::string_view(text_).substr(pos_, text.size()) == text) {
        Advance(text.size());
        return Make(kind, loc, begin);
      }
    }
    unsigned char byte = static_cast<unsigned char>(c);
    std::string shown = std::isprint(byte)
                            ? absl::StrCat("'", std::string(1, c), "'")
                            : absl::StrFormat("0x%02x", byte);
    return ErrorAt(loc, absl::StrCat("unexpected character ", shown));
  }

  absl::StatusOr<Token> Word(Location loc, size_t begin) {
    while (IsIdentifierChar(Peek())) Advance();
    absl::string_view word =
        absl::string_view(text_).substr(begin, pos_ - begin);
    // `max=` and `min=` are single operators; `max(` stays a call.
    if ((word == "max" || word == "min") && Peek() == '=') {
      Advance();
      return Make(word == "max" ? TokenKind::kMaxAssign : TokenKind::kMinAssign,
                  loc, begin);
    }
    TokenKind kind = TokenKind::kIdentifier;
    if (word == "kernel") kind = TokenKind::kKernel;
    if (word == "all") kind = TokenKind::kAll;
    if (word == "in") kind = TokenKind::kIn;
    if (word == "local") kind = TokenKind::kLocal;
    return Make(kind, loc, begin);
  }

  // A number is digits with an optional fraction and exponent, as in C
  // (`3`, `2.5`, `.5`, `1e-3`). Letters, digits or dots glued to it make it
  // malformed rather than two tokens.
  absl::StatusOr<Token> Number(Location loc, size_t begin) {
    bool is_float = false;
    while (IsDigit(Peek())) Advance();
    if (Peek() == '.') {
      is_float = true;
      Advance();
      while (IsDigit(Peek())) Advance();
    }
    if (Peek() == 'e' || Peek() == 'E') {
      size_t digits = (Peek(1) == '+' || Peek(1) == '-') ? 2 : 1;
      if (IsDigit(Peek(digits))) {
        is_float = true;
        Advance(digits);
        while (IsDigit(Peek())) Advance();
      }
    }
    if (IsIdentifierChar(Peek()) || Peek() == '.') {
      while (IsIdentifierChar(Peek()) || Peek() == '.') Advance();
      return ErrorAt(loc, absl::StrCat("malformed number '",
                                       text_.substr(begin, pos_ - begin), "'"));
    }
    Token token =
        Make(is_float ? TokenKind::kFloat : TokenKind::kInt, loc, begin);
    const char* first = token.text.data();
    const char* last = first + token.text.size();
    std::from_chars_result result =
        is_float ? std::from_chars(first, last, token.float_value)
                 : std::from_chars(first, last, token.int_value);
    if (result.ec != std::errc() || result.ptr != last) {
      return ErrorAt(loc,
                     absl::StrCat("number '", token.text, "' is out of range"));
    }
    return token;
  }

  SourceRef source_;
  const std::string& text_;
  // Where the last token ended, where the end of the input is reported.
  Location last_end_;
  size_t pos_ = 0;
  int line_ = 1;
  int col_ = 1;
};

Lexer::Lexer(SourceRef source)
    : impl_(std::make_unique<Impl>(std::move(source))) {}
Lexer::~Lexer() = default;
absl::StatusOr<Token> Lexer::Next() { return impl_->Next(); }

absl::StatusOr<std::vector<Token>> Lex(const SourceRef& source) {
  Lexer lexer(source);
  std::vector<Token> tokens;
  while (true) {
    auto token = lexer.Next();
    if (!token.ok()) return token.status();
    tokens.push_back(*std::move(token));
    if (tokens.back().kind == TokenKind::kEnd) return tokens;
  }
}

}  // namespace tessel::kernel
