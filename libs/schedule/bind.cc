#include "libs/schedule/bind.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "libs/ir/cursor.h"
#include "libs/ir/forms.h"
#include "libs/ir/views.h"
#include "libs/primitives/names.h"
#include "libs/schedule/expr_build.h"
#include "libs/schedule/match.h"
#include "libs/schedule/pattern.h"
#include "libs/schedule/reader.h"
#include "libs/schedule/resolve.h"

namespace tessel::schedule {
namespace {

using primitives::Arg;
using primitives::ArgKind;
using primitives::ParamSpec;

// What an argument of `kind` must be, for "must be ..." diagnostics.
const char* KindText(ArgKind kind) {
  switch (kind) {
    case ArgKind::kLoop:
      return "a loop pattern (\"for i in _\" or \"i\")";
    case ArgKind::kLoopPair:
      return "a pair of nested loops (\"i j\")";
    case ArgKind::kStmt:
      return "a statement pattern";
    case ArgKind::kBlock:
      return "a statement or block pattern";
    case ArgKind::kGap:
      return "a gap: after(PATTERN) or before(PATTERN)";
    case ArgKind::kAlloc:
      return "an allocation pattern (\"x : _\" or \"x\")";
    case ArgKind::kExpr:
      return "an expression pattern";
    case ArgKind::kInt:
      return "an integer";
    case ArgKind::kBool:
      return "True or False";
    case ArgKind::kString:
      return "a string";
    case ArgKind::kNames:
      return "a list of names ([\"io\", \"ii\"])";
    case ArgKind::kInts:
      return "a list of integers";
    case ArgKind::kStrings:
      return "a list of strings";
    case ArgKind::kProc:
      return "a proc (@name)";
    case ArgKind::kInstr:
      return "an instr or proc (@name)";
    case ArgKind::kMemory:
      return "a memory (@name)";
    case ArgKind::kConfig:
      return "a config (@name)";
    case ArgKind::kExprText:
      return "an expression (a string or an integer)";
    case ArgKind::kExprTexts:
      return "a list of expressions (strings)";
  }
  return "";
}

bool IsCursorKind(ArgKind kind) {
  switch (kind) {
    case ArgKind::kLoop:
    case ArgKind::kLoopPair:
    case ArgKind::kStmt:
    case ArgKind::kBlock:
    case ArgKind::kGap:
    case ArgKind::kAlloc:
    case ArgKind::kExpr:
      return true;
    default:
      return false;
  }
}

class Binder {
 public:
  Binder(ir::Module& module, ir::Node& proc, const Schedule& schedule,
         const Directive& directive)
      : module_(module),
        proc_(proc),
        schedule_(schedule),
        directive_(directive),
        spec_(*directive.spec) {}

  absl::StatusOr<primitives::Args> Run() {
    const Call& call = directive_.call;
    const std::vector<ParamSpec>& params = spec_.params;
    std::vector<std::optional<Value>> values(params.size());
    if (call.args.size() > params.size()) {
      return Error(call.args[params.size()].pos,
                   absl::StrCat(spec_.name, " takes ", Arguments(params.size()),
                                ", not ", call.args.size()));
    }
    for (size_t i = 0; i < call.args.size(); ++i) values[i] = call.args[i];
    for (const auto& [key, value] : call.keywords) {
      size_t i = 0;
      while (i < params.size() && params[i].name != key) ++i;
      if (i == params.size()) {
        return Error(value.pos,
                     absl::StrCat(spec_.name, " has no parameter '", key, "'"));
      }
      if (values[i]) {
        return Error(value.pos, absl::StrCat("parameter '", key, "' of ",
                                             spec_.name, " is given twice"));
      }
      values[i] = value;
    }
    for (size_t i = 0; i < params.size(); ++i) {
      if (values[i]) continue;
      if (!params[i].default_text) {
        return Error(call.pos,
                     absl::StrCat(spec_.name, " needs argument ", i + 1, " ('",
                                  params[i].name, "')"));
      }
      absl::StatusOr<Value> value = ReadValue(*params[i].default_text);
      if (!value.ok()) {
        return absl::InternalError(
            absl::StrCat("the default of ", spec_.name, "'s '", params[i].name,
                         "' does not read: ", value.status().message()));
      }
      value->pos = call.pos;
      values[i] = *std::move(value);
    }
    // Cursors first: expressions written as text are built in the scope of
    // the first of them.
    std::vector<Arg> args(params.size());
    for (int pass = 0; pass < 2; ++pass) {
      for (size_t i = 0; i < params.size(); ++i) {
        bool text = params[i].kind == ArgKind::kExprText ||
                    params[i].kind == ArgKind::kExprTexts;
        if (text != (pass == 1)) continue;
        absl::Status status = BindOne(i, *values[i], args[i]);
        if (!status.ok()) return status;
        if (scope_ == nullptr && IsCursorKind(params[i].kind)) {
          primitives::Args one;
          one.Add(params[i].name, args[i]);
          scope_ = FirstStatement({"", {params[i]}, nullptr}, one);
        }
      }
    }
    primitives::Args bound;
    for (size_t i = 0; i < params.size(); ++i) {
      bound.Add(params[i].name, std::move(args[i]));
    }
    return bound;
  }

