// Fuzz target: the schedule reader, the reader of the pattern strings it
// holds, and the expansion of defined directives. A schedule that reads
// must print (directive by directive) to text that reads back to the same
// directives.
#include <cstddef>
#include <cstdint>
#include <string>

#include "libs/primitives/primitive.h"
#include "libs/schedule/expand.h"
#include "libs/schedule/pattern.h"
#include "libs/schedule/reader.h"

namespace {

using tessel::schedule::Value;

absl::Status Accept(tessel::primitives::Target&,
                    const tessel::primitives::Args&) {
  return absl::OkStatus();
}

void ReadPatterns(const Value& value) {
  if (value.kind == Value::Kind::kString) {
    (void)tessel::schedule::ReadPattern(value.text);
  }
  for (const Value& item : value.items) ReadPatterns(item);
}

void ReadPatterns(const tessel::schedule::Call& call) {
  for (const Value& arg : call.args) ReadPatterns(arg);
  for (const auto& [key, value] : call.keywords) ReadPatterns(value);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto schedule = tessel::schedule::ReadSchedule(
      std::string(reinterpret_cast<const char*>(data), size), "fuzz.sched");
  if (!schedule.ok()) return 0;
  for (const auto& call : schedule->directives) {
    std::string printed = tessel::schedule::CallText(call);
    auto reread = tessel::schedule::ReadSchedule(printed + "\n", "p.sched");
    if (!reread.ok() || reread->directives.size() != 1 ||
        tessel::schedule::CallText(reread->directives[0]) != printed) {
      __builtin_trap();
    }
    ReadPatterns(call);
  }
  for (const auto& definition : schedule->definitions) {
    for (const auto& call : definition.body) ReadPatterns(call);
  }
  // One primitive, `p`, taking anything: expansion runs to the end.
  tessel::primitives::Registry registry;
  (void)registry.Add({"p", {}, &Accept});
  (void)tessel::schedule::Expand(*schedule, registry);
  return 0;
}
