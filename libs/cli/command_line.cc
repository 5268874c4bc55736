#include "libs/cli/command_line.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <iostream>

#include "absl/strings/cord.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "libs/cli/out_of_memory.h"
#include "libs/cli/version.h"
#include "libs/support/file.h"

namespace tessel {
namespace {

// The payload that marks a usage error.
constexpr absl::string_view kUsageErrorUrl = "tessel/usage-error";

// "'a', 'b' or 'c'".
std::string ChoicesText(const std::vector<std::string>& choices) {
  std::string text;
  for (size_t i = 0; i < choices.size(); ++i) {
    if (i > 0) text += i + 1 == choices.size() ? " or " : ", ";
    absl::StrAppend(&text, "'", choices[i], "'");
  }
  return text;
}

// One line of --help: the flag, padded to a column, and what it does.
void AppendHelpLine(std::string& text, std::string flag,
                    absl::string_view help) {
  if (flag.size() < 24) flag.resize(24, ' ');
  absl::StrAppend(&text, "  ", flag, " ", help, "\n");
}

}  // namespace

absl::Status UsageError(absl::string_view message) {
  absl::Status status = absl::InvalidArgumentError(message);
  status.SetPayload(kUsageErrorUrl, absl::Cord());
  return status;
}

bool IsUsageError(const absl::Status& status) {
  return status.GetPayload(kUsageErrorUrl).has_value();
}

CommandLine::CommandLine(std::string tool, std::string usage,
                         std::string summary)
    : tool_(std::move(tool)),
      usage_(std::move(usage)),
      summary_(std::move(summary)) {}

void CommandLine::AddFlag(FlagSpec spec) { specs_.push_back(std::move(spec)); }

const FlagSpec* CommandLine::FindLong(absl::string_view name) const {
  for (const FlagSpec& spec : specs_) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

const FlagSpec* CommandLine::FindShort(char name) const {
  for (const FlagSpec& spec : specs_) {
    if (spec.short_name == name) return &spec;
  }
  return nullptr;
}

absl::Status CommandLine::Record(const FlagSpec& spec, std::string value) {
  std::vector<std::string>& values = values_[spec.name];
  if (!spec.repeated && !values.empty()) {
    return UsageError(
        absl::StrCat("flag --", spec.name, " is given more than once"));
  }
  values.push_back(std::move(value));
  return absl::OkStatus();
}

absl::Status CommandLine::Parse(int argc, char** argv) {
  bool flags_done = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (flags_done || arg == "-" || arg.size() < 2 || arg[0] != '-') {
      positional_.push_back(arg);
      continue;
    }
    if (arg == "--") {
      flags_done = true;
      continue;
    }
    if (arg == "--help" || arg == "-h") {
      help_ = true;
      continue;
    }
    if (arg == "--version") {
      version_ = true;
      continue;
    }
    if (absl::StartsWith(arg, "--help=") ||
        absl::StartsWith(arg, "--version=")) {
      return UsageError(absl::StrCat("flag ", arg.substr(0, arg.find('=')),
                                     " takes no value"));
    }
    const FlagSpec* spec = nullptr;
    std::string value;
    bool has_value = false;
    if (arg[1] == '-') {
      std::string name = arg.substr(2);
      size_t equals = name.find('=');
      if (equals != std::string::npos) {
        value = name.substr(equals + 1);
        name = name.substr(0, equals);
        has_value = true;
      }
      spec = FindLong(name);
      if (spec == nullptr) {
        return UsageError(absl::StrCat("unknown flag '--", name, "'"));
      }
    } else {
      spec = FindShort(arg[1]);
      if (spec == nullptr) {
        return UsageError(
            absl::StrCat("unknown flag '", arg.substr(0, 2), "'"));
      }
      if (arg.size() > 2) {
        value = arg.substr(2);
        has_value = true;
      }
    }
    if (spec->value_name.empty()) {
      if (has_value) {
        return UsageError(
            absl::StrCat("flag --", spec->name, " takes no value"));
      }
      if (auto status = Record(*spec, "true"); !status.ok()) return status;
      continue;
    }
    if (!has_value) {
      if (i + 1 >= argc) {
        return UsageError(absl::StrCat(
            "flag --", spec->name, " needs a value (", spec->value_name, ")"));
      }
      value = argv[++i];
    }
    if (auto status = Record(*spec, std::move(value)); !status.ok()) {
      return status;
    }
  }
  return absl::OkStatus();
}

std::string CommandLine::HelpText() const {
  std::string text =
      absl::StrCat("usage: ", tool_, " ", usage_, "\n\n", summary_, "\n");
  if (!specs_.empty()) text += "\nflags:\n";
  for (const FlagSpec& spec : specs_) {
    std::string flag = spec.short_name != 0
                           ? absl::StrCat("-", std::string(1, spec.short_name),
                                          ", --", spec.name)
                           : absl::StrCat("--", spec.name);
    if (!spec.value_name.empty()) absl::StrAppend(&flag, " ", spec.value_name);
    AppendHelpLine(text, std::move(flag), spec.help);
  }
  AppendHelpLine(text, "--help", "print this help");
  AppendHelpLine(text, "--version", "print the version");
  if (!epilogue_.empty()) absl::StrAppend(&text, "\n", epilogue_, "\n");
  return text;
}

std::string CommandLine::VersionText() const {
  return absl::StrCat(tool_, " (Tessel) ", kTesselVersion, "\n");
}

bool CommandLine::Has(absl::string_view name) const {
  return values_.find(name) != values_.end();
}

std::string CommandLine::Get(absl::string_view name,
                             const std::string& fallback) const {
  auto it = values_.find(name);
  return it == values_.end() ? fallback : it->second.back();
}

const std::vector<std::string>& CommandLine::GetAll(
    absl::string_view name) const {
  static const auto* kNone = new std::vector<std::string>();
  auto it = values_.find(name);
  return it == values_.end() ? *kNone : it->second;
}

absl::StatusOr<std::string> CommandLine::GetChoice(
    absl::string_view name, const std::vector<std::string>& choices,
    const std::string& fallback) const {
  if (!Has(name)) return fallback;
  std::string value = Get(name);
  if (std::find(choices.begin(), choices.end(), value) == choices.end()) {
    return UsageError(absl::StrCat(
        "--", name, " must be ", ChoicesText(choices), ", not '", value, "'"));
  }
  return value;
}

absl::StatusOr<uint64_t> CommandLine::GetUint64(absl::string_view name,
                                                uint64_t fallback) const {
  if (!Has(name)) return fallback;
  uint64_t value = 0;
  std::string text = Get(name);
  if (!absl::SimpleAtoi(text, &value)) {
    return UsageError(absl::StrCat(
        "--", name, " must be a non-negative integer, not '", text, "'"));
  }
  return value;
}

absl::StatusOr<double> CommandLine::GetNonNegativeDouble(
    absl::string_view name, double fallback) const {
  if (!Has(name)) return fallback;
  double value = 0;
  std::string text = Get(name);
  if (!absl::SimpleAtod(text, &value) || !std::isfinite(value) || value < 0) {
    return UsageError(absl::StrCat(
        "--", name, " must be a non-negative number, not '", text, "'"));
  }
  return value;
}

absl::StatusOr<std::string> InputPath(const CommandLine& command_line) {
  const std::vector<std::string>& files = command_line.positional();
  if (files.size() > 1) {
    return UsageError(absl::StrCat(
        "expected one input file (or none, or '-', for stdin), found ",
        files.size()));
  }
  return files.empty() ? std::string("-") : files[0];
}

absl::StatusOr<std::map<std::string, int64_t>> ParseDefinitions(
    const std::vector<std::string>& definitions) {
  std::map<std::string, int64_t> values;
  for (const std::string& definition : definitions) {
    size_t equals = definition.find('=');
    if (equals == std::string::npos || equals == 0) {
      return UsageError(
          absl::StrCat("expected -D NAME=VALUE, found '", definition, "'"));
    }
    std::string name = definition.substr(0, equals);
    std::string text = definition.substr(equals + 1);
    int64_t value = 0;
    auto result =
        std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || result.ec != std::errc() ||
        result.ptr != text.data() + text.size()) {
      return UsageError(
          absl::StrCat("-D ", name, ": '", text, "' is not an integer"));
    }
    if (!values.emplace(name, value).second) {
      return UsageError(absl::StrCat("-D ", name, " is given more than once"));
    }
  }
  return values;
}

int RunTool(CommandLine& command_line, int argc, char** argv,
            const std::function<absl::Status(const CommandLine&)>& body) {
  ReportOutOfMemoryAs(command_line.tool());
  absl::Status status = command_line.Parse(argc, argv);
  if (status.ok()) {
    if (command_line.help_requested()) {
      std::cout << command_line.HelpText();
    } else if (command_line.version_requested()) {
      std::cout << command_line.VersionText();
    } else {
      status = body(command_line);
    }
  }
  if (IsUsageError(status)) {
    std::cerr << command_line.tool() << ": error: " << status.message()
              << "\n(run '" << command_line.tool() << " --help' for usage)\n";
    return 2;
  }
  // Whatever the tool printed (a report, a help text) must have arrived. A
  // tool that failed already has its error, often this one.
  if (status.ok()) status = FlushStdout();
  if (status.ok()) return 0;
  std::string message(status.message());
  // Located diagnostics already say "error:"; others get the tool's name.
  if (message.find("error: ") == std::string::npos) {
    message = absl::StrCat(command_line.tool(), ": error: ", message);
  }
  std::cerr << message << "\n";
  return 1;
}

}  // namespace tessel
