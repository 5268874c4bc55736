#include "libs/interp/cs1_cycles.h"

#include <algorithm>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "libs/interp/cs1_cost_model.h"
#include "libs/ir/edit.h"
#include "libs/ir/forms.h"
#include "libs/ir/op.h"
#include "libs/support/source.h"

namespace tessel::cs1 {
namespace {

using ir::Node;
using ir::Op;

struct Parameter {
  const char* name;
  int64_t CostModel::*field;
  int64_t least;
};

constexpr Parameter kParameters[] = {
    {"task_activation", &CostModel::task_activation, 0},
    {"instruction_issue", &CostModel::instruction_issue, 0},
    {"configuration", &CostModel::configuration, 0},
    {"simd_f16_per_cycle", &CostModel::simd_f16_per_cycle, 1},
    {"simd_f32_per_cycle", &CostModel::simd_f32_per_cycle, 1},
    {"loop_bounds", &CostModel::loop_bounds, 0},
    {"loop_iteration", &CostModel::loop_iteration, 0},
    {"scalar_op", &CostModel::scalar_op, 0},
    {"fabric_hop", &CostModel::fabric_hop, 0},
};

// Whether a statement instance computes: a reduction, or an assignment of
// a value that does arithmetic (not a copy or a fill).
bool Computes(const Node& stmt) {
  if (stmt.is(Op::kReduce)) return true;
  // Arithmetic on data: an index's arithmetic is addressing.
  bool arithmetic = false;
  ir::Walk(const_cast<Node&>(*stmt.operand(1)), [&](Node& node) {
    arithmetic |= !node.type().is_control() &&
                  (node.is(Op::kAdd) || node.is(Op::kSub) ||
                   node.is(Op::kMul) || node.is(Op::kDiv) ||
                   node.is(Op::kNeg) || node.is(Op::kMax) ||
                   node.is(Op::kMin) || node.is(Op::kFma));
  });
  return arithmetic;
}

// The loads, operations and store of a scalar statement.
int64_t ScalarOps(const Node& stmt) {
  int64_t ops = 1;  // the store
  ir::Walk(const_cast<Node&>(*stmt.operand(1)), [&](Node& node) {
    ops += !node.is(Op::kConst) && !node.is(Op::kRef) ? 1 : 0;
  });
  return ops + (stmt.is(Op::kReduce) ? 2 : 0);  // the target's load and add
}

class Counter {
 public:
  Counter(const CostModel& model, const InputTensors& inputs)
      : model_(model), inputs_(inputs) {}

  absl::StatusOr<CycleReport> Run(const Node& program) {
    const Node* grid = nullptr;
    std::vector<const Node*> locals, tasks;
    for (const Node* operand : program.operands()) {
      if (operand->is(Op::kGrid)) grid = operand;
      if (operand->is(Op::kLocal)) locals.push_back(operand);
      if (operand->is(Op::kTask)) tasks.push_back(operand);
      if (!operand->is(Op::kSparse)) continue;
      const Node& param = *operand->operand(0)->def();
      auto data = inputs_.find(param.name());
      if (data == inputs_.end()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "the cycles depend on the data of the sparse input '",
            param.name(), "', which is missing"));
      }
      sparse_[&param] = &data->second;
    }
    if (grid == nullptr) return absl::InternalError("a pe-program without grid");
    const Node& x = *grid->operand(0);
    const Node& y = *grid->operand(1);
    CycleReport report;
    for (int64_t py = 0; py < y.int_value(); ++py) {
      for (int64_t px = 0; px < x.int_value(); ++px) {
        env_[&x] = px;
        env_[&y] = py;
        PeCycles pe;
        pe.x = px;
        pe.y = py;
        configurations_.clear();
        for (const Node* task : tasks) {
          auto cycles = Task(*task);
          if (!cycles.ok()) return cycles.status();
          pe.tasks.push_back(*cycles);
          pe.cycles += cycles->cycles;
        }
        pe.configurations = static_cast<int64_t>(configurations_.size());
        pe.configuration_cycles = pe.configurations * model_.configuration;
        for (const Node* local : locals) {
          if (local->num_operands() < 2) continue;  // no (partial add)
          const std::vector<int64_t> dims =
              local->declared_type().ConstantDims().value_or(
                  std::vector<int64_t>{});
          int64_t elements = 1;
          for (int64_t dim : dims) elements *= dim;
          pe.collection_cycles += elements * model_.fabric_hop;
        }
        pe.cycles += pe.configuration_cycles + pe.collection_cycles;
        report.pes.push_back(std::move(pe));
      }
    }
    report.simd_instances = simd_instances_;
    report.scalar_instances = scalar_instances_;
    return report;
  }

