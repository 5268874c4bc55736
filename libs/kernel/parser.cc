#include "libs/kernel/parser.h"

#include <deque>
#include <memory>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "libs/kernel/lexer.h"

namespace tessel::kernel {
namespace {

using ast::Expr;
using ast::ExprKind;

std::string Where(const Location& loc) {
  return absl::StrCat(loc.line, ":", loc.col);
}

}  // namespace

class KernelParser::Impl {
 public:
  explicit Impl(SourceRef source) : lexer_(std::move(source)) {}

  absl::StatusOr<std::optional<ast::Kernel>> Next() {
    // The tokens of the kernels before are no longer referred to, but for
    // the last one (Previous).
    if (pos_ > 1) {
      tokens_.erase(tokens_.begin(), tokens_.begin() + (pos_ - 1));
      pos_ = 1;
    }
    if (At(TokenKind::kEnd)) return LexError(std::nullopt);
    if (!At(TokenKind::kKernel)) {
      return LexError(
          ErrorAt(Current().loc, "expected 'kernel' to start a kernel"));
    }
    auto kernel = ParseKernel();
    if (!kernel.ok()) return LexError(kernel.status());
    return LexError(*std::move(kernel));
  }

 private:
  // An error in the text anywhere comes before any syntax error, as when
  // the text is lexed whole before it is parsed: what the parser returns
  // when the lexer failed on the tokens it read, or, for a syntax error,
  // on the rest of the text.
  absl::StatusOr<std::optional<ast::Kernel>> LexError(
      absl::StatusOr<std::optional<ast::Kernel>> parsed) {
    if (!lex_error_.ok()) return lex_error_;
    if (parsed.ok()) return parsed;
    while (true) {
      auto token = lexer_.Next();
      if (!token.ok()) return token.status();
      if (token->kind == TokenKind::kEnd) return parsed;
    }
  }

  // Lexes up to token `pos`; after a lexical error, the end of the input
  // (the error is returned instead of what is parsed: LexError).
  const Token& Fill(size_t pos) {
    while (tokens_.size() <= pos) {
      if (!tokens_.empty() && tokens_.back().kind == TokenKind::kEnd) {
        return tokens_.back();
      }
      auto token = lexer_.Next();
      if (!token.ok()) {
        lex_error_ = token.status();
        Token end;
        end.kind = TokenKind::kEnd;
        tokens_.push_back(std::move(end));
      } else {
        tokens_.push_back(*std::move(token));
      }
    }
    return tokens_[pos];
  }

  const Token& Current() { return Fill(pos_); }
  const Token& Previous() { return Fill(pos_ > 0 ? pos_ - 1 : 0); }
  bool At(TokenKind kind) { return Current().kind == kind; }

  const Token& Take() {
    const Token& token = Current();
    if (token.kind != TokenKind::kEnd) ++pos_;
    return token;
  }

  bool Accept(TokenKind kind) {
    if (!At(kind)) return false;
    Take();
    return true;
  }

  // "expected WHAT", pointing just after the previous token: that is where
  // the missing text belongs, whatever follows it.
  absl::Status ExpectedError(absl::string_view what) {
    std::string message = absl::StrCat("expected ", what);
    if (At(TokenKind::kEnd)) {
      absl::StrAppend(&message, ", but the input ends here");
    }
    return ErrorAt(pos_ > 0 ? Previous().end : Current().loc, message);
  }

  absl::Status Expect(TokenKind kind, absl::string_view what) {
    if (Accept(kind)) return absl::OkStatus();
    return ExpectedError(what);
  }

  // A closing bracket names the opening one it lacks.
  absl::Status ExpectClose(TokenKind kind, const Token& open) {
    if (Accept(kind)) return absl::OkStatus();
    return ExpectedError(absl::StrCat(DescribeTokenKind(kind), " to close the ",
                                      DescribeTokenKind(open.kind), " at ",
                                      Where(open.loc)));
  }

  absl::StatusOr<ast::Name> ParseName(absl::string_view what) {
    if (!At(TokenKind::kIdentifier)) return ExpectedError(what);
    const Token& token = Take();
    return ast::Name{token.text, token.loc};
  }

