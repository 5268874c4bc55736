// Reading named library calls, whose operands are what the callee's
// signature says (library.h), and the bodies of library definitions.
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/ir/reader.h"
#include "libs/sexpr/printer.h"

namespace tessel::ir::syntax_internal {

absl::StatusOr<Node*> Reader::ReadDefinitionBody(
    const Sexpr& body, absl::Span<Node* const> binders) {
  scope_.clear();
  lams_.clear();
  form_ = Op::kFunc;
  definition_ = true;
  for (Node* binder : binders) Bind(binder->name(), binder);
  auto term = ReadValue(body);
  definition_ = false;
  scope_.clear();
  return term;
}

absl::StatusOr<Node*> Reader::ReadLibCall(const Sexpr& form) {
  auto def = libraries().Find(form.head(), form[0].loc());
  if (!def.ok()) return def.status();
  size_t count = form.size() - 1;
  const std::vector<LibOperandKind>* kinds = (*def)->Kinds(count);
  if (kinds == nullptr) {
    return ErrorAt(form.loc(), (*def)->CountError(count));
  }
  Node* call = Create(Op::kLibCall, form);
  call->set_name(std::string(form.head()));
  call->set_name_loc(form[0].loc());
  std::vector<std::string> keywords;
  for (size_t i = 0; i < count; ++i) {
    const Sexpr& item = form[i + 1];
    auto mismatch = [&] {
      return ErrorAt(item.loc(),
                     (*def)->OperandError(count, i, PrintFlat(item)));
    };
    absl::StatusOr<Node*> operand = nullptr;
    switch ((*kinds)[i]) {
      case LibOperandKind::kKeyword:
        if (!item.is_symbol() || !(*def)->TakesKeyword(count, i, item.text())) {
          return mismatch();
        }
        keywords.push_back(item.text());
        continue;
      case LibOperandKind::kInt:
        operand = ReadInteger(item, /*in_list=*/false);
        if (operand.ok() && *operand == nullptr) return mismatch();
        break;
      case LibOperandKind::kShape:
        if (!item.is_form(Spelling(Op::kShape))) return mismatch();
        operand = ReadGeneric(item, Op::kShape);
        break;
      case LibOperandKind::kValue:
        operand = ReadValue(item);
        break;
    }
    if (!operand.ok()) return operand.status();
    module_.Append(call, *operand);
  }
  call->set_text(absl::StrJoin(keywords, " "));
  return call;
}

absl::StatusOr<Node*> Reader::ReadInteger(const Sexpr& item, bool in_list) {
  if (item.is_int()) {
    Node* literal = Create(Op::kConst, item);
    literal->set_int(item.int_value());
    return literal;
  }
  if (pattern_ && item.is_symbol() && absl::StartsWith(item.text(), "?")) {
    return ReadName(item);  // a pattern variable
  }
  Node* size = definition_ && IsLocalName(item) ? Lookup(item.text()) : nullptr;
  if (size == nullptr || !size->is(Op::kParam)) return nullptr;
  if (IsRestSize(*size) && !in_list) {
    return ErrorAt(item.loc(), absl::StrCat("'", item.text(),
                                            "' stands for several extents: "
                                            "it may only be an item of a "
                                            "literal list such as (shape "
                                            "...)"));
  }
  Node* ref = Create(Op::kRef, item);
  ref->set_name(item.text());
  ref->set_def(size);
  return ref;
}

}  // namespace tessel::ir::syntax_internal
