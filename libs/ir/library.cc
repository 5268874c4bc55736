// Reading library files (formats/tir/README.md, "Named library calls"):
// first the signatures of every file, so that a body may use any call of
// any library, then the bodies, through the IR reader.
#include "libs/ir/library.h"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "libs/ir/reader.h"
#include "libs/sexpr/printer.h"
#include "libs/sexpr/reader.h"
#include "targets/libraries.h"

namespace tessel::ir {
namespace {

using syntax_internal::IsLocalName;

constexpr absl::string_view kRest = "...";

// A name a parameter or size may have: a local name that is no operator
// and, but for a rest size's "...", has no '.'.
bool IsParameterName(const Sexpr& item) {
  if (!IsLocalName(item) || FindOp(item.text())) return false;
  absl::string_view name = item.text();
  if (absl::EndsWith(name, kRest)) name.remove_suffix(kRest.size());
  return !name.empty() && !absl::StrContains(name, '.');
}

absl::string_view KindWord(LibOperandKind kind) {
  switch (kind) {
    case LibOperandKind::kKeyword:
      return "a keyword";
    case LibOperandKind::kInt:
      return "an integer";
    case LibOperandKind::kShape:
      return "a shape";
    case LibOperandKind::kValue:
      return "a value";
  }
  return "?";
}

}  // namespace

std::string JoinWords(const std::vector<std::string>& words,
                      absl::string_view conjunction) {
  if (words.size() <= 1) return absl::StrJoin(words, "");
  return absl::StrCat(absl::StrJoin(words.begin(), words.end() - 1, ", "), " ",
                      conjunction, " ", words.back());
}

size_t LibClause::num_values() const {
  return std::count_if(params.begin(), params.end(), [](const LibParam& p) {
    return p.kind == LibOperandKind::kValue;
  });
}

bool IsRestSize(const Node& size) {
  return size.is(Op::kParam) && absl::EndsWith(size.name(), kRest);
}

std::vector<std::string> Keywords(const Node& call) {
  return absl::StrSplit(call.text(), ' ', absl::SkipEmpty());
}

const std::vector<LibOperandKind>* LibCallDef::Kinds(size_t count) const {
  auto it = kinds_.find(count);
  return it == kinds_.end() ? nullptr : &it->second;
}

std::string LibCallDef::CountError(size_t count) const {
  std::vector<std::string> counts;
  for (const auto& [n, kinds] : kinds_) counts.push_back(absl::StrCat(n));
  bool one = kinds_.size() == 1 && kinds_.begin()->first == 1;
  return absl::StrCat("'", name_, "' takes ", JoinWords(counts, "or"),
                      one ? " operand" : " operands", ", found ", count);
}

bool LibCallDef::TakesKeyword(size_t count, size_t i,
                              absl::string_view word) const {
  return std::any_of(
      clauses_.begin(), clauses_.end(), [&](const LibClause& clause) {
        return clause.params.size() == count && clause.params[i].name == word;
      });
}

std::string LibCallDef::OperandError(size_t count, size_t i,
                                     absl::string_view found) const {
  std::string expected;
  switch (kinds_.at(count)[i]) {
    case LibOperandKind::kKeyword: {
      std::vector<std::string> words;
      for (const LibClause& clause : clauses_) {
        if (clause.params.size() != count) continue;
        const std::string& word = clause.params[i].name;
        if (std::find(words.begin(), words.end(), word) == words.end()) {
          words.push_back(word);
        }
      }
      expected = JoinWords(words, "or");
      break;
    }
    case LibOperandKind::kInt:
      expected = "an integer literal > 0";
      break;
    case LibOperandKind::kShape:
      expected = "(shape N...)";
      break;
    case LibOperandKind::kValue:
      expected = "a term";
      break;
  }
  return absl::StrCat("expected ", expected, " for operand ", i + 1, " of '",
                      name_, "', found '", found, "'");
}

// Reads library files into a Libraries: every signature first, then the
// bodies.
class LibraryReader {
 public:
  explicit LibraryReader(Libraries& libraries) : libraries_(libraries) {}

