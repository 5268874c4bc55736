#include "libs/emitc/npy_runtime.h"

#include "absl/strings/str_cat.h"
#include "libs/emitc/runtime_source.h"

namespace tessel::emitc {

absl::string_view RuntimePart(absl::string_view name) {
  const absl::string_view source = kRuntimeSource;
  const std::string begin = absl::StrCat("/* tsl:begin ", name, " */\n");
  const absl::string_view end = "/* tsl:end */\n";
  size_t start = source.find(begin);
  if (start == absl::string_view::npos) return "";
  start += begin.size();
  return source.substr(start, source.find(end, start) - start);
}

}  // namespace tessel::emitc
