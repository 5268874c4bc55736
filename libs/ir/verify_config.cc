// Configuration state between statements (formats/tir/README.md, "Target
// level"): the verifier follows which control fields have a known value so
// that a `read-config` after a `write-config` (in an assertion of a callee,
// a loop bound, an index) sees the written value, and two reads with no
// write between them see the same value.
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "libs/ir/verify_proc.h"

namespace tessel {
namespace {

// "@CFG.field" for (read-config @CFG field) and (write-config @CFG field E).
std::string FieldKey(const Sexpr& form) {
  return absl::StrCat(form[1].text(), ".", form[2].text());
}

// The fields `node` may write, through the procedures it calls too.
void CollectConfigWrites(const Module& module, const Sexpr& node,
                         absl::flat_hash_set<std::string>& fields,
                         absl::flat_hash_set<std::string>& visited) {
  if (!node.is_list()) return;
  if (node.is_form("write-config") && node.size() == 4) {
    fields.insert(FieldKey(node));
  }
  if (node.is_form("call") && node.size() >= 2 && node[1].is_symbol() &&
      visited.insert(node[1].text()).second) {
    if (const Procedure* callee = module.FindProcedure(node[1].text())) {
      for (const Sexpr* stmt : callee->body) {
        CollectConfigWrites(module, *stmt, fields, visited);
      }
    }
  }
  for (const Sexpr& item : node.items()) {
    CollectConfigWrites(module, item, fields, visited);
  }
}

}  // namespace

void ProcVerifier::RememberConfig(const Sexpr& form, ControlValue value) {
  config_values_[FieldKey(form)] = std::move(value);
}

const ControlValue* ProcVerifier::KnownConfig(const Sexpr& form) const {
  auto it = config_values_.find(FieldKey(form));
  return it == config_values_.end() ? nullptr : &it->second;
}

void ProcVerifier::ForgetConfigWrittenBy(const Sexpr& stmt) {
  absl::flat_hash_set<std::string> fields;
  absl::flat_hash_set<std::string> visited;
  CollectConfigWrites(module_, stmt, fields, visited);
  for (const std::string& field : fields) config_values_.erase(field);
}

}  // namespace tessel
