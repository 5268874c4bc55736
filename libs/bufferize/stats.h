// What a bufferization costs: the buffers it allocates and the copies it
// makes (`bufferize --stats`). Scalars are not counted: they are
// registers, not buffers.
#ifndef TESSEL_LIBS_BUFFERIZE_STATS_H_
#define TESSEL_LIBS_BUFFERIZE_STATS_H_

#include <cstdint>
#include <string>

namespace tessel::bufferize {

struct Stats {
  int allocations = 0;      // tensor allocs
  int copies = 0;           // whole-value copies between buffers
  int64_t bytes_allocated = 0;

  Stats& operator+=(const Stats& other);
};

// `allocations: N`, `copies: N`, `bytes allocated: N`, one a line,
// prefixed with `NAME: ` when a name is given (one line set per func).
std::string FormatStats(const Stats& stats, const std::string& name);

}  // namespace tessel::bufferize

#endif  // TESSEL_LIBS_BUFFERIZE_STATS_H_