 private:
  absl::Status Error(Pos pos, absl::string_view message) const {
    return DirectiveError(
        schedule_, directive_, pos,
        absl::StrCat(CallText(directive_.call), ": ", message));
  }
  absl::Status KindError(size_t i, const Value& value) const {
    return Error(value.pos,
                 absl::StrCat("argument ", i + 1, " of ", spec_.name, " ('",
                              spec_.params[i].name, "') must be ",
                              KindText(spec_.params[i].kind)));
  }

  absl::Status BindOne(size_t i, const Value& value, Arg& arg) {
    ArgKind kind = spec_.params[i].kind;
    arg.kind = kind;
    arg.loc = {value.pos.line, value.pos.col};
    using VK = Value::Kind;
    switch (kind) {
      case ArgKind::kInt:
        if (value.kind != VK::kInt) return KindError(i, value);
        arg.int_value = value.int_value;
        return absl::OkStatus();
      case ArgKind::kBool:
        if (value.kind != VK::kBool) return KindError(i, value);
        arg.bool_value = value.bool_value;
        return absl::OkStatus();
      case ArgKind::kString:
        if (value.kind != VK::kString) return KindError(i, value);
        arg.text = value.text;
        return absl::OkStatus();
      case ArgKind::kNames:
      case ArgKind::kStrings:
        if (value.kind != VK::kList) return KindError(i, value);
        for (const Value& item : value.items) {
          if (item.kind != VK::kString ||
              (kind == ArgKind::kNames &&
               !primitives::IsIdentifier(item.text))) {
            return KindError(i, value);
          }
          arg.names.push_back(item.text);
        }
        return absl::OkStatus();
      case ArgKind::kInts:
        if (value.kind != VK::kList) return KindError(i, value);
        for (const Value& item : value.items) {
          if (item.kind != VK::kInt) return KindError(i, value);
          arg.ints.push_back(item.int_value);
        }
        return absl::OkStatus();
      case ArgKind::kProc:
      case ArgKind::kInstr:
      case ArgKind::kMemory:
      case ArgKind::kConfig:
        return BindForm(i, value, arg);
      case ArgKind::kExprText:
      case ArgKind::kExprTexts:
        return BindExprTexts(i, value, arg);
      case ArgKind::kGap:
        if (value.kind != VK::kGap || value.items.front().kind != VK::kString) {
          return KindError(i, value);
        }
        return BindPattern(i, value.items.front(), arg, value.after);
      default:
        if (value.kind != VK::kString) return KindError(i, value);
        return BindPattern(i, value, arg, false);
    }
  }