  absl::StatusOr<ast::Kernel> ParseKernel() {
    ast::Kernel kernel;
    kernel.loc = Take().loc;
    auto name = ParseName("the kernel's name after 'kernel'");
    if (!name.ok()) return name.status();
    kernel.name = *std::move(name);
    if (auto status = ParseDeclarations("parameters", kernel.inputs);
        !status.ok()) {
      return status;
    }
    if (auto status = Expect(TokenKind::kArrow, "'->' before the results");
        !status.ok()) {
      return status;
    }
    if (auto status = ParseDeclarations("results", kernel.outputs);
        !status.ok()) {
      return status;
    }
    if (!At(TokenKind::kLBrace)) {
      return ExpectedError("'{' to start the kernel's body");
    }
    const Token& open = Take();
    while (!At(TokenKind::kRBrace)) {
      if (At(TokenKind::kLocal)) {
        Take();
        auto local = ParseDeclaration();
        if (!local.ok()) return local.status();
        kernel.locals.push_back(*std::move(local));
        if (auto status = Expect(TokenKind::kSemicolon, "';' after the local");
            !status.ok()) {
          return status;
        }
      } else if (At(TokenKind::kAll)) {
        auto statement = ParseStatement();
        if (!statement.ok()) return statement.status();
        kernel.statements.push_back(*std::move(statement));
      } else if (At(TokenKind::kEnd)) {
        return ExpectClose(TokenKind::kRBrace, open);
      } else {
        return ErrorAt(Current().loc,
                       "expected a statement ('all ...') or a local "
                       "('local NAME: TYPE;'), or '}' to end the kernel");
      }
    }
    Take();
    return kernel;
  }

  // ( [NAME: TYPE {, NAME: TYPE}] )
  absl::Status ParseDeclarations(absl::string_view what,
                                 std::vector<ast::Declaration>& out) {
    if (!At(TokenKind::kLParen)) {
      return ExpectedError(absl::StrCat("'(' to start the ", what));
    }
    const Token& open = Take();
    if (Accept(TokenKind::kRParen)) return absl::OkStatus();
    do {
      auto declaration = ParseDeclaration();
      if (!declaration.ok()) return declaration.status();
      out.push_back(*std::move(declaration));
    } while (Accept(TokenKind::kComma));
    return ExpectClose(TokenKind::kRParen, open);
  }

  absl::StatusOr<ast::Declaration> ParseDeclaration() {
    ast::Declaration declaration;
    auto name = ParseName("a name to declare");
    if (!name.ok()) return name.status();
    declaration.name = *std::move(name);
    if (auto status = Expect(
            TokenKind::kColon,
            absl::StrCat("':' and a type after '", declaration.name.text, "'"));
        !status.ok()) {
      return status;
    }
    auto type = ParseType();
    if (!type.ok()) return type.status();
    declaration.type = *std::move(type);
    return declaration;
  }

  absl::StatusOr<ast::Type> ParseType() {
    if (!At(TokenKind::kIdentifier)) {
      return ExpectedError(
          absl::StrCat("an element type (", ElemTypeNames(), ")"));
    }
    const Token& name = Take();
    ast::Type type;
    type.loc = name.loc;
    auto elem = ParseElemType(name.text);
    if (!elem) {
      return ErrorAt(name.loc, absl::StrCat("unknown element type '", name.text,
                                            "'; expected ", ElemTypeNames()));
    }
    type.elem = *elem;
    if (!At(TokenKind::kLBracket)) return type;
    const Token& open = Take();
    do {
      auto size = ParseSize();
      if (!size.ok()) return size.status();
      type.dims.push_back(*std::move(size));
    } while (Accept(TokenKind::kComma));
    if (auto status = ExpectClose(TokenKind::kRBracket, open); !status.ok()) {
      return status;
    }
    return type;
  }

  absl::StatusOr<ast::Size> ParseSize() {
    ast::Size size;
    size.loc = Current().loc;
    if (At(TokenKind::kInt)) {
      size.value = Take().int_value;
    } else if (At(TokenKind::kIdentifier)) {
      size.name = Take().text;
    } else {
      return ErrorAt(Current().loc,
                     "expected a size: an integer or a name bound with -D");
    }
    return size;
  }

