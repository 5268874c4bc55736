// Helpers for the verifier's tests: read module text, run a check over it,
// and compare the first line of a diagnostic.
#ifndef TESSEL_LIBS_VERIFY_TEST_UTIL_H_
#define TESSEL_LIBS_VERIFY_TEST_UTIL_H_

#include <string>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "libs/ir/node.h"
#include "libs/ir/syntax.h"

namespace tessel::ir {

// Reads `text` as m.tir and runs `check` on the module.
inline absl::Status CheckText(const std::string& text,
                              absl::FunctionRef<absl::Status(Module&)> check) {
  auto module = ReadText(MakeSource("m.tir", text));
  if (!module.ok()) return module.status();
  return check(*module);
}

// "LINE:COL: error: MESSAGE" of the first line of `status`, or "ok".
inline std::string FirstLine(const absl::Status& status) {
  if (status.ok()) return "ok";
  std::string message(status.message());
  message = message.substr(0, message.find('\n'));
  const std::string prefix = "m.tir:";
  if (message.rfind(prefix, 0) == 0) message = message.substr(prefix.size());
  return message;
}

}  // namespace tessel::ir

#endif  // TESSEL_LIBS_VERIFY_TEST_UTIL_H_
