// The first diagnostic of reading and verifying module text, as the old
// verifier's tests compared it: "LINE:COL: error: MESSAGE" or "ok".
#ifndef TESSEL_LIBS_VERIFY_FIRST_ERROR_H_
#define TESSEL_LIBS_VERIFY_FIRST_ERROR_H_

#include <string>

#include "libs/verify/test_util.h"
#include "libs/verify/verifier.h"

namespace tessel::ir {

inline std::string FirstError(const std::string& text) {
  return FirstLine(CheckText(text, VerifyModule));
}

}  // namespace tessel::ir

#endif  // TESSEL_LIBS_VERIFY_FIRST_ERROR_H_
