#include "libs/cli/out_of_memory.h"

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <exception>
#include <new>

namespace tessel {
namespace {

// The diagnostic, composed before it is needed: when it is written no
// memory may be left to compose it in.
char message[256] = "error: out of memory\n";
size_t message_size = std::strlen(message);
std::terminate_handler previous_terminate = nullptr;

void Append(absl::string_view text) {
  size_t n = std::min(text.size(), sizeof(message) - 1 - message_size);
  std::memcpy(message + message_size, text.data(), n);
  message_size += n;
}

[[noreturn]] void OnTerminate() {
  if (std::exception_ptr current = std::current_exception()) {
    try {
      std::rethrow_exception(current);
    } catch (const std::bad_alloc&) {
      ExitOutOfMemory();
    } catch (...) {
    }
  }
  if (previous_terminate != nullptr) previous_terminate();
  std::abort();
}

}  // namespace

void ExitOutOfMemory() {
  size_t written = 0;
  while (written < message_size) {
    ssize_t n = write(STDERR_FILENO, message + written, message_size - written);
    if (n <= 0) break;
    written += static_cast<size_t>(n);
  }
  // No destructors or atexit handlers: they may need the memory that ran
  // out.
  _exit(1);
}

void ReportOutOfMemoryAs(absl::string_view tool) {
  message_size = 0;
  Append(tool);
  Append(
      ": error: out of memory (the input needs more memory than the process "
      "may use)\n");
  std::set_new_handler(ExitOutOfMemory);
  std::terminate_handler previous = std::set_terminate(OnTerminate);
  if (previous != OnTerminate) previous_terminate = previous;
}

}  // namespace tessel
