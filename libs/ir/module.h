// A TIR module: its top-level forms and their signatures, parsed once so that
// every tool looks procedures, functions, memories and configurations up by
// name instead of re-reading S-expressions. Building a Module checks the
// structure of each top-level form; the verifier (verifier.h) checks bodies.
#ifndef TESSEL_LIBS_IR_MODULE_H_
#define TESSEL_LIBS_IR_MODULE_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "libs/ir/types.h"
#include "libs/sexpr/sexpr.h"
#include "libs/support/source.h"

namespace tessel {

inline constexpr absl::string_view kDefaultMemory = "@DRAM";

enum class ParamKind { kSize, kIndex, kBool, kStride, kIn, kOut, kInOut };

// One parameter of a `proc` or `instr`.
struct Param {
  ParamKind kind;
  std::string name;
  ControlType control = ControlType::kIndex;  // for control parameters
  DataType type;                              // for data parameters
  std::string memory = std::string(kDefaultMemory);
  const Sexpr* decl = nullptr;

  bool is_data() const {
    return kind == ParamKind::kIn || kind == ParamKind::kOut ||
           kind == ParamKind::kInOut;
  }
  bool is_read() const {
    return kind == ParamKind::kIn || kind == ParamKind::kInOut;
  }
  bool is_written() const {
    return kind == ParamKind::kOut || kind == ParamKind::kInOut;
  }
};

// A `proc` or an `instr`.
struct Procedure {
  std::string name;  // with its '@'
  bool is_instr = false;
  std::vector<Param> params;
  std::string c_template;             // instr only
  std::vector<const Sexpr*> asserts;  // the leading (assert COND) forms
  std::vector<const Sexpr*> body;     // the other statements
  const Sexpr* form = nullptr;

  const Param* FindParam(absl::string_view name) const;
};

// A named, typed value of a tensor-level function: a parameter or result.
struct NamedType {
  std::string name;
  DataType type;
  const Sexpr* decl = nullptr;
};

// A tensor-level `func`.
struct Function {
  std::string name;
  std::vector<NamedType> params;
  std::vector<NamedType> results;
  const Sexpr* term = nullptr;
  const Sexpr* form = nullptr;
};

struct Memory {
  std::string name;
  std::string alloc_template;
  std::string free_template;
  bool addressable = true;
  const Sexpr* form = nullptr;  // null for the predeclared @DRAM
};

struct ConfigField {
  std::string name;
  const Sexpr* type = nullptr;  // a control or element type symbol
};

struct Config {
  std::string name;
  std::vector<ConfigField> fields;
  const Sexpr* form = nullptr;

  const ConfigField* FindField(absl::string_view name) const;
};

class Module {
 public:
  // Parses the signatures of `forms`. Errors point at the offending form.
  static absl::StatusOr<Module> Build(std::vector<Sexpr> forms,
                                      SourceRef source = nullptr);

  const std::vector<Sexpr>& forms() const { return *forms_; }
  // The source the module was read from (null when built in memory); used
  // to name the file in diagnostics without a location.
  const SourceRef& source() const { return source_; }

  // In file order.
  const std::vector<Procedure>& procedures() const { return procedures_; }
  const std::vector<Function>& functions() const { return functions_; }
  const std::vector<Memory>& memories() const { return memories_; }
  const std::vector<Config>& configs() const { return configs_; }

  const Procedure* FindProcedure(absl::string_view name) const;
  const Function* FindFunction(absl::string_view name) const;
  const Memory* FindMemory(absl::string_view name) const;
  const Config* FindConfig(absl::string_view name) const;

 private:
  Module() = default;

  // Forms live behind a pointer so that Procedure and Function pointers into
  // them survive moves of the Module.
  std::shared_ptr<const std::vector<Sexpr>> forms_;
  SourceRef source_;
  std::vector<Procedure> procedures_;
  std::vector<Function> functions_;
  std::vector<Memory> memories_;
  std::vector<Config> configs_;
  absl::flat_hash_map<std::string, size_t> procedure_index_;
  absl::flat_hash_map<std::string, size_t> function_index_;
  absl::flat_hash_map<std::string, size_t> memory_index_;
  absl::flat_hash_map<std::string, size_t> config_index_;
};

// The procedure or function a tool runs or wraps: the one named `requested`
// (with or without its '@') or, when `requested` is empty, the only `proc` or
// `func` that no procedure of the module calls. Instructions are never
// entries. Exactly one of the two pointers is set.
struct Entry {
  const Procedure* procedure = nullptr;
  const Function* function = nullptr;

  const std::string& name() const {
    return procedure != nullptr ? procedure->name : function->name;
  }
};
absl::StatusOr<Entry> FindEntry(const Module& module,
                                absl::string_view requested);

// Reads and builds a module from source text.
absl::StatusOr<Module> ReadModule(const SourceRef& source);

// Prints a module in canonical form.
std::string PrintModule(const Module& module);

}  // namespace tessel

#endif  // TESSEL_LIBS_IR_MODULE_H_
