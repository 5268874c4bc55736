// A schedule (formats/schedule/README.md) as read: directives, each a call
// of a scheduling primitive or of a directive the schedule defines, with
// its arguments as written and where they were written.
#ifndef TESSEL_LIBS_SCHEDULE_SCHEDULE_H_
#define TESSEL_LIBS_SCHEDULE_SCHEDULE_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "libs/support/source.h"

namespace tessel::schedule {

// A 1-based line and column of the schedule's text.
struct Pos {
  int line = 0;
  int col = 0;
};

// An argument's value.
struct Value {
  enum class Kind {
    kString,  // 'text' or "text"
    kInt,     // 42, -3
    kBool,    // True, False
    kList,    // [v, ...]
    kForm,    // @name: `text` is the name, without '@'
    kGap,     // after(v) or before(v): `items` holds v
    kParam,   // a parameter of a defined directive, in its body: `text`
  };
  Kind kind = Kind::kInt;
  Pos pos;
  std::string text;
  int64_t int_value = 0;
  bool bool_value = false;
  bool after = false;  // kGap: after(...) rather than before(...)
  std::vector<Value> items;
};

// The text a value is written as (strings double-quoted).
std::string ValueText(const Value& value);

// "1 argument", "2 arguments": how many a directive takes.
std::string Arguments(size_t count);

// `name(arg, ..., key=value, ...)`.
struct Call {
  std::string name;
  Pos pos;
  std::vector<Value> args;
  std::vector<std::pair<std::string, Value>> keywords;
};

// The call as one line of text, for diagnostics.
std::string CallText(const Call& call);

// `def name(param, ...):` and its indented body.
struct Definition {
  std::string name;
  Pos pos;
  std::vector<std::string> params;
  std::vector<Call> body;
};

struct Schedule {
  // The schedule's text, which diagnostics point into.
  SourceRef source;
  std::vector<Definition> definitions;
  // The directives outside definitions, in order.
  std::vector<Call> directives;

  // The definition named `name`, or null.
  const Definition* FindDefinition(const std::string& name) const;
  // Where `pos` is, in this schedule's text.
  Location At(Pos pos) const { return {source, pos.line, pos.col}; }
};

}  // namespace tessel::schedule

#endif  // TESSEL_LIBS_SCHEDULE_SCHEDULE_H_
