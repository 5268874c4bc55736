#include "libs/emitc/harness.h"

#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/emitc/c_names.h"
#include "libs/emitc/expr_emitter.h"
#include "libs/emitc/npy_runtime.h"
#include "libs/emitc/proc_emitter.h"
#include "libs/emitc/scope.h"
#include "libs/npy/npy.h"
#include "libs/sexpr/printer.h"

namespace tessel::emitc {
namespace {

// The value of a dimension (a control expression of sizes) once the sizes
// are bound, with the TIR meaning of `/` and `%` (floor).
absl::StatusOr<int64_t> EvaluateDimension(
    const Sexpr& expr, const absl::flat_hash_map<std::string, int64_t>& sizes) {
  if (expr.is_int()) return expr.int_value();
  if (expr.is_symbol()) {
    auto it = sizes.find(expr.text());
    if (it != sizes.end()) return it->second;
    return ErrorAt(expr.loc(), absl::StrCat("'", expr.text(),
                                            "' is not a size of the entry"));
  }
  absl::string_view head = expr.head();
  std::vector<int64_t> operands;
  for (size_t i = 1; i < expr.size(); ++i) {
    auto value = EvaluateDimension(expr[i], sizes);
    if (!value.ok()) return value.status();
    operands.push_back(*value);
  }
  int64_t result = 0;
  bool overflow = false;
  if (operands.size() == 1 && head == "neg") {
    overflow = __builtin_sub_overflow(int64_t{0}, operands[0], &result);
  } else if (operands.size() == 2 && head == "+") {
    overflow = __builtin_add_overflow(operands[0], operands[1], &result);
  } else if (operands.size() == 2 && head == "-") {
    overflow = __builtin_sub_overflow(operands[0], operands[1], &result);
  } else if (operands.size() == 2 && head == "*") {
    overflow = __builtin_mul_overflow(operands[0], operands[1], &result);
  } else if (operands.size() == 2 && (head == "/" || head == "%") &&
             operands[1] > 0) {
    int64_t quotient = operands[0] / operands[1];
    int64_t remainder = operands[0] % operands[1];
    if (remainder < 0) {
      quotient -= 1;
      remainder += operands[1];
    }
    result = head == "/" ? quotient : remainder;
  } else if (operands.size() == 2 && (head == "min" || head == "max")) {
    result = (head == "min") == (operands[0] < operands[1]) ? operands[0]
                                                            : operands[1];
  } else {
    return ErrorAt(expr.loc(), absl::StrCat("cannot evaluate the dimension '",
                                            PrintFlat(expr), "'"));
  }
  if (overflow) {
    return ErrorAt(expr.loc(), absl::StrCat("the dimension '", PrintFlat(expr),
                                            "' overflows"));
  }
  return result;
}

// A data parameter of the entry, held in a dense buffer of main.
struct Buffer {
  const Param* param;
  const Binding* binding;
  std::string shape_name;  // the static array holding its shape, if any
  std::vector<int64_t> shape;
  int64_t count = 1;
};

class HarnessWriter {
 public:
  HarnessWriter(const Module& module, const GlobalNames& globals,
                const Procedure& entry, Needs& needs)
      : globals_(globals),
        entry_(entry),
        needs_(needs),
        scope_(globals.taken),
        expr_(module, globals, scope_) {}

  absl::StatusOr<std::string> Write(
      const std::map<std::string, int64_t>& sizes);

 private:
  absl::Status BindSize(const Param& param,
                        const std::map<std::string, int64_t>& sizes);
  absl::Status BindData(const Param& param);
  void AddLine(std::string text) { body_.push_back(std::move(text)); }
  std::string ReadCall(const Buffer& buffer) const;
  std::string WriteCall(const Buffer& buffer) const;

  const GlobalNames& globals_;
  const Procedure& entry_;
  Needs& needs_;
  Scope scope_;
  ExprEmitter expr_;
  absl::flat_hash_map<std::string, int64_t> size_values_;
  std::vector<Buffer> buffers_;
  std::vector<CExpr> arguments_;
  std::vector<std::string> body_;
};

absl::Status HarnessWriter::BindSize(
    const Param& param, const std::map<std::string, int64_t>& sizes) {
  auto it = sizes.find(param.name);
  if (it == sizes.end()) {
    return ErrorAt(
        param.decl->loc(),
        absl::StrCat("size parameter '", param.name, "' of ", entry_.name,
                     " is not bound: pass -D ", param.name, "=VALUE"));
  }
  if (it->second <= 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "-D ", param.name, "=", it->second, ": a size must be positive"));
  }
  Binding binding;
  binding.kind = BindingKind::kControl;
  binding.non_negative = true;
  const Binding* bound = scope_.Bind(param.name, binding);
  size_values_[param.name] = it->second;
  AddLine(
      absl::StrCat("const int64_t ", bound->c_name, " = ", it->second, ";"));
  arguments_.push_back(Primary(bound->c_name));
  return absl::OkStatus();
}

