#include "libs/saturate/access_shapes.h"

#include <algorithm>
#include <utility>

#include "libs/verify/access.h"
#include "libs/verify/term_type.h"

namespace tessel::saturate {
namespace {

// What the verifier's elaboration makes of a value of type `type`: an
// array, an access pattern or a scalar with its element type; nullopt for
// types no access pattern takes.
std::optional<ir::TermType> ToTermType(const ir::Type& type) {
  switch (type.kind()) {
    case ir::TypeKind::kElem:
    case ir::TypeKind::kTensor:
      return ir::TermType::FromDeclared(type);
    case ir::TypeKind::kAccess: {
      ir::TermElem elem{ir::ScalarType::Of(type.elem()), -1};
      std::vector<int64_t> dims;
      for (const ir::Dim& dim : type.dims()) dims.push_back(dim.value);
      std::vector<int64_t> compute(dims.begin() + type.split(), dims.end());
      dims.resize(type.split());
      return ir::TermType::Access(elem, std::move(dims), compute);
    }
    default:
      return std::nullopt;
  }
}

}  // namespace

std::optional<ir::Type> AccessShapes::TypeOf(
    ir::Op op, const std::string& compute_op,
    const std::vector<ir::Type>& terms,
    const std::vector<AccessLiteral>& literals) {
  Key key{op, compute_op, terms, literals};
  if (auto it = known_.find(key); it != known_.end()) return it->second;
  std::optional<ir::Type> type = Infer(key);
  known_.emplace(std::move(key), type);
  return type;
}

std::optional<ir::Type> AccessShapes::Infer(const Key& key) {
  std::vector<size_t> positions = ir::AccessPatternTerms(key.op);
  if (positions.size() != key.terms.size()) return std::nullopt;
  std::vector<ir::TermType> operands;
  for (const ir::Type& type : key.terms) {
    std::optional<ir::TermType> operand = ToTermType(type);
    if (!operand) return std::nullopt;
    operands.push_back(*std::move(operand));
  }
  // The access pattern with its literal operands; a term operand is a
  // placeholder the rules only read locations from.
  ir::Node* node = scratch_.Create(key.op);
  if (key.op == ir::Op::kCompute) node->set_name(key.compute_op);
  size_t next_literal = 0;
  for (size_t i = 0; i < positions.size() + key.literals.size(); ++i) {
    if (std::find(positions.begin(), positions.end(), i) != positions.end()) {
      scratch_.Append(node, scratch_.Create(ir::Op::kRef));
      continue;
    }
    const AccessLiteral& literal = key.literals[next_literal++];
    auto integer = [&](int64_t value) {
      ir::Node* constant = scratch_.Create(ir::Op::kConst);
      constant->set_int(value);
      return constant;
    };
    if (!literal.list) {
      if (literal.values.size() != 1) return std::nullopt;
      scratch_.Append(node, integer(literal.values[0]));
      continue;
    }
    ir::Node* list = scratch_.Create(*literal.list);
    for (int64_t value : literal.values) scratch_.Append(list, integer(value));
    scratch_.Append(node, list);
  }
  ir::LiteralGroups groups;
  auto type = ir::InferAccessPattern(*node, operands, groups);
  if (!type.ok()) return std::nullopt;
  return ir::ToType(*type, groups);
}

}  // namespace tessel::saturate
