// Reading the CS-1 level (formats/tir/README.md, "CS-1 level"): a
// pe-program with its grid, local arrays and tasks, and the descriptors
// (dsd) that SIMD instructions take. Structure and names only; the verifier
// checks the rest.
#include <utility>

#include "absl/strings/str_cat.h"
#include "libs/ir/reader.h"
#include "libs/ir/syntax.h"
#include "libs/sexpr/printer.h"

namespace tessel::ir::syntax_internal {

absl::StatusOr<Node*> Reader::ReadPeProgram(const Sexpr& form) {
  if (form.size() < 4 || !form[3].is_form("grid")) {
    return ErrorAt(form.size() < 4 ? form.loc() : form[3].loc(),
                   "expected (pe-program @NAME (PARAM...) (grid (X NX) "
                   "(Y NY)) (local ...)... (task ...)...)");
  }
  Node* program = Create(Op::kPeProgram, form);
  program->set_name(form[1].text());
  program->set_name_loc(form[1].loc());
  if (auto status = ReadParams(form[2], program); !status.ok()) return status;
  auto grid = ReadGrid(form[3]);
  if (!grid.ok()) return grid.status();
  module_.Append(program, *grid);
  for (size_t i = 4; i < form.size(); ++i) {
    const Sexpr& clause = form[i];
    absl::StatusOr<Node*> node;
    if (clause.is_form("local")) {
      node = ReadLocal(clause);
    } else if (clause.is_form("task")) {
      node = ReadTask(clause);
    } else if (clause.is_form("sparse") && clause.size() == 2) {
      node = ReadGeneric(clause, Op::kSparse);
    } else {
      return ErrorAt(clause.loc(),
                     absl::StrCat("expected (local ...), (task ...) or "
                                  "(sparse INPUT) in a pe-program, found '",
                                  PrintFlat(clause), "'"));
    }
    if (!node.ok()) return node.status();
    module_.Append(program, *node);
  }
  return program;
}

absl::StatusOr<Node*> Reader::ReadCoord(const Sexpr& item, bool with_extent) {
  bool ok = with_extent ? item.is_list() && item.size() == 2 &&
                              IsLocalName(item[0]) && item[1].is_int()
                        : IsLocalName(item);
  if (!ok) {
    return ErrorAt(item.loc(),
                   absl::StrCat(with_extent ? "expected a PE coordinate (NAME "
                                              "EXTENT), found '"
                                            : "expected an index name, found '",
                                PrintFlat(item), "'"));
  }
  const Sexpr& name = with_extent ? item[0] : item;
  Node* coord = Create(Op::kCoord, item);
  coord->set_name(name.text());
  coord->set_name_loc(name.loc());
  coord->set_declared_type(Type::Control(ControlType::kIndex));
  if (with_extent) coord->set_int(item[1].int_value());
  Bind(coord->name(), coord);
  return coord;
}

absl::StatusOr<Node*> Reader::ReadGrid(const Sexpr& grid) {
  // The CS-1 is a 2-d mesh of PEs, PE[x, y] (Verdoolaege et al., 4.1.2).
  if (grid.size() != 3) {
    return ErrorAt(grid.loc(),
                   "expected (grid (X NX) (Y NY)): two PE "
                   "coordinates with their extents");
  }
  Node* node = Create(Op::kGrid, grid);
  for (size_t i = 1; i < grid.size(); ++i) {
    auto coord = ReadCoord(grid[i], /*with_extent=*/true);
    if (!coord.ok()) return coord.status();
    module_.Append(node, *coord);
  }
  return node;
}

absl::StatusOr<Node*> Reader::ReadLocal(const Sexpr& local) {
  if (local.size() < 3 || local.size() > 6 || !IsLocalName(local[1])) {
    return ErrorAt(local.loc(),
                   "expected (local NAME TYPE [@MEM] [(holds GLOBAL "
                   "OFFSET...) [(partial OP)]])");
  }
  Node* node = Create(Op::kLocal, local);
  node->set_name(local[1].text());
  node->set_name_loc(local[1].loc());
  auto type = ReadType(local[2]);
  if (!type.ok()) return type.status();
  node->set_declared_type(*std::move(type));
  size_t next = 3;
  if (next < local.size() && IsGlobalName(local[next])) {
    if (auto status = ReadMemoryOperand(local[next], node); !status.ok()) {
      return status;
    }
    ++next;
  }
  if (next < local.size()) {
    const Sexpr& holds = local[next];
    const bool partial =
        next + 2 == local.size() && local[next + 1].is_form("partial");
    if (!holds.is_form("holds") || !(next + 1 == local.size() || partial)) {
      return ErrorAt(
          local[next + (holds.is_form("holds") ? 1 : 0)].loc(),
          absl::StrCat("expected [@MEM] [(holds GLOBAL OFFSET...) [(partial "
                       "OP)]] after the type of '",
                       node->name(), "', found '",
                       PrintFlat(local[next + (holds.is_form("holds") ? 1 : 0)]),
                       "'"));
    }
    auto placement = ReadGeneric(holds, Op::kHolds);
    if (!placement.ok()) return placement.status();
    module_.Append(node, *placement);
    if (partial) {
      auto combine = ReadGeneric(local[next + 1], Op::kPartial);
      if (!combine.ok()) return combine.status();
      module_.Append(node, *combine);
    }
  }
  Bind(node->name(), node);
  return node;
}

absl::StatusOr<Node*> Reader::ReadTask(const Sexpr& task) {
  bool has_recv = task.size() == 3 && task[1].is_form("recv");
  if (!(task.size() == 2 || has_recv) || !task.items().back().is_form("call")) {
    return ErrorAt(task.loc(),
                   "expected (task [(recv GLOBAL (I...) V [COND])] (call "
                   "@PROC ARG...))");
  }
  Node* node = Create(Op::kTask, task);
  // A recv's names are the task's own.
  size_t depth = scope_.size();
  if (has_recv) {
    auto recv = ReadRecv(task[1]);
    if (!recv.ok()) return recv.status();
    module_.Append(node, *recv);
  }
  auto call = ReadGeneric(task.items().back(), Op::kCall);
  scope_.resize(depth);
  if (!call.ok()) return call.status();
  module_.Append(node, *call);
  return node;
}

absl::StatusOr<Node*> Reader::ReadRecv(const Sexpr& recv) {
  if (recv.size() < 4 || recv.size() > 5 || !recv[2].is_list() ||
      !IsLocalName(recv[3])) {
    return ErrorAt(recv.loc(), "expected (recv GLOBAL (I...) V [COND])");
  }
  Node* node = Create(Op::kRecv, recv);
  auto global = ReadName(recv[1]);
  if (!global.ok()) return global.status();
  module_.Append(node, *global);
  for (const Sexpr& index : recv[2].items()) {
    auto coord = ReadCoord(index, /*with_extent=*/false);
    if (!coord.ok()) return coord.status();
    module_.Append(node, *coord);
  }
  node->set_name(recv[3].text());
  node->set_name_loc(recv[3].loc());
  Bind(node->name(), node);
  if (recv.size() == 5) {
    auto cond = ReadValue(recv[4]);
    if (!cond.ok()) return cond.status();
    module_.Append(node, *cond);
  }
  return node;
}

absl::StatusOr<Node*> Reader::ReadDescriptor(const Sexpr& dsd) {
  if (dsd.size() < 4) {
    return ErrorAt(dsd.loc(),
                   "expected (dsd NAME BASE (EXTENT STRIDE)...) with at "
                   "least one dimension");
  }
  if (!IsLocalName(dsd[1])) {
    return ErrorAt(dsd[1].loc(), absl::StrCat("expected the name of the "
                                              "tensor a dsd describes, found '",
                                              PrintFlat(dsd[1]), "'"));
  }
  Node* node = Create(Op::kDescriptor, dsd);
  for (size_t i : {1, 2}) {
    auto operand = i == 1 ? ReadName(dsd[i]) : ReadValue(dsd[i]);
    if (!operand.ok()) return operand.status();
    module_.Append(node, *operand);
  }
  for (size_t i = 3; i < dsd.size(); ++i) {
    const Sexpr& dim = dsd[i];
    if (!dim.is_list() || dim.size() != 2 || !dim[0].is_int() ||
        !dim[1].is_int()) {
      return ErrorAt(dim.loc(), absl::StrCat("expected a dimension (EXTENT "
                                             "STRIDE) of integer literals, "
                                             "found '",
                                             PrintFlat(dim), "'"));
    }
    for (const Sexpr& value : dim.items()) {
      Node* literal = Create(Op::kConst, value);
      literal->set_int(value.int_value());
      module_.Append(node, literal);
    }
  }
  return node;
}

}  // namespace tessel::ir::syntax_internal
