// The version of the Tessel tools: the one definition that every tool's
// --version prints.
#ifndef TESSEL_LIBS_CLI_VERSION_H_
#define TESSEL_LIBS_CLI_VERSION_H_

#include "absl/strings/string_view.h"

namespace tessel {

inline constexpr absl::string_view kTesselVersion = "0.1.0";

}  // namespace tessel

#endif  // TESSEL_LIBS_CLI_VERSION_H_
