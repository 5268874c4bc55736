// Register memories (formats/tir/README.md, "Target level"): a memory with
// a `(register "CTYPE" LANES)` clause holds vector registers, and a buffer in
// it is an array of registers whose last dimension is one register's lanes.
#include "absl/strings/str_cat.h"
#include "libs/verify/common.h"
#include "libs/verify/proc.h"

namespace tessel::ir {

absl::Status ProcVerifier::CheckMemory(const Node& decl,
                                       const Node& memory) const {
  if (!checks_.memories) return absl::OkStatus();
  if (auto status = CheckVectorMemory(decl, memory); !status.ok()) {
    return status;
  }
  const Node* registers = FindClause(memory, "register");
  if (registers == nullptr) return absl::OkStatus();
  const Type& type = decl.declared_type();
  int64_t lanes = registers->int_value();
  bool fits = !type.is_elem() && !type.is_vector() && type.rank() > 0 &&
              type.dims().back().is_constant() &&
              type.dims().back().value == lanes;
  if (fits) return absl::OkStatus();
  return ErrorAt(decl.loc(),
                 absl::StrCat("'", decl.name(), "' is in ", memory.name(),
                              ", whose registers have ", lanes,
                              " lanes: its last dimension must be ", lanes,
                              " (one register's lanes)"));
}

}  // namespace tessel::ir
