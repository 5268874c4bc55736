// A named call applied: its operands checked against the signatures, the
// definition chosen and its sizes bound, the body instantiated, and the call
// expanded into its definition.
#include <algorithm>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/ir/de_bruijn.h"
#include "libs/ir/library.h"
#include "libs/ir/syntax.h"
#include "libs/sexpr/printer.h"

namespace tessel::ir {
namespace {

std::string NodeText(const Node& node) { return PrintFlat(WriteNode(node)); }

// Where operand `i` of `call` was written.
Location OperandLoc(const Node& call, absl::Span<const LibOperand> operands,
                    size_t i) {
  const Node* node = operands[i].node;
  return node != nullptr ? node->loc() : call.item_loc(i + 1);
}

// "(WORD...)": the non-empty words in parentheses.
std::string List(std::vector<std::string> words) {
  words.erase(std::remove(words.begin(), words.end(), ""), words.end());
  return absl::StrCat("(", absl::StrJoin(words, " "), ")");
}

// The names and literals of `dims[from, to)`, separated by spaces.
std::string DimWords(const std::vector<LibDim>& dims, size_t from, size_t to) {
  std::vector<std::string> words;
  for (size_t i = from; i < to; ++i) {
    words.push_back(dims[i].size != nullptr ? dims[i].size->name()
                                            : absl::StrCat(dims[i].literal));
  }
  return absl::StrJoin(words, " ");
}

// "(batch)" and "(rows)": an access pattern parameter's access and compute
// dimensions.
std::vector<std::string> AccessParts(const LibParam& param) {
  return {List({DimWords(param.dims, 0, param.split)}),
          List({DimWords(param.dims, param.split, param.dims.size())})};
}

// What `param` asks of its operand: "(m k)", "a scalar", "an access
// pattern ((batch) (rows))", "(shape n dims...)", "an integer".
std::string PatternText(const LibParam& param) {
  std::string dims = DimWords(param.dims, 0, param.dims.size());
  switch (param.kind) {
    case LibOperandKind::kKeyword:
      return param.name;
    case LibOperandKind::kInt:
      return "an integer";
    case LibOperandKind::kShape:
      return List({"shape", dims});
    case LibOperandKind::kValue:
      break;
  }
  if (param.split >= 0) {
    return absl::StrCat("an access pattern ", List(AccessParts(param)));
  }
  return param.dims.empty() ? "a scalar" : List({dims});
}

// How a definition is written in messages: (blas.gemv N alpha (A m n) ...).
std::string ClauseText(const LibCallDef& def, const LibClause& clause) {
  std::vector<std::string> words = {def.name()};
  for (const LibParam& param : clause.params) {
    if (param.kind != LibOperandKind::kValue) {
      words.push_back(param.kind == LibOperandKind::kInt ? param.name
                                                         : PatternText(param));
    } else if (param.split >= 0) {
      std::vector<std::string> access = AccessParts(param);
      access.insert(access.begin(), "access");
      words.push_back(List({param.name, List(access)}));
    } else if (param.dims.empty()) {
      words.push_back(param.name);
    } else {
      words.push_back(
          List({param.name, DimWords(param.dims, 0, param.dims.size())}));
    }
  }
  return List(words);
}

std::string OperandText(const LibOperand& operand) {
  switch (operand.kind) {
    case LibOperandKind::kKeyword:
      return operand.keyword;
    case LibOperandKind::kInt:
      return absl::StrCat(operand.integer);
    case LibOperandKind::kShape:
      return List({"shape", absl::StrJoin(operand.dims, " ")});
    case LibOperandKind::kValue:
      break;
  }
  return operand.text;
}

// "operand 'A' of 'blas.gemm'", or "operand 2 of 'torch.full'" for those
// without a name.
std::string OperandName(const LibCallDef& def, const LibParam& param,
                        size_t i) {
  bool named = param.kind == LibOperandKind::kValue ||
               param.kind == LibOperandKind::kInt;
  return absl::StrCat(
      "operand ",
      named ? absl::StrCat("'", param.name, "'") : absl::StrCat(i + 1), " of '",
      def.name(), "'");
}

// Whether a shape of `rank` dimensions fits `dims`, which may end in a rest.
bool RankFits(const std::vector<LibDim>& dims, size_t rank) {
  if (!dims.empty() && dims.back().size != nullptr &&
      IsRestSize(*dims.back().size)) {
    return rank + 1 >= dims.size();
  }
  return rank == dims.size();
}

// Whether `operand` has the structure `param` asks for: the keyword, an
// access pattern where one is needed, the number of dimensions.
bool Fits(const LibParam& param, const LibOperand& operand) {
  switch (param.kind) {
    case LibOperandKind::kKeyword:
      return operand.keyword == param.name;
    case LibOperandKind::kInt:
      return true;
    case LibOperandKind::kShape:
      return RankFits(param.dims, operand.dims.size());
    case LibOperandKind::kValue:
      if (param.split >= 0) {
        return operand.split == param.split &&
               operand.dims.size() == param.dims.size();
      }
      return RankFits(param.dims, operand.dims.size());
  }
  return false;
}

// Binds the sizes of `clause` to the extents of `operands`, which fit it.
class SizeBinder {
 public:
  SizeBinder(const LibCallDef& def, const Node& call,
             absl::Span<const LibOperand> operands)
      : def_(def), call_(call), operands_(operands) {}

