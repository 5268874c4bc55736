#include "libs/interp/simulate.h"

#include <algorithm>
#include <filesystem>
#include <system_error>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/interp/seeded_inputs.h"
#include "libs/ir/verifier.h"
#include "libs/npy/npy.h"
#include "libs/support/source.h"

namespace tessel {

InputSource InputSource::FromDirectory(std::string dir) {
  InputSource source;
  source.dir_ = std::move(dir);
  return source;
}

InputSource InputSource::FromSeed(uint64_t seed) {
  InputSource source;
  source.seed_ = seed;
  return source;
}

std::string InputSource::PathOf(absl::string_view name) const {
  return absl::StrCat(dir_, dir_.empty() || dir_.back() == '/' ? "" : "/", name,
                      ".npy");
}

absl::StatusOr<const HostTensor*> InputSource::Load(absl::string_view name) {
  auto it = loaded_.find(name);
  if (it != loaded_.end()) return &it->second;
  auto tensor = ReadNpy(PathOf(name));
  if (!tensor.ok()) return tensor.status();
  return &loaded_.emplace(std::string(name), *std::move(tensor)).first->second;
}

absl::StatusOr<HostTensor> InputSource::Generate(
    const DataPort& port, std::vector<int64_t> shape) const {
  auto tensor = SeededTensor(seed_, port.name, port.elem, std::move(shape));
  if (!tensor.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("input '", port.name, "': ", tensor.status().message()));
  }
  return tensor;
}

namespace {

// `f32` or `(f32 4 4)`: a parameter's type with its sizes bound.
std::string BoundTypeText(ElemType elem, const std::vector<int64_t>& shape) {
  if (shape.empty()) return std::string(ElemTypeName(elem));
  return absl::StrCat("(", ElemTypeName(elem), " ", absl::StrJoin(shape, " "),
                      ")");
}

// Infers size parameters from the shapes of the input files: the first
// dimension written as exactly a size's name gives its value. Files that
// disagree are reported when their shapes are checked.
void InferSizes(const Program& program, const InputSource& source,
                const std::vector<const HostTensor*>& files, BoundInputs& bound,
                std::map<std::string, std::string>& origin) {
  for (size_t i = 0; i < program.inputs().size(); ++i) {
    const DataPort& port = program.inputs()[i];
    const HostTensor& file = *files[i];
    if (file.rank() != port.rank()) continue;
    for (int k = 0; k < port.rank(); ++k) {
      const std::string& size = port.size_names[k];
      if (size.empty() || bound.controls.contains(size)) continue;
      bound.controls[size] = file.shape[k];
      origin[size] = source.PathOf(port.name);
    }
  }
}

// " (n = 4 from -D, m = 3 from DIR/A.npy)": where the sizes in the type of
// `port` came from, to explain a shape mismatch.
std::string SizeOrigins(const DataPort& port, const ControlValues& controls,
                        const std::map<std::string, std::string>& origin) {
  std::vector<std::string> parts;
  for (const std::string& size : port.size_names) {
    auto it = origin.find(size);
    if (it == origin.end()) continue;
    std::string part =
        absl::StrCat(size, " = ", controls.at(size), " from ", it->second);
    if (std::find(parts.begin(), parts.end(), part) == parts.end()) {
      parts.push_back(std::move(part));
    }
  }
  if (parts.empty()) return "";
  return absl::StrCat(" (", absl::StrJoin(parts, ", "), ")");
}

// Reads and verifies a module: run-sim only runs what the static checks
// accept, so that a kernel it runs is one the other tools accept too.
absl::StatusOr<Module> LoadModule(const std::string& path) {
  auto source = ReadSource(path);
  if (!source.ok()) return source.status();
  auto module = ReadModule(*source);
  if (!module.ok()) return module.status();
  if (auto status = VerifyModule(*module); !status.ok()) return status;
  return module;
}

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

}  // namespace

