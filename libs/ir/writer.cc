#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "libs/ir/syntax.h"
#include "libs/sexpr/printer.h"
#include "libs/support/file.h"

namespace tessel::ir {
namespace {

absl::string_view ParamKindName(ParamKind kind) {
  switch (kind) {
    case ParamKind::kSize:
      return "size";
    case ParamKind::kIndex:
      return "index";
    case ParamKind::kBool:
      return "bool";
    case ParamKind::kStride:
      return "stride";
    case ParamKind::kIn:
      return "in";
    case ParamKind::kOut:
      return "out";
    case ParamKind::kInOut:
      return "inout";
  }
  return "?";
}

Sexpr Symbol(absl::string_view text) {
  return Sexpr::Symbol(std::string(text));
}

Sexpr WriteDecls(const Node& form, ParamKind kind, Op op) {
  std::vector<Sexpr> items;
  for (const Node* decl : form.operands()) {
    if (decl->is(op) && decl->param_kind() == kind) {
      items.push_back(WriteNode(*decl));
    }
  }
  return Sexpr::List(std::move(items));
}

Sexpr WriteParams(const Node& proc) {
  std::vector<Sexpr> items;
  for (const Node* decl : proc.operands()) {
    if (decl->is(Op::kParam)) items.push_back(WriteNode(*decl));
  }
  return Sexpr::List(std::move(items));
}

Sexpr WriteGeneric(const Node& node) {
  const OpInfo& info = node.info();
  std::vector<Sexpr> items = {Symbol(
      node.is_parallel() ? kParallelForSpelling : info.spelling)};
  size_t next = 0;
  for (OperandKind kind : info.operands) {
    switch (kind) {
      case OperandKind::kName:
      case OperandKind::kKey:
        items.push_back(Symbol(node.name()));
        break;
      case OperandKind::kGlobal:
        items.push_back(Symbol(node.def()->name()));
        break;
      case OperandKind::kElem:
        items.push_back(Symbol(ElemTypeName(node.declared_type().elem())));
        break;
      case OperandKind::kType:
        items.push_back(WriteType(node.declared_type()));
        break;
      case OperandKind::kValues:
      case OperandKind::kValuesPlus:
      case OperandKind::kStmts:
      case OperandKind::kInts:
        for (; next < node.num_operands(); ++next) {
          items.push_back(WriteNode(*node.operand(next)));
        }
        break;
      default:
        if (next < node.num_operands()) {
          items.push_back(WriteNode(*node.operand(next++)));
        }
        break;
    }
  }
  return Sexpr::List(std::move(items));
}

}  // namespace

Sexpr WriteType(const Type& type) {
  switch (type.kind()) {
    case TypeKind::kElem:
      return Symbol(ElemTypeName(type.elem()));
    case TypeKind::kControl:
      return Symbol(ControlTypeName(type.control()));
    case TypeKind::kTensor:
    case TypeKind::kWindow: {
      std::vector<Sexpr> items;
      if (type.kind() == TypeKind::kWindow) items.push_back(Symbol("window"));
      items.push_back(Symbol(ElemTypeName(type.elem())));
      for (const Dim& dim : type.dims()) {
        items.push_back(dim.is_constant() ? Sexpr::Int(dim.value)
                                          : WriteNode(*dim.expr));
      }
      return Sexpr::List(std::move(items));
    }
    case TypeKind::kVector: {
      std::vector<Sexpr> items = {Symbol("vector"),
                                  Symbol(ElemTypeName(type.elem()))};
      for (const Dim& dim : type.dims()) items.push_back(Sexpr::Int(dim.value));
      return Sexpr::List(std::move(items));
    }
    default:
      // Access patterns, tuples and functions are never declared.
      return Symbol(TypeText(type));
  }
}

Sexpr WriteNode(const Node& node) {
  switch (node.op()) {
    case Op::kFunc: {
      // Moved into the list, not copied from an initializer list: the
      // term is the whole body.
      std::vector<Sexpr> items;
      items.push_back(Symbol("func"));
      items.push_back(Symbol(node.name()));
      items.push_back(WriteDecls(node, ParamKind::kIn, Op::kValue));
      items.push_back(WriteDecls(node, ParamKind::kOut, Op::kValue));
      items.push_back(WriteNode(*node.operand(node.num_operands() - 1)));
      return Sexpr::List(std::move(items));
    }
    case Op::kProc:
    case Op::kInstr:
    case Op::kPeProgram: {
      std::vector<Sexpr> items = {Symbol(node.info().spelling),
                                  Symbol(node.name()), WriteParams(node)};
      for (const Node* operand : node.operands()) {
        if (!operand->is(Op::kParam)) items.push_back(WriteNode(*operand));
      }
      return Sexpr::List(std::move(items));
    }
    case Op::kMemory:
    case Op::kConfig: {
      std::vector<Sexpr> items = {Symbol(node.info().spelling),
                                  Symbol(node.name())};
      for (const Node* operand : node.operands()) {
        items.push_back(WriteNode(*operand));
      }
      return Sexpr::List(std::move(items));
    }
    case Op::kParam: {
      std::vector<Sexpr> items = {Symbol(ParamKindName(node.param_kind())),
                                  Symbol(node.name())};
      if (node.param_kind() >= ParamKind::kIn) {
        items.push_back(WriteType(node.declared_type()));
        if (node.def() != nullptr) items.push_back(Symbol(node.def()->name()));
      }
      return Sexpr::List(std::move(items));
    }
    case Op::kValue:
    case Op::kField:
      return Sexpr::List(
          {Symbol(node.name()), WriteType(node.declared_type())});
    case Op::kClause:
      if (node.name() == "addressable") {
        return Sexpr::List({Symbol(node.name()), Symbol(node.text())});
      }
      if (node.name() == "register") {
        return Sexpr::List({Symbol(node.name()), Sexpr::String(node.text()),
                            Sexpr::Int(node.int_value())});
      }
      return Sexpr::List({Symbol(node.name()), Sexpr::String(node.text())});
    case Op::kTemplate:
      return Sexpr::List({Symbol("c"), Sexpr::String(node.text())});
    case Op::kConst:
      return node.is_float_literal() ? Sexpr::Float(node.float_value())
                                     : Sexpr::Int(node.int_value());
    case Op::kRef:
      return Symbol(node.name());
    case Op::kVar:
      return Symbol(absl::StrCat("%", node.int_value()));
    case Op::kMeta:
      return Symbol(node.name());
    case Op::kAlloc:
    case Op::kLocal: {
      std::vector<Sexpr> items = {Symbol(node.info().spelling),
                                  Symbol(node.name()),
                                  WriteType(node.declared_type())};
      if (node.def() != nullptr) items.push_back(Symbol(node.def()->name()));
      for (const Node* operand : node.operands()) {  // a local's holds
        items.push_back(WriteNode(*operand));
      }
      return Sexpr::List(std::move(items));
    }
    case Op::kGrid:
    case Op::kTask: {
      std::vector<Sexpr> items = {Symbol(node.info().spelling)};
      for (const Node* operand : node.operands()) {
        items.push_back(WriteNode(*operand));
      }
      return Sexpr::List(std::move(items));
    }
    case Op::kCoord:
      // (NAME EXTENT) in a grid, NAME in a recv.
      if (node.parent() != nullptr && node.parent()->is(Op::kGrid)) {
        return Sexpr::List({Symbol(node.name()), Sexpr::Int(node.int_value())});
      }
      return Symbol(node.name());
    case Op::kRecv: {
      std::vector<Sexpr> indices;
      for (const Node* operand : node.operands()) {
        if (operand->is(Op::kCoord)) indices.push_back(WriteNode(*operand));
      }
      std::vector<Sexpr> items = {Symbol("recv"), WriteNode(*node.operand(0)),
                                  Sexpr::List(std::move(indices)),
                                  Symbol(node.name())};
      const Node* last = node.operand(node.num_operands() - 1);
      if (last != node.operand(0) && !last->is(Op::kCoord)) {
        items.push_back(WriteNode(*last));  // the condition
      }
      return Sexpr::List(std::move(items));
    }
    case Op::kDescriptor: {
      std::vector<Sexpr> items = {Symbol("dsd"), WriteNode(*node.operand(0)),
                                  WriteNode(*node.operand(1))};
      for (size_t i = 2; i + 1 < node.num_operands(); i += 2) {
        items.push_back(Sexpr::List(
            {WriteNode(*node.operand(i)), WriteNode(*node.operand(i + 1))}));
      }
      return Sexpr::List(std::move(items));
    }
    case Op::kLibCall: {
      std::vector<Sexpr> items = {Symbol(node.name())};
      for (absl::string_view keyword :
           absl::StrSplit(node.text(), ' ', absl::SkipEmpty())) {
        items.push_back(Symbol(keyword));
      }
      for (const Node* operand : node.operands()) {
        items.push_back(WriteNode(*operand));
      }
      return Sexpr::List(std::move(items));
    }
    case Op::kLoad: {
      std::vector<Sexpr> items;
      for (const Node* operand : node.operands()) {
        items.push_back(WriteNode(*operand));
      }
      return Sexpr::List(std::move(items));
    }
    default:
      return WriteGeneric(node);
  }
}

std::string PrintForm(const Module& module, size_t i) {
  std::string out = i > 0 ? "\n" : "";
  out += PrintSexpr(WriteNode(*module.forms()[i]), 0, HeaderOperands);
  out += "\n";
  return out;
}

absl::Status PrintModule(const Module& module, TextSink write) {
  // As PrintForms does, one form at a time: only one form's S-expression
  // and text exist at once.
  for (size_t i = 0; i < module.forms().size(); ++i) {
    if (auto status = write(PrintForm(module, i)); !status.ok()) return status;
  }
  return absl::OkStatus();
}

absl::Status WriteModule(const std::string& path, const Module& module) {
  return WriteOutput(
      path, [&](TextSink write) { return PrintModule(module, write); });
}

std::string PrintModule(const Module& module) {
  std::string out;
  PrintModule(module, [&](absl::string_view text) {
    out.append(text.data(), text.size());
    return absl::OkStatus();
  }).IgnoreError();
  return out;
}

}  // namespace tessel::ir