  absl::Status BindForm(size_t i, const Value& value, Arg& arg) {
    if (value.kind != Value::Kind::kForm) return KindError(i, value);
    absl::StatusOr<ir::Node*> form = ResolveForm(module_, value.text);
    if (!form.ok()) return Error(value.pos, form.status().message());
    ir::Op op = (*form)->op();
    bool fits = false;
    switch (spec_.params[i].kind) {
      case ArgKind::kProc:
        fits = op == ir::Op::kProc;
        break;
      case ArgKind::kInstr:
        fits = op == ir::Op::kProc || op == ir::Op::kInstr;
        break;
      case ArgKind::kMemory:
        fits = op == ir::Op::kMemory;
        break;
      default:
        fits = op == ir::Op::kConfig;
        break;
    }
    if (!fits) return KindError(i, value);
    arg.form = *form;
    arg.text = value.text;
    return absl::OkStatus();
  }

  absl::Status BindExprTexts(size_t i, const Value& value, Arg& arg) {
    bool list = spec_.params[i].kind == ArgKind::kExprTexts;
    std::vector<Value> items;
    if (value.kind == Value::Kind::kString || value.kind == Value::Kind::kInt) {
      items.push_back(value);
    } else if (list && value.kind == Value::Kind::kList) {
      items = value.items;
    } else {
      return KindError(i, value);
    }
    for (const Value& item : items) {
      // An integer stands for its literal, as in Exo (cut_loop(p, "i", 4)).
      std::string text;
      if (item.kind == Value::Kind::kInt) {
        text = absl::StrCat(item.int_value);
      } else if (item.kind == Value::Kind::kString) {
        text = item.text;
      } else {
        return KindError(i, value);
      }
      absl::StatusOr<ir::Node*> node =
          BuildExprText(module_, proc_, scope_, text);
      if (!node.ok()) {
        return Error(item.pos, absl::StrCat("expression '", text,
                                            "': ", node.status().message()));
      }
      arg.names.push_back(text);
      arg.nodes.push_back(*node);
    }
    arg.text = value.kind == Value::Kind::kList ? "" : arg.names.front();
    if (!list) arg.node = arg.nodes.front();
    return absl::OkStatus();
  }

  // A loop pair "i j": the loop i whose body is just the loop j.
  static std::optional<Pattern> LoopPair(absl::string_view text) {
    std::vector<absl::string_view> names =
        absl::StrSplit(text, ' ', absl::SkipWhitespace());
    // "i j #N": the pair numbered N from 0, as other patterns' #N.
    std::optional<size_t> match_no;
    if (names.size() == 3 && absl::ConsumePrefix(&names[2], "#")) {
      size_t n = 0;
      if (!absl::SimpleAtoi(names[2], &n)) return std::nullopt;
      match_no = n;
      names.pop_back();
    }
    if (names.size() != 2 || !primitives::IsIdentifier(names[0]) ||
        !primitives::IsIdentifier(names[1])) {
      return std::nullopt;
    }
    Pattern pattern;
    pattern.text = std::string(text);
    pattern.match_no = match_no;
    StmtPattern inner;
    inner.kind = StmtPattern::Kind::kFor;
    inner.name = std::string(names[1]);
    inner.body.emplace_back();
    StmtPattern outer;
    outer.kind = StmtPattern::Kind::kFor;
    outer.name = std::string(names[0]);
    outer.body.push_back(std::move(inner));
    pattern.stmts.push_back(std::move(outer));
    return pattern;
  }