  absl::Status ReadSignatures(const SourceRef& file);
  // Definitions of a call with as many operands agree on their kinds, so
  // that a call is read before its definition is chosen.
  absl::Status CheckKinds();
  absl::Status ReadBodies();

 private:
  // The names a definition binds: its values and sizes.
  struct Scope {
    absl::flat_hash_map<std::string, Node*> names;
    std::vector<Node*> binders;
  };
  // A body to read once every signature is known.
  struct Pending {
    std::string callee;
    size_t clause;
    Sexpr body;
    std::vector<Node*> binders;
  };

  absl::Status ReadDefinition(absl::string_view library, const Sexpr& form);
  absl::StatusOr<LibParam> ReadParam(const Sexpr& param, Scope& scope);
  // Items `first...` of `list` as dimensions; a rest only last, if allowed.
  absl::Status ReadDims(const Sexpr& list, size_t first, bool rest_allowed,
                        Scope& scope, std::vector<LibDim>& dims);
  // The binder `name` names in `scope` (created when new), a Value or a
  // size Param; an error when it is a name of the other kind.
  absl::StatusOr<Node*> Bind(const Sexpr& name, Op op, Scope& scope);

  Libraries& libraries_;
  std::vector<Pending> pending_;
};

absl::Status LibraryReader::ReadSignatures(const SourceRef& file) {
  auto forms = ReadSexprs(file);
  if (!forms.ok()) return forms.status();
  if (forms->empty() || !(*forms)[0].is_form("library") ||
      (*forms)[0].size() != 2 || !IsLocalName((*forms)[0][1]) ||
      absl::StrContains((*forms)[0][1].text(), '.')) {
    return ErrorAt(forms->empty() ? Location{file, 1, 1} : (*forms)[0].loc(),
                   "a library file starts with (library NAME)");
  }
  const std::string& library = (*forms)[0][1].text();
  std::vector<std::string>& names = libraries_.names_;
  if (std::find(names.begin(), names.end(), library) != names.end()) {
    return ErrorAt((*forms)[0][1].loc(),
                   absl::StrCat("library '", library, "' is defined twice"));
  }
  names.push_back(library);
  for (size_t i = 1; i < forms->size(); ++i) {
    if (auto status = ReadDefinition(library, (*forms)[i]); !status.ok()) {
      return status;
    }
  }
  return absl::OkStatus();
}

absl::Status LibraryReader::ReadDefinition(absl::string_view library,
                                           const Sexpr& form) {
  // A call may share its name with an operator (transpose): its head is
  // LIB.NAME.
  if (!form.is_form("define") || form.size() != 4 || !IsLocalName(form[1]) ||
      absl::StrContains(form[1].text(), '.') || !form[2].is_list() ||
      !form[2].head().empty()) {
    return ErrorAt(form.loc(), "expected (define NAME (PARAM...) TERM)");
  }
  std::string callee = absl::StrCat(library, ".", form[1].text());
  LibCallDef& def = libraries_.calls_[callee];
  def.name_ = callee;
  LibClause clause;
  Scope scope;
  for (const Sexpr& item : form[2].items()) {
    auto param = ReadParam(item, scope);
    if (!param.ok()) return param.status();
    if (param->kind == LibOperandKind::kKeyword && !clause.params.empty() &&
        clause.params.back().kind != LibOperandKind::kKeyword) {
      return ErrorAt(item.loc(), "keyword parameters come first");
    }
    clause.params.push_back(*std::move(param));
  }
  def.clauses_.push_back(std::move(clause));
  pending_.push_back(
      {callee, def.clauses_.size() - 1, form[3], std::move(scope.binders)});
  return absl::OkStatus();
}

absl::StatusOr<LibParam> LibraryReader::ReadParam(const Sexpr& param,
                                                  Scope& scope) {
  LibParam result;
  result.loc = param.loc();
  absl::string_view head = param.head();
  if (head == "key" && param.size() == 2 && IsParameterName(param[1]) &&
      !absl::EndsWith(param[1].text(), kRest)) {
    result.kind = LibOperandKind::kKeyword;
    result.name = param[1].text();
    return result;
  }
  if (head == "int" && param.size() == 2) {
    result.kind = LibOperandKind::kInt;
    if (auto status =
            ReadDims(param, 1, /*rest_allowed=*/false, scope, result.dims);
        !status.ok()) {
      return status;
    }
    if (result.dims[0].size == nullptr) {
      return ErrorAt(param[1].loc(), "expected the name of a size");
    }
    result.name = param[1].text();
    result.binder = result.dims[0].size;
    return result;
  }
  if (head == "shape") {
    result.kind = LibOperandKind::kShape;
    if (auto status =
            ReadDims(param, 1, /*rest_allowed=*/true, scope, result.dims);
        !status.ok()) {
      return status;
    }
    return result;
  }
  if (head == "value" && param.size() >= 2) {
    result.kind = LibOperandKind::kValue;
    result.name = param[1].text();
    if (absl::EndsWith(result.name, kRest)) {
      return ErrorAt(param[1].loc(), "a value's name cannot end in '...'");
    }
    auto binder = Bind(param[1], Op::kValue, scope);
    if (!binder.ok()) return binder.status();
    result.binder = *binder;
    if (param.size() == 3 && param[2].is_form("access")) {
      const Sexpr& access = param[2];
      if (access.size() != 3 || !access[1].is_list() || !access[2].is_list()) {
        return ErrorAt(access.loc(),
                       "expected (access (DIM...) (DIM...)): the access and "
                       "compute dimensions");
      }
      for (int part = 1; part <= 2; ++part) {
        if (auto status = ReadDims(access[part], 0, /*rest_allowed=*/false,
                                   scope, result.dims);
            !status.ok()) {
          return status;
        }
        if (part == 1) result.split = static_cast<int>(result.dims.size());
      }
      return result;
    }
    if (auto status =
            ReadDims(param, 2, /*rest_allowed=*/true, scope, result.dims);
        !status.ok()) {
      return status;
    }
    return result;
  }
  return ErrorAt(param.loc(),
                 "expected a parameter: (key WORD), (int SIZE), (shape "
                 "DIM...), (value NAME DIM...) or (value NAME (access "
                 "(DIM...) (DIM...)))");
}

absl::Status LibraryReader::ReadDims(const Sexpr& list, size_t first,
                                     bool rest_allowed, Scope& scope,
                                     std::vector<LibDim>& dims) {
  for (size_t i = first; i < list.size(); ++i) {
    const Sexpr& item = list[i];
    if (item.is_int()) {
      if (item.int_value() <= 0) {
        return ErrorAt(item.loc(), "an extent must be > 0");
      }
      dims.push_back({nullptr, item.int_value()});
      continue;
    }
    if (!IsParameterName(item)) {
      return ErrorAt(item.loc(),
                     absl::StrCat("expected a size name or an integer "
                                  "literal > 0, found '",
                                  PrintFlat(item), "'"));
    }
    if (absl::EndsWith(item.text(), kRest) &&
        (!rest_allowed || i + 1 != list.size())) {
      return ErrorAt(item.loc(),
                     absl::StrCat("'", item.text(),
                                  "' stands for the rest of the dimensions: "
                                  "it may only end the shape of a value or "
                                  "of (shape ...)"));
    }
    auto size = Bind(item, Op::kParam, scope);
    if (!size.ok()) return size.status();
    dims.push_back({*size, 0});
  }
  return absl::OkStatus();
}

absl::StatusOr<Node*> LibraryReader::Bind(const Sexpr& name, Op op,
                                          Scope& scope) {
  auto it = scope.names.find(name.text());
  if (it != scope.names.end()) {
    if (it->second->op() == op && op == Op::kParam) return it->second;
    return ErrorAt(name.loc(),
                   absl::StrCat("'", name.text(), "' is bound twice"));
  }
  Node* binder = libraries_.module_.Create(op, name.loc());
  binder->set_name(name.text());
  binder->set_name_loc(name.loc());
  if (op == Op::kParam) {
    binder->set_param_kind(ParamKind::kSize);
    binder->set_declared_type(Type::Control(ControlType::kSize));
  }
  scope.names.emplace(name.text(), binder);
  scope.binders.push_back(binder);
  return binder;
}

absl::Status LibraryReader::CheckKinds() {
  for (auto& [callee, def] : libraries_.calls_) {
    for (const LibClause& clause : def.clauses_) {
      std::vector<LibOperandKind> kinds;
      for (const LibParam& param : clause.params) kinds.push_back(param.kind);
      auto [it, inserted] = def.kinds_.emplace(kinds.size(), kinds);
      for (size_t i = 0; !inserted && i < kinds.size(); ++i) {
        if (kinds[i] == it->second[i]) continue;
        return ErrorAt(clause.params[i].loc,
                       absl::StrCat("operand ", i + 1,
                                    " of this definition "
                                    "of '",
                                    callee, "' is ", KindWord(kinds[i]),
                                    ", but ", KindWord(it->second[i]),
                                    " in an earlier one with as many "
                                    "operands"));
      }
    }
  }
  return absl::OkStatus();
}

absl::Status LibraryReader::ReadBodies() {
  for (Pending& pending : pending_) {
    LibClause& clause =
        libraries_.calls_[pending.callee].clauses_[pending.clause];
    syntax_internal::Reader reader(libraries_.module_, &libraries_);
    auto body = reader.ReadDefinitionBody(pending.body, pending.binders);
    if (!body.ok()) return body.status();
    clause.body = *body;
  }
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<const Libraries>> Libraries::Read(
    absl::Span<const SourceRef> files) {
  std::unique_ptr<Libraries> libraries(new Libraries);
  LibraryReader reader(*libraries);
  for (const SourceRef& file : files) {
    if (auto status = reader.ReadSignatures(file); !status.ok()) return status;
  }
  if (auto status = reader.CheckKinds(); !status.ok()) return status;
  if (auto status = reader.ReadBodies(); !status.ok()) return status;
  return libraries;
}

const Libraries& Libraries::Builtin() {
  static const Libraries* builtin = [] {
    std::vector<SourceRef> files;
    for (const targets::EmbeddedFile& file : targets::LibraryFiles()) {
      files.push_back(MakeSource(file.path, file.text));
    }
    auto libraries = Read(files);
    if (!libraries.ok()) {
      // The files are part of the program: a defect every test exposes.
      std::cerr << libraries.status().message() << "\n";
      std::abort();
    }
    return libraries->release();
  }();
  return *builtin;
}

absl::StatusOr<const LibCallDef*> Libraries::Find(absl::string_view callee,
                                                  const Location& at) const {
  auto it = calls_.find(callee);
  if (it != calls_.end()) return &it->second;
  absl::string_view library = callee.substr(0, callee.find('.'));
  if (std::find(names_.begin(), names_.end(), library) == names_.end()) {
    std::vector<std::string> names = names_;
    std::sort(names.begin(), names.end());
    return ErrorAt(
        at, absl::StrCat("unknown library '", library, "' in '", callee,
                         "'; the libraries are ", JoinWords(names, "and")));
  }
  std::vector<std::string> calls;
  std::string prefix = absl::StrCat(library, ".");
  for (const auto& [name, def] : calls_) {
    if (absl::StartsWith(name, prefix)) {
      calls.push_back(name.substr(prefix.size()));
    }
  }
  return ErrorAt(at, absl::StrCat("library '", library, "' has no call '",
                                  callee.substr(prefix.size()), "'; it has ",
                                  JoinWords(calls, "and")));
}

}  // namespace tessel::ir
