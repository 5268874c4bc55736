#include "libs/verify/common.h"

#include "absl/strings/str_cat.h"
#include "libs/ir/syntax.h"
#include "libs/sexpr/printer.h"

namespace tessel::ir {

std::string Text(const Node& node) { return PrintFlat(WriteNode(node)); }

std::string AtPoint(absl::string_view point) {
  if (point.empty()) return "";
  return absl::StrCat(" (at ", point, ")");
}

absl::Status ExpectOperands(const Node& node, size_t operands) {
  if (node.num_operands() == operands) return absl::OkStatus();
  return ErrorAt(node.loc(),
                 absl::StrCat("'", Spelling(node.op()), "' takes ", operands,
                              operands == 1 ? " operand" : " operands",
                              ", found ", node.num_operands()));
}

absl::Status CheckBindableName(const Node& binder) {
  std::optional<Op> op = FindOp(binder.name());
  if (op && Info(*op).op_class != OpClass::kTop &&
      Info(*op).op_class != OpClass::kStmt &&
      Info(*op).op_class != OpClass::kBlock) {
    return ErrorAt(binder.name_loc(),
                   absl::StrCat("'", binder.name(),
                                "' is an operator and cannot name a "
                                "variable"));
  }
  return absl::OkStatus();
}

}  // namespace tessel::ir
