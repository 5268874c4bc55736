#include "libs/schedule/expand.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace tessel::schedule {
namespace {

// Definitions that use others twice each expand exponentially: far more
// than any real schedule (Exo's SGEMM runs 2,449 rewrites), and a bound on
// time and memory.
constexpr size_t kMaxDirectives = 100000;

using Bindings = std::vector<std::pair<std::string, const Value*>>;

const Value* Lookup(const Bindings& bindings, const std::string& name) {
  for (const auto& [param, value] : bindings) {
    if (param == name) return value;
  }
  return nullptr;
}

class Expander {
 public:
  Expander(const Schedule& schedule, const primitives::Registry& registry)
      : schedule_(schedule), registry_(registry) {}

  absl::StatusOr<std::vector<Directive>> Run() {
    for (const Definition& definition : schedule_.definitions) {
      if (registry_.Find(definition.name) != nullptr) {
        return Error(definition.pos,
                     absl::StrCat("'", definition.name,
                                  "' is a primitive; a definition needs a "
                                  "name of its own"));
      }
    }
    for (const Call& call : schedule_.directives) {
      if (absl::Status status = ExpandCall(call, {}); !status.ok()) {
        return status;
      }
    }
    return std::move(directives_);
  }

 private:
  absl::Status Error(Pos pos, absl::string_view message) const {
    Directive where;
    where.via = stack_;
    return DirectiveError(schedule_, where, pos, message);
  }

  // `value` with the parameters of the definition being expanded replaced.
  absl::StatusOr<Value> Substitute(const Value& value,
                                   const Bindings& bindings) const {
    if (value.kind == Value::Kind::kParam) {
      const Value* bound = Lookup(bindings, value.text);
      Value result = *bound;
      result.pos = value.pos;
      return result;
    }
    Value result = value;
    if (value.kind == Value::Kind::kString && !bindings.empty()) {
      result.text.clear();
      for (size_t i = 0; i < value.text.size(); ++i) {
        size_t close = value.text.find('}', i);
        const Value* bound = nullptr;
        if (value.text[i] == '{' && close != std::string::npos) {
          bound = Lookup(bindings, value.text.substr(i + 1, close - i - 1));
        }
        if (bound == nullptr) {
          result.text += value.text[i];
          continue;
        }
        if (bound->kind == Value::Kind::kString) {
          result.text += bound->text;
        } else if (bound->kind == Value::Kind::kInt) {
          absl::StrAppend(&result.text, bound->int_value);
        } else {
          return Error(
              value.pos,
              absl::StrCat("'{", value.text.substr(i + 1, close - i - 1),
                           "}' in a string needs a string or an "
                           "integer, not ",
                           ValueText(*bound)));
        }
        i = close;
      }
    }
    for (Value& item : result.items) {
      absl::StatusOr<Value> substituted = Substitute(item, bindings);
      if (!substituted.ok()) return substituted.status();
      item = *std::move(substituted);
    }
    return result;
  }

  absl::Status ExpandCall(const Call& written, const Bindings& bindings) {
    Call call = written;
    for (Value& arg : call.args) {
      absl::StatusOr<Value> value = Substitute(arg, bindings);
      if (!value.ok()) return value.status();
      arg = *std::move(value);
    }
    for (auto& [key, arg] : call.keywords) {
      absl::StatusOr<Value> value = Substitute(arg, bindings);
      if (!value.ok()) return value.status();
      arg = *std::move(value);
    }
    if (const primitives::PrimitiveSpec* spec = registry_.Find(call.name)) {
      if (directives_.size() == kMaxDirectives) {
        return Error(call.pos,
                     absl::StrCat("the schedule expands to more than ",
                                  kMaxDirectives, " directives"));
      }
      directives_.push_back({std::move(call), spec, stack_});
      return absl::OkStatus();
    }
    const Definition* definition = schedule_.FindDefinition(call.name);
    if (definition == nullptr) {
      return Error(call.pos,
                   absl::StrCat("unknown directive '", call.name, "'"));
    }
    for (const CallSite& site : stack_) {
      if (site.definition == definition->name) {
        std::vector<std::string> chain;
        for (const CallSite& s : stack_) chain.push_back(s.definition);
        chain.push_back(definition->name);
        return Error(call.pos,
                     absl::StrCat("recursive use of '", definition->name, "' (",
                                  absl::StrJoin(chain, " -> "), ")"));
      }
    }
    if (call.args.size() > definition->params.size()) {
      return Error(call.pos, absl::StrCat("'", definition->name, "' takes ",
                                          Arguments(definition->params.size()),
                                          ", not ", call.args.size()));
    }
    Bindings inner;
    for (size_t i = 0; i < call.args.size(); ++i) {
      inner.emplace_back(definition->params[i], &call.args[i]);
    }
    for (const auto& [key, value] : call.keywords) {
      if (std::find(definition->params.begin(), definition->params.end(),
                    key) == definition->params.end()) {
        return Error(value.pos, absl::StrCat("'", definition->name,
                                             "' has no parameter '", key, "'"));
      }
      if (Lookup(inner, key) != nullptr) {
        return Error(value.pos,
                     absl::StrCat("parameter '", key, "' is given twice"));
      }
      inner.emplace_back(key, &value);
    }
    for (const std::string& param : definition->params) {
      if (Lookup(inner, param) == nullptr) {
        return Error(call.pos,
                     absl::StrCat("'", definition->name,
                                  "' needs its parameter '", param, "'"));
      }
    }
    stack_.push_back({definition->name, call.pos});
    for (const Call& inner_call : definition->body) {
      if (absl::Status status = ExpandCall(inner_call, inner); !status.ok()) {
        return status;
      }
    }
    stack_.pop_back();
    return absl::OkStatus();
  }

  const Schedule& schedule_;
  const primitives::Registry& registry_;
  std::vector<CallSite> stack_;
  std::vector<Directive> directives_;
};

}  // namespace

absl::StatusOr<std::vector<Directive>> Expand(
    const Schedule& schedule, const primitives::Registry& registry) {
  return Expander(schedule, registry).Run();
}

absl::Status DirectiveError(const Schedule& schedule,
                            const Directive& directive, Pos pos,
                            absl::string_view message,
                            absl::string_view notes) {
  std::string text = FormatDiagnostic(schedule.At(pos), message);
  for (auto site = directive.via.rbegin(); site != directive.via.rend();
       ++site) {
    absl::StrAppend(&text, "\n", schedule.source->name(), ":", site->pos.line,
                    ":", site->pos.col, ": note: in '", site->definition,
                    "', used here");
  }
  if (!notes.empty()) absl::StrAppend(&text, "\n", notes);
  return absl::InvalidArgumentError(text);
}

}  // namespace tessel::schedule
