#include "libs/emitc/globals.h"

#include "libs/emitc/c_names.h"
#include "libs/emitc/c_template.h"
#include "libs/ir/forms.h"

namespace tessel::emitc {
namespace {

void CollectTemplateIdentifiers(absl::string_view text,
                                absl::flat_hash_set<std::string>& out) {
  for (const TemplatePiece& piece : ParseTemplate(text)) {
    if (!piece.is_placeholder) CollectIdentifiers(piece.text, out);
  }
}

}  // namespace

GlobalNames AssignGlobalNames(const ir::Module& module,
                              const absl::flat_hash_set<std::string>& reserved) {
  GlobalNames names;
  names.taken = reserved;
  // @DRAM has no templates: emit-c allocates it with the runtime's
  // tsl_allocate and frees it with free, both reserved identifiers.
  for (const ir::Node* form : module.forms()) {
    if (form->is(ir::Op::kInstr)) {
      CollectTemplateIdentifiers(ir::TemplateOf(*form).text(), names.taken);
    }
    if (form->is(ir::Op::kMemory)) {
      for (const ir::Node* clause : form->operands()) {
        if (clause->name() == "alloc" || clause->name() == "free") {
          CollectTemplateIdentifiers(clause->text(), names.taken);
        }
      }
    }
  }
  auto taken = [&names](absl::string_view name) {
    return names.taken.contains(name);
  };
  for (const ir::Node* form : module.forms()) {
    if (!form->is(ir::Op::kProc)) continue;
    std::string name = UniqueIdentifier(form->name(), taken);
    names.taken.insert(name);
    names.procedures[form] = name;
  }
  for (const ir::Node* config : module.forms()) {
    if (!config->is(ir::Op::kConfig)) continue;
    std::string name = UniqueIdentifier(config->name(), taken);
    names.taken.insert(name);
    names.configs[config] = name;
    // Members have a namespace of their own per struct, but macros apply.
    absl::flat_hash_set<std::string> members;
    for (const ir::Node* field : config->operands()) {
      std::string member =
          UniqueIdentifier(field->name(), [&members](absl::string_view name) {
            return members.contains(name);
          });
      members.insert(member);
      names.fields[field] = member;
    }
  }
  return names;
}

}  // namespace tessel::emitc