  absl::StatusOr<LibInstance> Bind(const LibClause& clause) {
    LibInstance instance;
    instance.clause = &clause;
    for (size_t i = 0; i < clause.params.size(); ++i) {
      const LibParam& param = clause.params[i];
      const LibOperand& operand = operands_[i];
      std::vector<int64_t> extents = operand.dims;
      if (param.kind == LibOperandKind::kKeyword) continue;
      if (param.kind == LibOperandKind::kInt) extents = {operand.integer};
      for (size_t d = 0; d < param.dims.size(); ++d) {
        const LibDim& dim = param.dims[d];
        std::vector<int64_t> values;
        if (dim.size != nullptr && IsRestSize(*dim.size)) {
          values.assign(extents.begin() + d, extents.end());
        } else {
          values = {extents[d]};
        }
        if (dim.size == nullptr) {
          if (values[0] == dim.literal) continue;
          return Mismatch(param, i, "");
        }
        auto [it, inserted] = instance.sizes.emplace(dim.size, values);
        if (inserted) {
          from_[dim.size] = param.name;
        } else if (it->second != values) {
          return Mismatch(param, i, Binding(*dim.size, it->second));
        }
      }
    }
    return instance;
  }

  // An error at the first operand that does not fit `clause`, which one
  // does not.
  absl::Status Misfit(const LibClause& clause) const {
    for (size_t i = 0; i < clause.params.size(); ++i) {
      if (!Fits(clause.params[i], operands_[i])) {
        return Mismatch(clause.params[i], i, "");
      }
    }
    return absl::InternalError("every operand fits");
  }

 private:
  // " with k = 3 (from 'A')".
  std::string Binding(const Node& size,
                      const std::vector<int64_t>& values) const {
    std::string value = IsRestSize(size)
                            ? absl::StrCat("(", absl::StrJoin(values, " "), ")")
                            : absl::StrCat(values[0]);
    return absl::StrCat(" with ", size.name(), " = ", value, " (from '",
                        from_.at(&size), "')");
  }

  absl::Status Mismatch(const LibParam& param, size_t i,
                        absl::string_view binding) const {
    return ErrorAt(OperandLoc(call_, operands_, i),
                   absl::StrCat(OperandName(def_, param, i), " must be ",
                                PatternText(param), binding, ", found ",
                                OperandText(operands_[i])));
  }

  const LibCallDef& def_;
  const Node& call_;
  absl::Span<const LibOperand> operands_;
  absl::flat_hash_map<const Node*, std::string> from_;
};

// Copies a definition's body into a module, sizes and parameters replaced.
class BodyCopier {
 public:
  BodyCopier(Module& module, const LibInstance& instance, Location loc)
      : module_(module), instance_(instance), loc_(std::move(loc)) {
    int64_t k = static_cast<int64_t>(instance.clause->num_values());
    int64_t i = 0;
    for (const LibParam& param : instance.clause->params) {
      if (param.kind == LibOperandKind::kValue) {
        variables_[param.binder] = k - 1 - i++;
      }
    }
  }