  absl::StatusOr<ast::Statement> ParseStatement() {
    ast::Statement statement;
    statement.loc = Take().loc;
    if (!At(TokenKind::kLParen)) {
      return ExpectedError("'(' and the domain variables after 'all'");
    }
    const Token& open_vars = Take();
    if (!At(TokenKind::kRParen)) {
      do {
        auto var = ParseName("a domain variable");
        if (!var.ok()) return var.status();
        statement.vars.push_back(*std::move(var));
      } while (Accept(TokenKind::kComma));
    }
    if (auto status = ExpectClose(TokenKind::kRParen, open_vars);
        !status.ok()) {
      return status;
    }
    if (auto status = Expect(TokenKind::kIn, "'in' after the domain variables");
        !status.ok()) {
      return status;
    }
    if (!At(TokenKind::kLParen)) {
      return ExpectedError("'(' and the extents after 'in'");
    }
    const Token& open_extents = Take();
    statement.extents_loc = open_extents.loc;
    if (!At(TokenKind::kRParen)) {
      do {
        auto extent = ParseSize();
        if (!extent.ok()) return extent.status();
        statement.extents.push_back(*std::move(extent));
      } while (Accept(TokenKind::kComma));
    }
    if (auto status = ExpectClose(TokenKind::kRParen, open_extents);
        !status.ok()) {
      return status;
    }
    auto target = ParseName("the tensor the statement assigns");
    if (!target.ok()) return target.status();
    statement.target = *std::move(target);
    if (At(TokenKind::kLBracket)) {
      statement.target_indexed = true;
      auto status = ParseList(TokenKind::kRBracket, statement.target_indices);
      if (!status.ok()) return status;
    }
    switch (Current().kind) {
      case TokenKind::kAssign:
        statement.op = ast::AssignOp::kAssign;
        break;
      case TokenKind::kAddAssign:
        statement.op = ast::AssignOp::kAdd;
        break;
      case TokenKind::kMaxAssign:
        statement.op = ast::AssignOp::kMax;
        break;
      case TokenKind::kMinAssign:
        statement.op = ast::AssignOp::kMin;
        break;
      default:
        return ExpectedError("'=', '+=', 'max=' or 'min=' after the target");
    }
    statement.op_loc = Take().loc;
    auto value = ParseExpr();
    if (!value.ok()) return value.status();
    statement.value = *std::move(value);
    if (auto status = Expect(TokenKind::kSemicolon, "';' after the statement");
        !status.ok()) {
      return status;
    }
    return statement;
  }

  // The opening bracket is the current token; parses `expr {, expr}` and
  // the closing bracket `close`.
  absl::Status ParseList(TokenKind close, std::vector<Expr>& out) {
    const Token& open = Take();
    do {
      auto item = ParseExpr();
      if (!item.ok()) return item.status();
      out.push_back(*std::move(item));
    } while (Accept(TokenKind::kComma));
    return ExpectClose(close, open);
  }

  // Counts the recursion of the expression parser itself, which parentheses
  // and unary minus deepen without deepening the tree.
  struct Nesting {
    explicit Nesting(int& depth) : depth(depth) { ++depth; }
    ~Nesting() { --depth; }
    int& depth;
  };

  absl::Status TooDeep(const Location& loc) const {
    return ErrorAt(loc, absl::StrCat("expression nests too deeply (more than ",
                                     kMaxExprDepth, " levels)"));
  }

  absl::StatusOr<Expr> ParseExpr() {
    Nesting nesting(nesting_);
    if (nesting_ > kMaxExprDepth) return TooDeep(Current().loc);
    return ParseBinary(/*additive=*/true);
  }

