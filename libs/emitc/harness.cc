#include "libs/emitc/harness.h"

#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/emitc/c_names.h"
#include "libs/emitc/expr_emitter.h"
#include "libs/emitc/npy_runtime.h"
#include "libs/emitc/params.h"
#include "libs/emitc/scope.h"
#include "libs/ir/forms.h"
#include "libs/ir/syntax.h"
#include "libs/npy/npy.h"
#include "libs/sexpr/printer.h"

namespace tessel::emitc {
namespace {

using SizeValues = absl::flat_hash_map<const ir::Node*, int64_t>;

// The text of a dimension or a precondition, for messages.
std::string DimensionText(const ir::Node& expr) {
  return PrintFlat(ir::WriteNode(expr));
}

// The value of a dimension (a control expression of sizes) once the sizes
// are bound, with the TIR meaning of `/` and `%` (floor).
absl::StatusOr<int64_t> EvaluateDimension(const ir::Node& expr,
                                          const SizeValues& sizes) {
  if (expr.is(ir::Op::kConst)) return expr.int_value();
  if (expr.is(ir::Op::kRef)) {
    auto it = sizes.find(expr.def());
    if (it != sizes.end()) return it->second;
    return ErrorAt(expr.loc(), absl::StrCat("'", expr.name(),
                                            "' is not a size of the entry"));
  }
  std::vector<int64_t> operands;
  for (const ir::Node* operand : expr.operands()) {
    auto value = EvaluateDimension(*operand, sizes);
    if (!value.ok()) return value.status();
    operands.push_back(*value);
  }
  // The op table gives each op its number of operands.
  int64_t result = 0;
  bool overflow = false;
  switch (expr.op()) {
    case ir::Op::kNeg:
      overflow = __builtin_sub_overflow(int64_t{0}, operands[0], &result);
      break;
    case ir::Op::kAdd:
      overflow = __builtin_add_overflow(operands[0], operands[1], &result);
      break;
    case ir::Op::kSub:
      overflow = __builtin_sub_overflow(operands[0], operands[1], &result);
      break;
    case ir::Op::kMul:
      overflow = __builtin_mul_overflow(operands[0], operands[1], &result);
      break;
    case ir::Op::kDiv:
    case ir::Op::kFloorMod: {
      if (operands[1] <= 0) return Unexpected(expr, "a positive divisor");
      int64_t quotient = operands[0] / operands[1];
      int64_t remainder = operands[0] % operands[1];
      if (remainder < 0) {
        quotient -= 1;
        remainder += operands[1];
      }
      result = expr.is(ir::Op::kDiv) ? quotient : remainder;
      break;
    }
    case ir::Op::kMin:
    case ir::Op::kMax:
      result = expr.is(ir::Op::kMin) == (operands[0] < operands[1])
                   ? operands[0]
                   : operands[1];
      break;
    default:
      return ErrorAt(expr.loc(), absl::StrCat("cannot evaluate the dimension '",
                                              DimensionText(expr), "'"));
  }
  if (overflow) {
    return ErrorAt(
        expr.loc(),
        absl::StrCat("the dimension '", DimensionText(expr), "' overflows"));
  }
  return result;
}

// A data parameter of the entry, held in a dense buffer of main.
struct Buffer {
  const ir::Node* param;
  ElemType elem;
  const Binding* binding;
  std::string shape_name;  // the static array holding its shape, if any
  std::vector<int64_t> shape;
};

class HarnessWriter {
 public:
  HarnessWriter(const ir::Module& module, const GlobalNames& globals,
                const ir::Node& entry, Needs& needs)
      : module_(module),
        globals_(globals),
        entry_(entry),
        needs_(needs),
        scope_(globals.taken),
        expr_(globals, scope_) {}

  absl::StatusOr<std::string> Write(
      const std::map<std::string, int64_t>& sizes);

 private:
  absl::Status BindSize(const ir::Node& param,
                        const std::map<std::string, int64_t>& sizes);
  absl::Status BindData(const ir::Node& param);
  void AddLine(std::string text) { body_.push_back(std::move(text)); }
  std::string ReadCall(const Buffer& buffer) const;
  std::string AllocateCall(const Buffer& buffer) const;
  std::string WriteCall(const Buffer& buffer) const;

  const ir::Module& module_;
  const GlobalNames& globals_;
  const ir::Node& entry_;
  Needs& needs_;
  Scope scope_;
  ExprEmitter expr_;
  SizeValues size_values_;
  std::vector<Buffer> buffers_;
  std::vector<CExpr> arguments_;
  std::vector<std::string> body_;
};

absl::Status HarnessWriter::BindSize(
    const ir::Node& param, const std::map<std::string, int64_t>& sizes) {
  const std::string& name = param.name();
  auto it = sizes.find(name);
  if (it == sizes.end()) {
    return ErrorAt(
        param.loc(),
        absl::StrCat("size parameter '", name, "' of ", entry_.name(),
                     " is not bound: pass -D ", name, "=VALUE"));
  }
  if (it->second <= 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "-D ", name, "=", it->second, ": a size must be positive"));
  }
  Binding binding;
  binding.kind = BindingKind::kControl;
  binding.non_negative = true;
  const Binding* bound = scope_.Bind(param, binding);
  size_values_[&param] = it->second;
  AddLine(
      absl::StrCat("const int64_t ", bound->c_name, " = ", it->second, ";"));
  arguments_.push_back(Primary(bound->c_name));
  return absl::OkStatus();
}