absl::Status HarnessWriter::BindData(const Param& param) {
  if (param.memory != kDefaultMemory) {
    return ErrorAt(
        param.decl->loc(),
        absl::StrCat("parameter '", param.name, "' of ", entry_.name, " is in ",
                     param.memory, "; the harness passes only @DRAM data"));
  }
  Buffer buffer;
  buffer.param = &param;
  for (const Sexpr& dim : param.type.dims) {
    auto value = EvaluateDimension(dim, size_values_);
    if (!value.ok()) return value.status();
    if (*value <= 0) {
      return ErrorAt(dim.loc(), absl::StrCat("dimension '", PrintFlat(dim),
                                             "' of '", param.name, "' is ",
                                             *value, ", not positive"));
    }
    if (__builtin_mul_overflow(buffer.count, *value, &buffer.count)) {
      return ErrorAt(param.decl->loc(),
                     absl::StrCat("'", param.name, "' has too many elements"));
    }
    buffer.shape.push_back(*value);
  }
  int64_t bytes;
  if (__builtin_mul_overflow(buffer.count, ElemTypeBytes(param.type.elem),
                             &bytes)) {
    return ErrorAt(param.decl->loc(),
                   absl::StrCat("'", param.name, "' has too many elements"));
  }
  // main holds every tensor densely, whatever the parameter's type.
  Binding binding;
  binding.elem = param.type.elem;
  binding.memory = param.memory;
  binding.by_pointer = true;
  binding.kind =
      param.type.is_scalar() ? BindingKind::kScalar : BindingKind::kBuffer;
  binding.is_tensor = !param.type.is_scalar();
  Binding* bound = scope_.Bind(param.name, binding);
  std::vector<CExpr> dims;
  for (int64_t extent : buffer.shape) dims.push_back(IntLiteral(extent));
  bound->view = WholeView(Primary(bound->c_name), RowMajorStrides(dims), bound);
  buffer.binding = bound;
  if (!buffer.shape.empty()) {
    buffer.shape_name = absl::StrCat(kRuntimePrefix, "shape_", bound->c_name);
  }
  if (param.type.is_window) {
    arguments_.push_back(
        ExprEmitter::WindowValue(bound->view, WindowTypeOf(param)));
  } else {
    arguments_.push_back(Primary(bound->c_name));
  }
  buffers_.push_back(std::move(buffer));
  return absl::OkStatus();
}

std::string HarnessWriter::ReadCall(const Buffer& buffer) const {
  return absl::StrCat(buffer.binding->c_name, " = tsl_read_npy(tsl_inputs, ",
                      CStringLiteral(buffer.param->name), ", \"",
                      NpyDescr(buffer.param->type.elem), "\", sizeof(",
                      ElemTypeCName(buffer.param->type.elem), "), ",
                      buffer.shape.size(), ", ",
                      buffer.shape.empty() ? "NULL" : buffer.shape_name, ");");
}

std::string HarnessWriter::WriteCall(const Buffer& buffer) const {
  return absl::StrCat(
      "if (!tsl_write_npy(tsl_outputs, ", CStringLiteral(buffer.param->name),
      ", \"", NpyDescr(buffer.param->type.elem), "\", sizeof(",
      ElemTypeCName(buffer.param->type.elem), "), ", buffer.shape.size(), ", ",
      buffer.shape.empty() ? "NULL" : buffer.shape_name, ", ",
      buffer.binding->c_name, ")) goto done;");
}

