// Command-line handling shared by every Tessel tool: long flags
// (`--emit=loops`, `--emit loops`), one-letter flags (`-o FILE`,
// `-D NAME=VALUE`, `-DNAME=VALUE`), positional arguments, `--help`,
// `--version`, and the exit statuses: 0 on success, 1 on an error, 2 on a
// malformed command line.
#ifndef TESSEL_LIBS_CLI_COMMAND_LINE_H_
#define TESSEL_LIBS_CLI_COMMAND_LINE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace tessel {

struct FlagSpec {
  std::string name;        // long name without dashes, e.g. "emit"
  char short_name = 0;     // e.g. 'o'; 0 for none
  std::string value_name;  // e.g. "FILE"; empty for a boolean flag
  bool repeated = false;   // may be given several times
  std::string help;
};

class CommandLine {
 public:
  // `usage` is the synopsis after the tool name, e.g. "FILE [-o OUT]".
  CommandLine(std::string tool, std::string usage, std::string summary);

  void AddFlag(FlagSpec spec);
  // Text printed under the flags by --help (examples, notes).
  void set_epilogue(std::string text) { epilogue_ = std::move(text); }

  // Parses argv. Unknown flags, missing values and repeated single flags are
  // usage errors. `--` ends flag parsing.
  absl::Status Parse(int argc, char** argv);

  bool help_requested() const { return help_; }
  bool version_requested() const { return version_; }
  std::string HelpText() const;
  // `parse (Tessel) 0.1.0`, with a newline.
  std::string VersionText() const;

  bool Has(absl::string_view name) const;
  // The value of a flag given once, or `fallback`.
  std::string Get(absl::string_view name,
                  const std::string& fallback = "") const;
  const std::vector<std::string>& GetAll(absl::string_view name) const;
  // Typed values of flags given once, or `fallback`; a value of the wrong
  // form is a usage error naming the flag.
  absl::StatusOr<std::string> GetChoice(absl::string_view name,
                                        const std::vector<std::string>& choices,
                                        const std::string& fallback) const;
  absl::StatusOr<uint64_t> GetUint64(absl::string_view name,
                                     uint64_t fallback) const;
  // A finite number >= 0.
  absl::StatusOr<double> GetNonNegativeDouble(absl::string_view name,
                                              double fallback) const;
  const std::vector<std::string>& positional() const { return positional_; }
  const std::string& tool() const { return tool_; }

 private:
  const FlagSpec* FindLong(absl::string_view name) const;
  const FlagSpec* FindShort(char name) const;
  absl::Status Record(const FlagSpec& spec, std::string value);

  std::string tool_;
  std::string usage_;
  std::string summary_;
  std::string epilogue_;
  std::vector<FlagSpec> specs_;
  std::map<std::string, std::vector<std::string>, std::less<>> values_;
  std::vector<std::string> positional_;
  bool help_ = false;
  bool version_ = false;
};

// An error in the command line itself (an unknown flag, a missing or
// malformed value, too many files, flags that exclude each other or need
// another, a flag for another kind of input than the one given, such as
// parse's -D with TIR): RunTool reports it with a pointer to --help and
// exits with status 2. All but the last are decidable without reading any
// input, and tools check them first. It is an InvalidArgument status with a payload that
// marks it, so that it survives being returned through library code.
absl::Status UsageError(absl::string_view message);
bool IsUsageError(const absl::Status& status);

// The one input file of a tool: its only positional argument, or "-"
// (stdin) when there is none, so that every tool works in a pipe. More than
// one is a usage error.
absl::StatusOr<std::string> InputPath(const CommandLine& command_line);

// Parses `NAME=VALUE` definitions (from -D) into a map; a malformed one, a
// non-integer value or a name given twice is a usage error.
absl::StatusOr<std::map<std::string, int64_t>> ParseDefinitions(
    const std::vector<std::string>& definitions);

// The body of a tool's main(): parses the command line, prints --help or
// --version, or runs `body`; then checks that everything written to stdout
// arrived (a failed write is an error like any other). An error becomes its
// diagnostic on stderr and exit status 1, a usage error exit status 2.
// Running out of memory anywhere is an error too (out_of_memory.h).
int RunTool(CommandLine& command_line, int argc, char** argv,
            const std::function<absl::Status(const CommandLine&)>& body);

}  // namespace tessel

#endif  // TESSEL_LIBS_CLI_COMMAND_LINE_H_