absl::Status HarnessWriter::BindData(const ir::Node& param) {
  const ir::Node& memory = ir::MemoryOf(module_, param);
  if (&memory != module_.dram()) {
    return ErrorAt(param.loc(),
                   absl::StrCat("parameter '", param.name(), "' of ",
                                entry_.name(), " is in ", memory.name(),
                                "; the harness passes only @DRAM data"));
  }
  const ir::Type& type = param.declared_type();
  Buffer buffer;
  buffer.param = &param;
  buffer.elem = type.elem();
  // The harness's buffers must fit in memory: emit-c rejects sizes whose
  // byte counts overflow, tsl_allocate those that malloc cannot give.
  int64_t count = 1;
  // A vector parameter is a dense array of its shape too.
  std::vector<ir::Dim> dims;
  if (type.is_shaped() || type.is_vector()) dims = type.dims();
  for (const ir::Dim& dim : dims) {
    int64_t value = dim.value;
    if (!dim.is_constant()) {
      auto evaluated = EvaluateDimension(*dim.expr, size_values_);
      if (!evaluated.ok()) return evaluated.status();
      value = *evaluated;
      if (value <= 0) {
        return ErrorAt(
            dim.expr->loc(),
            absl::StrCat("dimension '", DimensionText(*dim.expr), "' of '",
                         param.name(), "' is ", value, ", not positive"));
      }
    }
    if (__builtin_mul_overflow(count, value, &count)) {
      return ErrorAt(param.loc(), absl::StrCat("'", param.name(),
                                               "' has too many elements"));
    }
    buffer.shape.push_back(value);
  }
  int64_t bytes;
  if (__builtin_mul_overflow(count, ElemTypeBytes(buffer.elem), &bytes)) {
    return ErrorAt(param.loc(),
                   absl::StrCat("'", param.name(), "' has too many elements"));
  }
  // main holds every tensor densely, whatever the parameter's type.
  Binding binding;
  binding.elem = buffer.elem;
  binding.by_pointer = true;
  binding.kind = type.is_elem() ? BindingKind::kScalar : BindingKind::kBuffer;
  binding.is_tensor = !type.is_elem();
  Binding* bound = scope_.Bind(param, binding);
  std::vector<CExpr> extents;
  for (int64_t extent : buffer.shape) extents.push_back(IntLiteral(extent));
  bound->view =
      WholeView(Primary(bound->c_name), RowMajorStrides(extents), extents,
                bound);
  buffer.binding = bound;
  if (!buffer.shape.empty()) {
    buffer.shape_name = absl::StrCat(kRuntimePrefix, "shape_", bound->c_name);
  }
  if (type.kind() == ir::TypeKind::kWindow) {
    arguments_.push_back(
        ExprEmitter::WindowValue(bound->view, WindowTypeOf(param)));
  } else {
    arguments_.push_back(Primary(bound->c_name));
  }
  buffers_.push_back(std::move(buffer));
  return absl::OkStatus();
}

std::string HarnessWriter::ReadCall(const Buffer& buffer) const {
  return absl::StrCat(
      buffer.binding->c_name, " = tsl_read_npy(tsl_inputs, ",
      CStringLiteral(buffer.param->name()), ", \"", NpyDescr(buffer.elem),
      "\", sizeof(", ElemTypeCName(buffer.elem), "), ", buffer.shape.size(),
      ", ", buffer.shape.empty() ? "NULL" : buffer.shape_name, ");");
}

std::string HarnessWriter::AllocateCall(const Buffer& buffer) const {
  return absl::StrCat(buffer.binding->c_name, " = tsl_allocate(",
                      CStringLiteral(buffer.param->name()), ", sizeof(",
                      ElemTypeCName(buffer.elem), "), ", buffer.shape.size(),
                      ", ", buffer.shape.empty() ? "NULL" : buffer.shape_name,
                      ");");
}

std::string HarnessWriter::WriteCall(const Buffer& buffer) const {
  return absl::StrCat("if (!tsl_write_npy(tsl_outputs, ",
                      CStringLiteral(buffer.param->name()), ", \"",
                      NpyDescr(buffer.elem), "\", sizeof(",
                      ElemTypeCName(buffer.elem), "), ", buffer.shape.size(),
                      ", ", buffer.shape.empty() ? "NULL" : buffer.shape_name,
                      ", ", buffer.binding->c_name, ")) goto done;");
}