  Node* Copy(const Node& from, int64_t depth) {
    if (from.is(Op::kRef)) {
      if (auto it = variables_.find(from.def()); it != variables_.end()) {
        Node* var = module_.Create(Op::kVar, loc_);
        var->set_int(it->second + depth);
        return var;
      }
      if (auto it = instance_.sizes.find(from.def());
          it != instance_.sizes.end()) {
        return Literal(it->second[0]);
      }
    }
    Node* to = module_.Create(from.op(), loc_);
    if (from.is_float_literal()) {
      to->set_float(from.float_value());
    } else {
      to->set_int(from.int_value());
    }
    to->set_name(from.name());
    to->set_text(from.text());
    to->set_def(from.def());
    to->set_param_kind(from.param_kind());
    to->set_declared_type(from.declared_type());
    int64_t inner = depth + (from.is(Op::kLam) ? 1 : 0);
    for (const Node* operand : from.operands()) {
      // A rest size stands for its extents, each an item of the list.
      auto rest = operand->is(Op::kRef) ? instance_.sizes.find(operand->def())
                                        : instance_.sizes.end();
      if (rest != instance_.sizes.end() && IsRestSize(*operand->def())) {
        for (int64_t extent : rest->second) {
          module_.Append(to, Literal(extent));
        }
        continue;
      }
      module_.Append(to, Copy(*operand, inner));
    }
    return to;
  }

 private:
  Node* Literal(int64_t value) {
    Node* literal = module_.Create(Op::kConst, loc_);
    literal->set_int(value);
    return literal;
  }

