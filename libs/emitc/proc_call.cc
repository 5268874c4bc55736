// Calls: a proc's as a C call, scalars by address, vectors as pointers to
// their lanes and windows as structs; an instr's as its C template with
// each placeholder replaced by the C text of its argument.
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "libs/emitc/c_template.h"
#include "libs/emitc/proc_writer.h"
#include "libs/ir/forms.h"

namespace tessel::emitc {

absl::StatusOr<CExpr> ProcWriter::Argument(const ir::Node& param,
                                           const ir::Node& arg,
                                           ArgumentMode mode) {
  if (!ir::IsDataParam(param)) return expr_.Control(arg);
  if (arg.is(ir::Op::kDescriptor)) return Descriptor(arg, mode);
  const ir::Type& type = param.declared_type();
  if (type.is_elem()) {
    return mode == ArgumentMode::kTemplateValue ? expr_.ScalarValue(arg)
                                                : expr_.ScalarAddress(arg);
  }
  // A vector is passed as a pointer to its lanes; a template's {v} is its
  // value.
  if (type.is_vector()) {
    return mode == ArgumentMode::kTemplateValue ? vectors_.Vector(arg)
                                                : vectors_.Pointer(arg);
  }
  auto view = expr_.WindowOf(arg);
  if (!view.ok()) return view.status();
  if (view->root->in_registers) {
    // C cannot address a register's lanes: the register itself stands for
    // the window, as the operand of an intrinsic.
    if (mode == ArgumentMode::kCall) {
      return ErrorAt(arg.loc(),
                     "a buffer in a memory of registers is passed to "
                     "instructions only: C cannot address its lanes");
    }
    return RegisterOf(arg, *view);
  }
  // A tensor parameter takes a whole tensor (the verifier passes no window
  // to one), as a pointer to its first element.
  bool is_window = type.kind() == ir::TypeKind::kWindow;
  if (mode == ArgumentMode::kTemplatePointer ||
      (mode == ArgumentMode::kCall && !is_window)) {
    return ExprEmitter::FirstElement(*view);
  }
  return ExprEmitter::WindowValue(
      *view, WindowType{type.elem(), view->rank(),
                        param.param_kind() == ir::ParamKind::kIn});
}

absl::StatusOr<CExpr> ProcWriter::RegisterOf(const ir::Node& arg,
                                             const View& view) {
  // The window must be one whole register: the lanes (the buffer's last
  // dimension) from 0, every other dimension a point.
  int lanes = static_cast<int>(view.offsets.size()) - 1;
  if (view.kept != std::vector<int>{lanes} ||
      view.offsets.back().constant != 0) {
    return ErrorAt(arg.loc(),
                   "an operand in a memory of registers is one whole "
                   "register: a point in every dimension but the last, all "
                   "of the last");
  }
  CExpr reg = Primary(view.root->c_name);
  for (int d = 0; d < lanes; ++d) reg = Subscript(reg, view.offsets[d]);
  reg.uses.reads.push_back(view.root);
  return reg;
}

absl::StatusOr<CExpr> ProcWriter::Descriptor(const ir::Node& dsd,
                                             ArgumentMode mode) {
  // A descriptor is the SIMD engine's view of memory, which only an
  // instruction's template takes, whole ({X}).
  if (!extensions_.descriptor || mode != ArgumentMode::kTemplateValue) {
    return ErrorAt(
        dsd.loc(),
        extensions_.descriptor
            ? "a dsd is passed to an instr's {NAME} placeholder only"
            : "a dsd is a CS-1 SIMD descriptor: emit-c translates the loop "
              "level, and the CS-1 level is emit-cs1's");
  }
  auto view = expr_.WindowOf(*dsd.operand(0));
  if (!view.ok()) return view.status();
  auto base = expr_.Control(*dsd.operand(1));
  if (!base.ok()) return base.status();
  return extensions_.descriptor(dsd, ExprEmitter::FirstElement(*view), *base);
}

absl::Status ProcWriter::Call(const ir::Node& stmt, int depth) {
  const ir::Node& callee = *stmt.def();
  std::vector<ir::Node*> params = ir::ParamsOf(callee);
  if (params.size() != stmt.num_operands()) {
    return Unexpected(stmt, "an argument per parameter");
  }
  if (callee.is(ir::Op::kProc)) {
    std::vector<CExpr> args;
    for (size_t i = 0; i < params.size(); ++i) {
      auto arg = Argument(*params[i], *stmt.operand(i), ArgumentMode::kCall);
      if (!arg.ok()) return arg.status();
      args.push_back(*std::move(arg));
    }
    CExpr call = emitc::Call(globals_.procedures.at(&callee), args);
    AddVectorLines(depth);
    AddLine(depth, call.text + ";", call.uses);
    return absl::OkStatus();
  }
  Uses uses;
  for (const ir::Node* param : params) {
    if (ir::IsDataParam(*param)) {
      NeedIncludes(ir::MemoryOf(module_, *param), uses.needs);
    }
  }
  // The instr's own headers: what its template calls (<cblas.h>).
  NeedIncludes(callee, uses.needs);
  const ir::Node& templ = ir::TemplateOf(callee);
  auto text = ExpandTemplate(
      templ.text(), templ.item_loc(1),
      absl::StrCat("the template of ", callee.name()),
      [&](absl::string_view name) -> absl::StatusOr<std::optional<CExpr>> {
        ArgumentMode mode = ArgumentMode::kTemplateValue;
        const ir::Node* param = ir::FindParam(callee, name);
        if (param == nullptr && absl::EndsWith(name, "_data")) {
          param = ir::FindParam(callee, name.substr(0, name.size() - 5));
          if (param == nullptr || !ir::IsDataParam(*param)) return std::nullopt;
          mode = ArgumentMode::kTemplatePointer;
        }
        if (param == nullptr) return std::nullopt;
        size_t position = param->position();
        auto value = Argument(*param, *stmt.operand(position), mode);
        if (!value.ok()) return value.status();
        uses.Merge(value->uses);
        return *value;
      });
  if (!text.ok()) return text.status();
  // An empty template (an instruction with no C effect) writes nothing.
  AddVectorLines(depth);
  if (!text->empty()) AddLine(depth, *text, uses);
  return absl::OkStatus();
}

}  // namespace tessel::emitc
