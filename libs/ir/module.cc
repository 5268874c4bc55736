#include "libs/ir/module.h"

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/sexpr/printer.h"
#include "libs/sexpr/reader.h"

namespace tessel {
namespace {

bool IsGlobalName(const Sexpr& s) {
  return s.is_symbol() && s.text().size() > 1 && s.text()[0] == '@';
}

bool IsLocalName(const Sexpr& s) {
  return s.is_symbol() && !s.text().empty() && s.text()[0] != '@' &&
         s.text()[0] != '%' && s.text()[0] != ':';
}

absl::Status ExpectGlobalName(const Sexpr& form, absl::string_view what) {
  if (form.size() < 2 || !IsGlobalName(form[1])) {
    return ErrorAt(form.size() < 2 ? form.loc() : form[1].loc(),
                   absl::StrCat("expected the name of the ", what,
                                " (a symbol starting with '@')"));
  }
  return absl::OkStatus();
}

absl::StatusOr<Param> ParseParam(const Sexpr& decl) {
  if (!decl.is_list() || decl.size() < 2 || !decl[0].is_symbol() ||
      !IsLocalName(decl[1])) {
    return ErrorAt(decl.loc(),
                   "expected a parameter: (size N), (index N), (bool N), "
                   "(stride N) or (in|out|inout NAME TYPE [@MEM])");
  }
  Param param;
  param.name = decl[1].text();
  param.decl = &decl;
  absl::string_view kind = decl[0].text();
  if (auto control = ParseControlType(kind)) {
    if (decl.size() != 2) {
      return ErrorAt(decl[2].loc(),
                     absl::StrCat("a ", kind, " parameter takes only a name"));
    }
    param.control = *control;
    param.kind = *control == ControlType::kSize    ? ParamKind::kSize
                 : *control == ControlType::kIndex ? ParamKind::kIndex
                 : *control == ControlType::kBool  ? ParamKind::kBool
                                                   : ParamKind::kStride;
    return param;
  }
  if (kind == "in") {
    param.kind = ParamKind::kIn;
  } else if (kind == "out") {
    param.kind = ParamKind::kOut;
  } else if (kind == "inout") {
    param.kind = ParamKind::kInOut;
  } else {
    return ErrorAt(decl[0].loc(),
                   absl::StrCat("unknown parameter kind '", kind,
                                "'; expected size, index, bool, stride, in, "
                                "out or inout"));
  }
  if (decl.size() < 3 || decl.size() > 4) {
    return ErrorAt(decl.loc(),
                   absl::StrCat("expected (", kind, " NAME TYPE [@MEM])"));
  }
  auto type = ParseDataType(decl[2]);
  if (!type.ok()) return type.status();
  param.type = *std::move(type);
  if (decl.size() == 4) {
    if (!IsGlobalName(decl[3])) {
      return ErrorAt(decl[3].loc(), "expected a memory name such as @DRAM");
    }
    param.memory = decl[3].text();
  }
  return param;
}

absl::Status ParseParams(const Sexpr& list, std::vector<Param>& params) {
  if (!list.is_list() || !list.head().empty()) {
    return ErrorAt(list.loc(), "expected a parameter list");
  }
  for (const Sexpr& decl : list.items()) {
    auto param = ParseParam(decl);
    if (!param.ok()) return param.status();
    for (const Param& earlier : params) {
      if (earlier.name == param->name) {
        return ErrorAt(decl.loc(), absl::StrCat("parameter '", param->name,
                                                "' is declared twice"));
      }
    }
    params.push_back(*std::move(param));
  }
  return absl::OkStatus();
}

absl::StatusOr<Procedure> ParseProcedure(const Sexpr& form) {
  bool is_instr = form.is_form("instr");
  if (auto status = ExpectGlobalName(form, form.head()); !status.ok()) {
    return status;
  }
  Procedure proc;
  proc.name = form[1].text();
  proc.is_instr = is_instr;
  proc.form = &form;
  if (form.size() < 3) {
    return ErrorAt(form.loc(), absl::StrCat("expected (", form.head(),
                                            " @NAME (PARAM...) ...)"));
  }
  if (auto status = ParseParams(form[2], proc.params); !status.ok()) {
    return status;
  }
  size_t next = 3;
  if (is_instr) {
    if (form.size() < 4 || !form[3].is_form("c") || form[3].size() != 2 ||
        !form[3][1].is_string()) {
      return ErrorAt(form.size() < 4 ? form.loc() : form[3].loc(),
                     "an instr needs its C template: (c \"...\")");
    }
    proc.c_template = form[3][1].text();
    next = 4;
  }
  bool in_preamble = true;
  for (size_t i = next; i < form.size(); ++i) {
    const Sexpr& stmt = form[i];
    if (stmt.is_form("assert")) {
      if (!in_preamble) {
        return ErrorAt(stmt.loc(),
                       "assert is a precondition: it must come before the "
                       "other statements");
      }
      if (stmt.size() != 2) {
        return ErrorAt(stmt.loc(), "expected (assert COND)");
      }
      proc.asserts.push_back(&stmt);
      continue;
    }
    in_preamble = false;
    proc.body.push_back(&stmt);
  }
  return proc;
}

absl::Status ParseNamedTypes(const Sexpr& list, absl::string_view what,
                             std::vector<NamedType>& out) {
  if (!list.is_list() || !list.head().empty()) {
    return ErrorAt(list.loc(), absl::StrCat("expected a list of ", what,
                                            ": ((NAME TYPE)...)"));
  }
  for (const Sexpr& decl : list.items()) {
    if (!decl.is_list() || decl.size() != 2 || !IsLocalName(decl[0])) {
      return ErrorAt(decl.loc(),
                     absl::StrCat("expected (NAME TYPE) in the ", what));
    }
    auto type = ParseDataType(decl[1]);
    if (!type.ok()) return type.status();
    if (type->is_window) {
      return ErrorAt(decl[1].loc(), "windows exist only at the loop level");
    }
    out.push_back(NamedType{decl[0].text(), *std::move(type), &decl});
  }
  return absl::OkStatus();
}

absl::StatusOr<Function> ParseFunction(const Sexpr& form) {
  if (auto status = ExpectGlobalName(form, "function"); !status.ok()) {
    return status;
  }
  if (form.size() != 5) {
    return ErrorAt(form.loc(),
                   "expected (func @NAME (PARAM...) (RESULT...) TERM)");
  }
  Function func;
  func.name = form[1].text();
  func.form = &form;
  func.term = &form[4];
  if (auto status = ParseNamedTypes(form[2], "parameters", func.params);
      !status.ok()) {
    return status;
  }
  if (auto status = ParseNamedTypes(form[3], "results", func.results);
      !status.ok()) {
    return status;
  }
  if (func.results.empty()) {
    return ErrorAt(form[3].loc(), "a function needs at least one result");
  }
  return func;
}

absl::StatusOr<Memory> ParseMemory(const Sexpr& form) {
  if (auto status = ExpectGlobalName(form, "memory"); !status.ok()) {
    return status;
  }
  Memory memory;
  memory.name = form[1].text();
  memory.form = &form;
  bool seen_alloc = false;
  for (size_t i = 2; i < form.size(); ++i) {
    const Sexpr& clause = form[i];
    if ((clause.is_form("alloc") || clause.is_form("free")) &&
        clause.size() == 2 && clause[1].is_string()) {
      (clause.is_form("alloc") ? memory.alloc_template : memory.free_template) =
          clause[1].text();
      seen_alloc |= clause.is_form("alloc");
    } else if (clause.is_form("addressable") && clause.size() == 2 &&
               (clause[1].is_symbol("true") || clause[1].is_symbol("false"))) {
      memory.addressable = clause[1].is_symbol("true");
    } else {
      return ErrorAt(clause.loc(),
                     "expected (alloc \"...\"), (free \"...\") or "
                     "(addressable true|false)");
    }
  }
  if (!seen_alloc) {
    return ErrorAt(form.loc(), "a memory needs an (alloc \"...\") template");
  }
  return memory;
}

absl::StatusOr<Config> ParseConfig(const Sexpr& form) {
  if (auto status = ExpectGlobalName(form, "configuration"); !status.ok()) {
    return status;
  }
  Config config;
  config.name = form[1].text();
  config.form = &form;
  for (size_t i = 2; i < form.size(); ++i) {
    const Sexpr& field = form[i];
    if (!field.is_list() || field.size() != 2 || !IsLocalName(field[0]) ||
        !field[1].is_symbol() ||
        (!ParseControlType(field[1].text()) &&
         !ParseElemType(field[1].text()))) {
      return ErrorAt(field.loc(),
                     "expected a field (NAME TYPE) with a control or element "
                     "type");
    }
    if (config.FindField(field[0].text()) != nullptr) {
      return ErrorAt(field.loc(), absl::StrCat("field '", field[0].text(),
                                               "' is declared twice"));
    }
    config.fields.push_back(ConfigField{field[0].text(), &field[1]});
  }
  return config;
}

Memory Dram() {
  Memory dram;
  dram.name = std::string(kDefaultMemory);
  dram.alloc_template = "{type} *{name} = malloc({size} * sizeof({type}));";
  dram.free_template = "free({name});";
  return dram;
}

}  // namespace

const Param* Procedure::FindParam(absl::string_view name) const {
  for (const Param& param : params) {
    if (param.name == name) return &param;
  }
  return nullptr;
}

const ConfigField* Config::FindField(absl::string_view name) const {
  for (const ConfigField& field : fields) {
    if (field.name == name) return &field;
  }
  return nullptr;
}

absl::StatusOr<Module> Module::Build(std::vector<Sexpr> forms,
                                     SourceRef source) {
  Module module;
  module.forms_ = std::make_shared<const std::vector<Sexpr>>(std::move(forms));
  module.source_ = std::move(source);
  module.memories_.push_back(Dram());
  module.memory_index_[kDefaultMemory] = 0;
  absl::flat_hash_map<std::string, const Sexpr*> declared;
  for (const Sexpr& form : *module.forms_) {
    absl::string_view head = form.head();
    if (head != "proc" && head != "instr" && head != "func" &&
        head != "memory" && head != "config") {
      return ErrorAt(form.loc(),
                     "expected a top-level form: func, proc, instr, memory "
                     "or config");
    }
    if (auto status = ExpectGlobalName(form, head); !status.ok()) {
      return status;
    }
    const std::string& name = form[1].text();
    if (name == kDefaultMemory || declared.contains(name)) {
      return ErrorAt(form[1].loc(),
                     absl::StrCat("'", name, "' is already declared"));
    }
    declared[name] = &form;
    if (head == "proc" || head == "instr") {
      auto proc = ParseProcedure(form);
      if (!proc.ok()) return proc.status();
      module.procedure_index_[name] = module.procedures_.size();
      module.procedures_.push_back(*std::move(proc));
    } else if (head == "func") {
      auto func = ParseFunction(form);
      if (!func.ok()) return func.status();
      module.function_index_[name] = module.functions_.size();
      module.functions_.push_back(*std::move(func));
    } else if (head == "memory") {
      auto memory = ParseMemory(form);
      if (!memory.ok()) return memory.status();
      module.memory_index_[name] = module.memories_.size();
      module.memories_.push_back(*std::move(memory));
    } else {
      auto config = ParseConfig(form);
      if (!config.ok()) return config.status();
      module.config_index_[name] = module.configs_.size();
      module.configs_.push_back(*std::move(config));
    }
  }
  return module;
}

namespace {

template <typename T>
const T* Lookup(const absl::flat_hash_map<std::string, size_t>& index,
                const std::vector<T>& items, absl::string_view name) {
  auto it = index.find(name);
  return it == index.end() ? nullptr : &items[it->second];
}

}  // namespace

const Procedure* Module::FindProcedure(absl::string_view name) const {
  return Lookup(procedure_index_, procedures_, name);
}
const Function* Module::FindFunction(absl::string_view name) const {
  return Lookup(function_index_, functions_, name);
}
const Memory* Module::FindMemory(absl::string_view name) const {
  return Lookup(memory_index_, memories_, name);
}
const Config* Module::FindConfig(absl::string_view name) const {
  return Lookup(config_index_, configs_, name);
}

namespace {

void CollectCallees(const Sexpr& node,
                    absl::flat_hash_set<std::string>& callees) {
  if (!node.is_list()) return;
  if (node.is_form("call") && node.size() >= 2 && node[1].is_symbol()) {
    callees.insert(node[1].text());
  }
  for (const Sexpr& item : node.items()) CollectCallees(item, callees);
}

}  // namespace

absl::StatusOr<Entry> FindEntry(const Module& module,
                                absl::string_view requested) {
  Location where{module.source(), 0, 0};
  Entry entry;
  if (!requested.empty()) {
    std::string name(requested);
    if (name[0] != '@') name.insert(0, "@");
    entry.procedure = module.FindProcedure(name);
    entry.function = module.FindFunction(name);
    if (entry.procedure != nullptr && entry.procedure->is_instr) {
      return ErrorAt(where,
                     absl::StrCat("'", name, "' is an instr, not an entry"));
    }
    if (entry.procedure == nullptr && entry.function == nullptr) {
      return ErrorAt(where, absl::StrCat("no proc or func named '", name, "'"));
    }
    return entry;
  }
  absl::flat_hash_set<std::string> callees;
  for (const Procedure& proc : module.procedures()) {
    CollectCallees(*proc.form, callees);
  }
  std::vector<std::string> candidates;
  for (const Procedure& proc : module.procedures()) {
    if (proc.is_instr || callees.contains(proc.name)) continue;
    entry.procedure = &proc;
    candidates.push_back(proc.name);
  }
  for (const Function& func : module.functions()) {
    entry.function = &func;
    candidates.push_back(func.name);
  }
  if (candidates.size() != 1) {
    return ErrorAt(where,
                   candidates.empty()
                       ? std::string("the module has no proc or func to run")
                       : absl::StrCat("the module has several entries (",
                                      absl::StrJoin(candidates, ", "),
                                      "); choose one with --entry"));
  }
  if (entry.function != nullptr) entry.procedure = nullptr;
  return entry;
}

absl::StatusOr<Module> ReadModule(const SourceRef& source) {
  auto forms = ReadSexprs(source);
  if (!forms.ok()) return forms.status();
  if (forms->empty()) {
    return ErrorAt(Location{source, 0, 0}, "the module is empty");
  }
  return Module::Build(*std::move(forms), source);
}

std::string PrintModule(const Module& module) {
  return PrintForms(module.forms());
}

}  // namespace tessel