  Module& module_;
  const LibInstance& instance_;
  Location loc_;
  absl::flat_hash_map<const Node*, int64_t> variables_;
};

// Whether `term` is made of literals and scalar operations only.
bool IsLiteralArithmetic(const Node& term) {
  if (!term.is(Op::kConst) && term.info().op_class != OpClass::kExpr) {
    return false;
  }
  return std::all_of(
      term.operands().begin(), term.operands().end(),
      [](const Node* operand) { return IsLiteralArithmetic(*operand); });
}

// Whether `value` may be copied to each of its uses rather than bound once,
// because it costs (next to) nothing to compute: a name, a variable, an
// element or row of one (`index` is a view), or scalar arithmetic on
// literals. (The last must be copied: app would bind it as an index, and a
// value cannot be one.)
bool IsSubstitutable(const Node& value) {
  switch (value.op()) {
    case Op::kRef:
    case Op::kVar:
      return true;
    case Op::kIndex:
      return IsSubstitutable(*value.operand(0));
    default:
      return IsLiteralArithmetic(value);
  }
}

// The dimensions and access split of a value operand's type.
absl::Status DescribeValue(const Node& value, LibOperand& operand) {
  const Type& type = value.type();
  std::optional<std::vector<int64_t>> dims;
  if (type.is_elem()) {
    dims.emplace();
  } else if (type.kind() == TypeKind::kTensor ||
             type.kind() == TypeKind::kAccess) {
    dims = type.ConstantDims();
  }
  if (!dims) {
    return ErrorAt(value.loc(),
                   absl::StrCat("a library call's operand must be a typed "
                                "tensor or scalar, found '",
                                NodeText(value), "' of type ", TypeText(type)));
  }
  operand.dims = *std::move(dims);
  operand.split = type.kind() == TypeKind::kAccess ? type.split() : -1;
  operand.text = TypeText(type);
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<LibOperand>> CallOperands(const LibCallDef& def,
                                                     const Node& call) {
  std::vector<std::string> keywords = Keywords(call);
  size_t count = keywords.size() + call.num_operands();
  const std::vector<LibOperandKind>* kinds = def.Kinds(count);
  if (kinds == nullptr) return ErrorAt(call.loc(), def.CountError(count));
  std::vector<LibOperand> operands(count);
  for (size_t i = 0; i < count; ++i) {
    LibOperand& operand = operands[i];
    operand.kind = (*kinds)[i];
    bool is_keyword = i < keywords.size();
    const Node* node = is_keyword ? nullptr : call.operand(i - keywords.size());
    operand.node = node;
    bool ok = false;
    switch (operand.kind) {
      case LibOperandKind::kKeyword:
        ok = is_keyword && def.TakesKeyword(count, i, keywords[i]);
        if (is_keyword) operand.keyword = keywords[i];
        break;
      case LibOperandKind::kInt:
        ok = node != nullptr && node->is(Op::kConst) &&
             !node->is_float_literal() && node->int_value() > 0;
        if (ok) operand.integer = node->int_value();
        break;
      case LibOperandKind::kShape:
        ok = node != nullptr && node->is(Op::kShape);
        for (size_t k = 0; ok && k < node->num_operands(); ++k) {
          const Node& extent = *node->operand(k);
          ok = extent.is(Op::kConst) && !extent.is_float_literal() &&
               extent.int_value() > 0;
          operand.dims.push_back(extent.int_value());
        }
        break;
      case LibOperandKind::kValue:
        ok = node != nullptr;
        break;
    }
    if (!ok) {
      return ErrorAt(OperandLoc(call, operands, i),
                     def.OperandError(
                         count, i, is_keyword ? keywords[i] : NodeText(*node)));
    }
  }
  return operands;
}

absl::StatusOr<LibInstance> SelectDefinition(
    const LibCallDef& def, const Node& call,
    absl::Span<const LibOperand> operands) {
  std::vector<const LibClause*> candidates;
  for (const LibClause& clause : def.clauses()) {
    if (clause.params.size() != operands.size()) continue;
    bool keywords = true;
    for (size_t i = 0; i < operands.size(); ++i) {
      if (clause.params[i].kind == LibOperandKind::kKeyword) {
        keywords &= Fits(clause.params[i], operands[i]);
      }
    }
    if (keywords) candidates.push_back(&clause);
  }
  std::vector<std::string> found;
  for (const LibOperand& operand : operands) {
    if (operand.kind != LibOperandKind::kKeyword) {
      found.push_back(OperandText(operand));
    }
  }
  if (candidates.empty()) {
    std::vector<std::string> keywords;
    for (const LibOperand& operand : operands) {
      if (operand.kind == LibOperandKind::kKeyword) {
        keywords.push_back(operand.keyword);
      }
    }
    return ErrorAt(call.loc(), absl::StrCat("'", def.name(),
                                            "' has no definition for the "
                                            "keywords ",
                                            absl::StrJoin(keywords, " ")));
  }
  SizeBinder binder(def, call, operands);
  for (const LibClause* clause : candidates) {
    bool fits = true;
    for (size_t i = 0; i < operands.size(); ++i) {
      fits &= Fits(clause->params[i], operands[i]);
    }
    if (fits) return binder.Bind(*clause);
  }
  if (candidates.size() == 1) return binder.Misfit(*candidates[0]);
  std::vector<std::string> forms;
  for (const LibClause* clause : candidates) {
    forms.push_back(ClauseText(def, *clause));
  }
  return ErrorAt(call.loc(),
                 absl::StrCat("'", def.name(), "' does not apply to ",
                              JoinWords(found, "and"), ": it is defined as ",
                              JoinWords(forms, "and")));
}

Node* InstantiateBody(Module& module, const LibInstance& instance,
                      const Location& loc) {
  return BodyCopier(module, instance, loc).Copy(*instance.clause->body, 0);
}

absl::Status ExpandLibCall(Module& module, Node& call) {
  auto def = Libraries::Builtin().Find(call.name(), call.name_loc());
  if (!def.ok()) return def.status();
  auto operands = CallOperands(**def, call);
  if (!operands.ok()) return operands.status();
  std::vector<Node*> values;
  for (LibOperand& operand : *operands) {
    if (operand.kind != LibOperandKind::kValue) continue;
    if (auto status = DescribeValue(*operand.node, operand); !status.ok()) {
      return status;
    }
    values.push_back(const_cast<Node*>(operand.node));
  }
  auto instance = SelectDefinition(**def, call, *operands);
  if (!instance.ok()) return instance.status();
  Node* result = InstantiateBody(module, *instance, call.loc());
  // The innermost lam binds the last value; value i lies under the i lams
  // that bind the ones before it. A value that costs nothing to compute is
  // substituted instead (beta reduction).
  for (size_t i = values.size(); i-- > 0;) {
    Node* value = values[i];
    module.Detach(value);
    Shift(*value, static_cast<int64_t>(i));
    if (IsSubstitutable(*value)) {
      result = Instantiate(module, result, *value);
      continue;
    }
    Node* lam = module.Create(Op::kLam, call.loc());
    module.Append(lam, result);
    Node* app = module.Create(Op::kApp, call.loc());
    module.Append(app, lam);
    module.Append(app, value);
    result = app;
  }
  module.Replace(&call, result);
  return absl::OkStatus();
}

}  // namespace tessel::ir
