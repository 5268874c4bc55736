// The CS-1 level (formats/tir/README.md, "CS-1 level"). A pe-program is
// checked as a procedure whose domain is its grid: the PE coordinates are
// the domain's dimensions, bounded by the grid; its local arrays are data,
// roots of their own; a task's recv adds the indices of the received
// element as further dimensions, bounded by the tensor and the recv's
// condition, and its value as an `in` scalar; and the call of a task is
// checked as every call is (argument types and memories, sizes, aliasing,
// the callee's assertions and the bounds of every dsd, for every PE and
// every element received). What is particular to the level is checked
// here: the grid, where the local arrays hold the parameters' data, what
// tasks may use, and that every element of an output comes back from
// exactly one PE. The polyhedral model (libs/poly/model.h) knows the
// grid and the recv, and where the local arrays hold the parameters' data.
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/verify/common.h"
#include "libs/verify/proc.h"
#include "libs/support/source.h"

namespace tessel::ir {
namespace {

// The Holds of a local array, or null.
const Node* HoldsOf(const Node& local) {
  return local.num_operands() > 0 ? local.operand(0) : nullptr;
}

// The Partial of a local array, or null.
const Node* PartialOf(const Node& local) {
  return local.num_operands() > 1 ? local.operand(1) : nullptr;
}

// "PE (0, 1)" for the values of the two coordinates.
std::string PeText(const std::string& x, const std::string& y) {
  return absl::StrCat("PE (", x, ", ", y, ")");
}

// "y[0, 3]" for the element of `name` at `indices`.
std::string ElementText(const std::string& name,
                        const std::vector<std::string>& indices) {
  if (indices.empty()) return name;
  return absl::StrCat(name, "[", absl::StrJoin(indices, ", "), "]");
}

}  // namespace

absl::Status ProcVerifier::CheckPeProgram() {
  if (auto status = CheckPeParams(); !status.ok()) return status;
  for (Node* operand : proc_.operands()) {
    absl::Status status;
    if (operand->is(Op::kGrid)) status = CheckGrid(*operand);
    if (operand->is(Op::kLocal)) status = CheckLocal(*operand);
    if (operand->is(Op::kTask)) status = CheckTask(*operand);
    if (operand->is(Op::kSparse)) status = CheckSparse(*operand);
    if (!status.ok()) return status;
  }
  for (const Node* param : ParamsOf(proc_)) {
    if (!IsWrittenParam(*param)) continue;
    if (auto status = CheckGather(*param); !status.ok()) return status;
  }
  return absl::OkStatus();
}

absl::Status ProcVerifier::CheckPeParams() {
  for (Node* param : ParamsOf(proc_)) {
    const Type& type = param->declared_type();
    if (!IsDataParam(*param)) {
      return ErrorAt(param->loc(),
                     absl::StrCat("a pe-program is fully specialised: its "
                                  "parameters are data, and '",
                                  param->name(), "' is a ",
                                  ControlTypeName(type.control())));
    }
    if (!type.is_elem() && type.kind() != TypeKind::kTensor) {
      return ErrorAt(param->item_loc(2),
                     absl::StrCat("a parameter of a pe-program is a tensor or "
                                  "a scalar, and '",
                                  param->name(), "' is ", TypeText(type)));
    }
    if (!type.ConstantDims()) {
      return ErrorAt(param->item_loc(2),
                     absl::StrCat("a pe-program is fully specialised: the "
                                  "dimensions of '",
                                  param->name(), "' must be literals"));
    }
    auto memory = MemoryOf(*param, 3);
    if (!memory.ok()) return memory.status();
    if (*memory != module_.dram()) {
      return ErrorAt(param->item_loc(3),
                     absl::StrCat("the data of a pe-program's parameters lives "
                                  "outside the grid, in @DRAM, not in ",
                                  (*memory)->name()));
    }
    if (auto status = BindParam(*param); !status.ok()) return status;
  }
  return absl::OkStatus();
}

absl::Status ProcVerifier::CheckGrid(Node& grid) {
  for (Node* coord : grid.operands()) {
    if (coord->int_value() <= 0) {
      return ErrorAt(coord->item_loc(1),
                     absl::StrCat("the extent of a grid is positive, found ",
                                  coord->int_value()));
    }
    if (auto status = Bind(*coord, LoopName{}); !status.ok()) return status;
  }
  return absl::OkStatus();
}

absl::Status ProcVerifier::CheckLocal(Node& local) {
  const Type& type = local.declared_type();
  if (!type.is_elem() && type.kind() != TypeKind::kTensor) {
    return ErrorAt(local.item_loc(2),
                   absl::StrCat("a local array is a tensor or a scalar, and '",
                                local.name(), "' is ", TypeText(type)));
  }
  if (!type.ConstantDims()) {
    return ErrorAt(local.item_loc(2),
                   absl::StrCat("the memory of a PE is laid out before the "
                                "program runs: the dimensions of '",
                                local.name(), "' must be literals"));
  }
  auto memory = MemoryOf(local, 3);
  if (!memory.ok()) return memory.status();
  if (auto status = CheckDimensions(type); !status.ok()) return status;

  if (const Node* holds = HoldsOf(local)) {
    Node& global = *holds->operand(0);
    const Node* param = global.def();
    if (!param->is(Op::kParam) || param->parent() != &proc_) {
      return ErrorAt(global.loc(),
                     absl::StrCat("a local array holds part of a parameter of "
                                  "the pe-program, and '",
                                  global.name(), "' is not one"));
    }
    global.set_type(param->declared_type());
    const Type& whole = param->declared_type();
    size_t offsets = holds->num_operands() - 1;
    if (offsets != static_cast<size_t>(whole.rank())) {
      return ErrorAt(
          holds->loc(),
          absl::StrCat("'", global.name(), "' has rank ", whole.rank(),
                       ", but ", offsets,
                       offsets == 1 ? " offset is" : " offsets are", " given"));
    }
    if (type.rank() != whole.rank() || type.elem() != whole.elem()) {
      return ErrorAt(local.item_loc(2),
                     absl::StrCat("'", local.name(), "' is ", TypeText(type),
                                  " and holds part of '", global.name(), "', ",
                                  TypeText(whole),
                                  ": a local array has the element type and "
                                  "the rank of what it holds"));
    }
    for (size_t k = 1; k < holds->num_operands(); ++k) {
      auto offset = ControlInt(*holds->operand(k));
      if (!offset.ok()) return offset.status();
    }
    if (const Node* partial = PartialOf(local)) {
      if (partial->name() != "add") {
        return ErrorAt(partial->name_loc(),
                       absl::StrCat("partial results are combined by add, "
                                    "not '",
                                    partial->name(), "'"));
      }
      if (param->param_kind() != ParamKind::kOut) {
        return ErrorAt(partial->loc(),
                       absl::StrCat("'", global.name(),
                                    "' is not an out parameter: only an "
                                    "output is made of partial results"));
      }
    }
  }
  LoopName name;
  name.is_data = true;
  name.view = RootView(local, *memory, /*writable=*/true, "");
  return Bind(local, std::move(name));
}

absl::Status ProcVerifier::CheckTask(Node& task) {
  Node& call = *task.operand(task.num_operands() - 1);
  // The data of the parameters never reaches a PE directly.
  const Node* global = nullptr;
  AnyNode(call, [&](const Node& node) {
    if (node.is(Op::kRef) && node.def()->is(Op::kParam) &&
        node.def()->parent() == &proc_ && global == nullptr) {
      global = &node;
    }
    return global != nullptr;
  });
  if (global != nullptr) {
    return ErrorAt(global->loc(),
                   absl::StrCat("'", global->name(),
                                "' is a parameter of the pe-program: a task "
                                "reaches its data only through the local "
                                "arrays that hold it and the elements it "
                                "receives"));
  }
  EnterBlock();
  if (task.operand(0)->is(Op::kRecv)) {
    if (auto status = CheckRecv(*task.operand(0)); !status.ok()) return status;
  }
  if (auto status = CheckCall(call); !status.ok()) return status;
  LeaveBlock();
  return absl::OkStatus();
}

absl::Status ProcVerifier::CheckSparse(Node& sparse) {
  Node& global = *sparse.operand(0);
  const Node* param = global.def();
  if (!global.is(Op::kRef) || !param->is(Op::kParam) ||
      param->parent() != &proc_ || !IsReadParam(*param)) {
    return ErrorAt(global.loc(),
                   absl::StrCat("(sparse ", global.name(),
                                ") names an input of the pe-program: '",
                                global.name(), "' is not one"));
  }
  global.set_type(param->declared_type());
  for (const Node* other : proc_.operands()) {
    if (other == &sparse) break;
    if (other->is(Op::kSparse) && other->operand(0)->def() == param) {
      return ErrorAt(sparse.loc(), absl::StrCat("'", global.name(),
                                                "' is declared sparse twice"));
    }
  }
  return absl::OkStatus();
}

absl::Status ProcVerifier::CheckRecv(Node& recv) {
  Node& global = *recv.operand(0);
  const Node* param = global.def();
  if (!param->is(Op::kParam) || param->parent() != &proc_) {
    return ErrorAt(global.loc(),
                   absl::StrCat("a task receives the elements of a parameter "
                                "of the pe-program, and '",
                                global.name(), "' is not one"));
  }
  if (!IsReadParam(*param)) {
    return ErrorAt(global.loc(),
                   absl::StrCat("'", global.name(),
                                "' is an out parameter: only the inputs of a "
                                "pe-program arrive at its grid"));
  }
  const Type& type = param->declared_type();
  global.set_type(type);
  std::vector<Node*> indices;
  Node* cond = nullptr;
  for (size_t i = 1; i < recv.num_operands(); ++i) {
    Node* operand = recv.operand(i);
    if (operand->is(Op::kCoord)) {
      indices.push_back(operand);
    } else {
      cond = operand;
    }
  }
  if (indices.size() != static_cast<size_t>(type.rank())) {
    return ErrorAt(recv.item_loc(2),
                   absl::StrCat("'", global.name(), "' has rank ", type.rank(),
                                ", but the recv names ", indices.size(),
                                indices.size() == 1 ? " index" : " indices"));
  }
  for (Node* index : indices) {
    if (auto status = Bind(*index, LoopName{}); !status.ok()) return status;
  }
  // The received value: an `in` scalar, in no particular memory.
  Type elem = Type::Elem(type.elem());
  recv.set_declared_type(elem);
  LoopName value;
  value.is_data = true;
  value.view =
      RootView(recv, module_.dram(), /*writable=*/false, global.name());
  if (auto status = Bind(recv, std::move(value)); !status.ok()) return status;
  if (cond != nullptr) {
    if (auto holds = ControlCondition(*cond); !holds.ok()) {
      return holds.status();
    }
  }
  // The instances of the task's call: the elements received on each PE.
  auto empty = model_.IsDead(*recv.parent()->operands().back());
  if (!empty.ok()) return empty.status();
  if (*empty) {
    return ErrorAt(recv.loc(),
                   absl::StrCat("no element of '", global.name(),
                                "' arrives at any PE: the task never runs"));
  }
  return absl::OkStatus();
}

absl::Status ProcVerifier::CheckGather(const Node& param) {
  Node* local = nullptr;
  for (Node* operand : proc_.operands()) {
    const Node* holds = operand->is(Op::kLocal) ? HoldsOf(*operand) : nullptr;
    if (holds == nullptr || holds->operand(0)->def() != &param) continue;
    if (local != nullptr) {
      return ErrorAt(holds->loc(),
                     absl::StrCat("'", param.name(), "' is held by '",
                                  local->name(), "' and by '", operand->name(),
                                  "': what a pe-program writes comes back "
                                  "from one local array"));
    }
    local = operand;
  }
  if (local == nullptr) {
    return ErrorAt(param.loc(),
                   absl::StrCat("'", param.name(),
                                "' is written, but no local array holds it: a "
                                "pe-program writes its outputs back from the "
                                "local arrays that hold them"));
  }
  // Partial results of one element come back from every PE that holds it.
  if (PartialOf(*local) == nullptr) {
    if (auto status = CheckHeldOnce(param, *local); !status.ok()) return status;
  }
  return CheckHeldEverywhere(param, *local);
}

absl::Status ProcVerifier::CheckHeldOnce(const Node& param, const Node& local) {
  auto held = model_.Held(local);
  if (!held.ok()) return held.status();
  // The first PE, element and second PE, in this order, where two PEs
  // hold one element.
  auto shared = poly::FirstPoint(model_.ctx(), [&]() {
    isl::map others = isl::manage(isl_map_apply_range(
        isl_map_range_map(held->copy()), isl_map_reverse(held->copy())));
    isl::map itself = isl::manage(isl_map_domain_map(held->copy()));
    return isl::manage(
        isl_set_flatten(others.subtract(itself).wrap().release()));
  });
  if (!shared.ok()) return shared.status();
  if (!shared->has_value()) return absl::OkStatus();
  const std::vector<std::string>& at = **shared;
  const size_t coords = 2;  // of a PE (the reader checks the grid)
  return ErrorAt(
      HoldsOf(local)->loc(),
      absl::StrCat(
          "'", local.name(), "' of ", PeText(at[0], at[1]), " and of ",
          PeText(at[at.size() - 2], at.back()), " both hold ",
          ElementText(param.name(), {at.begin() + coords, at.end() - coords}),
          ": an element of an output comes back from one PE"));
}

absl::Status ProcVerifier::CheckHeldEverywhere(const Node& param,
                                               const Node& local) {
  // Every PE holds a scalar.
  if (param.declared_type().rank() == 0) return absl::OkStatus();
  auto held = model_.Held(local);
  if (!held.ok()) return held.status();
  auto whole = model_.Region(param, proc_);
  if (!whole.ok()) return whole.status();
  // The first element of the parameter that no PE holds.
  auto missing = poly::FirstPoint(
      model_.ctx(), [&]() { return whole->range().subtract(held->range()); });
  if (!missing.ok()) return missing.status();
  if (!missing->has_value()) return absl::OkStatus();
  return ErrorAt(
      HoldsOf(local)->loc(),
      absl::StrCat("no PE holds ", ElementText(param.name(), **missing),
                   ": every element of an output comes back from "
                   "the local array of one PE"));
}

}  // namespace tessel::ir