 private:
  absl::Status Unsupported(const Node& node, absl::string_view what) {
    return ErrorAt(node.loc(), absl::StrCat("run-sim counts no cycles of ",
                                            what));
  }

  absl::StatusOr<int64_t> Eval(const Node& e) {
    switch (e.op()) {
      case Op::kConst:
        return e.int_value();
      case Op::kRef: {
        auto it = env_.find(e.def());
        if (it == env_.end()) return Unsupported(e, "data in control");
        return it->second;
      }
      case Op::kNeg:
      case Op::kNot: {
        auto a = Eval(*e.operand(0));
        if (!a.ok()) return a;
        return e.is(Op::kNeg) ? -*a : int64_t{*a == 0};
      }
      case Op::kAnd:
      case Op::kOr: {
        auto a = Eval(*e.operand(0));
        if (!a.ok()) return a;
        if ((*a != 0) != e.is(Op::kAnd)) return int64_t{*a != 0};
        auto b = Eval(*e.operand(1));
        if (!b.ok()) return b;
        return int64_t{*b != 0};
      }
      default:
        break;
    }
    if (e.num_operands() != 2) return Unsupported(e, "this expression");
    auto a = Eval(*e.operand(0));
    if (!a.ok()) return a;
    auto b = Eval(*e.operand(1));
    if (!b.ok()) return b;
    switch (e.op()) {
      case Op::kAdd:
        return *a + *b;
      case Op::kSub:
        return *a - *b;
      case Op::kMul:
        return *a * *b;
      // By a positive literal (the verifier checks): floor division.
      case Op::kDiv:
        return *a / *b - ((*a % *b != 0) && (*a < 0) ? 1 : 0);
      case Op::kFloorMod:
        return ((*a % *b) + *b) % *b;
      case Op::kMin:
        return std::min(*a, *b);
      case Op::kMax:
        return std::max(*a, *b);
      case Op::kLt:
        return int64_t{*a < *b};
      case Op::kLe:
        return int64_t{*a <= *b};
      case Op::kGt:
        return int64_t{*a > *b};
      case Op::kGe:
        return int64_t{*a >= *b};
      case Op::kEq:
        return int64_t{*a == *b};
      case Op::kNe:
        return int64_t{*a != *b};
      default:
        return Unsupported(e, "this expression");
    }
  }

  // A task's activations and cycles on the current PE.
  absl::StatusOr<TaskCycles> Task(const Node& task) {
    TaskCycles out;
    const Node& call = *task.operand(task.num_operands() - 1);
    auto activate = [&]() -> absl::Status {
      ++out.runs;
      cycles_ = model_.task_activation;
      if (auto status = Call(call); !status.ok()) return status;
      out.cycles += cycles_;
      return absl::OkStatus();
    };
    const Node& recv = *task.operand(0);
    if (!recv.is(Op::kRecv)) {
      if (auto status = activate(); !status.ok()) return status;
      return out;
    }
    // Each element of the received tensor, row-major, where the condition
    // holds.
    std::vector<const Node*> indices;
    const Node* cond = nullptr;
    for (size_t k = 1; k < recv.num_operands(); ++k) {
      const Node* part = recv.operand(k);
      if (part->is(Op::kCoord)) {
        indices.push_back(part);
      } else {
        cond = part;
      }
    }
    const std::vector<int64_t> shape =
        recv.operand(0)->def()->declared_type().ConstantDims().value_or(
            std::vector<int64_t>{});
    std::vector<int64_t> at(shape.size(), 0);
    int64_t count = 1;
    for (int64_t dim : shape) count *= dim;
    // A sparse input's zeros are not sent.
    auto sparse = sparse_.find(recv.operand(0)->def());
    const HostTensor* sent = sparse == sparse_.end() ? nullptr : sparse->second;
    for (int64_t n = 0; n < count; ++n) {
      for (size_t k = 0; k < at.size(); ++k) env_[indices[k]] = at[k];
      bool runs = sent == nullptr || sent->GetDouble(n) != 0;
      if (runs && cond != nullptr) {
        auto holds = Eval(*cond);
        if (!holds.ok()) return holds.status();
        runs = *holds != 0;
      }
      if (runs) {
        if (auto status = activate(); !status.ok()) return status;
      }
      for (size_t k = at.size(); k-- > 0;) {
        if (++at[k] < shape[k]) break;
        at[k] = 0;
      }
    }
    return out;
  }

