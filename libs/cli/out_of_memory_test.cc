#include "libs/cli/out_of_memory.h"

#include <cstddef>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "libs/cli/command_line.h"

namespace tessel {
namespace {

// Runs `body` as the tool "parse" does, with no arguments.
int RunBody(const std::function<absl::Status(const CommandLine&)>& body) {
  CommandLine cl("parse", "FILE", "Parses.");
  std::string tool = "parse";
  std::vector<char*> argv = {tool.data()};
  return RunTool(cl, 1, argv.data(), body);
}

constexpr char kMessage[] =
    "^parse: error: out of memory \\(the input needs more memory than the "
    "process may use\\)\n$";

TEST(OutOfMemoryTest, FailedNewExitsWithStatus1) {
#ifdef __SANITIZE_ADDRESS__
  GTEST_SKIP() << "AddressSanitizer reports a failed allocation itself";
#endif
  EXPECT_EXIT(RunBody([](const CommandLine&) {
                // More than any machine has: operator new fails.
                volatile size_t bytes = size_t{1} << 62;
                std::vector<char> huge(bytes);
                return absl::InternalError(std::to_string(huge[0]));
              }),
              testing::ExitedWithCode(1), kMessage);
}

// Exceptions thrown where they cannot be caught (through a noexcept
// function, as from a destructor), which ends in std::terminate.
void ThrowBadAlloc() { throw std::bad_alloc(); }
void ThrowRuntimeError() { throw std::runtime_error("not memory"); }
void (*volatile thrower)() = nullptr;
void CallNoexcept() noexcept { thrower(); }

TEST(OutOfMemoryTest, UncaughtBadAllocExitsWithStatus1) {
  thrower = ThrowBadAlloc;
  EXPECT_EXIT(RunBody([](const CommandLine&) {
                CallNoexcept();
                return absl::OkStatus();
              }),
              testing::ExitedWithCode(1), kMessage);
}

TEST(OutOfMemoryTest, OtherExceptionsStillTerminate) {
  thrower = ThrowRuntimeError;
  EXPECT_DEATH(RunBody([](const CommandLine&) {
                 CallNoexcept();
                 return absl::OkStatus();
               }),
               "not memory");
}

TEST(OutOfMemoryTest, ToolsRunNormallyOtherwise) {
  EXPECT_EQ(RunBody([](const CommandLine&) { return absl::OkStatus(); }), 0);
}

}  // namespace
}  // namespace tessel
