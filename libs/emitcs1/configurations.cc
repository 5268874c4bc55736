#include "libs/emitcs1/configurations.h"

#include "absl/strings/str_cat.h"
#include "libs/ir/forms.h"
#include "libs/support/source.h"

namespace tessel::emitcs1 {

DescriptorShape ShapeOf(const ir::Node& dsd) {
  // (dsd NAME BASE EXTENT STRIDE ...): the literals follow name and base.
  DescriptorShape shape;
  for (size_t i = 2; i + 1 < dsd.num_operands(); i += 2) {
    shape.emplace_back(dsd.operand(i)->int_value(),
                       dsd.operand(i + 1)->int_value());
  }
  return shape;
}

absl::StatusOr<Configurations> Configurations::Collect(
    const ir::Module& module) {
  Configurations configs;
  absl::Status status;
  for (const ir::Node* form : module.forms()) {
    if (!form->is(ir::Op::kProc) && !form->is(ir::Op::kPeProgram)) continue;
    ir::AnyNode(*form, [&](const ir::Node& node) {
      if (!node.is(ir::Op::kDescriptor)) return false;
      DescriptorShape shape = ShapeOf(node);
      if (configs.ids_.contains(shape)) return false;
      if (configs.shapes_.size() == kMaxConfigurations) {
        status = ErrorAt(
            node.loc(),
            absl::StrCat("this dsd needs a SIMD configuration beyond the ",
                         kMaxConfigurations,
                         " a PE has (cs1_api.h): the module's dsds have more "
                         "distinct (EXTENT STRIDE) shapes"));
        return true;
      }
      configs.ids_[shape] = static_cast<int>(configs.shapes_.size());
      configs.shapes_.push_back(std::move(shape));
      return false;
    });
    if (!status.ok()) return status;
  }
  return configs;
}

}  // namespace tessel::emitcs1
