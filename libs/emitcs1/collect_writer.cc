// The collecting task of a local array of partial sums ((partial add)),
// section 4.2's collecting tasks: run after the PE's other tasks, it goes
// over the elements of the local array that lie inside its output and, for
// each, adds the partial sum the PE before it in the element's chain sent
// (cs1_recv_partial_*) and sends the sum on (cs1_send_partial_*); the last
// PE of the chain keeps it, and it is given back (targets/cs1/cs1_api.h).
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/emitcs1/program_writer.h"

namespace tessel::emitcs1 {

absl::Status ProgramWriter::Collect(const ir::Node& local,
                                    const std::string& name) {
  const ir::Node& holds = *local.operand(0);
  size_t param = 0;
  while (params_[param] != holds.operand(0)->def()) ++param;
  const std::vector<ir::Dim>& dims = local.declared_type().dims();
  const std::vector<ir::Dim>& shape = params_[param]->declared_type().dims();
  const std::string suffix =
      local.declared_type().elem() == ElemType::kF32 ? "f32" : "f16";
  bool x_used = false, y_used = false;
  int64_t size = 1;
  for (const ir::Dim& dim : dims) size *= dim.value;
  // Element j of the local array: index k of it is j / stride % extent,
  // plus the offset, in the output.
  std::string body;
  std::vector<std::string> inside;
  std::string flat = "0";
  int64_t stride = size;
  for (size_t k = 0; k < dims.size(); ++k) {
    stride /= dims[k].value;
    auto offset = CoordinateExpr(*holds.operand(k + 1), x_used, y_used);
    if (!offset.ok()) return offset.status();
    absl::StrAppend(&body, "    const int64_t e", k, " = j / ", stride, " % ",
                    dims[k].value, " + (", *offset, ");\n");
    inside.push_back(absl::StrCat("e", k, " < 0 || e", k,
                                  " >= ", shape[k].value));
    // Row-major in the output: ((e0 * n1 + e1) * n2 + e2) ...
    flat = k == 0 ? "e0"
                  : absl::StrCat(k == 1 ? flat : absl::StrCat("(", flat, ")"),
                                 " * ", shape[k].value, " + e", k);
  }
  std::string pointer = dims.empty() ? names_.at(&local)
                                     : absl::StrCat("&", names_.at(&local), "[j]");
  std::string value = dims.empty() ? absl::StrCat(names_.at(&local), "[0]")
                                   : absl::StrCat(names_.at(&local), "[j]");
  if (!inside.empty()) {
    absl::StrAppend(&body, "    if (", absl::StrJoin(inside, " || "),
                    ") continue;\n");
  }
  absl::StrAppend(
      &text_, "\n/* The partial sums of ", local.name(),
      " along their chains: each adds\n   what the PE before it sent, then "
      "goes on. */\n",
      "static void ", name, "(void) {\n",
      CoordinateDeclarations(x_used, y_used), "  for (int64_t j = 0; j < ",
      size, "; j++) {\n", body, "    const int64_t element = ", flat, ";\n",
      "    cs1_recv_partial_", suffix, "(", param, " /* ",
      params_[param]->name(), " */, element, ", pointer, ");\n",
      "    (void)cs1_send_partial_", suffix, "(", param, ", element, ", value,
      ");\n", "  }\n}\n");
  return absl::OkStatus();
}

}  // namespace tessel::emitcs1
