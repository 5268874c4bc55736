#include "libs/runsim/bind_inputs.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/npy/npy.h"
#include "libs/runsim/seeded_inputs.h"
#include "libs/support/source.h"

namespace tessel::runsim {

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
    // The parameter's type asks for the tensor (a shape beyond the limit on
    // tensors): the error is there.
    return ErrorAt(port.decl->loc(), absl::StrCat("input '", port.name, "': ",
                                                  tensor.status().message()));
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

}  // namespace tessel::runsim
