// Configuration state between statements (formats/tir/README.md, "Target
// level"): the verifier follows which control fields have a known value so
// that a `read-config` after a `write-config` (in an assertion of a callee,
// a loop bound, an index) sees the written value, and two reads with no
// write between them see the same value.
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "libs/ir/config_flow.h"
#include "libs/ir/forms.h"
#include "libs/verify/common.h"
#include "libs/verify/proc.h"
#include "libs/support/source.h"

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

// The fields the calls under `node` (not in their callees: a callee that
// calls a clobbering proc declares what it leaves clobbered) may clobber,
// each with the first such call.
void CollectClobbers(const Node& node,
                     absl::flat_hash_map<const Node*, const Node*>& fields) {
  if (node.is(Op::kCall) && node.def() != nullptr &&
      node.def()->is(Op::kProc)) {
    for (const Node* clobbers : ClobbersOf(*node.def())) {
      if (const Node* field = FieldOf(*clobbers)) fields.emplace(field, &node);
    }
  }
  for (const Node* operand : node.operands()) CollectClobbers(*operand, fields);
}

std::string FieldText(const Node& field) {
  return absl::StrCat(field.parent()->name(), ".", field.name());
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
    clobbered_.erase(field);
  }
  absl::flat_hash_map<const Node*, const Node*> clobbers;
  CollectClobbers(call, clobbers);
  for (const auto& [field, at] : clobbers) clobbered_[field] = at;
}

absl::Status ProcVerifier::CheckClobbersDeclarations() {
  absl::flat_hash_set<const Node*> declared;
  for (const Node* clobbers : ClobbersOf(proc_)) {
    auto field = FindConfigField(*clobbers);
    if (!field.ok()) return field.status();
    if (!declared.insert(*field).second) {
      return ErrorAt(clobbers->loc(),
                     absl::StrCat(FieldText(**field), " is declared twice"));
    }
  }
  return absl::OkStatus();
}

absl::Status ProcVerifier::CheckNotClobbered(const Node& read,
                                             const Node* field) const {
  auto it = clobbered_.find(field);
  if (it == clobbered_.end()) return absl::OkStatus();
  std::string what = read.is(Op::kCall) ? absl::StrCat("the call to '",
                                                       read.def()->name(), "'")
                                        : absl::StrCat("'", Text(read), "'");
  return ErrorAt(
      read.loc(),
      absl::StrCat(what, " reads ", FieldText(*field), ", which the call to '",
                   it->second->def()->name(),
                   "' before it clobbers: write it first"));
}

absl::Status ProcVerifier::CheckCalleeReadsNoClobbered(const Node& call) const {
  for (const auto& [field, at] : clobbered_) {
    if (!FlowOfStmt(call, {field->parent(), field->name()}).reads) continue;
    if (auto status = CheckNotClobbered(call, field); !status.ok()) {
      return status;
    }
  }
  return absl::OkStatus();
}

void ProcVerifier::ClobberConfigMaybeBy(const Node& stmt) {
  absl::flat_hash_map<const Node*, const Node*> clobbers;
  CollectClobbers(stmt, clobbers);
  for (const auto& [field, at] : clobbers) clobbered_.emplace(field, at);
}

absl::Status ProcVerifier::CheckClobberedAtEnd() const {
  absl::flat_hash_set<const Node*> declared;
  for (const Node* clobbers : ClobbersOf(proc_))
    declared.insert(FieldOf(*clobbers));
  for (const auto& [field, at] : clobbered_) {
    if (declared.contains(field)) continue;
    return ErrorAt(
        at->loc(),
        absl::StrCat("the call to '", at->def()->name(), "' clobbers ",
                     FieldText(*field), ", which '", proc_.name(),
                     "' leaves so to its callers: declare (clobbers ",
                     field->parent()->name(), " ", field->name(),
                     ") or write it after the call"));
  }
  return absl::OkStatus();
}

}  // namespace tessel::ir
