#include "libs/primitives/primitive.h"

#include <cstdio>
#include <cstdlib>
#include <utility>

#include "absl/strings/str_cat.h"

namespace tessel::primitives {

void Args::Add(std::string name, Arg arg) {
  args_.emplace_back(std::move(name), std::move(arg));
}

const Arg& Args::operator[](absl::string_view name) const {
  for (const auto& [param, arg] : args_) {
    if (param == name) return arg;
  }
  std::fprintf(stderr, "internal error: no argument for parameter '%.*s'\n",
               static_cast<int>(name.size()), name.data());
  std::abort();
}

absl::Status Registry::Add(PrimitiveSpec spec) {
  if (Find(spec.name) != nullptr) {
    return absl::AlreadyExistsError(
        absl::StrCat("primitive '", spec.name, "' is registered twice"));
  }
  specs_.push_back(std::move(spec));
  return absl::OkStatus();
}

const PrimitiveSpec* Registry::Find(absl::string_view name) const {
  for (const PrimitiveSpec& spec : specs_) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

}  // namespace tessel::primitives
