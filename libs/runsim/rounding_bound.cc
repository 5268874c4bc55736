#include "libs/runsim/rounding_bound.h"

#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "libs/ir/build.h"
#include "libs/ir/edit.h"
#include "libs/ir/op.h"
#include "libs/ir/types.h"
#include "libs/verify/read.h"

namespace tessel::runsim {
namespace {

// A scalar, vector or tensor value of floats.
bool IsFloatValued(const ir::Node& node) {
  const ir::Type& type = node.type();
  return (type.is_elem() || type.is_vector() || type.is_shaped()) &&
         IsFloat(type.elem());
}

// MapInputsForMagnitude on a tensor of T (float or double).
template <typename T>
void MapFloats(HostTensor& tensor, Magnitude magnitude) {
  for (int64_t i = 0; i < tensor.num_elements(); ++i) {
    tensor.Set<T>(i, magnitude == Magnitude::kAbsoluteSum
                         ? std::fabs(tensor.Get<T>(i))
                         : T{1});
  }
}

}  // namespace

void RewriteForMagnitudes(ir::Module& module, Magnitude magnitude) {
  std::vector<ir::Node*> signed_ops;
  std::vector<ir::Node*> integer_casts;
  for (ir::Node* form : module.forms()) {
    ir::Walk(*form, [&](ir::Node& node) {
      if (!IsFloatValued(node)) return;
      if (node.is(ir::Op::kSub) || node.is(ir::Op::kNeg)) {
        signed_ops.push_back(&node);
      } else if (node.is(ir::Op::kCast) && node.type().is_elem() &&
                 !IsFloatValued(*node.operand(0))) {
        integer_casts.push_back(&node);
      } else if (node.is(ir::Op::kConst)) {
        const double value = node.is_float_literal()
                                 ? node.float_value()
                                 : static_cast<double>(node.int_value());
        node.set_float(magnitude == Magnitude::kAbsoluteSum
                           ? std::fabs(value)
                           : (value != 0 ? 1.0 : 0.0));
      }
    });
  }
  // Operands are detached and re-attached into the replacement, so that a
  // subtraction inside another is still in the module when its turn comes.
  for (ir::Node* op : signed_ops) {
    ir::Node* a = op->operand(0);
    if (op->is(ir::Op::kNeg)) {
      module.Detach(a);
      module.Replace(op, a);
      continue;
    }
    ir::Node* b = op->operand(1);
    module.Detach(a);
    module.Detach(b);
    ir::Node* sum = ir::Build::Add(module, a, b);
    sum->set_type(op->type());
    module.Replace(op, sum);
  }
  // An integer made a float is one term, whatever its value, of its
  // absolute value (integer inputs are kept as they are).
  for (ir::Node* cast : integer_casts) {
    if (magnitude == Magnitude::kTermCount) {
      ir::Node* one = ir::Build::Float(module, 1.0);
      one->set_type(cast->type());
      module.Replace(cast, one);
      continue;
    }
    ir::Node* negated =
        ir::Build::Unary(module, ir::Op::kNeg, module.Clone(cast));
    negated->set_type(cast->type());
    ir::Node* absolute =
        ir::Build::Binary(module, ir::Op::kMax, module.Clone(cast), negated);
    absolute->set_type(cast->type());
    module.Replace(cast, absolute);
  }
}

void MapInputsForMagnitude(TensorMap& tensors, Magnitude magnitude) {
  for (auto& [name, tensor] : tensors) {
    switch (tensor.elem) {
      case ElemType::kF16:
        for (int64_t i = 0; i < tensor.num_elements(); ++i) {
          const uint16_t bits = tensor.Get<uint16_t>(i);
          // 0x3c00 is 1.0; clearing the sign bit takes the absolute value.
          tensor.Set<uint16_t>(
              i, magnitude == Magnitude::kAbsoluteSum ? bits & 0x7fff : 0x3c00);
        }
        break;
      case ElemType::kF32:
        MapFloats<float>(tensor, magnitude);
        break;
      case ElemType::kF64:
        MapFloats<double>(tensor, magnitude);
        break;
      case ElemType::kI8:
      case ElemType::kI32:
        break;
    }
  }
}

std::vector<double> RoundingBounds(const HostTensor& absolute_sums,
                                   const HostTensor& term_counts) {
  const double unit_roundoff =
      std::ldexp(1.0, -ElemInfo(absolute_sums.elem).precision);
  std::vector<double> bounds(absolute_sums.num_elements(), NAN);
  for (int64_t i = 0; i < absolute_sums.num_elements(); ++i) {
    const double sum = absolute_sums.GetDouble(i);
    const double roundings_u = term_counts.GetDouble(i) * unit_roundoff;
    if (!std::isfinite(sum) || !std::isfinite(roundings_u) ||
        roundings_u >= 1) {
      continue;
    }
    bounds[i] = 2 * roundings_u / (1 - roundings_u) * sum;
  }
  return bounds;
}

absl::StatusOr<std::map<std::string, std::vector<double>>>
ComputeRoundingBounds(const ir::Module& module, const std::string& entry_name,
                      InputSource& source,
                      const std::map<std::string, int64_t>& defines,
                      bool batching) {
  std::map<Magnitude, TensorMap> runs;
  for (Magnitude magnitude : {Magnitude::kAbsoluteSum, Magnitude::kTermCount}) {
    auto rewritten = ir::ReadModule(module.source());
    if (!rewritten.ok()) return rewritten.status();
    RewriteForMagnitudes(*rewritten, magnitude);
    auto entry = ir::FindEntry(*rewritten, entry_name);
    if (!entry.ok()) return entry.status();
    auto program = Program::Compile(*rewritten, **entry);
    if (!program.ok()) return program.status();
    auto bound = BindInputs(*program, source, defines);
    if (!bound.ok()) return bound.status();
    MapInputsForMagnitude(bound->tensors, magnitude);
    auto outputs = program->Run(bound->controls, bound->tensors, batching);
    if (!outputs.ok()) return outputs.status();
    runs[magnitude] = *std::move(outputs);
  }
  std::map<std::string, std::vector<double>> bounds;
  for (const auto& [name, sums] : runs[Magnitude::kAbsoluteSum]) {
    bounds[name] = RoundingBounds(sums, runs[Magnitude::kTermCount].at(name));
  }
  return bounds;
}

}  // namespace tessel::runsim