  absl::Status Call(const Node& call) {
    const Node& callee = *call.def();
    std::vector<Node*> params = ir::ParamsOf(callee);
    for (size_t i = 0; i < params.size(); ++i) {
      if (ir::IsDataParam(*params[i])) continue;
      auto value = Eval(*call.operand(i));
      if (!value.ok()) return value.status();
      env_[params[i]] = *value;
    }
    if (!callee.is(Op::kInstr)) return Block(ir::BodyOf(callee), false);
    // A SIMD instruction: its elements at the engine's width.
    std::string configuration(callee.name());
    for (size_t i = 0; i < params.size(); ++i) {
      const Node& arg = *call.operand(i);
      if (!ir::IsDataParam(*params[i])) {
        absl::StrAppend(&configuration, " ", env_[params[i]]);
      } else if (arg.is(Op::kDescriptor)) {
        for (size_t k = 2; k < arg.num_operands(); ++k) {
          absl::StrAppend(&configuration, " ", arg.operand(k)->int_value());
        }
      }
    }
    configurations_.insert(configuration);
    const int64_t before = elements_;
    if (auto status = Block(ir::BodyOf(callee), true); !status.ok()) {
      return status;
    }
    // The engine's width for the instruction's element type (its first
    // data parameter's).
    auto data = std::find_if(params.begin(), params.end(), [](Node* param) {
      return ir::IsDataParam(*param);
    });
    const int64_t width =
        data != params.end() &&
                (*data)->declared_type().elem() == ElemType::kF16
            ? model_.simd_f16_per_cycle
            : model_.simd_f32_per_cycle;
    cycles_ += model_.instruction_issue +
               (elements_ - before + width - 1) / width;
    return absl::OkStatus();
  }

  absl::Status Block(absl::Span<Node* const> stmts, bool simd) {
    for (const Node* stmt : stmts) {
      if (auto status = Stmt(*stmt, simd); !status.ok()) return status;
    }
    return absl::OkStatus();
  }

  absl::Status Stmt(const Node& stmt, bool simd) {
    switch (stmt.op()) {
      case Op::kFor: {
        auto lo = Eval(*stmt.operand(0));
        if (!lo.ok()) return lo.status();
        auto hi = Eval(*stmt.operand(1));
        if (!hi.ok()) return hi.status();
        if (!simd) cycles_ += model_.loop_bounds;
        for (int64_t i = *lo; i < *hi; ++i) {
          env_[&stmt] = i;
          if (!simd) cycles_ += model_.loop_iteration;
          if (auto status = Block(stmt.operands().subspan(2), simd);
              !status.ok()) {
            return status;
          }
        }
        return absl::OkStatus();
      }
      case Op::kIf: {
        auto cond = Eval(*stmt.operand(0));
        if (!cond.ok()) return cond.status();
        if (*cond != 0) return Block(stmt.operand(1)->operands(), simd);
        if (stmt.num_operands() > 2) {
          return Block(stmt.operand(2)->operands(), simd);
        }
        return absl::OkStatus();
      }
      case Op::kAssign:
      case Op::kReduce: {
        const bool computes = Computes(stmt);
        if (simd) {
          ++elements_;
          simd_instances_ += computes;
        } else {
          cycles_ += model_.scalar_op * ScalarOps(stmt);
          scalar_instances_ += computes;
        }
        return absl::OkStatus();
      }
      case Op::kCall:
        return Call(stmt);
      case Op::kAssert:
      case Op::kAlloc:
      case Op::kLet:
        return absl::OkStatus();
      default:
        return Unsupported(stmt, "this statement");
    }
  }

  const CostModel& model_;
  const InputTensors& inputs_;
  // The data of each sparse input parameter.
  absl::flat_hash_map<const Node*, const HostTensor*> sparse_;
  absl::flat_hash_map<const Node*, int64_t> env_;
  absl::flat_hash_set<std::string> configurations_;
  int64_t cycles_ = 0;    // of the current task activation
  int64_t elements_ = 0;  // SIMD elements so far
  int64_t simd_instances_ = 0;
  int64_t scalar_instances_ = 0;
};

}  // namespace

