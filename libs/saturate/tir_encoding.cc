#include "libs/saturate/tir_encoding.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "libs/ir/op.h"
#include "libs/ir/syntax.h"
#include "libs/ir/types.h"
#include "libs/sexpr/printer.h"
#include "libs/support/source.h"

namespace tessel::saturate {
namespace {

// The attribute an op carries besides its operands, if any: a keyword (a
// compute operator) or an element type (a cast's).
std::optional<ir::OperandKind> AttributeOf(ir::Op op) {
  for (ir::OperandKind kind : ir::Info(op).operands) {
    if (kind == ir::OperandKind::kKey || kind == ir::OperandKind::kElem) {
      return kind;
    }
  }
  return std::nullopt;
}

}  // namespace

TirEncoding::TirEncoding() {
  ref_op_ = Intern("$ref", {ir::Op::kRef, std::nullopt, false});
  var_op_ = Intern("$var", {ir::Op::kVar, std::nullopt, false});
}

egraph::OpId TirEncoding::Intern(absl::string_view name, OpMeaning meaning) {
  egraph::OpId id = ops_.Intern(name);
  if (id == meanings_.size()) meanings_.push_back(std::move(meaning));
  return id;
}

egraph::OpId TirEncoding::LiteralOp(const ir::Type& type) {
  return Intern(absl::StrCat("$", PrintFlat(ir::WriteType(type))),
                {ir::Op::kConst, type, false});
}

egraph::OpId TirEncoding::OpOf(const ir::Node& node) {
  switch (node.op()) {
    case ir::Op::kConst:
      return LiteralOp(node.type());
    case ir::Op::kRef:
      return ref_op_;
    case ir::Op::kVar:
      return var_op_;
    case ir::Op::kLibCall:
      return Intern(node.name(), {ir::Op::kLibCall, std::nullopt, true});
    default:
      break;
  }
  return GenericOp(node.op());
}

egraph::OpId TirEncoding::GenericOp(ir::Op op) {
  auto [it, inserted] = generic_.try_emplace(op, 0);
  if (inserted)
    it->second = Intern(ir::Spelling(op), {op, std::nullopt, false});
  return it->second;
}

std::optional<egraph::OpId> TirEncoding::OpNamed(absl::string_view head) {
  if (std::optional<ir::Op> op = ir::FindOp(head)) return GenericOp(*op);
  if (head.find('.') != absl::string_view::npos) {
    return Intern(head, {ir::Op::kLibCall, std::nullopt, true});
  }
  return std::nullopt;
}

egraph::PayloadId TirEncoding::LiteralPayload(const ir::Node& literal,
                                              const ir::Type& type) {
  // A float-typed literal is a float whichever way it was written (`0` and
  // `0.0` of type f32 are one value).
  if (literal.is_float_literal()) return payloads_.Float(literal.float_value());
  if (type.is_elem() && IsFloat(type.elem())) {
    return payloads_.Float(static_cast<double>(literal.int_value()));
  }
  return payloads_.Int(literal.int_value());
}

egraph::PayloadId TirEncoding::PayloadOf(const ir::Node& node) {
  switch (node.op()) {
    case ir::Op::kConst:
      return LiteralPayload(node, node.type());
    case ir::Op::kRef:
      return payloads_.Symbol(node.name());
    case ir::Op::kVar:
      return payloads_.Int(node.int_value());
    case ir::Op::kLibCall:
      // Its keywords (`N T` of blas.gemm), if any.
      return node.text().empty() ? egraph::PayloadTable::kNone
                                 : payloads_.Symbol(node.text());
    default:
      break;
  }
  std::optional<ir::OperandKind> attribute = AttributeOf(node.op());
  if (!attribute) return egraph::PayloadTable::kNone;
  if (*attribute == ir::OperandKind::kKey) return payloads_.Symbol(node.name());
  return payloads_.Symbol(ElemTypeName(node.declared_type().elem()));
}

egraph::Term TirEncoding::ToTerm(const ir::Node& root) {
  egraph::Term term;
  // Children before parents: an explicit post-order walk.
  struct Frame {
    const ir::Node* node;
    size_t next = 0;
    std::vector<uint32_t> children;
  };
  std::vector<Frame> stack = {{&root, 0, {}}};
  uint32_t last = 0;
  while (!stack.empty()) {
    Frame& frame = stack.back();
    if (frame.next < frame.node->num_operands()) {
      const ir::Node* child = frame.node->operand(frame.next++);
      stack.push_back({child, 0, {}});
      continue;
    }
    last = term.Add(OpOf(*frame.node), PayloadOf(*frame.node), frame.children);
    stack.pop_back();
    if (!stack.empty()) stack.back().children.push_back(last);
  }
  return term;
}

absl::StatusOr<ir::Node*> TirEncoding::ToNode(const egraph::Term& term,
                                              const ir::Node& func,
                                              ir::Module& module) const {
  std::vector<ir::Node*> built(term.size(), nullptr);
  for (uint32_t i = 0; i < term.size(); ++i) {
    const egraph::Term::Node& t = term.node(i);
    const OpMeaning& meaning = meanings_[t.op];
    ir::Node* node = module.Create(meaning.op);
    switch (meaning.op) {
      case ir::Op::kConst:
        if (payloads_.Kind(t.payload) == egraph::PayloadKind::kFloat) {
          node->set_float(payloads_.FloatValue(t.payload));
        } else {
          node->set_int(payloads_.IntValue(t.payload));
        }
        node->set_type(*meaning.literal_type);
        break;
      case ir::Op::kRef: {
        std::string name(payloads_.Text(t.payload));
        const ir::Node* param = nullptr;
        for (const ir::Node* decl : func.operands()) {
          if (decl->is(ir::Op::kValue) &&
              decl->param_kind() == ir::ParamKind::kIn &&
              decl->name() == name) {
            param = decl;
          }
        }
        if (param == nullptr) {
          return absl::InternalError(
              absl::StrCat("'", name, "' is no parameter of ", func.name()));
        }
        node->set_name(name);
        node->set_def(const_cast<ir::Node*>(param));
        break;
      }
      case ir::Op::kVar:
        node->set_int(payloads_.IntValue(t.payload));
        break;
      case ir::Op::kLibCall:
        node->set_name(std::string(ops_.Name(t.op)));
        if (t.payload != egraph::PayloadTable::kNone) {
          node->set_text(std::string(payloads_.Text(t.payload)));
        }
        break;
      default:
        if (std::optional<ir::OperandKind> attribute =
                AttributeOf(meaning.op)) {
          absl::string_view text = payloads_.Text(t.payload);
          if (*attribute == ir::OperandKind::kKey) {
            node->set_name(std::string(text));
          } else {
            node->set_declared_type(ir::Type::Elem(*ParseElemType(text)));
          }
        }
        break;
    }
    for (uint32_t child : term.children(i)) {
      // A subterm the term shares is a tree of its own at each use.
      ir::Node* operand = built[child];
      if (operand->parent() != nullptr) operand = module.Clone(operand);
      module.Append(node, operand);
    }
    built[i] = node;
  }
  if (built.empty()) return absl::InternalError("an empty term");
  return built.back();
}

}  // namespace tessel::saturate
