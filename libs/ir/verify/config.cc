// Configuration state between statements (formats/tir/README.md, "Target
// level"): the verifier follows which control fields have a known value so
// that a `read-config` after a `write-config` (in an assertion of a callee,
// a loop bound, an index) sees the written value, and two reads with no
// write between them see the same value.
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "libs/ir/verify/proc.h"

namespace tessel::ir {
namespace {

// The Field node that `(write-config @CFG FIELD E)` names, or null.
const Node* FieldOf(const Node& write) {
  const Node* config = write.def();
  if (config == nullptr || !config->is(Op::kConfig)) return nullptr;
  for (const Node* field : config->operands()) {
    if (field->name() == write.name()) return field;
  }
  return nullptr;
}

// The fields `node` may write, through the procedures it calls too.
void CollectConfigWrites(const Node& node,
                         absl::flat_hash_set<const Node*>& fields,
                         absl::flat_hash_set<const Node*>& visited) {
  if (node.is(Op::kWriteConfig)) {
    if (const Node* field = FieldOf(node)) fields.insert(field);
  }
  const Node* callee = node.def();
  if (node.is(Op::kCall) && callee != nullptr &&
      (callee->is(Op::kProc) || callee->is(Op::kInstr)) &&
      visited.insert(callee).second) {
    CollectConfigWrites(*callee, fields, visited);
  }
  for (const Node* operand : node.operands()) {
    CollectConfigWrites(*operand, fields, visited);
  }
}

}  // namespace

void ProcVerifier::RememberConfig(const Node* field, ConfigValue value) {
  config_values_[field] = value;
}

const ProcVerifier::ConfigValue* ProcVerifier::KnownConfig(
    const Node* field) const {
  auto it = config_values_.find(field);
  return it == config_values_.end() ? nullptr : &it->second;
}

void ProcVerifier::ForgetConfigWrittenBy(const Node& stmt) {
  absl::flat_hash_set<const Node*> fields;
  absl::flat_hash_set<const Node*> visited;
  CollectConfigWrites(stmt, fields, visited);
  for (const Node* field : fields) config_values_.erase(field);
}

void ProcVerifier::RememberConfigWrittenByCall(const Node& call) {
  const Node& callee = *call.def();
  absl::flat_hash_map<const Node*, const Node*> written;
  for (const Node* stmt : BodyOf(callee)) {
    absl::flat_hash_set<const Node*> fields;
    absl::flat_hash_set<const Node*> visited;
    CollectConfigWrites(*stmt, fields, visited);
    for (const Node* field : fields) written.erase(field);
    if (!stmt->is(Op::kWriteConfig)) continue;
    const Node* field = FieldOf(*stmt);
    const Node* value = stmt->operand(0);
    if (field == nullptr || !field->declared_type().is_control()) continue;
    if (value->is(Op::kRef) && value->def() != nullptr &&
        value->def()->is(Op::kParam) && value->def()->parent() == &callee) {
      written[field] = call.operand(value->def()->position());
    } else if (value->is(Op::kConst)) {
      written[field] = value;
    }
  }
  for (const auto& [field, value] : written) {
    RememberConfig(field, ConfigValue{.written = value});
  }
}

}  // namespace tessel::ir
