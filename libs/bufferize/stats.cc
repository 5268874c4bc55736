#include "libs/bufferize/stats.h"

#include "absl/strings/str_cat.h"

namespace tessel::bufferize {

Stats& Stats::operator+=(const Stats& other) {
  allocations += other.allocations;
  copies += other.copies;
  bytes_allocated += other.bytes_allocated;
  return *this;
}

std::string FormatStats(const Stats& stats, const std::string& name) {
  std::string prefix = name.empty() ? "" : absl::StrCat(name, ": ");
  return absl::StrCat(prefix, "allocations: ", stats.allocations, "\n", prefix,
                      "copies: ", stats.copies, "\n", prefix,
                      "bytes allocated: ", stats.bytes_allocated, "\n");
}

}  // namespace tessel::bufferize
