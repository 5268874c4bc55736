// What control and data expressions share: helper calls, configuration
// reads and the handling of forms the verifier rejects.
#include "libs/emitc/expr_emitter.h"

#include "absl/strings/str_cat.h"
#include "libs/ir/forms.h"
#include "libs/ir/syntax.h"
#include "libs/sexpr/printer.h"

namespace tessel::emitc {

CExpr CallHelper(const Helper& helper, const std::vector<CExpr>& operands) {
  CExpr call = Call(HelperName(helper), operands);
  call.uses.needs.helpers.insert(helper);
  return call;
}

absl::Status Unexpected(const ir::Node& node, absl::string_view what) {
  absl::string_view spelling = ir::Spelling(node.op());
  std::string found =
      spelling.empty() ? PrintFlat(ir::WriteNode(node)) : std::string(spelling);
  return ErrorAt(node.loc(), absl::StrCat("emit-c cannot translate '", found,
                                          "' here: it expects ", what));
}

absl::string_view ControlCType(ControlType type) {
  return type == ControlType::kBool ? "bool" : "int64_t";
}

absl::StatusOr<CExpr> ExprEmitter::ReadConfig(const ir::Node& expr) const {
  const ir::Node* config = expr.def();
  const ir::Node* field =
      config != nullptr ? ir::FindField(*config, expr.name()) : nullptr;
  if (field == nullptr) return Unexpected(expr, "a field of a config");
  CExpr value =
      Member(Primary(globals_.configs.at(config)), globals_.fields.at(field));
  value.uses.needs.configs.insert(config);
  return value;
}

}  // namespace tessel::emitc
