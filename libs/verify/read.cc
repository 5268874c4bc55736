#include "libs/verify/read.h"

#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/ir/edit.h"
#include "libs/ir/syntax.h"
#include "libs/verify/verifier.h"

namespace tessel::ir {

absl::StatusOr<Module> ReadModule(const SourceRef& source) {
  auto module = ReadText(source);
  if (!module.ok()) return module.status();
  if (auto status = VerifyModule(*module); !status.ok()) return status;
  return module;
}

absl::StatusOr<Module> ReadModuleFile(const std::string& path) {
  auto source = ReadSource(path);
  if (!source.ok()) return source.status();
  return ReadModule(*source);
}

absl::StatusOr<Node*> FindEntry(const Module& module,
                                absl::string_view requested) {
  Location where{module.source(), 0, 0};
  if (!requested.empty()) {
    std::string name = requested[0] == '@' ? std::string(requested)
                                           : absl::StrCat("@", requested);
    Node* form = module.Find(name);
    if (form != nullptr && form->is(Op::kInstr)) {
      return ErrorAt(where,
                     absl::StrCat("'", name, "' is an instr, not an entry"));
    }
    if (form == nullptr || !(form->is(Op::kProc) || form->is(Op::kFunc) ||
                             form->is(Op::kPeProgram))) {
      return ErrorAt(where, absl::StrCat("no proc or func named '", name, "'"));
    }
    return form;
  }
  absl::flat_hash_set<const Node*> callees;
  for (Node* form : module.forms()) {
    Walk(*form, [&](Node& node) {
      if (node.is(Op::kCall)) callees.insert(node.def());
    });
  }
  // Procedures first, then functions, then per-PE programs (whose tasks
  // call procedures), each in file order.
  std::vector<Node*> candidates;
  for (Op op : {Op::kProc, Op::kFunc, Op::kPeProgram}) {
    for (Node* form : module.forms()) {
      if (form->is(op) && !callees.contains(form)) candidates.push_back(form);
    }
  }
  if (candidates.size() != 1) {
    return ErrorAt(
        where, candidates.empty()
                   ? std::string("the module has no proc, func or "
                                 "pe-program to run")
                   : absl::StrCat(
                         "the module has several entries (",
                         absl::StrJoin(candidates, ", ",
                                       [](std::string* out, const Node* form) {
                                         out->append(form->name());
                                       }),
                         "); choose one with --entry"));
  }
  return candidates[0];
}

}  // namespace tessel::ir
