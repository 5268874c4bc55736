#include "libs/primitives/make_instr.h"

#include <algorithm>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "libs/ir/build.h"
#include "libs/ir/edit.h"
#include "libs/ir/forms.h"
#include "libs/verify/verifier.h"
#include "libs/primitives/buffer_uses.h"

namespace tessel::primitives {

using ir::Node;
using ir::Op;

namespace {

// The headers `c_global` includes, one `#include` per line.
absl::StatusOr<std::vector<std::string>> Headers(const std::string& c_global) {
  std::vector<std::string> headers;
  for (absl::string_view line : absl::StrSplit(c_global, '\n')) {
    line = absl::StripAsciiWhitespace(line);
    if (line.empty()) continue;
    absl::string_view header = line;
    if (absl::ConsumePrefix(&header, "#include")) {
      header = absl::StripAsciiWhitespace(header);
      if ((absl::StartsWith(header, "<") && absl::EndsWith(header, ">")) ||
          (header.size() > 1 && absl::StartsWith(header, "\"") &&
           absl::EndsWith(header, "\""))) {
        headers.emplace_back(header);
        continue;
      }
    }
    return absl::InvalidArgumentError(absl::StrCat(
        "make_instr: c_global may only include headers (an instr has no "
        "other global C code), not '",
        line, "'"));
  }
  return headers;
}

// The calls of `callee` in `module`.
std::vector<Node*> CallsOf(ir::Module& module, const Node& callee) {
  std::vector<Node*> calls;
  for (Node* form : module.forms()) {
    ir::Walk(*form, [&](Node& node) {
      if (node.is(Op::kCall) && node.def() == &callee) calls.push_back(&node);
    });
  }
  return calls;
}

// Moves every operand of `from` to the end of `to`.
void MoveOperands(ir::Module& module, Node& from, Node& to) {
  std::vector<Node*> operands(from.operands().begin(), from.operands().end());
  for (Node* operand : operands) {
    module.Detach(operand);
    module.Append(&to, operand);
  }
}

}  // namespace

absl::StatusOr<Node*> MakeInstr(ir::Module& module, Node& proc,
                                const std::string& c_instr,
                                const std::string& c_global) {
  if (!proc.is(Op::kProc)) {
    return absl::InvalidArgumentError(
        absl::StrCat("make_instr: ", proc.name(), " is not a proc"));
  }
  if (std::vector<Node*> clobbers = ir::ClobbersOf(proc); !clobbers.empty()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "make_instr: ", proc.name(), " declares what it clobbers (",
        NodeText(*clobbers.front()),
        "); an instr's writes are its meaning"));
  }
  auto headers = Headers(c_global);
  if (!headers.ok()) return headers.status();

  Node* instr = ir::Build::Form(module, Op::kInstr, {});
  instr->set_name(proc.name());
  std::vector<Node*> params = ir::ParamsOf(proc);
  for (Node* param : params) {
    module.Detach(param);
    module.Append(instr, param);
  }
  Node* templ = ir::Build::Form(module, Op::kTemplate, {});
  templ->set_text(c_instr);
  module.Append(instr, templ);
  for (const std::string& header : *headers) {
    Node* include = ir::Build::Form(module, Op::kClause, {});
    include->set_name("include");
    include->set_text(header);
    module.Append(instr, include);
  }
  MoveOperands(module, proc, *instr);  // assertions and statements
  std::vector<Node*> calls = CallsOf(module, proc);
  for (Node* call : calls) call->set_def(instr);
  module.Replace(&proc, instr);

  std::vector<Node*> checked = {instr};
  for (Node* call : calls) {
    Node* caller = ir::FormOf(call);
    if (std::find(checked.begin(), checked.end(), caller) == checked.end()) {
      checked.push_back(caller);
    }
  }
  for (Node* form : checked) {
    absl::Status status = ir::VerifyProc(module, *form, kEditChecks);
    if (status.ok()) continue;
    // Back as it was: the parameters, assertions and statements to the
    // proc, the calls to it.
    module.Replace(instr, &proc);
    for (Node* call : calls) call->set_def(&proc);
    std::vector<Node*> operands(instr->operands().begin(),
                                instr->operands().end());
    for (Node* operand : operands) {
      module.Detach(operand);
      if (!operand->is(Op::kTemplate) && !operand->is(Op::kClause)) {
        module.Append(&proc, operand);
      }
    }
    return absl::FailedPreconditionError(
        absl::StrCat("make_instr: ", form == instr ? "the instr" : form->name(),
                     " does not verify: ", status.message()));
  }
  return instr;
}

PrimitiveSpec MakeInstrSpec() {
  return {"make_instr",
          {{"c_instr", ArgKind::kString, std::nullopt},
           {"c_global", ArgKind::kString, "\"\""}},
          [](Target& target, const Args& args) {
            return MakeInstr(target.module, target.proc,
                             args["c_instr"].text, args["c_global"].text)
                .status();
          }};
}

}  // namespace tessel::primitives