  absl::Status BindPattern(size_t i, const Value& value, Arg& arg, bool after) {
    ArgKind kind = spec_.params[i].kind;
    arg.text = value.text;
    std::optional<Pattern> pair;
    if (kind == ArgKind::kLoopPair) pair = LoopPair(value.text);
    absl::StatusOr<Pattern> read =
        pair ? *std::move(pair) : ReadPattern(value.text);
    if (!read.ok()) {
      return Error(value.pos, absl::StrCat("pattern '", value.text,
                                           "': ", read.status().message()));
    }
    Pattern& pattern = *read;
    // A bare name is a loop's or an alloc's where one is wanted.
    if (pattern.expr && pattern.expr->kind == PyExpr::Kind::kName &&
        (kind == ArgKind::kLoop || kind == ArgKind::kLoopPair ||
         kind == ArgKind::kAlloc)) {
      StmtPattern stmt;
      stmt.kind = kind == ArgKind::kAlloc ? StmtPattern::Kind::kAlloc
                                          : StmtPattern::Kind::kFor;
      stmt.name = pattern.expr->name;
      stmt.body.emplace_back();
      pattern.stmts.push_back(std::move(stmt));
      pattern.expr.reset();
    }
    bool one_stmt = pattern.stmts.size() == 1;
    bool fits = false;
    switch (kind) {
      case ArgKind::kLoop:
      case ArgKind::kLoopPair:
        fits = one_stmt && pattern.stmts[0].kind == StmtPattern::Kind::kFor;
        break;
      case ArgKind::kAlloc:
        fits = one_stmt && pattern.stmts[0].kind == StmtPattern::Kind::kAlloc;
        break;
      case ArgKind::kStmt:
        fits = one_stmt;
        break;
      case ArgKind::kExpr:
        fits = pattern.expr.has_value();
        break;
      default:
        fits = !pattern.stmts.empty();
        break;
    }
    if (!fits) return KindError(i, value);
    std::vector<Match> matches = FindMatches(module_, proc_, pattern);
    if (kind == ArgKind::kLoopPair) {
      // The inner loop must be all of the outer loop's body.
      std::erase_if(matches, [](const Match& m) {
        absl::Span<ir::Node* const> body = ir::ForView(*m.node.node()).body();
        return body.size() != 1 || !body[0]->is(ir::Op::kFor);
      });
    }
    // A bare name where an alloc is wanted may name a data parameter (as
    // Exo's buffer arguments do: set_precision, auto_stage_mem).
    if (matches.empty() && kind == ArgKind::kAlloc && !pattern.match_no) {
      for (ir::Node* param : ir::ParamsOf(proc_)) {
        if (ir::IsDataParam(*param) && param->name() == pattern.stmts[0].name) {
          arg.cursor = ir::Cursor(module_, param);
          return absl::OkStatus();
        }
      }
    }
    if (matches.empty()) {
      return Error(value.pos,
                   absl::StrCat("pattern '", value.text,
                                "' matches nothing in ", proc_.name()));
    }
    size_t n = pattern.match_no.value_or(0);
    if (n >= matches.size()) {
      return Error(value.pos,
                   absl::StrCat("pattern '", value.text, "' in ", proc_.name(),
                                ": #", n, ": only ", matches.size(),
                                matches.size() == 1 ? " match" : " matches",
                                " (counted from #0)"));
    }
    const Match& chosen = matches[n];
    arg.cursor = chosen.node;
    arg.block = chosen.block;
    if (kind == ArgKind::kStmt) arg.block = chosen.node.as_block();
    if (kind == ArgKind::kGap) {
      arg.gap = after ? chosen.block.after() : chosen.block.before();
    }
    if (kind == ArgKind::kExpr && !pattern.match_no) {
      for (const Match& m : matches) arg.matches.push_back(m.node);
    }
    return absl::OkStatus();
  }

  ir::Module& module_;
  ir::Node& proc_;
  const Schedule& schedule_;
  const Directive& directive_;
  const primitives::PrimitiveSpec& spec_;
  const ir::Node* scope_ = nullptr;
};

}  // namespace

absl::StatusOr<primitives::Args> BindArgs(ir::Module& module, ir::Node& proc,
                                          const Schedule& schedule,
                                          const Directive& directive) {
  return Binder(module, proc, schedule, directive).Run();
}

ir::Node* FirstStatement(const primitives::PrimitiveSpec& spec,
                         const primitives::Args& args) {
  for (const ParamSpec& param : spec.params) {
    if (!IsCursorKind(param.kind)) continue;
    const Arg& arg = args[param.name];
    ir::Node* node = nullptr;
    if (param.kind == ArgKind::kGap) {
      ir::Cursor next = arg.gap.next();
      node = next.is_valid() ? next.node() : arg.gap.prev().node();
    } else {
      node = arg.cursor.node();
    }
    while (node != nullptr && !ir::IsBodyStatement(*node)) {
      node = node->parent();
    }
    if (node != nullptr) return node;
  }
  return nullptr;
}

}  // namespace tessel::schedule
