// Helpers for the verifier's tests: verify module text, and compare the
// first line of a diagnostic.
#ifndef TESSEL_LIBS_IR_VERIFIER_TEST_UTIL_H_
#define TESSEL_LIBS_IR_VERIFIER_TEST_UTIL_H_

#include <string>

#include "absl/status/status.h"
#include "libs/ir/module.h"
#include "libs/ir/verifier.h"

namespace tessel {

inline absl::Status VerifyText(const std::string& text) {
  auto module = ReadModule(MakeSource("m.tir", text));
  if (!module.ok()) return module.status();
  return VerifyModule(*module);
}

// "LINE:COL: error: MESSAGE" of the first line of a failed verification,
// or "ok".
inline std::string FirstError(const std::string& text) {
  absl::Status status = VerifyText(text);
  if (status.ok()) return "ok";
  std::string message(status.message());
  message = message.substr(0, message.find('\n'));
  const std::string prefix = "m.tir:";
  if (message.rfind(prefix, 0) == 0) message = message.substr(prefix.size());
  return message;
}

}  // namespace tessel

#endif  // TESSEL_LIBS_IR_VERIFIER_TEST_UTIL_H_
