#include "libs/emitc/globals.h"

#include "libs/emitc/c_names.h"
#include "libs/emitc/c_template.h"

namespace tessel::emitc {
namespace {

void CollectTemplateIdentifiers(absl::string_view text,
                                absl::flat_hash_set<std::string>& out) {
  for (const TemplatePiece& piece : ParseTemplate(text)) {
    if (!piece.is_placeholder) CollectIdentifiers(piece.text, out);
  }
}

}  // namespace

GlobalNames AssignGlobalNames(const Module& module) {
  GlobalNames names;
  for (const Procedure& proc : module.procedures()) {
    if (proc.is_instr) CollectTemplateIdentifiers(proc.c_template, names.taken);
  }
  for (const Memory& memory : module.memories()) {
    CollectTemplateIdentifiers(memory.alloc_template, names.taken);
    CollectTemplateIdentifiers(memory.free_template, names.taken);
  }
  auto taken = [&names](absl::string_view name) {
    return names.taken.contains(name);
  };
  for (const Procedure& proc : module.procedures()) {
    if (proc.is_instr) continue;
    std::string name = UniqueIdentifier(proc.name, taken);
    names.taken.insert(name);
    names.procedures[proc.name] = name;
  }
  for (const Config& config : module.configs()) {
    std::string name = UniqueIdentifier(config.name, taken);
    names.taken.insert(name);
    names.configs[config.name] = name;
    // Members have a namespace of their own per struct, but macros apply.
    absl::flat_hash_set<std::string> members;
    for (const ConfigField& field : config.fields) {
      std::string member =
          UniqueIdentifier(field.name, [&members](absl::string_view name) {
            return members.contains(name);
          });
      members.insert(member);
      names.fields[config.name][field.name] = member;
    }
  }
  return names;
}

}  // namespace tessel::emitc
