#include "libs/emitc/params.h"

#include "absl/strings/str_cat.h"
#include "libs/ir/forms.h"
#include "libs/support/source.h"

namespace tessel::emitc {

absl::StatusOr<std::vector<CExpr>> Dimensions(const ir::Type& type,
                                              const ExprEmitter& expr) {
  std::vector<CExpr> dims;
  if (!type.is_shaped()) return dims;
  for (const ir::Dim& dim : type.dims()) {
    if (dim.is_constant()) {
      dims.push_back(IntLiteral(dim.value));
      continue;
    }
    auto value = expr.Control(*dim.expr);
    if (!value.ok()) return value.status();
    dims.push_back(*std::move(value));
  }
  return dims;
}

WindowType WindowTypeOf(const ir::Node& param) {
  const ir::Type& type = param.declared_type();
  return WindowType{type.elem(), type.rank(),
                    param.param_kind() == ir::ParamKind::kIn};
}

std::string ParameterCType(const ir::Node& param, Needs& needs) {
  const ir::Type& type = param.declared_type();
  if (!ir::IsDataParam(param)) return std::string(ControlCType(type.control()));
  if (type.kind() == ir::TypeKind::kWindow) {
    WindowType window = WindowTypeOf(param);
    needs.windows.insert(window);
    return WindowTypeName(window);
  }
  // TIR's distinct data parameters never alias (the verifier checks every
  // call), which C learns from `restrict`: without it, a store through `C`
  // might change `A`, and GCC keeps reloading and cannot vectorize.
  return absl::StrCat(param.param_kind() == ir::ParamKind::kIn ? "const " : "",
                      ElemTypeCName(type.elem()), " *restrict");
}

absl::StatusOr<std::vector<Binding*>> BindParameters(const ir::Node& proc,
                                                     Scope& scope,
                                                     const ExprEmitter& expr) {
  std::vector<Binding*> bindings;
  for (const ir::Node* param : ir::ParamsOf(proc)) {
    const ir::Type& type = param->declared_type();
    Binding binding;
    if (!ir::IsDataParam(*param)) {
      binding.kind = BindingKind::kControl;
      binding.non_negative = type.control() == ControlType::kSize;
      bindings.push_back(scope.Bind(*param, binding));
      continue;
    }
    // C passes no register by address, nor an array of them by value.
    if (param->def() != nullptr &&
        ir::FindClause(*param->def(), "register") != nullptr) {
      return ErrorAt(
          param->loc(),
          absl::StrCat("'", param->name(), "' is in ", param->def()->name(),
                       ", a memory of registers: emit-c passes "
                       "registers to instructions only"));
    }
    binding.elem = type.elem();
    binding.by_pointer = true;
    if (type.is_elem() || type.is_vector()) {
      // A vector parameter points to its lanes, held densely.
      binding.kind =
          type.is_elem() ? BindingKind::kScalar : BindingKind::kVector;
      bindings.push_back(scope.Bind(*param, binding));
      continue;
    }
    binding.kind = BindingKind::kBuffer;
    // Dimensions refer to the sizes bound so far.
    auto dims = Dimensions(type, expr);
    if (!dims.ok()) return dims.status();
    Binding* bound = scope.Bind(*param, binding);
    CExpr name = Primary(bound->c_name);
    if (type.kind() == ir::TypeKind::kWindow) {
      bound->window_param = WindowTypeOf(*param);
      name.uses.reads.push_back(bound);
      std::vector<CExpr> strides;
      for (int k = 0; k < type.rank(); ++k) {
        strides.push_back(MemberElement(name, "strides", k));
      }
      bound->view =
          WholeView(Member(name, "data"), std::move(strides), *dims, bound);
    } else {
      bound->is_tensor = true;
      bound->view = WholeView(name, RowMajorStrides(*dims), *dims, bound);
    }
    bindings.push_back(bound);
  }
  return bindings;
}

}  // namespace tessel::emitc