absl::StatusOr<BoundInputs> BindInputs(
    const Program& program, InputSource& source,
    const std::map<std::string, int64_t>& defines) {
  BoundInputs bound;
  // Where each size came from: "-D" or the file it was inferred from.
  std::map<std::string, std::string> origin;
  for (const ControlPort& control : program.controls()) {
    auto it = defines.find(control.name);
    if (it == defines.end()) continue;
    bound.controls[control.name] = it->second;
    origin[control.name] = "-D";
  }
  std::vector<const HostTensor*> files;
  if (source.from_files()) {
    for (const DataPort& port : program.inputs()) {
      auto file = source.Load(port.name);
      if (!file.ok()) {
        return absl::Status(
            file.status().code(),
            absl::StrCat(file.status().message(), " (the input '", port.name,
                         "' of ", program.name(), ")"));
      }
      files.push_back(*file);
    }
    InferSizes(program, source, files, bound, origin);
  }
  for (const ControlPort& control : program.controls()) {
    auto value = bound.controls.find(control.name);
    if (value != bound.controls.end()) {
      if (control.type == ControlType::kSize && value->second <= 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("size '", control.name, "' of ", program.name(),
                         " must be positive, not ", value->second));
      }
      continue;
    }
    const bool inferable =
        control.type == ControlType::kSize && source.from_files();
    return absl::InvalidArgumentError(absl::StrCat(
        ControlTypeName(control.type), " '", control.name, "' of ",
        program.name(), " has no value: pass -D ", control.name, "=VALUE",
        inferable ? " or an input whose shape gives it" : ""));
  }
  for (size_t i = 0; i < program.inputs().size(); ++i) {
    const DataPort& port = program.inputs()[i];
    auto shape = program.Shape(port, bound.controls);
    if (!shape.ok()) return shape.status();
    if (!source.from_files()) {
      auto tensor = source.Generate(port, *shape);
      if (!tensor.ok()) return tensor.status();
      bound.tensors[port.name] = *std::move(tensor);
      continue;
    }
    const HostTensor& file = *files[i];
    const std::string path = source.PathOf(port.name);
    if (file.elem != port.elem) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, ": error: dtype ", NumpyDtypeName(file.elem),
                       " does not match parameter ", port.name, " of type ",
                       ElemTypeName(port.elem), " (save it with .astype(np.",
                       NumpyDtypeName(port.elem), "))"));
    }
    if (file.shape != *shape) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, ": error: shape ", NumpyShapeText(file.shape),
                       " does not match parameter ", port.name, " ",
                       BoundTypeText(port.elem, *shape),
                       SizeOrigins(port, bound.controls, origin)));
    }
    bound.tensors[port.name] = file;
  }
  return bound;
}

absl::Status Simulate(const SimulateOptions& options, std::ostream& out) {
  if (options.seed.has_value() == !options.inputs_dir.empty()) {
    return absl::InvalidArgumentError(
        "give exactly one of --inputs DIR and --seed N");
  }
  if (!options.compare_file.empty() && !options.expect_dir.empty()) {
    return absl::InvalidArgumentError(
        "--compare and --expect cannot be combined; run run-sim twice");
  }
  auto module = LoadModule(options.file);
  if (!module.ok()) return module.status();
  auto entry = FindEntry(*module, options.entry);
  if (!entry.ok()) return entry.status();
  auto program = Program::Compile(*module, *entry);
  if (!program.ok()) return program.status();

  std::optional<Module> other_module;
  std::optional<Program> other;
  if (!options.compare_file.empty()) {
    auto loaded = LoadModule(options.compare_file);
    if (!loaded.ok()) return loaded.status();
    other_module.emplace(*std::move(loaded));
    auto other_entry = FindEntry(*other_module, "");
    if (!other_entry.ok()) return other_entry.status();
    auto compiled = Program::Compile(*other_module, *other_entry);
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
  auto outputs = program->Run(bound->controls, bound->tensors);
  if (!outputs.ok()) return outputs.status();

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
        other->Run(other_bound->controls, other_bound->tensors);
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

  int differing = 0;
  for (const DataPort& port : program->outputs()) {
    const HostTensor& actual = outputs->at(port.name);
    const HostTensor& reference = references.at(port.name);
    auto comparison =
        CompareTensors(port.name, actual, reference, options.tolerance);
    if (!comparison.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(comparison.status().message(), " (", against, ")"));
    }
    out << ComparisonLine(port.name, actual, reference, *comparison) << "\n";
    if (comparison->mismatches > 0) ++differing;
  }
  out.flush();
  if (differing > 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(differing, " of ", program->outputs().size(),
                     " outputs differ from ", against));
  }
  return absl::OkStatus();
}

}  // namespace tessel
