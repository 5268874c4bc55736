#include "libs/schedule/schedule.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace tessel::schedule {

std::string ValueText(const Value& value) {
  switch (value.kind) {
    case Value::Kind::kString: {
      std::string quoted = "\"";
      for (char c : value.text) {
        if (c == '"' || c == '\\') quoted += '\\';
        quoted += c;
      }
      return quoted + "\"";
    }
    case Value::Kind::kInt:
      return absl::StrCat(value.int_value);
    case Value::Kind::kBool:
      return value.bool_value ? "True" : "False";
    case Value::Kind::kList:
      return absl::StrCat(
          "[",
          absl::StrJoin(value.items, ", ",
                        [](std::string* out, const Value& item) {
                          out->append(ValueText(item));
                        }),
          "]");
    case Value::Kind::kForm:
      return absl::StrCat("@", value.text);
    case Value::Kind::kGap:
      return absl::StrCat(value.after ? "after(" : "before(",
                          ValueText(value.items.front()), ")");
    case Value::Kind::kParam:
      return value.text;
  }
  return "";
}

std::string Arguments(size_t count) {
  return absl::StrCat(count, count == 1 ? " argument" : " arguments");
}

std::string CallText(const Call& call) {
  std::vector<std::string> args;
  for (const Value& arg : call.args) args.push_back(ValueText(arg));
  for (const auto& [key, value] : call.keywords) {
    args.push_back(absl::StrCat(key, "=", ValueText(value)));
  }
  return absl::StrCat(call.name, "(", absl::StrJoin(args, ", "), ")");
}

const Definition* Schedule::FindDefinition(const std::string& name) const {
  for (const Definition& definition : definitions) {
    if (definition.name == name) return &definition;
  }
  return nullptr;
}

}  // namespace tessel::schedule
