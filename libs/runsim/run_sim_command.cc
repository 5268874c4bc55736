#include "libs/runsim/run_sim_command.h"

#include <filesystem>
#include <optional>
#include <system_error>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/cli/command_line.h"
#include "libs/interp/cs1_cycles.h"
#include "libs/ir/op.h"
#include "libs/npy/npy.h"
#include "libs/runsim/bind_inputs.h"
#include "libs/runsim/compare.h"
#include "libs/runsim/rounding_bound.h"
#include "libs/support/file.h"
#include "libs/support/source.h"
#include "libs/verify/read.h"

namespace tessel::runsim {
namespace {

std::vector<std::string> OutputNames(const Program& program) {
  std::vector<std::string> names;
  for (const DataPort& port : program.outputs()) names.push_back(port.name);
  return names;
}

absl::Status WriteTensors(const std::string& dir, const TensorMap& tensors,
                          const TensorMap& skip) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) {
    return absl::PermissionDeniedError(absl::StrCat(
        dir, ": error: cannot create directory (", error.message(), ")"));
  }
  InputSource names = InputSource::FromDirectory(dir);
  for (const auto& [name, tensor] : tensors) {
    if (skip.find(name) != skip.end()) continue;
    if (auto status = WriteNpy(names.PathOf(name), tensor); !status.ok()) {
      return status;
    }
  }
  return absl::OkStatus();
}

// The cycles of `entry`, a pe-program that has run on `inputs`: with
// --cycles, their summary; with --trace, the trace written.
absl::Status ReportCycles(const ir::Node& entry, const TensorMap& inputs,
                          const RunSimOptions& options, std::ostream& out) {
  auto model = cs1::DefaultCostModel();
  if (!model.ok()) return model.status();
  auto report = cs1::CountCycles(entry, *model, inputs);
  if (!report.ok()) return report.status();
  if (options.cycles) out << cs1::CycleSummary(*report);
  if (options.trace_file.empty()) return absl::OkStatus();
  return WriteFile(options.trace_file, cs1::TraceJson(entry, *report));
}

}  // namespace