  // additive := multiplicative {(+|-) multiplicative}
  // multiplicative := unary {(*|/) unary}
  absl::StatusOr<Expr> ParseBinary(bool additive) {
    auto lhs = additive ? ParseBinary(false) : ParseUnary();
    if (!lhs.ok()) return lhs.status();
    while (true) {
      ast::BinaryOp op;
      TokenKind kind = Current().kind;
      if (additive && kind == TokenKind::kPlus) {
        op = ast::BinaryOp::kAdd;
      } else if (additive && kind == TokenKind::kMinus) {
        op = ast::BinaryOp::kSub;
      } else if (!additive && kind == TokenKind::kStar) {
        op = ast::BinaryOp::kMul;
      } else if (!additive && kind == TokenKind::kSlash) {
        op = ast::BinaryOp::kDiv;
      } else {
        return lhs;
      }
      Location loc = Take().loc;
      auto rhs = additive ? ParseBinary(false) : ParseUnary();
      if (!rhs.ok()) return rhs.status();
      Expr node;
      node.kind = ExprKind::kBinary;
      node.loc = loc;
      node.op = op;
      node.depth = 1 + std::max(lhs->depth, rhs->depth);
      if (node.depth > kMaxExprDepth) return TooDeep(loc);
      node.operands.push_back(*std::move(lhs));
      node.operands.push_back(*std::move(rhs));
      lhs = std::move(node);
    }
  }

  absl::StatusOr<Expr> ParseUnary() {
    if (!At(TokenKind::kMinus)) return ParsePrimary();
    Nesting nesting(nesting_);
    Location loc = Take().loc;
    if (nesting_ > kMaxExprDepth) return TooDeep(loc);
    auto operand = ParseUnary();
    if (!operand.ok()) return operand.status();
    Expr node;
    node.kind = ExprKind::kNeg;
    node.loc = loc;
    node.depth = operand->depth + 1;
    if (node.depth > kMaxExprDepth) return TooDeep(loc);
    node.operands.push_back(*std::move(operand));
    return node;
  }

  absl::StatusOr<Expr> ParsePrimary() {
    const Token& token = Current();
    Expr node;
    node.loc = token.loc;
    switch (token.kind) {
      case TokenKind::kInt:
      case TokenKind::kFloat:
        node.kind = ExprKind::kNumber;
        node.is_float = token.kind == TokenKind::kFloat;
        node.int_value = token.int_value;
        node.float_value = token.float_value;
        Take();
        return node;
      case TokenKind::kLParen: {
        const Token& open = Take();
        auto inner = ParseExpr();
        if (!inner.ok()) return inner.status();
        if (auto status = ExpectClose(TokenKind::kRParen, open); !status.ok()) {
          return status;
        }
        return inner;
      }
      case TokenKind::kIdentifier:
        break;
      default:
        return ExpectedError("an expression");
    }
    node.name = Take().text;
    if (At(TokenKind::kLBracket) || At(TokenKind::kLParen)) {
      node.kind =
          At(TokenKind::kLBracket) ? ExprKind::kElement : ExprKind::kCall;
      TokenKind close = node.kind == ExprKind::kElement ? TokenKind::kRBracket
                                                        : TokenKind::kRParen;
      if (auto status = ParseList(close, node.operands); !status.ok()) {
        return status;
      }
      for (const Expr& operand : node.operands) {
        node.depth = std::max(node.depth, operand.depth + 1);
      }
      if (node.depth > kMaxExprDepth) return TooDeep(node.loc);
      return node;
    }
    node.kind = ExprKind::kName;
    return node;
  }

  Lexer lexer_;
  absl::Status lex_error_;
  // The tokens of the kernel being parsed, and the last one before it: a
  // deque, so that tokens taken stay where they are as more are read.
  std::deque<Token> tokens_;
  size_t pos_ = 0;
  int nesting_ = 0;
};

KernelParser::KernelParser(SourceRef source)
    : impl_(std::make_unique<Impl>(std::move(source))) {}
KernelParser::~KernelParser() = default;
absl::StatusOr<std::optional<ast::Kernel>> KernelParser::Next() {
  return impl_->Next();
}

absl::StatusOr<ast::Program> ParseProgram(const SourceRef& source) {
  KernelParser parser(source);
  ast::Program program;
  while (true) {
    auto kernel = parser.Next();
    if (!kernel.ok()) return kernel.status();
    if (!kernel->has_value()) return program;
    program.kernels.push_back(**std::move(kernel));
  }
}

}  // namespace tessel::kernel
