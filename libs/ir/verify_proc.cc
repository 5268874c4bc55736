#include "libs/ir/verify_proc.h"

#include "absl/strings/str_cat.h"
#include "libs/ir/verify_common.h"
#include "libs/sexpr/printer.h"
#include "libs/support/source.h"

namespace tessel {
namespace {

// The operators a dimension may use besides sizes and literals.
bool IsDimensionOperator(absl::string_view head) {
  return head == "+" || head == "-" || head == "*" || head == "/" ||
         head == "%" || head == "neg" || head == "min" || head == "max";
}

}  // namespace

ProcVerifier::ProcVerifier(const Module& module, const Procedure& proc,
                           const CallGraph& calls, poly::Context& ctx)
    : module_(module), proc_(proc), calls_(calls), domain_(ctx) {
  EnterBlock();  // the parameters'
}

absl::Status ProcVerifier::CheckSignature() {
  for (const Param& param : proc_.params) {
    if (auto status = BindParam(param); !status.ok()) return status;
  }
  for (const Sexpr* assertion : proc_.asserts) {
    auto condition = ControlCondition((*assertion)[1]);
    if (!condition.ok()) return condition.status();
    domain_.Assume(*std::move(condition));
  }
  if (!proc_.asserts.empty()) {
    auto empty = domain_.IsEmpty();
    if (!empty.ok()) return empty.status();
    if (*empty) {
      return ErrorAt(proc_.asserts.front()->loc(),
                     absl::StrCat("the assertions of '", proc_.name,
                                  "' contradict each other: no call can "
                                  "establish them"));
    }
  }
  for (const Param& param : proc_.params) {
    if (!param.is_data()) continue;
    const LoopName* data = Find(param.name);
    if (auto status = CheckPositive(data->view.extents, param.type, param.name);
        !status.ok()) {
      return status;
    }
  }
  return absl::OkStatus();
}

absl::Status ProcVerifier::CheckBody() { return CheckBlock(proc_.body); }

absl::Status ProcVerifier::BindParam(const Param& param) {
  const Sexpr& name = (*param.decl)[1];
  LoopName entry;
  if (!param.is_data()) {
    entry.control = param.control;
    entry.isl = domain_.IslName(param.name);
    std::string constraint;
    if (param.control == ControlType::kSize) {
      constraint = absl::StrCat(entry.isl, " > 0");
    } else if (param.control == ControlType::kBool) {
      constraint = absl::StrCat("0 <= ", entry.isl, " <= 1");
    }
    entry.param = domain_.AddParam(entry.isl, param.name, constraint);
    return Bind(name, std::move(entry), "parameter");
  }
  if (module_.FindMemory(param.memory) == nullptr) {
    return ErrorAt((*param.decl)[3].loc(),
                   absl::StrCat("unknown memory '", param.memory, "'"));
  }
  std::vector<Affine> extents;
  for (const Sexpr& dim : param.type.dims) {
    auto extent = CheckDimension(dim);
    if (!extent.ok()) return extent.status();
    extents.push_back(*std::move(extent));
  }
  int root = AddRoot(param.name, param.type, extents);
  entry.is_data = true;
  entry.view =
      RootView(root, param.type, extents, param.memory, param.is_written(),
               param.is_written() ? "" : param.name);
  return Bind(name, std::move(entry), "parameter");
}

absl::Status ProcVerifier::Bind(const Sexpr& name, LoopName entry,
                                absl::string_view what) {
  if (auto status = CheckBindableName(name, what); !status.ok()) {
    return status;
  }
  if (Find(name.text()) != nullptr) {
    return ErrorAt(name.loc(),
                   absl::StrCat("'", name.text(),
                                "' is already bound (names may not be "
                                "shadowed)"));
  }
  names_.emplace(name.text(), std::move(entry));
  blocks_.back().push_back(name.text());
  return absl::OkStatus();
}

void ProcVerifier::EnterBlock() { blocks_.emplace_back(); }

void ProcVerifier::LeaveBlock() {
  for (const std::string& name : blocks_.back()) names_.erase(name);
  blocks_.pop_back();
}

const LoopName* ProcVerifier::Find(absl::string_view name) const {
  auto it = names_.find(name);
  return it == names_.end() ? nullptr : &it->second;
}

absl::StatusOr<Affine> ProcVerifier::CheckDimension(const Sexpr& dim) {
  if (dim.is_symbol()) {
    const LoopName* name = Find(dim.text());
    if (name != nullptr &&
        (name->is_data || name->control != ControlType::kSize)) {
      return ErrorAt(dim.loc(),
                     absl::StrCat("a dimension may only use sizes and "
                                  "literals, and '",
                                  dim.text(), "' is ",
                                  name->is_data ? "data" : "not a size"));
    }
  } else if (dim.is_list()) {
    if (!IsDimensionOperator(dim.head())) {
      return ErrorAt(dim.loc(), absl::StrCat("a dimension may only use "
                                             "sizes, literals and "
                                             "arithmetic, not '",
                                             PrintFlat(dim), "'"));
    }
    for (size_t i = 1; i < dim.size(); ++i) {
      if (auto status = CheckDimension(dim[i]); !status.ok()) {
        return status.status();
      }
    }
  }
  return ControlInt(dim);
}

absl::Status ProcVerifier::CheckPositive(const std::vector<Affine>& values,
                                         const DataType& type,
                                         absl::string_view name) {
  for (size_t k = 0; k < values.size(); ++k) {
    if (LiteralValue(values[k])) continue;  // the type's parser checked it
    auto violation = domain_.FindViolation({values[k]}, "x0 > 0");
    if (!violation.ok()) return violation.status();
    if (!violation->has_value()) continue;
    const PolyDomain::Violation& at = **violation;
    return ErrorAt(
        type.dims[k].loc(),
        absl::StrCat("dimension ", k, " of '", name, "' can be ", at.values[0],
                     ", but dimensions are positive", AtPoint(at.at)));
  }
  return absl::OkStatus();
}

int ProcVerifier::AddRoot(absl::string_view name, const DataType& type,
                          const std::vector<Affine>& extents) {
  roots_.push_back(Root{std::string(name), !type.is_window, extents, {}});
  return static_cast<int>(roots_.size()) - 1;
}

View ProcVerifier::RootView(int root, const DataType& type,
                            const std::vector<Affine>& extents,
                            const std::string& memory, bool writable,
                            const std::string& read_only_source) const {
  View view;
  view.type = type;
  view.extents = extents;
  view.memory = memory;
  view.writable = writable;
  view.read_only_source = read_only_source;
  view.root = root;
  for (int k = 0; k < type.rank(); ++k) view.root_dims.push_back(k);
  return view;
}

}  // namespace tessel
