#include "libs/saturate/tir_analysis.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "libs/egraph/egraph.h"
#include "libs/ir/op.h"
#include "libs/ir/types.h"
#include "libs/verify/access.h"

namespace tessel::saturate {
namespace {

// `type` without its first dimension: what indexing it gives.
std::optional<ir::Type> Indexed(const ir::Type& type) {
  if (type.kind() != ir::TypeKind::kTensor || type.rank() == 0) {
    return std::nullopt;
  }
  std::vector<ir::Dim> rest(type.dims().begin() + 1, type.dims().end());
  if (rest.empty()) return ir::Type::Elem(type.elem());
  return ir::Type::Tensor(type.elem(), std::move(rest));
}

// An array of `length` elements of `element`'s type.
std::optional<ir::Type> ArrayOf(int64_t length, const ir::Type& element) {
  std::vector<ir::Dim> dims = {ir::Dim::Constant(length)};
  if (element.is_elem()) return ir::Type::Tensor(element.elem(), dims);
  if (element.kind() != ir::TypeKind::kTensor) return std::nullopt;
  dims.insert(dims.end(), element.dims().begin(), element.dims().end());
  return ir::Type::Tensor(element.elem(), std::move(dims));
}

}  // namespace

TirData TirAnalysis::Make(const egraph::EGraph& g,
                          const egraph::ENodeRef& node) {
  TirData data;
  data.type = TypeOf(g, node);
  const OpMeaning& meaning = encoding_->Meaning(node.op);
  if (meaning.op == ir::Op::kConst &&
      encoding_->payloads().Kind(node.payload) == egraph::PayloadKind::kInt) {
    data.integer = encoding_->payloads().IntValue(node.payload);
  }
  data.free = FreeOf(g, node);
  return data;
}

egraph::DidMerge TirAnalysis::Merge(TirData& into, TirData from) {
  egraph::DidMerge result;
  if (!into.type && from.type) {
    into.type = std::move(from.type);
    result.into_changed = true;
  } else if (into.type && !from.type) {
    result.from_changed = true;
  }
  if (!into.integer && from.integer) {
    into.integer = from.integer;
    result.into_changed = true;
  } else if (into.integer && !from.integer) {
    result.from_changed = true;
  }
  VarSet both = into.free & from.free;
  if (both != into.free) result.into_changed = true;
  if (both != from.free) result.from_changed = true;
  into.free = both;
  return result;
}

VarSet TirAnalysis::FreeOf(const egraph::EGraph& g,
                           const egraph::ENodeRef& node) const {
  if (node.op == encoding_->var_op()) {
    int64_t k = encoding_->VarIndex(node.payload);
    return VarSet{1} << (k < 63 ? k : 63);
  }
  VarSet free = 0;
  for (egraph::ClassId child : node.children) free |= Get(g, child).free;
  if (encoding_->IsLam(node.op)) return UnderLam(free);
  return free;
}

std::optional<ir::Type> TirAnalysis::TypeOf(
    const egraph::EGraph& g, const egraph::ENodeRef& node) const {
  const OpMeaning& meaning = encoding_->Meaning(node.op);
  auto child = [&](size_t i) -> const std::optional<ir::Type>& {
    return Get(g, node.children[i]).type;
  };
  auto integer = [&](size_t i) { return Get(g, node.children[i]).integer; };
  if (ir::IsCondition(meaning.op)) return ir::Type::Control(ControlType::kBool);
  switch (meaning.op) {
    case ir::Op::kConst:
      return meaning.literal_type;
    case ir::Op::kRef: {
      auto it = params_.find(encoding_->payloads().Text(node.payload));
      if (it == params_.end()) return std::nullopt;
      return it->second;
    }
    case ir::Op::kVar:
      return std::nullopt;
    case ir::Op::kLam:
      // The argument's type comes from where the lam is used; the result's
      // is what build, ifold and app need.
      if (!child(0)) return std::nullopt;
      return ir::Type::Function(ir::Type::None(), *child(0));
    case ir::Op::kBuild: {
      std::optional<int64_t> length = integer(0);
      const std::optional<ir::Type>& f = child(1);
      if (!length || !f || !f->is_function()) return std::nullopt;
      return ArrayOf(*length, f->second());
    }
    case ir::Op::kIfold:
      if (child(1)) return child(1);
      if (child(2) && child(2)->is_function() &&
          child(2)->second().is_function()) {
        return child(2)->second().second();
      }
      return std::nullopt;
    case ir::Op::kApp:
      if (child(0) && child(0)->is_function()) return child(0)->second();
      return std::nullopt;
    case ir::Op::kIndex:
      if (!child(0)) return std::nullopt;
      return Indexed(*child(0));
    case ir::Op::kTuple:
      if (!child(0) || !child(1)) return std::nullopt;
      return ir::Type::Tuple(*child(0), *child(1));
    case ir::Op::kFst:
    case ir::Op::kSnd:
      if (!child(0) || !child(0)->is_tuple()) return std::nullopt;
      return meaning.op == ir::Op::kFst ? child(0)->first()
                                        : child(0)->second();
    case ir::Op::kAdd:
    case ir::Op::kSub:
    case ir::Op::kMul:
    case ir::Op::kDiv:
    case ir::Op::kMax:
    case ir::Op::kMin:
      return child(0) ? child(0) : child(1);
    case ir::Op::kNeg:
      return child(0);
    case ir::Op::kSelect:
      return child(1) ? child(1) : child(2);
    case ir::Op::kCast:
      return ir::Type::Elem(
          *ParseElemType(encoding_->payloads().Text(node.payload)));
    case ir::Op::kLibCall:
      return CallTypeOf(g, node);
    default:
      if (ir::IsAccessPattern(meaning.op)) return AccessTypeOf(g, node);
      return std::nullopt;
  }
}

std::optional<ir::Type> TirAnalysis::CallTypeOf(
    const egraph::EGraph& g, const egraph::ENodeRef& node) const {
  std::vector<CallOperand> operands;
  operands.reserve(node.children.size());
  for (egraph::ClassId child : node.children) {
    const TirData& data = Get(g, child);
    // A (shape N...) operand: the extents of a Shape e-node of the class.
    CallOperand operand{data.type, data.integer,
                        ListOf(g, child, ir::Op::kShape)};
    operands.push_back(std::move(operand));
  }
  const egraph::PayloadTable& payloads = encoding_->payloads();
  std::string keywords;
  if (node.payload != egraph::PayloadTable::kNone) {
    keywords = std::string(payloads.Text(node.payload));
  }
  return calls_.TypeOf(std::string(g.ops().Name(node.op)), keywords, operands);
}

std::optional<std::vector<int64_t>> TirAnalysis::ListOf(const egraph::EGraph& g,
                                                        egraph::ClassId id,
                                                        ir::Op list) const {
  for (egraph::NodeId n : g.Nodes(g.Find(id))) {
    egraph::ENodeRef node = g.Node(n);
    if (encoding_->Meaning(node.op).op != list) continue;
    std::vector<int64_t> items;
    for (egraph::ClassId item : node.children) {
      std::optional<int64_t> value = Get(g, item).integer;
      if (!value) return std::nullopt;
      items.push_back(*value);
    }
    return items;
  }
  return std::nullopt;
}

std::optional<ir::Type> TirAnalysis::AccessTypeOf(
    const egraph::EGraph& g, const egraph::ENodeRef& node) const {
  ir::Op op = encoding_->Meaning(node.op).op;
  std::vector<size_t> positions = ir::AccessPatternTerms(op);
  std::vector<ir::Type> terms;
  std::vector<AccessLiteral> literals;
  for (size_t i = 0; i < node.children.size(); ++i) {
    const TirData& data = Get(g, node.children[i]);
    if (std::find(positions.begin(), positions.end(), i) != positions.end()) {
      if (!data.type) return std::nullopt;
      terms.push_back(*data.type);
    } else if (data.integer) {
      literals.push_back({std::nullopt, {*data.integer}});
    } else if (auto items = ListOf(g, node.children[i], ir::Op::kList)) {
      literals.push_back({ir::Op::kList, *std::move(items)});
    } else if (auto extents = ListOf(g, node.children[i], ir::Op::kShape)) {
      literals.push_back({ir::Op::kShape, *std::move(extents)});
    } else {
      return std::nullopt;
    }
  }
  std::string compute_op;
  if (op == ir::Op::kCompute) {
    compute_op = std::string(encoding_->payloads().Text(node.payload));
  }
  return access_.TypeOf(op, compute_op, terms, literals);
}

}  // namespace tessel::saturate
