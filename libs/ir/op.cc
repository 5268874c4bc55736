#include "libs/ir/op.h"

#include <array>
#include <cstdlib>
#include <iostream>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_split.h"

namespace tessel::ir {
namespace {

struct OpRow {
  Op op;
  absl::string_view spelling;
  OpClass op_class;
  absl::string_view operands;
  int header;
};

constexpr auto kRows = std::to_array<OpRow>({
#define TIR_OP(id, spelling, op_class, operands, header) \
  {Op::k##id, spelling, OpClass::k##op_class, operands, header},
#include "libs/ir/ops.def"
#undef TIR_OP
});

OperandKind ParseOperandKind(absl::string_view word) {
  static const auto* kWords = new absl::flat_hash_map<absl::string_view,
                                                      OperandKind>{
      {"value", OperandKind::kValue},       {"value*", OperandKind::kValues},
      {"value+", OperandKind::kValuesPlus}, {"stmt*", OperandKind::kStmts},
      {"lam", OperandKind::kLam},           {"int", OperandKind::kInt},
      {"int*", OperandKind::kInts},         {"name", OperandKind::kName},
      {"global", OperandKind::kGlobal},     {"key", OperandKind::kKey},
      {"elem", OperandKind::kElem},         {"type", OperandKind::kType},
      {"then", OperandKind::kThen},         {"else?", OperandKind::kElseOpt},
  };
  auto it = kWords->find(word);
  if (it == kWords->end()) {
    // The table is part of the program: a typo in it is a build defect
    // that every test exposes at once.
    std::cerr << "ops.def: unknown operand kind '" << word << "'\n";
    std::abort();
  }
  return it->second;
}

std::array<OpInfo, kNumOps> BuildInfos() {
  std::array<OpInfo, kNumOps> infos;
  for (const OpRow& row : kRows) {
    OpInfo& info = infos[static_cast<size_t>(row.op)];
    info.op = row.op;
    info.spelling = row.spelling;
    info.op_class = row.op_class;
    info.header = row.header;
    if (row.operands == "custom") {
      info.custom = true;
      continue;
    }
    for (absl::string_view word :
         absl::StrSplit(row.operands, ' ', absl::SkipEmpty())) {
      info.operands.push_back(ParseOperandKind(word));
    }
  }
  return infos;
}

const std::array<OpInfo, kNumOps>& Infos() {
  static const auto* infos = new std::array<OpInfo, kNumOps>(BuildInfos());
  return *infos;
}

}  // namespace

size_t OpInfo::min_operands() const {
  size_t count = 0;
  for (OperandKind kind : operands) {
    if (kind == OperandKind::kValues || kind == OperandKind::kStmts ||
        kind == OperandKind::kInts || kind == OperandKind::kElseOpt) {
      continue;
    }
    ++count;
  }
  return count;
}

std::optional<size_t> OpInfo::max_operands() const {
  for (OperandKind kind : operands) {
    if (kind == OperandKind::kValues || kind == OperandKind::kValuesPlus ||
        kind == OperandKind::kStmts || kind == OperandKind::kInts) {
      return std::nullopt;
    }
  }
  return operands.size();
}

const OpInfo& Info(Op op) { return Infos()[static_cast<size_t>(op)]; }

absl::string_view Spelling(Op op) { return Info(op).spelling; }

std::optional<Op> FindOp(absl::string_view head) {
  static const auto* kBySpelling = [] {
    auto* map = new absl::flat_hash_map<absl::string_view, Op>;
    for (const OpInfo& info : Infos()) {
      if (!info.spelling.empty()) map->emplace(info.spelling, info.op);
    }
    return map;
  }();
  auto it = kBySpelling->find(head);
  if (it == kBySpelling->end()) return std::nullopt;
  return it->second;
}

bool IsDimensionOperator(Op op) {
  switch (op) {
    case Op::kAdd:
    case Op::kSub:
    case Op::kMul:
    case Op::kDiv:
    case Op::kFloorMod:
    case Op::kNeg:
    case Op::kMin:
    case Op::kMax:
      return true;
    default:
      return false;
  }
}

bool IsArithmetic(Op op) {
  switch (op) {
    case Op::kAdd:
    case Op::kSub:
    case Op::kMul:
    case Op::kDiv:
    case Op::kMax:
    case Op::kMin:
    case Op::kNeg:
      return true;
    default:
      return false;
  }
}

bool IsComparison(Op op) {
  switch (op) {
    case Op::kLt:
    case Op::kLe:
    case Op::kGt:
    case Op::kGe:
    case Op::kEq:
    case Op::kNe:
      return true;
    default:
      return false;
  }
}

bool IsCondition(Op op) {
  return IsComparison(op) || op == Op::kAnd || op == Op::kOr || op == Op::kNot;
}

int HeaderOperands(const Sexpr& form) {
  std::optional<Op> op = form.head() == kParallelForSpelling
                             ? std::optional<Op>(Op::kFor)
                             : FindOp(form.head());
  return op ? Info(*op).header : -1;
}

}  // namespace tessel::ir
