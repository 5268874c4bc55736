#include "libs/emitc/helpers.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"

namespace tessel::emitc {
namespace {

absl::string_view OpName(HelperOp op) {
  switch (op) {
    case HelperOp::kFloorDiv:
      return "floordiv";
    case HelperOp::kFloorMod:
      return "floormod";
    case HelperOp::kMax:
      return "max";
    case HelperOp::kMin:
      return "min";
    case HelperOp::kAdd:
      return "add";
    case HelperOp::kSub:
      return "sub";
    case HelperOp::kMul:
      return "mul";
    case HelperOp::kNeg:
      return "neg";
    case HelperOp::kDiv:
      return "div";
    case HelperOp::kCast:
      return "cast";
  }
  return "";
}

bool OnFloats(const Helper& helper) {
  return helper.elem && IsFloat(*helper.elem);
}

// Of kAdd, kSub, kMul and kDiv.
absl::string_view OperatorSymbol(HelperOp op) {
  return op == HelperOp::kAdd   ? "+"
         : op == HelperOp::kSub ? "-"
         : op == HelperOp::kMul ? "*"
                                : "/";
}

// Why f16 arithmetic (the only float arithmetic with helpers) has them.
std::string FloatArithmeticComment(HelperOp op) {
  return absl::StrCat(
      "/* TIR's f16 a ", OperatorSymbol(op),
      " b: computed in float and rounded to f16 once, the correctly\n"
      "   rounded result, as in run-sim, in whatever format the compiler "
      "evaluates\n   _Float16 (float holds f16 sums, differences and "
      "products exactly, and\n   more than 2 * 11 + 2 bits of a quotient). "
      "*/\n");
}

// Why the helper exists, as a C comment.
std::string Comment(const Helper& helper) {
  bool is_float = OnFloats(helper);
  switch (helper.op) {
    case HelperOp::kFloorDiv:
      return "/* Floor division by b > 0 (C's / truncates towards zero). */\n";
    case HelperOp::kFloorMod:
      return "/* Floor modulo by b > 0: the result is in [0, b). */\n";
    case HelperOp::kMax:
    case HelperOp::kMin:
      return absl::StrCat("/* TIR's (", OpName(helper.op), " a b): a unless ",
                          helper.op == HelperOp::kMax ? "a < b" : "b < a",
                          is_float ? ", which decides NaN and -0.0\n"
                                     "   operands as the interpreter does;"
                                   : ";",
                          " each operand is evaluated once. */\n");
    case HelperOp::kAdd:
    case HelperOp::kSub:
    case HelperOp::kMul:
      if (is_float) return FloatArithmeticComment(helper.op);
      return absl::StrCat("/* a ", OperatorSymbol(helper.op),
                          " b modulo 2^32, as TIR's i32 arithmetic (C's "
                          "signed overflow is\n   undefined). */\n");
    case HelperOp::kNeg:
      return "/* -a modulo 2^32 (-INT32_MIN is INT32_MIN), as TIR's i32 "
             "arithmetic. */\n";
    case HelperOp::kDiv:
      if (is_float) return FloatArithmeticComment(helper.op);
      return helper.elem == ElemType::kI32
                 ? "/* TIR's i32 a / b: truncating, as in C, but INT32_MIN / "
                   "-1 wraps to\n   INT32_MIN (C leaves it undefined; x86 "
                   "traps), and a zero divisor is an\n   error. */\n"
                 : "/* TIR's i8 a / b: truncating, as in C (-128 / -1 wraps "
                   "to -128), and a zero\n   divisor is an error. */\n";
    case HelperOp::kCast:
      return absl::StrCat("/* TIR's (cast ", ElemTypeName(*helper.elem),
                          " a) of an ", ElemTypeName(*helper.from),
                          ": truncating, as in C, but a value\n   ",
                          ElemTypeName(*helper.elem),
                          " cannot hold (or NaN) is an error (C leaves it "
                          "undefined). */\n");
  }
  return "";
}

// The condition under which a cast to `to` keeps its value's integer part:
// the exclusive bounds are exact in double, which every operand converts
// to exactly, and NaN fails both comparisons.
std::string CastInRange(ElemType to) {
  return absl::StrCat("a > ", IntMin(to) - 1, ".0 && a < ", IntMax(to) + 1,
                      ".0");
}

// The function, with $T for the C type and $NAME for its name.
std::string Function(const Helper& helper) {
  if (OnFloats(helper) && helper.op != HelperOp::kMax &&
      helper.op != HelperOp::kMin) {
    // f16 + - * /.
    return absl::StrCat("static inline $T $NAME($T a, $T b) {\n",
                        "  return ($T)((float)a ", OperatorSymbol(helper.op),
                        " (float)b);\n}\n");
  }
  switch (helper.op) {
    case HelperOp::kFloorDiv:
      return "static inline $T $NAME($T a, $T b) {\n"
             "  $T q = a / b;\n"
             "  return a % b < 0 ? q - 1 : q;\n"
             "}\n";
    case HelperOp::kFloorMod:
      return "static inline $T $NAME($T a, $T b) {\n"
             "  $T r = a % b;\n"
             "  return r < 0 ? r + b : r;\n"
             "}\n";
    case HelperOp::kMax:
      return "static inline $T $NAME($T a, $T b) {\n"
             "  return a < b ? b : a;\n"
             "}\n";
    case HelperOp::kMin:
      return "static inline $T $NAME($T a, $T b) {\n"
             "  return b < a ? b : a;\n"
             "}\n";
    case HelperOp::kAdd:
      return "static inline $T $NAME($T a, $T b) {\n"
             "  return ($T)((uint32_t)a + (uint32_t)b);\n"
             "}\n";
    case HelperOp::kSub:
      return "static inline $T $NAME($T a, $T b) {\n"
             "  return ($T)((uint32_t)a - (uint32_t)b);\n"
             "}\n";
    case HelperOp::kMul:
      return "static inline $T $NAME($T a, $T b) {\n"
             "  return ($T)((uint32_t)a * (uint32_t)b);\n"
             "}\n";
    case HelperOp::kNeg:
      return "static inline $T $NAME($T a) {\n"
             "  return ($T)-(uint32_t)a;\n"
             "}\n";
    case HelperOp::kDiv:
      return helper.elem == ElemType::kI32
                 ? "static inline $T $NAME($T a, $T b) {\n"
                   "  if (b == 0) tsl_error(\"integer division by zero\");\n"
                   "  return b == -1 ? ($T)-(uint32_t)a : a / b;\n"
                   "}\n"
                 : "static inline $T $NAME($T a, $T b) {\n"
                   "  if (b == 0) tsl_error(\"integer division by zero\");\n"
                   "  return ($T)(a / b);\n"
                   "}\n";
    case HelperOp::kCast:
      return "static inline $T $NAME($F a) {\n"
             "  if (!($RANGE)) tsl_cast_error(a, \"$TIR\");\n"
             "  return ($T)a;\n"
             "}\n";
  }
  return "";
}

}  // namespace

std::string HelperName(const Helper& helper) {
  if (helper.op == HelperOp::kFloorDiv || helper.op == HelperOp::kFloorMod) {
    return absl::StrCat("tsl_", OpName(helper.op));
  }
  std::string name =
      absl::StrCat("tsl_", OpName(helper.op), "_",
                   helper.elem ? ElemTypeName(*helper.elem) : "i64");
  if (helper.from) absl::StrAppend(&name, "_", ElemTypeName(*helper.from));
  return name;
}

std::string HelperDefinition(const Helper& helper) {
  std::string function = Function(helper);
  if (helper.op == HelperOp::kCast) {
    // Before $T, which would match the start of $TIR.
    function =
        absl::StrReplaceAll(function, {{"$F", ElemTypeCName(*helper.from)},
                                       {"$RANGE", CastInRange(*helper.elem)},
                                       {"$TIR", ElemTypeName(*helper.elem)}});
  }
  return Comment(helper) +
         absl::StrReplaceAll(
             function,
             {{"$T", helper.elem ? ElemTypeCName(*helper.elem) : "int64_t"},
              {"$NAME", HelperName(helper)}});
}

bool HelperReportsErrors(const Helper& helper) {
  return (helper.op == HelperOp::kDiv && !OnFloats(helper)) ||
         helper.op == HelperOp::kCast;
}

bool HelperReportsCastErrors(const Helper& helper) {
  return helper.op == HelperOp::kCast;
}

}  // namespace tessel::emitc