absl::StatusOr<CostModel> ParseCostModel(absl::string_view name,
                                         absl::string_view text) {
  CostModel model;
  absl::flat_hash_set<std::string> seen;
  int line_number = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_number;
    line = absl::StripAsciiWhitespace(line.substr(0, line.find('#')));
    if (line.empty()) continue;
    std::vector<absl::string_view> words =
        absl::StrSplit(line, ' ', absl::SkipEmpty());
    const Parameter* parameter = nullptr;
    for (const Parameter& known : kParameters) {
      if (words[0] == known.name) parameter = &known;
    }
    int64_t value = 0;
    auto error = [&](const std::string& what) {
      return absl::InvalidArgumentError(
          absl::StrCat(name, ":", line_number, ": error: ", what));
    };
    if (parameter == nullptr) {
      return error(absl::StrCat("unknown parameter '", words[0], "'"));
    }
    if (words.size() != 2 || !absl::SimpleAtoi(words[1], &value) ||
        value < parameter->least) {
      return error(absl::StrCat("expected '", parameter->name,
                                " VALUE', an integer of at least ",
                                parameter->least));
    }
    if (!seen.insert(parameter->name).second) {
      return error(absl::StrCat("'", parameter->name, "' is given twice"));
    }
    model.*(parameter->field) = value;
  }
  for (const Parameter& parameter : kParameters) {
    if (!seen.contains(parameter.name)) {
      return absl::InvalidArgumentError(absl::StrCat(
          name, ": error: the parameter '", parameter.name, "' is missing"));
    }
  }
  return model;
}

absl::StatusOr<CostModel> DefaultCostModel() {
  const EmbeddedFile& file = CostModelFiles()[0];
  return ParseCostModel(file.path, file.text);
}

const PeCycles& CycleReport::Busiest() const {
  return *std::max_element(pes.begin(), pes.end(),
                           [](const PeCycles& a, const PeCycles& b) {
                             return a.cycles < b.cycles;
                           });
}

double CycleReport::SimdShare() const {
  const int64_t all = simd_instances + scalar_instances;
  return all == 0 ? 1.0 : static_cast<double>(simd_instances) / all;
}

absl::StatusOr<CycleReport> CountCycles(const ir::Node& program,
                                        const CostModel& model,
                                        const InputTensors& inputs) {
  return Counter(model, inputs).Run(program);
}

std::string CycleSummary(const CycleReport& report) {
  const PeCycles& busiest = report.Busiest();
  int64_t sum = 0;
  for (const PeCycles& pe : report.pes) sum += pe.cycles;
  return absl::StrFormat(
      "cycles: %d (the busiest PE, (%d, %d); %d PEs, %.1f on average)\n"
      "SIMD: %.1f%% of %d compute instances (%d by SIMD instructions, %d "
      "by explicit loops)\n",
      busiest.cycles, busiest.x, busiest.y, report.pes.size(),
      static_cast<double>(sum) / static_cast<double>(report.pes.size()),
      100 * report.SimdShare(), report.simd_instances + report.scalar_instances,
      report.simd_instances, report.scalar_instances);
}

std::string TraceJson(const ir::Node& program, const CycleReport& report) {
  std::vector<std::string> names;
  for (const Node* operand : program.operands()) {
    if (!operand->is(Op::kTask)) continue;
    const Node& first = *operand->operand(0);
    const Node& call = *operand->operand(operand->num_operands() - 1);
    names.push_back(absl::StrCat(
        "task ", names.size(), first.is(Op::kRecv)
                                   ? absl::StrCat(" on ",
                                                  first.operand(0)->name())
                                   : std::string(" at start"),
        ": ", call.def()->name()));
  }
  std::string json = "{\"traceEvents\": [\n";
  auto span = [&](size_t tid, const std::string& name, int64_t start,
                  int64_t cycles, const std::string& args) {
    absl::StrAppendFormat(&json,
                          "{\"name\": \"%s\", \"ph\": \"X\", \"pid\": 0, "
                          "\"tid\": %d, \"ts\": %d, \"dur\": %d, \"args\": "
                          "{%s}},\n",
                          name, tid, start, cycles, args);
  };
  for (size_t p = 0; p < report.pes.size(); ++p) {
    const PeCycles& pe = report.pes[p];
    absl::StrAppendFormat(&json,
                          "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": "
                          "0, \"tid\": %d, \"args\": {\"name\": \"PE (%d, "
                          "%d)\"}},\n",
                          p, pe.x, pe.y);
    int64_t at = 0;
    span(p, "configure", at, pe.configuration_cycles,
         absl::StrCat("\"configurations\": ", pe.configurations));
    at += pe.configuration_cycles;
    for (size_t t = 0; t < pe.tasks.size(); ++t) {
      if (pe.tasks[t].runs == 0) continue;
      span(p, names[t], at, pe.tasks[t].cycles,
           absl::StrCat("\"activations\": ", pe.tasks[t].runs));
      at += pe.tasks[t].cycles;
    }
    if (pe.collection_cycles > 0) {
      span(p, "send partial results", at, pe.collection_cycles, "");
    }
  }
  if (json.back() == '\n') json.resize(json.size() - 2);
  absl::StrAppend(&json, "\n], \"displayTimeUnit\": \"ns\"}\n");
  return json;
}

}  // namespace tessel::cs1
