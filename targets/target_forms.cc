#include "targets/target_forms.h"

#include <deque>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "libs/ir/forms.h"
#include "libs/ir/syntax.h"
#include "libs/verify/verifier.h"
#include "libs/sexpr/reader.h"
#include "libs/support/source.h"

namespace tessel::targets {
namespace {

// A library read and verified once: its module, to find what a form
// refers to and compare it with a module's, and its forms' S-expressions,
// to read the forms anew into a module (located in the library's text).
struct Library {
  ir::Module module;
  std::vector<Sexpr> forms;  // as module.forms()
};

absl::StatusOr<Library> ReadLibrary(const EmbeddedFile& file) {
  SourceRef source = MakeSource(file.path, file.text);
  auto module = ir::ReadText(source);
  if (!module.ok()) return module.status();
  if (auto status = ir::VerifyModule(*module); !status.ok()) return status;
  auto forms = ReadSexprs(source);
  if (!forms.ok()) return forms.status();
  return Library{*std::move(module), *std::move(forms)};
}

// The libraries, or the first one that does not read (a defect of the
// build, which the tests would have caught).
absl::StatusOr<const std::deque<Library>*> Libraries() {
  static const auto* const libraries = new absl::StatusOr<std::deque<Library>>(
      []() -> absl::StatusOr<std::deque<Library>> {
        std::deque<Library> libraries;
        for (const EmbeddedFile& file : TargetFormFiles()) {
          auto library = ReadLibrary(file);
          if (!library.ok()) return library.status();
          libraries.push_back(*std::move(library));
        }
        return libraries;
      }());
  if (!libraries->ok()) return libraries->status();
  return &**libraries;
}

bool IsTopLevel(const ir::Node& node) {
  return node.is(ir::Op::kProc) || node.is(ir::Op::kInstr) ||
         node.is(ir::Op::kMemory) || node.is(ir::Op::kConfig);
}

// `form` and the forms of `library` it refers to, transitively: callees,
// memories, configurations (not the predeclared @DRAM).
absl::flat_hash_set<const ir::Node*> Closure(const Library& library,
                                             const ir::Node& form) {
  absl::flat_hash_set<const ir::Node*> closure = {&form};
  std::vector<const ir::Node*> work = {&form};
  while (!work.empty()) {
    const ir::Node* next = work.back();
    work.pop_back();
    ir::AnyNode(*next, [&](const ir::Node& node) {
      const ir::Node* def = node.def();
      if (def != nullptr && def != library.module.dram() && IsTopLevel(*def) &&
          closure.insert(def).second) {
        work.push_back(def);
      }
      return false;
    });
  }
  return closure;
}

// Appends the forms of `library` in `closure` that `module` lacks, in the
// library's order, and verifies them; on an error removes them again.
absl::Status Append(ir::Module& module, const Library& library,
                    const absl::flat_hash_set<const ir::Node*>& closure,
                    absl::string_view path) {
  std::vector<Sexpr> missing;
  for (size_t i = 0; i < library.module.forms().size(); ++i) {
    const ir::Node* form = library.module.forms()[i];
    if (!closure.contains(form)) continue;
    const ir::Node* own = module.Find(form->name());
    if (own == nullptr) {
      missing.push_back(library.forms[i]);
    } else if (!ir::AlphaEquivalent(own, form)) {
      return absl::FailedPreconditionError(
          absl::StrCat("the module's ", form->name(), " differs from ", path,
                       "'s, which the imported forms use"));
    }
  }
  size_t before = module.forms().size();
  if (auto status = ir::AppendForms(module, missing); !status.ok()) {
    return status;
  }
  for (size_t i = before; i < module.forms().size(); ++i) {
    ir::Node& form = *module.forms()[i];
    if (!form.is(ir::Op::kProc) && !form.is(ir::Op::kInstr)) continue;
    if (auto status = ir::VerifyProc(module, form); !status.ok()) {
      while (module.forms().size() > before) {
        module.Detach(module.forms().back());
      }
      return status;
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<ir::Node*> ImportTargetForm(ir::Module& module,
                                           absl::string_view name) {
  std::string global =
      absl::StartsWith(name, "@") ? std::string(name) : absl::StrCat("@", name);
  if (ir::Node* own = module.Find(global)) return own;
  auto libraries = Libraries();
  if (!libraries.ok()) return libraries.status();
  std::span<const EmbeddedFile> files = TargetFormFiles();
  for (size_t i = 0; i < files.size(); ++i) {
    const Library& library = (**libraries)[i];
    const ir::Node* form = library.module.Find(global);
    if (form == nullptr || form == library.module.dram()) continue;
    if (auto status =
            Append(module, library, Closure(library, *form), files[i].path);
        !status.ok()) {
      return status;
    }
    return module.Find(global);
  }
  return absl::NotFoundError(
      absl::StrCat("no target library defines '", global, "'"));
}

}  // namespace tessel::targets
