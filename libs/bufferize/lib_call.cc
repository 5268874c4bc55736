#include "libs/bufferize/lib_call.h"

#include <memory>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/ir/forms.h"
#include "libs/ir/library.h"
#include "libs/ir/op.h"
#include "libs/ir/type.h"
#include "targets/target_forms.h"

namespace tessel::bufferize {
namespace {

// The targets' instrs for calls, imported once each into a module of their
// own (null where there is none).
const ir::Node* ImportedInstr(const std::string& name) {
  static auto* const module = new ir::Module();
  static auto* const found =
      new absl::flat_hash_map<std::string, const ir::Node*>();
  auto it = found->find(name);
  if (it != found->end()) return it->second;
  auto instr = targets::ImportTargetForm(*module, name);
  const ir::Node* result =
      instr.ok() && (*instr)->is(ir::Op::kInstr) ? *instr : nullptr;
  found->emplace(name, result);
  return result;
}

std::vector<const ir::Node*> DataParams(const ir::Node& instr) {
  std::vector<const ir::Node*> data;
  for (const ir::Node* param : ir::ParamsOf(instr)) {
    if (ir::IsDataParam(*param)) data.push_back(param);
  }
  return data;
}

// The rank of a value operand or parameter (0 for a scalar).
int RankOf(const ir::Type& type) {
  return type.is_shaped() ? static_cast<int>(type.dims().size()) : 0;
}

}  // namespace

bool ReturnsScalar(const ir::Node& instr) {
  std::vector<const ir::Node*> data = DataParams(instr);
  return !data.empty() &&
         data.back()->param_kind() == ir::ParamKind::kOut &&
         data.back()->declared_type().is_elem();
}

const ir::Node* InstrForCall(const ir::Node& call) {
  return InstrWithKeys(call, ir::Keywords(call));
}

const ir::Node* InstrWithKeys(const ir::Node& call,
                              const std::vector<std::string>& keys) {
  std::vector<std::string> words = {absl::StrCat("@", call.name())};
  words.insert(words.end(), keys.begin(), keys.end());
  const ir::Node* instr = ImportedInstr(absl::StrJoin(words, "."));
  if (instr == nullptr) return nullptr;
  // One parameter per value operand (and the result's), of its rank and
  // element type.
  std::vector<const ir::Node*> data = DataParams(*instr);
  const size_t operands = call.num_operands();
  if (data.size() != operands + (ReturnsScalar(*instr) ? 1 : 0)) {
    return nullptr;
  }
  for (size_t i = 0; i < operands; ++i) {
    const ir::Type& operand = call.operand(i)->type();
    const ir::Type& param = data[i]->declared_type();
    if (!operand.is_elem() && !operand.is_shaped()) return nullptr;
    if (operand.elem() != param.elem() || RankOf(operand) != RankOf(param)) {
      return nullptr;
    }
  }
  return instr;
}

absl::StatusOr<std::vector<int64_t>> InstrSizes(
    const ir::Node& instr, const std::vector<std::vector<int64_t>>& extents) {
  absl::flat_hash_map<const ir::Node*, int64_t> bound;
  std::vector<const ir::Node*> data = DataParams(instr);
  for (size_t i = 0; i < extents.size() && i < data.size(); ++i) {
    const ir::Type& type = data[i]->declared_type();
    if (!type.is_shaped()) continue;
    for (size_t d = 0; d < type.dims().size(); ++d) {
      const ir::Dim& dim = type.dims()[d];
      if (dim.is_constant() || !dim.expr->is(ir::Op::kRef)) continue;
      auto [it, inserted] = bound.emplace(dim.expr->def(), extents[i][d]);
      if (!inserted && it->second != extents[i][d]) {
        return absl::InvalidArgumentError(absl::StrCat(
            "operands of ", instr.name(), " disagree on its size '",
            dim.expr->name(), "'"));
      }
    }
  }
  std::vector<int64_t> sizes;
  for (const ir::Node* param : ir::ParamsOf(instr)) {
    if (ir::IsDataParam(*param)) continue;
    auto it = bound.find(param);
    if (it == bound.end()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "no operand of ", instr.name(), " gives its size '", param->name(),
          "'"));
    }
    sizes.push_back(it->second);
  }
  return sizes;
}

}  // namespace tessel::bufferize