absl::StatusOr<std::string> HarnessWriter::Write(
    const std::map<std::string, int64_t>& sizes) {
  for (const auto& [name, value] : sizes) {
    const ir::Node* param = ir::FindParam(entry_, name);
    if (param == nullptr || param->param_kind() != ir::ParamKind::kSize) {
      return absl::InvalidArgumentError(
          absl::StrCat("-D ", name, ": ", entry_.name(),
                       " has no size parameter '", name, "'"));
    }
  }
  for (const ir::Node* param : ir::ParamsOf(entry_)) {
    absl::Status status;
    if (param->param_kind() == ir::ParamKind::kSize) {
      status = BindSize(*param, sizes);
    } else if (ir::IsDataParam(*param)) {
      status = BindData(*param);
    } else {
      status = ErrorAt(
          param->loc(),
          absl::StrCat("the harness cannot pass ",
                       ControlTypeName(param->declared_type().control()),
                       " parameter '", param->name(), "' of ", entry_.name(),
                       "; it passes only sizes (-D) and data (.npy files)"));
    }
    if (!status.ok()) return status;
  }
  // The kernel assumes its preconditions; the harness checks them.
  for (const ir::Node* assertion : ir::AssertsOf(entry_)) {
    const ir::Node& cond = *assertion->operand(0);
    auto condition = expr_.Control(cond);
    if (!condition.ok()) return condition.status();
    Scope::Commit(condition->uses, needs_);
    AddLine(absl::StrCat("if (", Unary("!", *condition).text, ") {"));
    AddLine(absl::StrCat(
        "  fprintf(stderr, \"%s: %s\\n\", tsl_program, ",
        CStringLiteral(absl::StrCat("the precondition ", DimensionText(cond),
                                    " of ", entry_.name(), " does not hold")),
        ");"));
    AddLine("  return 1;");
    AddLine("}");
  }
  bool read = false, write = false;
  for (const Buffer& buffer : buffers_) {
    read |= ir::IsReadParam(*buffer.param);
    write |= ir::IsWrittenParam(*buffer.param);
    needs_.allocate |= !ir::IsReadParam(*buffer.param);
    if (!buffer.shape.empty()) {
      AddLine(absl::StrCat("static const int64_t ", buffer.shape_name, "[",
                           buffer.shape.size(), "] = {",
                           absl::StrJoin(buffer.shape, ", "), "};"));
    }
  }
  CExpr call = Call(globals_.procedures.at(&entry_), arguments_);
  Scope::Commit(call.uses, needs_);
  if (buffers_.empty()) {
    AddLine(call.text + ";");
    AddLine("return 0;");
  } else {
    AddLine("int tsl_status = 1;");
    for (const Buffer& buffer : buffers_) {
      AddLine(absl::StrCat(ElemTypeCName(buffer.elem), " *",
                           buffer.binding->c_name, " = NULL;"));
    }
    for (const Buffer& buffer : buffers_) {
      if (!ir::IsReadParam(*buffer.param)) {
        // tsl_allocate returns only with the memory.
        AddLine(AllocateCall(buffer));
        continue;
      }
      AddLine(ReadCall(buffer));
      AddLine(
          absl::StrCat("if (", buffer.binding->c_name, " == NULL) goto done;"));
    }
    AddLine(call.text + ";");
    if (write) AddLine("if (!tsl_make_directories(tsl_outputs)) goto done;");
    for (const Buffer& buffer : buffers_) {
      if (!ir::IsWrittenParam(*buffer.param)) continue;
      AddLine(WriteCall(buffer));
    }
    AddLine("tsl_status = 0;");
    body_.push_back("done:");
    // tsl_read_npy's buffers come from malloc, tsl_allocate's not.
    for (const Buffer& buffer : buffers_) {
      AddLine(
          absl::StrCat(ir::IsReadParam(*buffer.param) ? "free(" : "tsl_free(",
                       buffer.binding->c_name, ");"));
    }
    AddLine("return tsl_status;");
  }

  // The runtime's functions for main come after the kernels, next to main;
  // those the kernels call are at the top (FileScope).
  std::string text = absl::StrCat("\n", RuntimePart("arguments"));
  if (read || write) absl::StrAppend(&text, "\n", RuntimePart("files"));
  if (read) absl::StrAppend(&text, "\n", RuntimePart("reader"));
  if (write) absl::StrAppend(&text, "\n", RuntimePart("writer"));
  absl::StrAppend(&text, "\nint main(int argc, char **argv) {\n",
                  "  const char *tsl_inputs = NULL;\n",
                  "  const char *tsl_outputs = NULL;\n",
                  "  if (!tsl_parse_arguments(argc, argv, ",
                  read ? "true" : "false", ", ", write ? "true" : "false",
                  ",\n",
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
    const ir::Module& module, const GlobalNames& globals, const ir::Node& entry,
    const std::map<std::string, int64_t>& sizes, Needs& needs) {
  return HarnessWriter(module, globals, entry, needs).Write(sizes);
}

}  // namespace tessel::emitc