absl::StatusOr<std::string> HarnessWriter::Write(
    const std::map<std::string, int64_t>& sizes) {
  for (const auto& [name, value] : sizes) {
    const Param* param = entry_.FindParam(name);
    if (param == nullptr || param->kind != ParamKind::kSize) {
      return absl::InvalidArgumentError(
          absl::StrCat("-D ", name, ": ", entry_.name,
                       " has no size parameter '", name, "'"));
    }
  }
  for (const Param& param : entry_.params) {
    absl::Status status;
    if (param.kind == ParamKind::kSize) {
      status = BindSize(param, sizes);
    } else if (param.is_data()) {
      status = BindData(param);
    } else {
      status = ErrorAt(
          param.decl->loc(),
          absl::StrCat("the harness cannot pass ",
                       ControlTypeName(param.control), " parameter '",
                       param.name, "' of ", entry_.name,
                       "; it passes only sizes (-D) and data (.npy files)"));
    }
    if (!status.ok()) return status;
  }
  // The kernel assumes its preconditions; the harness checks them.
  for (const Sexpr* assertion : entry_.asserts) {
    auto condition = expr_.Control((*assertion)[1]);
    if (!condition.ok()) return condition.status();
    Scope::Commit(condition->uses, needs_);
    AddLine(absl::StrCat("if (", Unary("!", *condition).text, ") {"));
    AddLine(absl::StrCat("  fprintf(stderr, \"%s: %s\\n\", tsl_program, ",
                         CStringLiteral(absl::StrCat(
                             "the precondition ", PrintFlat((*assertion)[1]),
                             " of ", entry_.name, " does not hold")),
                         ");"));
    AddLine("  return 1;");
    AddLine("}");
  }
  RuntimeParts parts;
  for (const Buffer& buffer : buffers_) {
    parts.read |= buffer.param->is_read();
    parts.write |= buffer.param->is_written();
    parts.allocate |= !buffer.param->is_read();
    if (!buffer.shape.empty()) {
      AddLine(absl::StrCat("static const int64_t ", buffer.shape_name, "[",
                           buffer.shape.size(), "] = {",
                           absl::StrJoin(buffer.shape, ", "), "};"));
    }
  }
  CExpr call = Call(globals_.procedures.at(entry_.name), arguments_);
  Scope::Commit(call.uses, needs_);
  if (buffers_.empty()) {
    AddLine(call.text + ";");
    AddLine("return 0;");
  } else {
    AddLine("int tsl_status = 1;");
    for (const Buffer& buffer : buffers_) {
      AddLine(absl::StrCat(ElemTypeCName(buffer.param->type.elem), " *",
                           buffer.binding->c_name, " = NULL;"));
    }
    for (const Buffer& buffer : buffers_) {
      AddLine(buffer.param->is_read()
                  ? ReadCall(buffer)
                  : absl::StrCat(buffer.binding->c_name, " = tsl_allocate(",
                                 buffer.count, ", sizeof(",
                                 ElemTypeCName(buffer.param->type.elem),
                                 "));"));
      AddLine(
          absl::StrCat("if (", buffer.binding->c_name, " == NULL) goto done;"));
    }
    AddLine(call.text + ";");
    if (parts.write)
      AddLine("if (!tsl_make_directories(tsl_outputs)) goto done;");
    for (const Buffer& buffer : buffers_) {
      if (!buffer.param->is_written()) continue;
      AddLine(WriteCall(buffer));
    }
    AddLine("tsl_status = 0;");
    body_.push_back("done:");
    for (const Buffer& buffer : buffers_) {
      AddLine(absl::StrCat("free(", buffer.binding->c_name, ");"));
    }
    AddLine("return tsl_status;");
  }

  std::string text = NpyRuntime(parts);
  absl::StrAppend(&text, "\nint main(int argc, char **argv) {\n",
                  "  const char *tsl_inputs = NULL;\n",
                  "  const char *tsl_outputs = NULL;\n",
                  "  if (!tsl_parse_arguments(argc, argv, ",
                  parts.read ? "true" : "false", ", ",
                  parts.write ? "true" : "false", ",\n",
                  "                           &tsl_inputs, &tsl_outputs)) {\n",
                  "    return 2;\n", "  }\n");
  for (const std::string& line : body_) {
    // Labels sit at the function's indentation.
    absl::StrAppend(&text, line == "done:" ? "" : "  ", line, "\n");
  }
  return text + "}\n";
}

}  // namespace

absl::StatusOr<std::string> EmitHarness(
    const Module& module, const GlobalNames& globals, const Procedure& entry,
    const std::map<std::string, int64_t>& sizes, Needs& needs) {
  return HarnessWriter(module, globals, entry, needs).Write(sizes);
}

}  // namespace tessel::emitc