absl::Status RunSim(const RunSimOptions& options, std::ostream& out) {
  if (options.seed.has_value() == !options.inputs_dir.empty()) {
    return UsageError("give exactly one of --inputs DIR and --seed N");
  }
  const bool compares =
      !options.compare_file.empty() || !options.expect_dir.empty();
  if (!options.compare_file.empty() && !options.expect_dir.empty()) {
    return UsageError(
        "--compare and --expect cannot be combined; run run-sim twice");
  }
  if (!compares && (options.tolerance.rtol || options.tolerance.atol)) {
    return UsageError(
        "--rtol and --atol are tolerances of comparisons; add --compare "
        "OTHER or --expect DIR");
  }
  // run-sim only runs what the static checks accept (ReadModuleFile
  // verifies), so that a kernel it runs is one the other tools accept too.
  auto module = ir::ReadModuleFile(options.file);
  if (!module.ok()) return module.status();
  auto entry = ir::FindEntry(*module, options.entry);
  if (!entry.ok()) return entry.status();
  if ((options.cycles || !options.trace_file.empty()) &&
      !(*entry)->is(ir::Op::kPeProgram)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--cycles and --trace count the cycles of a pe-program, and ",
        (*entry)->name(), " is a ", (*entry)->info().spelling));
  }
  auto program = Program::Compile(*module, **entry);
  if (!program.ok()) return program.status();

  std::optional<ir::Module> other_module;
  std::optional<Program> other;
  if (!options.compare_file.empty()) {
    auto loaded = ir::ReadModuleFile(options.compare_file);
    if (!loaded.ok()) return loaded.status();
    other_module.emplace(*std::move(loaded));
    // The reference's procedure of the same name (a rewrite keeps its
    // procedure's name), else its only entry.
    auto other_entry = ir::FindEntry(*other_module, options.entry);
    if (!other_entry.ok()) other_entry = ir::FindEntry(*other_module, "");
    if (!other_entry.ok()) return other_entry.status();
    auto compiled = Program::Compile(*other_module, **other_entry);
    if (!compiled.ok()) return compiled.status();
    other.emplace(*std::move(compiled));
  }
  for (const auto& [name, value] : options.defines) {
    if (program->FindControl(name) == nullptr &&
        (!other || other->FindControl(name) == nullptr)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "-D ", name, ": ", program->name(),
          other ? absl::StrCat(" and ", other->name(), " have") : " has",
          " no size, index, bool or stride parameter named '", name, "'"));
    }
  }

  InputSource source = options.seed
                           ? InputSource::FromSeed(*options.seed)
                           : InputSource::FromDirectory(options.inputs_dir);
  auto bound = BindInputs(*program, source, options.defines);
  if (!bound.ok()) return bound.status();
  auto outputs =
      program->Run(bound->controls, bound->tensors, options.batching);
  if (!outputs.ok()) return outputs.status();
  if (options.cycles || !options.trace_file.empty()) {
    if (auto status = ReportCycles(**entry, bound->tensors, options, out); !status.ok()) {
      return status;
    }
  }

  if (!options.outputs_dir.empty()) {
    // Generated inputs are saved so that the folder can serve as --inputs
    // of later runs; an inout parameter's file therefore keeps its input.
    const TensorMap none;
    const TensorMap& inputs = options.seed ? bound->tensors : none;
    if (auto status = WriteTensors(options.outputs_dir, inputs, none);
        !status.ok()) {
      return status;
    }
    if (auto status = WriteTensors(options.outputs_dir, *outputs, inputs);
        !status.ok()) {
      return status;
    }
  }

  TensorMap references;
  std::string against;
  if (other) {
    if (OutputNames(*program) != OutputNames(*other)) {
      return absl::InvalidArgumentError(
          absl::StrCat(program->name(), " writes (",
                       absl::StrJoin(OutputNames(*program), ", "), ") but ",
                       other->name(), " in ", options.compare_file, " writes (",
                       absl::StrJoin(OutputNames(*other), ", "), ")"));
    }
    auto other_bound = BindInputs(*other, source, options.defines);
    if (!other_bound.ok()) return other_bound.status();
    auto other_outputs =
        other->Run(other_bound->controls, other_bound->tensors,
                   options.batching);
    if (!other_outputs.ok()) return other_outputs.status();
    references = *std::move(other_outputs);
    against = options.compare_file;
  } else if (!options.expect_dir.empty()) {
    InputSource expected = InputSource::FromDirectory(options.expect_dir);
    for (const DataPort& port : program->outputs()) {
      auto tensor = expected.Load(port.name);
      if (!tensor.ok()) return tensor.status();
      references[port.name] = **tensor;
    }
    against = options.expect_dir;
  } else {
    for (const DataPort& port : program->outputs()) {
      out << SummaryLine(port.name, outputs->at(port.name)) << "\n";
    }
    return absl::OkStatus();
  }

  std::map<std::string, Comparison> comparisons;
  bool mismatches = false;
  for (const DataPort& port : program->outputs()) {
    auto comparison =
        CompareTensors(port.name, outputs->at(port.name),
                       references.at(port.name), options.tolerance);
    if (!comparison.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(comparison.status().message(), " (", against, ")"));
    }
    mismatches |= comparison->mismatches > 0;
    comparisons[port.name] = *comparison;
  }
  // Outside the default tolerances, an element may still be as close as two
  // correct evaluations can round apart: the reference's rounding bound
  // (rounding_bound.h), worked out only then, as it costs two more runs.
  // Tolerances given on the command line are what was asked for.
  if (mismatches && !options.tolerance.rtol && !options.tolerance.atol) {
    const ir::Module& reference_module = other ? *other_module : *module;
    auto bounds = ComputeRoundingBounds(
        reference_module, other ? other->name() : program->name(), source,
        options.defines, options.batching);
    if (!bounds.ok()) return bounds.status();
    for (const DataPort& port : program->outputs()) {
      auto comparison = CompareTensors(
          port.name, outputs->at(port.name), references.at(port.name),
          options.tolerance, bounds->at(port.name));
      if (!comparison.ok()) return comparison.status();
      comparisons[port.name] = *comparison;
    }
  }
  int differing = 0;
  for (const DataPort& port : program->outputs()) {
    const Comparison& comparison = comparisons.at(port.name);
    out << ComparisonLine(port.name, outputs->at(port.name),
                          references.at(port.name), comparison)
        << "\n";
    if (comparison.mismatches > 0) ++differing;
  }
  out.flush();
  if (differing > 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(differing, " of ", program->outputs().size(),
                     " outputs differ from ", against));
  }
  return absl::OkStatus();
}

}  // namespace tessel::runsim
