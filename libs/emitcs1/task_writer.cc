// A task as a C function of no arguments, which the PE runs when it starts
// or, for a recv task, when an element arrives: it reads the PE's
// coordinates, the element's indices and value through cs1_api.h, then
// runs the task's call (where the recv's condition holds), as emit-c's
// translator writes it.
#include "absl/strings/str_cat.h"
#include "libs/emitcs1/program_writer.h"

namespace tessel::emitcs1 {
namespace {

emitc::Binding ControlBinding() {
  emitc::Binding binding;
  binding.kind = emitc::BindingKind::kControl;
  binding.non_negative = true;  // coordinates and indices
  return binding;
}

}  // namespace

absl::Status ProgramWriter::Task(const ir::Node& task, int number) {
  std::vector<emitc::OuterBinder> outer = {{x_, ControlBinding()},
                                           {y_, ControlBinding()}};
  // What each outer binder is read from, where the body uses it.
  std::vector<std::string> sources = {"cs1_pe_x()", "cs1_pe_y()"};
  std::vector<std::string> types = {"int64_t", "int64_t"};
  const ir::Node* recv =
      task.operand(0)->is(ir::Op::kRecv) ? task.operand(0) : nullptr;
  const ir::Node* guard = nullptr;
  if (recv != nullptr) {
    int dim = 0;
    for (size_t i = 1; i < recv->num_operands(); ++i) {
      const ir::Node* operand = recv->operand(i);
      if (!operand->is(ir::Op::kCoord)) {
        guard = operand;  // the condition, last
        continue;
      }
      outer.push_back({operand, ControlBinding()});
      sources.push_back(absl::StrCat("cs1_recv_index(", dim++, ")"));
      types.push_back("int64_t");
    }
    ElemType elem = recv->declared_type().elem();
    if (elem != ElemType::kF32 && elem != ElemType::kF16) {
      return ErrorAt(recv->name_loc(),
                     absl::StrCat("cs1_api.h receives f32 and f16 elements, "
                                  "and '",
                                  recv->name(), "' is ", ElemTypeName(elem)));
    }
    emitc::Binding value;
    value.kind = emitc::BindingKind::kScalar;
    value.elem = elem;
    outer.push_back({recv, value});
    sources.push_back(elem == ElemType::kF32 ? "cs1_recv_f32()"
                                             : "cs1_recv_f16()");
    types.push_back(std::string(ElemTypeCName(elem)));
  }
  size_t own = outer.size();
  for (emitc::OuterBinder& local : LocalBinders()) {
    outer.push_back(std::move(local));
  }
  ir::Node* call = task.operand(task.num_operands() - 1);
  auto body = emitc::EmitStatements(module_, globals_, outer, guard,
                                    absl::MakeConstSpan(&call, 1), 1, needs_,
                                    extensions_);
  if (!body.ok()) return body.status();
  std::string reads;
  for (size_t k = 0; k < own; ++k) {
    if (!body->used[k]) continue;
    absl::StrAppend(&reads, "  const ", types[k], " ", body->c_names[k], " = ",
                    sources[k], ";\n");
  }
  absl::StrAppend(&text_, "\nstatic void ", task_names_[number], "(void) {\n",
                  reads, body->text, "}\n");
  return absl::OkStatus();
}

}  // namespace tessel::emitcs1
